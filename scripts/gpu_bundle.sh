#!/bin/sh
# Builds what a GPU machine needs into gpu/ (git-ignored): the oclc binary and the GPU test
# binaries that use it with --features cuda (stripped), plus copies of the CTS corpus and clrun, so the
# folder can be carried to a machine that has no ../shared. Then, there:
#   OCLC_CTS_DIR=gpu/cts gpu/tests/run_cts cuda          (all CTS launches on the GPU)
#   OCLC=gpu/oclc CLRUN=gpu/clrun scripts/gpu_compare.sh 50
#   scripts/gpu_validate.sh                              (all of the above, tests, examples)
set -eu
rm -rf gpu && mkdir -p gpu/tests
cargo build --release --features cuda -p oclc
cp target/release/oclc gpu/oclc
cargo test --release --features cuda -p oclc -p oclc-ptx --no-run --message-format=json 2>/dev/null |
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
cp -r ../shared/conformance/cts-generic gpu/cts
cp ../shared/tools/clrun gpu/clrun
du -sh gpu
