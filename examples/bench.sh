#!/bin/sh
# Kernel times of the examples: oclc's cpu device against Oclgrind and PoCL (through
# ../shared/tools/clrun). Prints the median kernel time of each and the ratios.
# usage: examples/bench.sh [REPEAT]   (from the repository root, after cargo build --release)
set -u
repeat=${1:-5}
oclc=${OCLC:-target/release/oclc}
clrun=${CLRUN:-../shared/tools/clrun}
oclgrind=${OCLGRIND_LIB:-/usr/lib/oclgrind/liboclgrind-rt.so}

median() { sed -n 's/^kernel time: min [0-9.]* us, median \([0-9.]*\) us.*/\1/p' | tail -n 1; }

printf '%-10s %14s %14s %14s %12s %10s\n' job oclc_us oclgrind_us pocl_us vs_oclgrind vs_pocl
for job in matmul reduce histogram memcpy; do
    f=examples/$job.toml
    o=$("$oclc" run "$f" --repeat "$repeat" 2>/dev/null | median)
    g=$(CLRUN_LIB=$oclgrind "$clrun" "$f" --repeat "$repeat" 2>/dev/null | median)
    p=$("$clrun" "$f" --repeat "$repeat" 2>/dev/null | median)
    ratio() { [ -n "$1" ] && [ -n "$2" ] && awk "BEGIN { printf \"%.3gx\", $2 / $1 }" || printf -- '-'; }
    printf '%-10s %14s %14s %14s %12s %10s\n' "$job" "${o:--}" "${g:--}" "${p:--}" "$(ratio "$o" "$g")" "$(ratio "$o" "$p")"
done
