#!/usr/bin/env python3
"""Generic memory accesses left over the CTS generic-address-space kernels: oclc's passes
against clang-19 (-cl-std=CL2.0 -target nvptx64-nvidia-cuda -O2 -S).

oclc's count per file is `oclc spaces -cl-std=CL2.0 --format json FILE`: the generic accesses
left after the passes in each kernel and the functions it calls, summed over the file's
kernels. clang's counts the ld/st/atom/red instructions with no state space in the PTX of the
kernels and of the functions they still call. The oclc binary is $OCLC, else target/debug/oclc
(built first with cargo). Usage: scripts/generic_accesses_vs_clang.py [CORPUS_DIR]

Last run (2026-11-22, through oclc spaces): 461 files compiled by both; oclc 0 generic
accesses left (of 763 before the passes), clang 17; oclc lower on 5 files, higher on none. (Clang's count misses the C11 atomics, which
nvptx leaves as calls to external functions.)
"""
import os
import re
import subprocess
import sys
import json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "conformance", "cts-generic")
SPACES = {"global", "shared", "local", "const", "param", "tex", "shared::cta", "shared::cluster"}
MEM = re.compile(r"^\s*(?:@%p\d+\s+)?(ld|st|atom|red)((?:\.[\w:]+)*)\s")
FUNC = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)")
CALL = re.compile(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([A-Za-z_$][\w$]*)", re.S)


def clang_count(path):
    r = subprocess.run(
        ["clang-19", "-cl-std=CL2.0", "-target", "nvptx64-nvidia-cuda", "-O2", "-S", "-o", "-", path],
        capture_output=True, text=True)
    if r.returncode != 0:
        return None
    funcs, entries, cur, body = {}, [], None, {}
    for line in r.stdout.splitlines():
        m = FUNC.match(line)
        if m:
            cur = m.group(2)
            funcs[cur] = [0, set()]
            body[cur] = []
            if m.group(1) == "entry":
                entries.append(cur)
            continue
        if cur is None:
            continue
        body[cur].append(line)
        m = MEM.match(line)
        if m:
            parts = set(p for p in m.group(2).split(".") if p)
            if not parts & SPACES:
                funcs[cur][0] += 1
    for f, lines in body.items():
        funcs[f][1] = set(CALL.findall("\n".join(lines)))
    seen, stack = set(entries), list(entries)
    while stack:
        f = stack.pop()
        for c in funcs.get(f, [0, set()])[1]:
            if c in funcs and c not in seen:
                seen.add(c)
                stack.append(c)
    return sum(funcs[f][0] for f in seen)


def oclc_binary():
    if os.environ.get("OCLC"):
        return os.environ["OCLC"]
    subprocess.run(["cargo", "build", "-q", "-p", "oclc"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "debug", "oclc")


def oclc_count(oclc, path):
    """(generic accesses before, after) over the file's kernels, or None if it does not build."""
    r = subprocess.run([oclc, "spaces", "-cl-std=CL2.0", "--format", "json", path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    kernels = json.loads(r.stdout)["kernels"]
    return (sum(k["generic_accesses_before"] for k in kernels),
            sum(k["generic_accesses_after"] for k in kernels))


def cl_files(d):
    for dirpath, _, names in os.walk(d):
        for n in names:
            if n.endswith(".cl"):
                yield os.path.realpath(os.path.join(dirpath, n))


def main():
    oclc = oclc_binary()
    ours = {}
    for p in cl_files(CORPUS):
        c = oclc_count(oclc, p)
        if c is not None:
            ours[p] = c
    total_b = total_o = total_c = higher = lower = files = 0
    for p in sorted(ours):
        c = clang_count(p)
        if c is None:
            continue
        b, a = ours[p]
        files += 1
        total_b += b
        total_o += a
        total_c += c
        if a > c:
            higher += 1
            print(f"oclc higher: {os.path.relpath(p, CORPUS)}: oclc {a}, clang {c}")
        elif a < c:
            lower += 1
    print(f"{files} CTS files compiled by both: generic accesses left: oclc {total_o} "
          f"(of {total_b} before the passes), clang {total_c}; "
          f"oclc lower on {lower} files, higher on {higher}")


if __name__ == "__main__":
    main()
