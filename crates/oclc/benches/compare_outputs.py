#!/usr/bin/env python3
"""Compares two oclc binaries output for output: `oclc check` on every clang-sema corpus
configuration (with and without -verify) and on every CTS kernel (CL2.0 and CL3.0), plus
`oclc spaces` and `oclc build --emit ir` on the CTS kernels, the spaces test inputs and the
examples. Prints each difference; exits 1 if there is one.

    python3 crates/oclc/benches/compare_outputs.py OLD_OCLC NEW_OCLC [EXTRA.cl ...]
"""

import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SHARED = os.path.join(ROOT, "..", "shared", "conformance")
if not os.path.isdir(SHARED):
    SHARED = "/work/shared/conformance"


def run_lines(text):
    """The RUN commands of a lit test, continuations joined (as oclc's runlines.rs)."""
    lines, cur = [], ""
    for raw in text.splitlines():
        idx = raw.find("RUN:")
        if idx < 0:
            if cur:
                lines.append(cur)
                cur = ""
            continue
        part = raw[idx + 4:].rstrip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
        else:
            cur += part
            lines.append(cur)
            cur = ""
    if cur:
        lines.append(cur)
    return [l.strip() for l in lines]


def verify_configs(text):
    """The arguments of the RUN lines oclc runs (as runlines.rs's verify_configs)."""
    out = []
    for r in run_lines(text):
        if "%clang_cc1" not in r or "-verify" not in r or "|" in r:
            continue
        try:
            args = shlex.split(r.replace("%clang_cc1", "").replace("%s", ""))
        except ValueError:
            continue
        if any(a.lower().startswith("-cl-std=clc++") for a in args):
            continue
        if " -E" in " " + r:
            continue
        if "-triple" in args:
            i = args.index("-triple")
            if i + 1 >= len(args) or not args[i + 1].startswith("spir"):
                continue
        out.append(args)
    return out


def jobs(extra):
    """(label, argv tail) pairs to run under both binaries."""
    out = []
    sema = os.path.join(SHARED, "clang-sema")
    for name in sorted(os.listdir(sema)):
        if not name.endswith(".cl"):
            continue
        path = os.path.join(sema, name)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for k, args in enumerate(verify_configs(text)):
            out.append((f"{name}#{k} verify", ["check"] + args + [path]))
            plain = [a for a in args if not a.startswith("-verify")]
            out.append((f"{name}#{k} plain", ["check"] + plain + [path]))
    cts = os.path.join(SHARED, "cts-generic")
    files = []
    for d, _, names in os.walk(cts):
        files += [os.path.join(d, n) for n in names if n.endswith(".cl")]
    for d in ["crates/oclc/tests/spaces_in", "crates/oclc/tests/in", "examples"]:
        full = os.path.join(ROOT, d)
        if os.path.isdir(full):
            files += [os.path.join(full, n) for n in os.listdir(full) if n.endswith(".cl")]
    files += extra
    for path in sorted(files):
        rel = os.path.relpath(path, ROOT)
        for std in ["-cl-std=CL2.0", "-cl-std=CL3.0"]:
            out.append((f"{rel} check {std}", ["check", std, path]))
        out.append((f"{rel} spaces", ["spaces", "-cl-std=CL2.0", path]))
        out.append((f"{rel} spaces json", ["spaces", "-cl-std=CL3.0", "--format", "json", path]))
        out.append((f"{rel} ir", ["build", "--emit", "ir", "-cl-std=CL2.0", path]))
    return out


def run(binary, argv):
    p = subprocess.run([binary] + argv, capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    old, new = sys.argv[1], sys.argv[2]
    todo = jobs(sys.argv[3:])
    diffs = 0

    def one(job):
        label, argv = job
        return label, run(old, argv), run(new, argv)

    with ThreadPoolExecutor(max_workers=2) as ex:
        for label, a, b in ex.map(one, todo):
            if a != b:
                diffs += 1
                print(f"DIFF {label}: rc {a[0]} vs {b[0]}")
                for what, x, y in [("stdout", a[1], b[1]), ("stderr", a[2], b[2])]:
                    if x != y:
                        print(f"  {what} old: {x[:400]!r}")
                        print(f"  {what} new: {y[:400]!r}")
    print(f"{len(todo)} runs, {diffs} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
