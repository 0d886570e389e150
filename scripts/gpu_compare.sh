#!/bin/sh
# oclc's cuda device against NVIDIA's OpenCL driver on the bench set (bench/*.toml), on a
# machine with an NVIDIA GPU. Prints oclc's bench table (with the cuMemcpyDtoD reference of
# the same run), then one comparison table: oclc and NVIDIA median kernel times, their ratio,
# each copy's bandwidth as a share of cuMemcpyDtoD's, and each generic job against its named
# version.
#
# usage: scripts/gpu_compare.sh [REPEAT]            (from the repository root)
# env:   OCLC   the oclc binary (default: build target/release/oclc with --features cuda)
#        CLRUN  the OpenCL runner (default ../shared/tools/clrun)
#        BENCH  the folder of run files (default bench)
set -u
repeat=${1:-50}
bench=${BENCH:-bench}
clrun=${CLRUN:-../shared/tools/clrun}
if [ -z "${OCLC:-}" ]; then
    cargo build --release --features cuda -p oclc || exit 2
    OCLC=target/release/oclc
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== oclc bench --device cuda --repeat $repeat"
"$OCLC" bench "$bench"/*.toml --device cuda --repeat "$repeat" | tee "$tmp/oclc.txt"

echo "== NVIDIA OpenCL (clrun --platform NVIDIA --repeat $repeat)"
for f in "$bench"/*.toml; do
    j=$(basename "$f" .toml)
    LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        python3 "$clrun" --platform NVIDIA --repeat "$repeat" "$f" > "$tmp/$j.nv" 2>&1
    med=$(sed -n 's/^kernel time: min [0-9.]* us, median \([0-9.]*\) us.*/\1/p' "$tmp/$j.nv" | tail -n 1)
    if grep -q '^expect .*FAIL' "$tmp/$j.nv"; then v=FAIL
    elif grep -q '^expect .*: ok' "$tmp/$j.nv"; then v=ok
    else v=error; fi
    echo "$j ${med:--} $v"
    [ -n "$med" ] || sed 's/^/    /' "$tmp/$j.nv" | head -n 20
done | tee "$tmp/nv.txt"

echo "== comparison (ratio = NVIDIA median / oclc median: above 1 means oclc is faster)"
awk -v ofile="$tmp/oclc.txt" '
    BEGIN {
        while ((getline line < ofile) > 0) {
            n = split(line, f, " ")
            if (f[1] == "job") continue
            if (f[1] == "cuMemcpyDtoD") { ref_gbs = f[n - 1]; ref_us = f[n - 2]; continue }
            med[f[1]] = f[3]; gbs[f[1]] = f[4]; over[f[1]] = f[5]
        }
    }
    { nv[$1] = $2; nvv[$1] = $3; order[++count] = $1 }
    END {
        printf "%-24s %11s %11s %7s %6s %6s %9s %9s\n", "job", "oclc_us", "nvidia_us", "ratio", "oclc", "nvidia", "%memcpy", "gen/named"
        for (i = 1; i <= count; i++) {
            j = order[i]
            r = (j in med && nv[j] != "-" && med[j] > 0) ? sprintf("%.3f", nv[j] / med[j]) : "-"
            pc = (j ~ /^(copy|memcpy)/ && ref_gbs > 0 && j in gbs) ? sprintf("%.1f%%", 100 * gbs[j] / ref_gbs) : "-"
            gn = "-"
            if (j ~ /_generic$/) {
                nm = j; sub(/_generic$/, "_named", nm)
                if (nm in med && med[nm] > 0) gn = sprintf("%+.1f%%", 100 * (med[j] / med[nm] - 1))
            }
            printf "%-24s %11s %11s %7s %6s %6s %9s %9s\n", j, (j in med ? med[j] : "-"), nv[j], r, (j in over ? over[j] : "-"), nvv[j], pc, gn
        }
        printf "cuMemcpyDtoD reference: %s us, %s GB/s (bytes read + written)\n", ref_us, ref_gbs
    }' "$tmp/nv.txt"
