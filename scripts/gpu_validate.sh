#!/bin/sh
# Everything a GPU machine should confirm, in one command (run from the repository root on
# the GPU machine, after scripts/gpu_bundle.sh built gpu/ here and gpu/ was carried there):
# the bench comparison with NVIDIA's OpenCL driver, the same bench without register tuning and
# with --checks, the CTS with --checks,
# every GPU test binary (CTS on the cuda device included), and the examples on the GPU.
# Results go to $OUT (default ./gpu-out): compare.txt, noregs.txt, tests.txt, examples.txt,
# and for the OpenCL platform on the GPU (`oclc exec --device cuda`, liboclc_icd.so from
# gpu/): icd.txt (clinfo, the C host example, and the CTS test_generic_address_space when the
# lead has copied a binary to gpu/cts/test_generic_address_space), with clinfo.txt and
# cts_generic.txt in full.
set -u
out=${OUT:-gpu-out}
mkdir -p "$out"
export OCLC_ROOT=$PWD OCLC_BIN=$PWD/gpu/oclc OCLC_CTS_DIR=$PWD/gpu/cts
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/gpu.txt" 2>&1
OCLC=gpu/oclc CLRUN=gpu/clrun sh scripts/gpu_compare.sh 50 > "$out/compare.txt" 2>&1
OCLC_CUDA_REGS=0 gpu/oclc bench bench/*.toml --device cuda --repeat 50 > "$out/noregs.txt" 2>&1
# --checks: the bench set's overhead, and the CTS with every access and barrier checked.
gpu/oclc bench bench/*.toml --device cuda --repeat 50 --checks > "$out/checks_bench.txt" 2>&1
OCLC_CUDA_CHECKS=1 timeout 600 gpu/tests/run_cts cuda --nocapture > "$out/checks_cts.txt" 2>&1
for t in gpu/tests/*; do
    echo "== $t"
    timeout 300 "$t" --nocapture > "$out/t.log" 2>&1
    echo "rc=$?"
    grep -E "^test result|FAILED|panicked|launches|register cap|CTS on|skipped:" "$out/t.log" | tail -8
done > "$out/tests.txt" 2>&1
rm -f "$out/t.log"
for e in examples/*.toml; do
    echo "== $e"
    gpu/oclc run --device cuda "$e" 2>&1 | tail -3
done > "$out/examples.txt" 2>&1
{
    echo "== clinfo through oclc exec --device cuda"
    if command -v clinfo > /dev/null; then
        timeout 120 gpu/oclc exec --device cuda -- clinfo > "$out/clinfo.txt" 2>&1
        echo "rc=$?"
        grep -E "Number of platforms|Platform Name|Number of devices|Device Name|Device Type|Max compute units|Max clock|Global memory size|Local memory size|Max work group size|rror" "$out/clinfo.txt" | head -24
    else
        echo "skipped: clinfo is not installed (apt-get install clinfo)"
    fi
    echo "== examples/host/vadd.c through oclc exec --device cuda"
    if [ ! -x gpu/vadd ] && command -v cc > /dev/null; then
        cc -O2 examples/host/vadd.c -o gpu/vadd -lOpenCL > /dev/null 2>&1
    fi
    if [ -x gpu/vadd ]; then
        timeout 120 gpu/oclc exec --device cuda -- gpu/vadd > "$out/vadd.txt" 2>&1
        echo "rc=$?"
        tail -6 "$out/vadd.txt"
        echo "-- gpu/vadd oob with --checks (a fault: the event ends negative, the report on stderr)"
        timeout 120 gpu/oclc exec --device cuda --checks -- gpu/vadd oob > "$out/vadd_oob.txt" 2>&1
        echo "rc=$?"
        tail -6 "$out/vadd_oob.txt"
    else
        echo "skipped: no gpu/vadd and it cannot be compiled here (cc, ocl-icd-opencl-dev)"
    fi
    echo "== CTS test_generic_address_space through oclc exec --device cuda"
    if [ -x gpu/cts/test_generic_address_space ]; then
        timeout 600 gpu/oclc exec --device cuda -- gpu/cts/test_generic_address_space > "$out/cts_generic.txt" 2>&1
        echo "rc=$?"
        grep -E "PASSED|FAILED|passed|failed|ERROR" "$out/cts_generic.txt" | tail -12
    else
        echo "skipped: no gpu/cts/test_generic_address_space (copied there by hand)"
    fi
} > "$out/icd.txt" 2>&1
tail -16 "$out/compare.txt"
grep -E "^==|rc=|CTS" "$out/tests.txt"
cat "$out/icd.txt"
