//! Every run-file error, with its exact text: file, line, column, field, message.

use oclc::runfile::*;
use std::path::Path;

fn errors(text: &str) -> Vec<String> {
    match RunFile::parse(text, Path::new("job.toml")) {
        Ok(job) => panic!("accepted: {job:?}"),
        Err(e) => e.0.iter().map(ToString::to_string).collect(),
    }
}

/// A valid head (lines 1-4, `[args]` on line 4), so test lines start at 5.
const HEAD: &str = "kernel = \"k\"\nglobal = [4]\ncode = \"\"\n[args]\n";

fn arg_errors(rest: &str) -> Vec<String> {
    errors(&format!("{HEAD}{rest}"))
}

#[test]
fn toml_syntax() {
    assert_eq!(
        errors("kernel = \n"),
        ["job.toml:1:10: error: invalid string; expected `\"`, `'`"]
    );
    assert_eq!(
        errors("a = 1\na = 2\n"),
        ["job.toml:2:1: error: duplicate key `a` in document root"]
    );
}

#[test]
fn top_level_fields() {
    assert_eq!(
        errors("[args]\n"),
        [
            "job.toml: error: source: missing: give source = \"FILE.cl\" or code = \"\"\"...\"\"\"",
            "job.toml: error: kernel: missing: give kernel = \"NAME\"",
            "job.toml: error: global: missing: give global = [X] (1 to 3 dimensions)",
        ]
    );
    assert_eq!(
        errors("kernel = \"k\"\nglobal = [4]\ncode = \"\"\n"),
        ["job.toml: error: args: missing: give an [args] table with every kernel parameter"]
    );
    assert_eq!(
        errors("kernel = \"k\"\nglobal = [4]\ncode = \"\"\nsource = \"a.cl\"\n[args]\n"),
        ["job.toml:3:1: error: code: give either source or code, not both"]
    );
    assert_eq!(
        errors("kernel = 3\nglobal = [4]\ncode = \"\"\nsrc = 1\n[args]\n"),
        [
            "job.toml:1:10: error: kernel: expected a string, got an integer",
            "job.toml:4:1: error: src: unknown key (a run file has source, code, options, kernel, global, local, offset, args, expect)",
        ]
    );
    assert_eq!(
        errors("kernel = \"\"\nglobal = [4]\ncode = \"\"\noptions = [\"-O\"]\n[args]\n"),
        [
            "job.toml:1:10: error: kernel: expected a kernel name",
            "job.toml:4:11: error: options: expected a string, got an array",
        ]
    );
}

#[test]
fn ndrange_fields() {
    let with = |g: &str| errors(&format!("kernel = \"k\"\ncode = \"\"\n{g}\n[args]\n"));
    assert_eq!(
        with("global = []"),
        ["job.toml:3:10: error: global: expected 1 to 3 dimensions, got 0"]
    );
    assert_eq!(
        with("global = [1, 2, 3, 4]"),
        ["job.toml:3:10: error: global: expected 1 to 3 dimensions, got 4"]
    );
    assert_eq!(
        with("global = 64"),
        [
            "job.toml:3:10: error: global: expected a list of 1 to 3 positive integers, got an integer"
        ]
    );
    assert_eq!(
        with("global = [64, 0, \"x\"]"),
        [
            "job.toml:3:15: error: global[1]: expected a positive integer",
            "job.toml:3:18: error: global[2]: expected a positive integer",
        ]
    );
    assert_eq!(
        with("global = [64]\nlocal = [0]\noffset = [-1]"),
        [
            "job.toml:4:10: error: local[0]: expected a positive integer",
            "job.toml:5:11: error: offset[0]: expected a non-negative integer",
        ]
    );
    assert_eq!(
        with("global = [64, 2]\nlocal = [16]\noffset = [0, 0, 0]"),
        [
            "job.toml:4:1: error: local: has 1 dimensions, but global has 2",
            "job.toml:5:1: error: offset: has 3 dimensions, but global has 2",
        ]
    );
}

#[test]
fn argument_shapes() {
    assert_eq!(
        errors(&format!("{}args = 3\n", HEAD.replace("[args]\n", ""))),
        ["job.toml:4:8: error: args: expected a table, got an integer"]
    );
    assert_eq!(
        arg_errors("a = 3\n"),
        [
            "job.toml:5:5: error: args.a: expected { buffer = TYPE, len = N }, { local = TYPE, len = N } or { value = V }, got an integer"
        ]
    );
    assert_eq!(
        arg_errors("a = { len = 3 }\n"),
        [
            "job.toml:5:5: error: args.a: expected { buffer = TYPE, len = N }, { local = TYPE, len = N } or { value = V }"
        ]
    );
    assert_eq!(
        arg_errors("a = { buffer = \"int\", value = 3 }\n"),
        ["job.toml:5:5: error: args.a: give only one of buffer, value"]
    );
    assert_eq!(
        arg_errors(
            "a = { buffer = \"int\", len = 3, bar = 2 }\nb = { local = \"int\", len = 3, init = \"zero\" }\nc = { value = 1, len = 2 }\n"
        ),
        [
            "job.toml:5:32: error: args.a.bar: unknown key (a buffer argument takes buffer, len, init)",
            "job.toml:6:31: error: args.b.init: unknown key (a local argument takes local, len)",
            "job.toml:7:18: error: args.c.len: unknown key (a value argument takes value)",
        ]
    );
    assert_eq!(
        arg_errors("a = { buffer = \"int\" }\n"),
        ["job.toml:5:5: error: args.a.len: missing: give the number of elements"]
    );
}

#[test]
fn element_types_and_lengths() {
    assert_eq!(
        arg_errors("src = { buffer = \"uchr\", len = 4 }\n"),
        [
            "job.toml:5:18: error: args.src.buffer: unknown element type 'uchr' (expected char, uchar, short, ushort, int, uint, long, ulong, half, float or double, optionally with a vector width 2, 3, 4, 8 or 16, as in float4)"
        ]
    );
    assert_eq!(
        arg_errors("t = { local = \"float5\", len = 4 }\n"),
        [
            "job.toml:5:15: error: args.t.local: unknown element type 'float5' (expected char, uchar, short, ushort, int, uint, long, ulong, half, float or double, optionally with a vector width 2, 3, 4, 8 or 16, as in float4)"
        ]
    );
    assert_eq!(
        arg_errors("src = { buffer = 4, len = 4 }\n"),
        ["job.toml:5:18: error: args.src.buffer: expected a string, got an integer"]
    );
    for len in ["0", "-1", "1.5", "\"4\""] {
        assert_eq!(
            arg_errors(&format!("src = {{ buffer = \"uchar\", len = {len} }}\n")),
            ["job.toml:5:33: error: args.src.len: expected a positive integer"],
            "{len}"
        );
    }
    assert_eq!(
        arg_errors("src = { buffer = \"double16\", len = 10000000 }\n"),
        [
            "job.toml:5:36: error: args.src.len: 10000000 elements exceed the largest buffer (1073741824 bytes)"
        ]
    );
}

#[test]
fn value_specs() {
    let init = |t: &str, spec: &str| {
        arg_errors(&format!(
            "a = {{ buffer = \"{t}\", len = 4, init = {spec} }}\n"
        ))
    };
    // The spec starts at column 36 + the type name's length.
    let col = |t: &str| 36 + t.len();
    assert_eq!(
        init("float", "\"ones\""),
        [format!(
            "job.toml:5:{}: error: args.a.init: unknown value spec \"ones\"; expected \"zero\", \"range\", a list of values, {{ fill = V }}, {{ range = [START, STEP] }}, {{ random = SEED }} or {{ file = \"NAME\" }}",
            col("float")
        )]
    );
    assert_eq!(
        init("float", "1.0"),
        [format!(
            "job.toml:5:{}: error: args.a.init: expected \"zero\", \"range\", a list of values, {{ fill = V }}, {{ range = [START, STEP] }}, {{ random = SEED }} or {{ file = \"NAME\" }}, got a float",
            col("float")
        )]
    );
    assert_eq!(
        init("uchar", "[1, 2, 3]"),
        [format!(
            "job.toml:5:{}: error: args.a.init: expected a list of 4 values, got 3",
            col("uchar")
        )]
    );
    assert_eq!(
        init("float2", "[1, 2, 3]"),
        [format!(
            "job.toml:5:{}: error: args.a.init: expected a list of 4 float2 values (or 8 numbers), got 3",
            col("float2")
        )]
    );
    assert_eq!(
        init("uchar", "[1, 2, 3, 256]"),
        ["job.toml:5:51: error: args.a.init[3]: 256 is out of range for uchar (0 to 255)"]
    );
    assert_eq!(
        init("char", "[1, -129, 2.0, \"x\"]"),
        [
            "job.toml:5:44: error: args.a.init[1]: -129 is out of range for char (-128 to 127)",
            "job.toml:5:50: error: args.a.init[2]: expected an integer for char, got the float 2.0",
            "job.toml:5:55: error: args.a.init[3]: expected an integer, got the string \"x\"",
        ]
    );
    assert_eq!(
        init("float", "[1, true, \"1\", 1e39]"),
        [
            "job.toml:5:45: error: args.a.init[1]: expected a number, got a boolean",
            "job.toml:5:51: error: args.a.init[2]: expected a number, got a string",
            "job.toml:5:56: error: args.a.init[3]: 1e39 is out of range for float",
        ]
    );
    assert_eq!(
        init("half", "{ fill = 65520 }"),
        ["job.toml:5:49: error: args.a.init.fill: 65520.0 is out of range for half"]
    );
    assert_eq!(
        init("int4", "[[1, 2, 3], 4, [1, 2, 3, 4], [1, 2, 3, [4]]]"),
        [
            "job.toml:5:41: error: args.a.init[0]: expected a list of 4 numbers for int4, got 3",
            "job.toml:5:52: error: args.a.init[1]: expected a list of 4 numbers for int4, got an integer",
            "job.toml:5:79: error: args.a.init[3][3]: expected an integer, got an array",
        ]
    );
    assert_eq!(
        init("int", "{ fill = [1, 2] }"),
        ["job.toml:5:48: error: args.a.init.fill: expected a number for int, got an array"]
    );
    assert_eq!(
        init("int2", "{ fill = [1, 2, 3] }"),
        ["job.toml:5:49: error: args.a.init.fill: expected a list of 2 numbers for int2, got 3"]
    );
    assert_eq!(
        init("int", "{ range = 3 }"),
        ["job.toml:5:49: error: args.a.init.range: expected [START, STEP], got an integer"]
    );
    assert_eq!(
        init("int", "{ range = [1, 2, 3] }"),
        ["job.toml:5:49: error: args.a.init.range: expected [START, STEP], got 3 values"]
    );
    assert_eq!(
        init("uint", "{ range = [-1, 1.5] }"),
        [
            "job.toml:5:51: error: args.a.init.range[0]: -1 is out of range for uint (0 to 4294967295)",
            "job.toml:5:55: error: args.a.init.range[1]: expected an integer for uint, got the float 1.5",
        ]
    );
    assert_eq!(
        init("int", "{ random = 1.5 }"),
        ["job.toml:5:50: error: args.a.init.random: expected an integer seed, got a float"]
    );
    assert_eq!(
        init("int", "{ file = 3 }"),
        ["job.toml:5:48: error: args.a.init.file: expected a file name, got an integer"]
    );
    assert_eq!(
        init("int", "{ fil = \"x\" }"),
        [
            "job.toml:5:41: error: args.a.init.fil: unknown value spec key 'fil'; expected \"zero\", \"range\", a list of values, { fill = V }, { range = [START, STEP] }, { random = SEED } or { file = \"NAME\" }"
        ]
    );
    assert_eq!(
        init("int", "{ fill = 1, range = [0, 1] }"),
        [
            "job.toml:5:39: error: args.a.init: a value spec table has exactly one key, got 2; expected \"zero\", \"range\", a list of values, { fill = V }, { range = [START, STEP] }, { random = SEED } or { file = \"NAME\" }"
        ]
    );
    assert_eq!(
        init(
            "ulong",
            "[\"0x\", \"-\", \"99999999999999999999\", \"12a\"]"
        ),
        [
            "job.toml:5:42: error: args.a.init[0]: expected an integer, got the string \"0x\"",
            "job.toml:5:48: error: args.a.init[1]: expected an integer, got the string \"-\"",
            "job.toml:5:53: error: args.a.init[2]: 99999999999999999999 is out of range for ulong (0 to 18446744073709551615)",
            "job.toml:5:77: error: args.a.init[3]: expected an integer, got the string \"12a\"",
        ]
    );
}

#[test]
fn expectations() {
    let with = |args: &str, expect: &str| arg_errors(&format!("{args}\n[expect]\n{expect}\n"));
    let buf = "d = { buffer = \"int\", len = 2 }\nf = { buffer = \"float\", len = 2 }\nn = { value = 1 }\nt = { local = \"int\", len = 2 }";
    // [expect] is on line 9, its entries from line 10.
    assert_eq!(
        with(
            buf,
            "x = { equals = \"zero\" }\nn = { equals = 1 }\nt = { equals = \"zero\" }"
        ),
        [
            "job.toml:10:1: error: expect.x: no argument named 'x' in [args]",
            "job.toml:11:1: error: expect.n: 'n' is not a buffer argument; only buffers have expectations",
            "job.toml:12:1: error: expect.t: 't' is not a buffer argument; only buffers have expectations",
        ]
    );
    assert_eq!(
        with(buf, "d = { tol = 1 }\nf = \"zero\""),
        [
            "job.toml:10:5: error: expect.d.equals: missing: give equals = SPEC",
            "job.toml:10:7: error: expect.d.tol: tolerances apply to floating-point buffers only, and this one is int",
            "job.toml:11:5: error: expect.f: expected { equals = SPEC }, got a string",
        ]
    );
    assert_eq!(
        with(
            buf,
            "f = { equals = \"zero\", tol = 1e-6, ulp = 2, eq = 1 }"
        ),
        [
            "job.toml:10:36: error: expect.f.ulp: give tol or ulp, not both (tol is given)",
            "job.toml:10:45: error: expect.f.eq: unknown key (an expectation takes equals, tol, ulp)",
        ]
    );
    assert_eq!(
        with(
            buf,
            "f = { equals = \"zero\", tol = -1.0 }\nd = { equals = [1] }"
        ),
        [
            "job.toml:10:30: error: expect.f.tol: expected a non-negative number",
            "job.toml:11:16: error: expect.d.equals: expected a list of 2 values, got 1",
        ]
    );
    assert_eq!(
        with(buf, "f = { equals = \"zero\", ulp = 0.5 }"),
        ["job.toml:10:30: error: expect.f.ulp: expected a non-negative integer"]
    );
    // An argument with its own error gets no second error from its expectation.
    assert_eq!(
        with(
            "d = { buffer = \"int\", len = 0 }",
            "d = { equals = \"zero\" }"
        ),
        ["job.toml:5:29: error: args.d.len: expected a positive integer"]
    );
}

#[test]
fn expect_must_be_a_table() {
    assert_eq!(
        arg_errors("d = { buffer = \"int\", len = 2 }\nexpect = 3\n"),
        [
            "job.toml:6:10: error: args.expect: expected { buffer = TYPE, len = N }, { local = TYPE, len = N } or { value = V }, got an integer"
        ]
    );
    assert_eq!(
        errors("expect = 3\nkernel = \"k\"\nglobal = [4]\ncode = \"\"\n[args]\n"),
        ["job.toml:1:10: error: expect: expected a table, got an integer"]
    );
}

#[test]
fn unreadable_file() {
    let e = RunFile::load(Path::new("/nonexistent/job.toml"))
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        e.as_deref(),
        Some(
            "/nonexistent/job.toml: error: cannot read the run file: No such file or directory (os error 2)"
        )
    );
}
