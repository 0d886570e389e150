#!/usr/bin/env python3
"""Generic memory accesses left over the CTS generic-address-space kernels: oclc's passes
against clang-19 (-cl-std=CL2.0 -target nvptx64-nvidia-cuda -O2 -S).

oclc's count per file comes from the passes' CTS test (PASSES_COUNTS); clang's counts the
ld/st/atom/red instructions with no state space in the PTX of the kernels and of the
functions they still call. Usage: scripts/generic_accesses_vs_clang.py [CORPUS_DIR]

When written: 461 files compiled by both; oclc 0 generic accesses left, clang 17; oclc lower
on 5 files, higher on none. (Clang's count misses the C11 atomics, which nvptx leaves as
calls to external functions.)
"""
import os
import re
import subprocess
import sys
import tempfile

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


def main():
    with tempfile.NamedTemporaryFile(suffix=".tsv", delete=False) as t:
        out = t.name
    env = dict(os.environ, PASSES_COUNTS=out)
    subprocess.run(["cargo", "test", "-q", "-p", "oclc-ir", "--test", "passes_cts"],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    ours = {}
    with open(out) as f:
        for line in f:
            p, b, a = line.rstrip("\n").split("\t")
            ours[os.path.realpath(p)] = (int(b), int(a))
    total_o = total_c = higher = lower = files = 0
    for p in sorted(ours):
        c = clang_count(p)
        if c is None:
            continue
        b, a = ours[p]
        files += 1
        total_o += a
        total_c += c
        if a > c:
            higher += 1
            print(f"oclc higher: {os.path.relpath(p, CORPUS)}: oclc {a}, clang {c}")
        elif a < c:
            lower += 1
    print(f"{files} CTS files compiled by both: generic accesses left: oclc {total_o}, clang {total_c}; "
          f"oclc lower on {lower} files, higher on {higher}")


if __name__ == "__main__":
    main()
