#!/bin/sh
# Builds what a GPU machine needs into gpu/ (git-ignored): the oclc binary, the OpenCL platform
# (liboclc_icd.so) and the GPU test binaries that use them with --features cuda (stripped), the C
# host example (gpu/vadd), plus copies of the CTS corpus and clrun, so the
# folder can be carried to a machine that has no ../shared. Then, there:
#   OCLC_CTS_DIR=gpu/cts gpu/tests/run_cts cuda          (all CTS launches on the GPU)
#   OCLC=gpu/oclc CLRUN=gpu/clrun scripts/gpu_compare.sh 50
#   scripts/gpu_validate.sh                              (all of the above, tests, examples)
set -eu
rm -rf gpu && mkdir -p gpu/tests
cargo build --release --features cuda -p oclc -p oclc-icd
cp target/release/oclc gpu/oclc
# The OpenCL platform with the cuda devices, next to gpu/oclc where `oclc exec` looks for it.
cp target/release/liboclc_icd.so gpu/liboclc_icd.so
# The C host example, built here (the GPU machine may lack a compiler or the CL headers); it
# needs only an ICD loader (libOpenCL.so.1) there.
cc -O2 examples/host/vadd.c -o gpu/vadd -lOpenCL || echo "gpu_bundle: cannot build examples/host/vadd.c (ocl-icd-opencl-dev); gpu_validate.sh compiles it there or skips it"
cargo test --release --features cuda -p oclc -p oclc-ptx -p oclc-icd --no-run --message-format=json 2>/dev/null |
    python3 -c '
import json, sys, shutil
WANT = {"run_cts", "run_cuda", "run_cuda_launch", "api_cuda", "gpu", "gpu_math", "gpu_fault", "cts_gpu"}
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"] \
            and (m["target"]["name"] in WANT or m["target"]["name"].startswith("gpu")):
        shutil.copy(m["executable"], "gpu/tests/" + m["target"]["name"])
'
strip gpu/oclc gpu/tests/*
strip --strip-unneeded gpu/liboclc_icd.so
cp -r ../shared/conformance/cts-generic gpu/cts
cp ../shared/tools/clrun gpu/clrun
du -sh gpu
