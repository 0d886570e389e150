#!/usr/bin/env python3
"""Hostile inputs for the oclc CLI: every case must end cleanly -- no signal, no abort, no
panic, no internal compiler error -- within 30 s and 4 GiB of address space; the cases of
issue 12's table must also give the wanted error text and exit status (WANT).

    cargo build --release && scripts/hostile.py [--oclc target/release/oclc] [-k SUBSTRING] [-v]

Inputs are generated into a temporary folder; nothing is checked in. Prints one line per
failing case and a closing `N passed, N failed` line; exit status 1 if any case failed.
"""
import argparse, os, resource, subprocess, sys, tempfile, time

LIMIT_S = 30
LIMIT_AS = 4 << 30

def k(body, params="global int *o"):
    return f"kernel void k({params}) {{\n{body}\n}}\n"

def job(code=None, source=None, kernel="k", glob="[1]", local=None, args=None, extra="", options=None):
    lines = []
    if source is not None: lines.append(f'source = "{source}"')
    if code is not None: lines.append("code = '''\n" + code + "'''")
    if options is not None: lines.append(f'options = "{options}"')
    lines.append(f'kernel = "{kernel}"')
    lines.append(f"global = {glob}")
    if local is not None: lines.append(f"local = {local}")
    lines.append(extra)
    lines.append("[args]")
    lines.append(args if args is not None else 'o = { buffer = "int", len = 16 }')
    return "\n".join(lines) + "\n"

def cases():
    c = []  # (name, files {name: bytes|str}, argv (with {d} for the folder), env)
    def check(name, src, *flags, env=None):
        c.append((name, {"k.cl": src}, ["check", *flags, "{d}/k.cl"], env or {}))
    def build(name, src, *flags):
        for emit in ("ir", "ptx"):
            c.append((f"{name}/{emit}", {"k.cl": src}, ["build", "--emit", emit, *flags, "{d}/k.cl"], {}))
    def spaces(name, src, *flags):
        c.append((name + "/spaces", {"k.cl": src}, ["spaces", *flags, "{d}/k.cl"], {}))
    def run(name, toml, *flags, files=None, env=None):
        fs = {"job.toml": toml}
        fs.update(files or {})
        c.append((name, fs, ["run", *flags, "{d}/job.toml"], env or {}))

    # --- sources that are not files, or are huge
    c.append(("check /dev/zero", {}, ["check", "/dev/zero"], {}))
    c.append(("check /dev/urandom", {}, ["check", "/dev/urandom"], {}))
    c.append(("check directory", {}, ["check", "{d}"], {}))
    c.append(("check missing", {}, ["check", "{d}/nope.cl"], {}))
    check("include /dev/zero", '#include "/dev/zero"\n')
    check("include /dev/urandom", '#include "/dev/urandom"\n')
    check("include directory", '#include "/tmp"\n')
    check("include self", '#include "k.cl"\nint x;\n')
    check("include missing", '#include "nope.h"\n')
    check("include angle missing", '#include <nope.h>\n')
    run("run source /dev/zero", job(source="/dev/zero"))
    run("run source directory", job(source="/tmp"))
    run("run init /dev/zero", job(code=k("o[0] = 1;"), args='o = { buffer = "int", len = 16, init = { file = "/dev/zero" } }'))
    run("run init /dev/urandom", job(code=k("o[0] = 1;"), args='o = { buffer = "int", len = 16, init = { file = "/dev/urandom" } }'))
    c.append(("run job /dev/zero", {}, ["run", "/dev/zero"], {}))
    c.append(("run job directory", {}, ["run", "{d}"], {}))
    # --- preprocessor bombs
    check("nested macro calls 100k", "#define P(x) x\nint y = " + "P(" * 100000 + "1" + ")" * 100000 + ";\n")
    check("exponential macro", "#define A0 x\n" + "".join(f"#define A{i+1} A{i} A{i}\n" for i in range(40)) + "int A40;\n")
    check("recursive macro", "#define A B\n#define B A\nint A;\n")
    check("10k #if nesting", "#if 1\n" * 10000 + "int x;\n" + "#endif\n" * 10000)
    check("#if div by zero", "#if 1/0\n#endif\n")
    check("#if huge", "#if 99999999999999999999999999\n#endif\n")
    check("#line huge", "#line 4294967295\nint x = ;\n")
    check("#line overflow", "#line 99999999999999999999\nint x;\n")
    check("__LINE__ after #line max", "#line 2147483647\nint a = __LINE__;\nint b = __LINE__;\n")
    check("many macros", "".join(f"#define M{i} {i}\n" for i in range(200000)))
    check("long macro arg list", "#define F(...) __VA_ARGS__\nint x = F(" + ",".join(["1"] * 100000) + ");\n")
    check("stringize huge", "#define S(x) #x\nconstant char *s = S(" + "a " * 200000 + ");\n")
    check("paste bomb", "#define C(a,b) a##b\nint C(" * 1000 + "x" + ",y)" * 1000 + ";\n")
    check("unterminated #if", "#if 1\nint x;\n")
    check("#error", "#error stop\n")
    check("#pragma junk", "#pragma OPENCL EXTENSION nope : enable\n#pragma \xff\n")
    # --- lexer
    check("NUL bytes", b"int x\x00 = 1;\n\x00\x00")
    check("invalid utf8", b"constant char s[] = \"\xff\xfe\";\nint \xc3 = 1;\n")
    check("BOM", b"\xef\xbb\xbfint x;\n")
    check("CRLF", b"int x;\r\nint y = ;\r\n")
    check("backslash at EOF", "int x;\\")
    check("unterminated comment", "int x; /* ")
    check("unterminated string", 'constant char *s = "abc\n')
    check("unterminated char", "int c = 'a\n")
    check("huge int literal", "int x = " + "9" * 10000 + ";\n")
    check("huge float literal", "float x = 1e99999999999;\nfloat y = 0x1p99999999999;\n")
    check("long identifier", "int " + "a" * 1000000 + ";\n")
    check("long line", "int x = " + "1+" * 300000 + "1;\n")
    check("long string", 'constant char s[] = "' + "a" * 1000000 + '";\n')
    check("many tokens", "int x;\n" * 200000)
    check("trigraphs and digraphs", "??= define X 1\n<% %> <: :> %: %:%:\n")
    check("control chars", "".join(chr(i) for i in range(1, 32)) + "\n")
    # --- parser nesting
    check("deep parens 10k", "int x = " + "(" * 10000 + "1" + ")" * 10000 + ";\n")
    check("deep parens -fbracket-depth", "constant int x = " + "(" * 1000 + "1" + ")" * 1000 + ";\n", "-fbracket-depth=2000")
    check("deep braces", k("{" * 10000 + "}" * 10000))
    check("deep unary", "int x = " + "-" * 100000 + "1;\n")
    check("deep casts", "int x = " + "(int)" * 50000 + "1;\n")
    check("deep ternary", "int x = " + "1 ? " * 20000 + "1" + " : 0" * 20000 + ";\n")
    check("flat sum 4097", k("o[0] = " + "+".join(["o[1]"] * 4097) + ";"))
    check("flat sum 100k", k("o[0] = " + "+".join(["1"] * 100000) + ";"))
    check("else-if 5000", k("int x = o[0];\n" + "if (x == 0) o[1] = 0;\n" + "".join(f"else if (x == {i}) o[1] = {i};\n" for i in range(1, 5000))))
    check("comma chain", k("int a = 0; a = " + ",".join(["a+1"] * 50000) + ";"))
    check("deep declarator", "int " + "*" * 10000 + "p;\n")
    check("deep array declarator", "int a" + "[1]" * 10000 + ";\n")
    check("deep function declarator", "int (" * 5000 + "f" + ")" * 5000 + ";\n")
    check("deep struct nesting", "struct A { " * 5000 + "int x; " + "} a;" * 5000 + "\n")
    check("deep init list", "int a = " + "{" * 10000 + "1" + "}" * 10000 + ";\n")
    check("many params", "void f(" + ",".join(f"int a{i}" for i in range(50000)) + ");\n")
    check("many args", "void f(int, ...);\n" + k("f(" + ",".join(["1"] * 50000) + ");"))
    check("many fields", "struct S {" + "".join(f"int f{i};" for i in range(50000)) + "};\n")
    check("many enumerators", "enum E {" + ",".join(f"E{i}" for i in range(50000)) + "};\n")
    check("switch 20k cases", k("switch (o[0]) {" + "".join(f"case {i}: o[1] = {i}; break;" for i in range(20000)) + "}"))
    check("garbage", bytes(range(256)) * 100)
    # --- sema edge cases
    check("array too large 2^63", "constant int t[9223372036854775807] = {0};\n")
    check("array too large 2^40 global", "global int g[1L<<40];\n", "-cl-std=CL2.0")
    check("array too large 2^40 local", k("local long a[1L<<40]; a[0] = 1; o[0] = a[0];"))
    check("array negative", "constant int t[-1] = {0};\n")
    check("nested array overflow", "constant int t[1<<20][1<<20][1<<20] = {0};\n")
    check("struct overflow", "struct S { int a[1<<30]; int b[1<<30]; int c[1<<30]; int d[1<<30]; int e[1<<30]; };\nkernel void k(global struct S *s) {}\n")
    check("sizeof huge", "constant ulong n = sizeof(int[1L<<61]) * 8;\n")
    check("shift huge", k("o[0] = 1 << 100; o[1] = 1L << -1;"))
    check("div by zero const", "constant int z = 1 / 0;\nconstant int m = (-2147483647 - 1) / -1;\n")
    check("enum overflow", "enum E { A = 9223372036854775807, B };\n")
    check("self-referencing typedef", "typedef struct S S; struct S { S s; };\n")
    check("recursion", "int f(int x) { return f(x); }\n" + k("o[0] = f(1);"))
    check("goto", k("goto l; l: o[0] = 1;"))
    check("vla", k("int n = o[0]; int a[n]; a[0] = 1;"))
    check("bitfield huge", "struct S { int x : 100; };\n")
    check("alignment huge", "typedef int T __attribute__((aligned(1L<<40)));\n")
    check("attribute garbage", "kernel __attribute__((reqd_work_group_size(0,-1,99999999999))) void k() {}\n")
    check("vec_type_hint junk", "kernel __attribute__((vec_type_hint(struct X))) void k() {}\n")
    check("bad flags", "int x;\n", "-cl-std=CL9.9")
    check("bad -D", "int x;\n", "-D", "=")
    check("bad -fbracket-depth", "int x;\n", "-fbracket-depth=-5")
    check("bad -fbracket-depth 2", "int x;\n", "-fbracket-depth=99999999999999999999")
    c.append(("check no files", {}, ["check"], {}))
    c.append(("check unknown flag", {}, ["check", "--frobnicate", "x.cl"], {}))
    c.append(("build bad target", {"k.cl": k("o[0]=1;")}, ["build", "--emit", "ptx", "--target=sm_9999", "{d}/k.cl"], {}))
    c.append(("build bad target 2", {"k.cl": k("o[0]=1;")}, ["build", "--emit", "ptx", "--target=", "{d}/k.cl"], {}))
    c.append(("build bad emit", {"k.cl": k("o[0]=1;")}, ["build", "--emit", "exe", "{d}/k.cl"], {}))
    c.append(("threads 10000", {"job.toml": job(code=k("o[get_global_id(0)] = 1;"), glob="[16]")}, ["run", "--threads", "10000", "{d}/job.toml"], {}))
    c.append(("threads huge", {"job.toml": job(code=k("o[0] = 1;"))}, ["run", "--threads", "18446744073709551615", "{d}/job.toml"], {}))
    c.append(("max-steps 0", {"job.toml": job(code=k("for(;;);"))}, ["run", "--max-steps", "0", "{d}/job.toml"], {}))
    c.append(("repeat huge", {"job.toml": job(code=k("o[0] = 1;"))}, ["run", "--repeat", "99999999999999999999", "{d}/job.toml"], {}))
    # --- build / spaces on things check accepts
    for name, src in [
        ("printf", k('printf("%d\\n", o[0]);')),
        ("sub_group_size", k("o[0] = get_sub_group_size();")),
        ("sub_group_reduce", k("o[0] = sub_group_reduce_add(o[1]);")),
        ("work_group_reduce", k("o[0] = work_group_reduce_add(o[1]);")),
        ("atomics", k("atomic_add(o, 1); atom_inc(o); atomic_xchg(o, 2);")),
        ("c11 atomics", k("atomic_fetch_add((volatile global atomic_int *)o, 1);")),
        ("async copy", k("local int t[4]; event_t e = async_work_group_copy(t, o, 4, 0); wait_group_events(1, &e); o[0] = t[1];")),
        ("vload_half", k("o[0] = (int)vload_half(0, (global half *)o); vstore_half(1.0f, 0, (global half *)o);", "global int *o")),
        ("recursion", "int f(int x) { return x ? f(x-1) : 0; }\n" + k("o[0] = f(3);")),
        ("chain 2000", "int f2000(int x) { return x; }\n" + "".join(f"int f{i}(int x) {{ return f{i+1}(x) + 1; }}\n" for i in range(1999, -1, -1)) + k("o[0] = f0(o[0]);")),
        ("chain 10000", "int f10000(int x) { return x; }\n" + "".join(f"int f{i}(int x) {{ return f{i+1}(x) + 1; }}\n" for i in range(9999, -1, -1)) + k("o[0] = f0(o[0]);")),
        ("diamond 40", "int f40(int x) { return x + 1; }\n" + "".join(f"int f{i}(int x) {{ return f{i+1}(x) + f{i+1}(x + 1); }}\n" for i in range(39, -1, -1)) + k("o[0] = f0(o[0]);")),
        ("nested unroll", k("int s = 0; for (int a = 0; a < 16; a++) for (int b = 0; b < 16; b++) for (int c = 0; c < 16; c++) for (int d = 0; d < 16; d++) s += a*b+c*d; o[0] = s;")),
        ("generic mixed", k("local int l[2]; int *p = get_global_id(0) ? o : l; *p = 1; o[1] = (int)to_global(p);", "global int *o")),
        ("big private array", k("int a[1<<20]; a[o[0]] = 1; o[1] = a[o[2]];")),
        ("big local array", k("local int a[1<<28]; a[0] = 1; o[0] = a[0];")),
        ("double", k("o[0] = (int)(o[1] * 2.0);")),
        ("image", "kernel void k(read_only image2d_t i, global int *o) { o[0] = 1; }\n"),
        ("pipe", "kernel void k(read_only pipe int p, global int *o) { o[0] = 1; }\n"),
        ("enqueue", k("queue_t q = get_default_queue(); ndrange_t r = ndrange_1D(1); enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^{ o[0] = 1; });")),
        ("block", k("int (^b)(int) = ^(int x){ return x + 1; }; o[0] = b(1);")),
    ]:
        build(name, src, "-cl-std=CL3.0", "-cl-ext=+all")
        spaces(name, src, "-cl-std=CL3.0", "-cl-ext=+all")
        run("run " + name, job(code=src, options="-cl-std=CL3.0 -cl-ext=+all"))
        run("run -O0 " + name, job(code=src, options="-cl-std=CL3.0 -cl-ext=+all"), "-O0")
    # --- run files: ND-range
    ok = k("o[get_global_id(0) % 16] = 1;")
    for name, g, l, opts in [
        ("3 x 2^32", "[4294967296, 4294967296, 4294967296]", None, None),
        ("local 2^32 x 2^32", "[4294967296, 4294967296, 1]", "[4294967296, 4294967296, 1]", "-cl-std=CL2.0"),
        ("2^40 groups", "[1099511627776]", None, None),
        ("2^32 local 1", "[4294967296]", "[1]", None),
        ("u64 max", "[18446744073709551615]", None, None),
        ("u64 max local", "[18446744073709551615]", "[18446744073709551615]", "-cl-std=CL2.0"),
        ("2^64", "[18446744073709551616]", None, None),
        ("negative", "[-1]", None, None),
        ("zero", "[0]", None, None),
        ("float", "[1.5]", None, None),
        ("4 dims", "[1, 1, 1, 1]", None, None),
        ("empty", "[]", None, None),
        ("string", '["16"]', None, None),
        ("local bigger", "[16]", "[32]", None),
        ("local not dividing", "[16]", "[5]", None),
        ("local huge work-group", "[65536]", "[65536]", None),
        ("local 3d huge", "[1024, 1024, 1024]", "[1024, 1024, 1024]", None),
        ("local 0", "[16]", "[0]", None),
    ]:
        run("nd " + name, job(code=ok, glob=g, local=l, options=opts))
    run("nd offset overflow", job(code=ok, glob="[16]", extra="offset = [18446744073709551615]"))
    # --- run files: arguments
    for name, a in [
        ("len 2^62", 'o = { buffer = "int", len = 4611686018427387904 }'),
        ("len 2^40", 'o = { buffer = "int", len = 1099511627776 }'),
        ("len 2^31 ulong16", 'o = { buffer = "ulong16", len = 2147483648 }'),
        ("len 0", 'o = { buffer = "int", len = 0 }'),
        ("len negative", 'o = { buffer = "int", len = -1 }'),
        ("len float", 'o = { buffer = "int", len = 1.5 }'),
        ("wrong type", 'o = { buffer = "float", len = 16 }'),
        ("bad type", 'o = { buffer = "int17", len = 16 }'),
        ("value for buffer", 'o = { value = 1 }'),
        ("init long list", 'o = { buffer = "int", len = 16, init = [' + ",".join(["1"] * 100000) + "] }"),
        ("init range overflow", 'o = { buffer = "int", len = 16, init = { range = [9223372036854775807, 9223372036854775807] } }'),
        ("init fill nan", 'o = { buffer = "int", len = 16, init = { fill = nan } }'),
        ("init file missing", 'o = { buffer = "int", len = 16, init = { file = "nope.bin" } }'),
        ("init file short", 'o = { buffer = "int", len = 16, init = { file = "short.bin" } }'),
        ("init random huge", 'o = { buffer = "int", len = 16, init = { random = 18446744073709551615 } }'),
        ("missing arg", ""),
        ("extra arg", 'o = { buffer = "int", len = 16 }\np = { value = 1 }'),
        ("deep toml", "o = " + "[" * 100000 + "]" * 100000),
    ]:
        run("arg " + name, job(code=ok, glob="[16]", args=a), files={"short.bin": b"\x01\x02"})
    run("local arg huge", job(code=k("l[0] = 1; o[0] = l[0];", "global int *o, local int *l"), args='o = { buffer = "int", len = 16 }\nl = { local = "int", len = 4611686018427387904 }'))
    run("local arg 1 GiB", job(code=k("l[0] = 1; o[0] = l[0];", "global int *o, local int *l"), args='o = { buffer = "int", len = 16 }\nl = { local = "int", len = 268435456 }'))
    run("local arg 1 GiB x groups", job(code=k("l[0] = 1; o[0] = l[0];", "global int *o, local int *l"), glob="[64]", local="[1]", args='o = { buffer = "int", len = 16 }\nl = { local = "int", len = 268435456 }'))
    run("two 1 GiB buffers", job(code=k("a[0] = b[0];", "global int *a, global int *b"), args='a = { buffer = "int", len = 268435456 }\nb = { buffer = "int", len = 268435456, init = "range" }'))
    run("eight 1 GiB buffers", job(code=k("a[0] = b[0];", "global int *a, global int *b, global int *c, global int *d, global int *e, global int *f, global int *g, global int *h"),
        args="\n".join(f'{n} = {{ buffer = "int", len = 268435456 }}' for n in "abcdefgh")))
    run("expect huge", job(code=ok, glob="[16]", args='o = { buffer = "int", len = 16 }', extra="") + "[expect]\no = { equals = [" + ",".join(["1"] * 16) + "] }\n")
    run("constant too big", job(code="kernel void k(global int *o, constant int *c) { o[0] = c[0]; }\n", args='o = { buffer = "int", len = 16 }\nc = { buffer = "int", len = 67108864 }'))
    # --- runtime faults and runaways
    for name, body, params in [
        ("oob", "o[get_global_id(0) + 100] = 1;", "global int *o"),
        ("null", "global int *p = 0; *p = 1;", "global int *o"),
        ("printf loop", 'for (;;) printf("x\\n");', "global int *o"),
        ("printf then fault", 'printf("before\\n"); o[1000] = 1;', "global int *o"),
        ("infinite loop", "for (;;) o[0]++;", "global int *o"),
        ("barrier divergence", "if (get_local_id(0) == 0) barrier(CLK_LOCAL_MEM_FENCE);", "global int *o"),
        ("misaligned int", "*(global int *)((global char *)o + 2) = 1;", "global int *o"),
        ("misaligned atomic", "atomic_add((volatile global int *)((global char *)o + 2), 1);", "global int *o"),
        ("misaligned float4", "*(global float4 *)((global char *)o + 4) = (float4)(1.0f);", "global int *o"),
        ("private of another", "local int *volatile *s; local ulong slot[1]; int x = get_local_id(0); if (x == 0) slot[0] = (ulong)&x; barrier(CLK_LOCAL_MEM_FENCE); if (x == 1) o[0] = *(int *)slot[0];", "global int *o"),
        ("wrong space cast", "local int l[1]; int *g = (int *)o; local int *p = (local int *)g; p[0] = 1;", "global int *o"),
        ("write constant", "*(global int *)(c) = 1;", "global int *o, constant int *c"),
        ("div by zero", "o[0] = o[1] / o[2];", "global int *o"),
        ("int min / -1", "o[0] = (-2147483647 - 1) / (o[1] - 1);", "global int *o"),
        ("shift", "o[0] = 1 << o[1] + 40;", "global int *o"),
        ("huge private index", "int a[4]; a[o[0] + 1000000000] = 1;", "global int *o"),
    ]:
        args = 'o = { buffer = "int", len = 16 }' + ('\nc = { buffer = "int", len = 4 }' if "c" in params.split(",")[-1] else "")
        run("fault " + name, job(code=k(body, params), glob="[4]", local="[4]", args=args, options="-cl-std=CL2.0"))
    return c

# What the rows want, beyond ending cleanly: (text the output must contain, exit status).
WANT = {
    "check /dev/zero": ("larger than the 256 MiB source limit (OCLC_MAX_SOURCE_BYTES)", 1),
    "check /dev/urandom": ("larger than the 256 MiB source limit", 1),
    "include /dev/zero": ("fatal error: '/dev/zero' is larger than the 256 MiB source limit", 1),
    "run source /dev/zero": ("larger than the 256 MiB source limit", 2),
    "run init /dev/zero": (None, 0),
    "run init /dev/urandom": (None, 0),
    "run job /dev/zero": ("the run file is larger than the 64 MiB limit on run files", 2),
    "nested macro calls 100k": ("macro arguments nested too deeply (limit 256)", 1),
    "flat sum 4097": (None, 0),
    "flat sum 100k": (None, 0),
    "else-if 5000": (None, 0),
    "deep parens -fbracket-depth": (None, 0),
    "array too large 2^63": ("array is too large (9223372036854775807 elements)", 1),
    "array too large 2^40 local": ("array is too large (1099511627776 elements)", 1),
    "invalid utf8": ("illegal character encoding in string literal", 1),
    "bad -fbracket-depth": ("invalid integral value", 1),
    "build bad target": ("invalid value 'sm_9999' in '--target=sm_9999'", 1),
    "threads 10000": ("--threads 10000 capped at", 0),
    "printf/ptx": (".param .u64 __pf", 0),  # printf records go to a hidden buffer parameter
    "sub_group_size/ptx": ("the cuda device does not support", 1),
    "run chain 2000": (None, 0),
    "run -O0 chain 2000": (None, 0),
    "run chain 10000": (None, 0),
    "run -O0 chain 10000": (None, 0),
    "chain 10000/ptx": (None, 0),
    "run diamond 40": ("error: ", 3),  # 2^40 calls: the step limit stops it, at its line
    "nd 3 x 2^32": ("invalid ND-range", 2),
    "nd local 2^32 x 2^32": ("invalid ND-range", 2),
    "nd 2^40 groups": ("invalid ND-range", 2),
    "nd 2^32 local 1": ("invalid ND-range", 2),
    "nd offset overflow": (None, 2),  # 2^64 - 1 is no TOML integer: rejected as such
    "arg init /dev/zero": (None, 0),
    "local arg huge": ("exceed the largest buffer", 2),
    "local arg 1 GiB": ("CL_DEVICE_LOCAL_MEM_SIZE", 2),
    "two 1 GiB buffers": (None, 0),
    "eight 1 GiB buffers": ("out of memory", 2),
    "constant too big": ("CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE", 2),
    "fault printf loop": ("printf output of kernel 'k' was cut at 1048576 bytes", 3),
    "fault printf then fault": ("before", 3),
    "fault misaligned int": ("misaligned write of 4 bytes", 3),
    "fault misaligned atomic": ("misaligned atomic operation of 4 bytes", 3),
    "fault misaligned float4": ("misaligned write of 16 bytes", 3),
    "fault private of another": ("private memory of another work-item", 3),
    "fault oob": ("out-of-bounds write", 3),
}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oclc", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "oclc"))
    ap.add_argument("-k", default="")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    oclc = os.path.abspath(a.oclc)
    passed = failed = 0
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for name, files, argv, env in cases():
        if a.k not in name:
            continue
        with tempfile.TemporaryDirectory() as d:
            for fn, data in files.items():
                with open(os.path.join(d, fn), "wb") as f:
                    f.write(data.encode() if isinstance(data, str) else data)
            cmd = [oclc] + [x.replace("{d}", d) for x in argv]
            t0 = time.time()
            try:
                p = subprocess.run(cmd, cwd=d, capture_output=True, timeout=LIMIT_S, preexec_fn=limit,
                                   env={**os.environ, **env}, stdin=subprocess.DEVNULL)
                dt = time.time() - t0
                out = (p.stdout[-20000:] + p.stderr[-20000:]).decode("utf-8", "replace")
                why = None
                if p.returncode < 0: why = f"signal {-p.returncode}"
                elif p.returncode not in (0, 1, 2, 3): why = f"exit {p.returncode}"
                elif "panicked" in out: why = "panic"
                elif "internal compiler error" in out: why = "internal compiler error"
                elif "memory allocation of" in out: why = "allocation abort"
                elif name in WANT:
                    text, code = WANT[name]
                    if text is not None and text not in out: why = f"output lacks {text!r}"
                    elif code is not None and p.returncode != code: why = f"exit {p.returncode}, want {code}"
            except subprocess.TimeoutExpired:
                dt, why, out = LIMIT_S, "timeout", ""
        if why:
            failed += 1
            tail = " | ".join(l for l in out.strip().splitlines()[-3:])[:300]
            print(f"FAIL {name}: {why} ({dt:.1f} s) {tail}")
        else:
            passed += 1
            if a.v:
                first = (out.strip().splitlines() or [""])[0][:150]
                print(f"ok   {name} ({dt:.1f} s, exit {p.returncode}) {first}")
    print(f"hostile: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

if __name__ == "__main__":
    main()
