#!/usr/bin/env bash
# Scores `oclc check` against clang's SemaOpenCL -verify corpus with ../shared/tools/clang-parity:
# configurations passing, errors/warnings at the right line with the same text, and the time of
# oclc vs clang-19. Installs clang-19 (Debian package) if it is missing. Extra arguments go to
# clang-parity (e.g. --show 50 --json parity.json).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-19 >/dev/null 2>&1; then
    echo "parity.sh: installing clang-19" >&2
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq && apt-get install -y -qq clang-19
    else
        sudo apt-get update -qq && sudo apt-get install -y -qq clang-19
    fi
fi

cargo build --release -p oclc --bin oclc
exec ../shared/tools/clang-parity --oclc target/release/oclc "$@" ../shared/conformance/clang-sema
