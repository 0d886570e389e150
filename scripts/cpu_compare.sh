#!/bin/sh
# The bench set on the cpu device against PoCL and Oclgrind (through ../shared/tools/clrun),
# in the same run: median kernel time of each (oclc: `oclc bench`, native code; the others:
# OpenCL profiling events), oclc's time over PoCL's and Oclgrind's over oclc's. Oclgrind runs each job once, under a
# time limit (OCLGRIND_LIMIT seconds, default 600): a job past it shows `>LIMITs`;
# OCLGRIND_LIMIT=0 leaves Oclgrind out.
# usage: scripts/cpu_compare.sh [REPEAT] [JOB.toml...]   (from the repository root, after
# cargo build --release; apt-get install pocl-opencl-icd oclgrind)
set -u
repeat=${1:-20}
[ $# -gt 0 ] && shift
oclc=${OCLC:-target/release/oclc}
clrun=${CLRUN:-../shared/tools/clrun}
oclgrind=${OCLGRIND_LIB:-/usr/lib/oclgrind/liboclgrind-rt.so}
limit=${OCLGRIND_LIMIT:-600}
jobs=${*:-"bench/jacobi.toml bench/transpose_tiled.toml bench/matmul_small.toml bench/copy_named.toml bench/copy_generic.toml bench/memcpy_global_named.toml bench/memcpy_global_generic.toml bench/memcpy_local_named.toml bench/memcpy_local_generic.toml bench/reduce_named.toml bench/reduce_generic.toml bench/histogram_named.toml bench/histogram_generic.toml bench/matmul_named.toml bench/matmul_generic.toml bench/vector_math.toml bench/trivial_2g.toml"}

median() { sed -n 's/^kernel time: min [0-9.]* us, median \([0-9.]*\) us.*/\1/p' | tail -n 1; }
ratio() { [ -n "$1" ] && [ -n "$2" ] && awk "BEGIN { printf \"%.3gx\", $2 / $1 }" || printf -- '-'; }

printf '%-26s %13s %13s %15s %10s %14s\n' job oclc_us pocl_us oclgrind_us oclc/pocl oclgrind/oclc
for f in $jobs; do
    name=$(basename "$f" .toml)
    o=$("$oclc" bench "$f" --repeat "$repeat" 2>/dev/null | awk -v n="$name" '$1 == n { print $3 }')
    p=$("$clrun" "$f" --platform Portable --repeat "$repeat" 2>/dev/null | median)
    g=
    [ "$limit" -gt 0 ] && g=$(CLRUN_LIB=$oclgrind timeout "$limit" "$clrun" "$f" --repeat 1 2>/dev/null | median)
    gs=${g:-">${limit}s"}
    printf '%-26s %13s %13s %15s %10s %14s\n' "$name" "${o:--}" "${p:--}" "$gs" "$(ratio "$p" "$o")" "$(ratio "$o" "$g")"
done
