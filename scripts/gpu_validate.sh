#!/bin/sh
# Everything a GPU machine should confirm, in one command (run from the repository root on
# the GPU machine, after scripts/gpu_bundle.sh built gpu/ here and gpu/ was carried there):
# the bench comparison with NVIDIA's OpenCL driver, the same bench without register tuning,
# every GPU test binary (CTS on the cuda device included), and the examples on the GPU.
# Results go to $OUT (default ./gpu-out): compare.txt, noregs.txt, tests.txt, examples.txt.
set -u
out=${OUT:-gpu-out}
mkdir -p "$out"
export OCLC_ROOT=$PWD OCLC_BIN=$PWD/gpu/oclc OCLC_CTS_DIR=$PWD/gpu/cts
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/gpu.txt" 2>&1
OCLC=gpu/oclc CLRUN=gpu/clrun sh scripts/gpu_compare.sh 50 > "$out/compare.txt" 2>&1
OCLC_CUDA_REGS=0 gpu/oclc bench bench/*.toml --device cuda --repeat 50 > "$out/noregs.txt" 2>&1
for t in gpu/tests/*; do
    echo "== $t"
    timeout 300 "$t" --nocapture > "$out/t.log" 2>&1
    echo "rc=$?"
    grep -E "^test result|FAILED|panicked|launches|register cap|CTS on" "$out/t.log" | tail -8
done > "$out/tests.txt" 2>&1
rm -f "$out/t.log"
for e in examples/*.toml; do
    echo "== $e"
    gpu/oclc run --device cuda "$e" 2>&1 | tail -3
done > "$out/examples.txt" 2>&1
tail -16 "$out/compare.txt"
grep -E "^==|rc=|CTS" "$out/tests.txt"
