//! Checking a run file against a kernel signature and preparing the launch bytes.

use oclc::runfile::*;
use std::path::Path;

fn elem(name: &str) -> ElemType {
    ElemType::parse(name).unwrap_or_else(|| panic!("bad type {name}"))
}

fn buffer(name: &str, space: BufferSpace, pointee: &str) -> ParamInfo {
    let e = elem(pointee);
    let sp = match space {
        BufferSpace::Global => "__global",
        BufferSpace::Constant => "__constant",
    };
    ParamInfo {
        name: name.into(),
        ty: format!("{sp} {pointee} *"),
        kind: ParamKind::Buffer {
            space,
            pointee: Pointee {
                elem: Some(e),
                size: e.size(),
            },
        },
    }
}

fn local(name: &str, pointee: &str) -> ParamInfo {
    let e = elem(pointee);
    ParamInfo {
        name: name.into(),
        ty: format!("__local {pointee} *"),
        kind: ParamKind::LocalPtr {
            pointee: Pointee {
                elem: Some(e),
                size: e.size(),
            },
        },
    }
}

fn scalar(name: &str, ty: &str) -> ParamInfo {
    ParamInfo {
        name: name.into(),
        ty: ty.into(),
        kind: ParamKind::Scalar { elem: elem(ty) },
    }
}

fn sig(params: Vec<ParamInfo>) -> KernelSignature {
    KernelSignature {
        name: "k".into(),
        params,
    }
}

/// Lines 1-4 are the head; `[args]` is line 4.
fn job(rest: &str) -> RunFile {
    let text = format!("kernel = \"k\"\nglobal = [4]\ncode = \"\"\n[args]\n{rest}");
    RunFile::parse(&text, Path::new("job.toml")).unwrap_or_else(|e| panic!("{e}"))
}

fn prepare_errors(rest: &str, params: Vec<ParamInfo>) -> Vec<String> {
    match job(rest).prepare(&sig(params)) {
        Ok(l) => panic!("accepted: {l:?}"),
        Err(e) => e.0.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn launch_in_parameter_order() {
    let j = job(
        "n = { value = 3 }\ntmp = { local = \"float4\", len = 16 }\nsrc = { buffer = \"short\", len = 3, init = [1, -2, 3] }\n\
         v = { value = [1.5, -2.0, 0.25] }\nc = { buffer = \"uchar\", len = 2, init = { fill = 7 } }\n\
         [expect]\nsrc = { equals = \"range\" }\n",
    );
    let launch = j
        .prepare(&sig(vec![
            buffer("src", BufferSpace::Global, "short"),
            buffer("c", BufferSpace::Constant, "uchar"),
            local("tmp", "float4"),
            scalar("n", "uint"),
            scalar("v", "float3"),
        ]))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        launch.args,
        vec![
            LaunchArg::Buffer {
                name: "src".into(),
                space: BufferSpace::Global,
                elem: elem("short"),
                len: 3,
                init: ValueSpec::List(vec![Lit::Int(1), Lit::Int(-2), Lit::Int(3)]),
            },
            LaunchArg::Buffer {
                name: "c".into(),
                space: BufferSpace::Constant,
                elem: elem("uchar"),
                len: 2,
                init: ValueSpec::Fill(vec![Lit::Int(7)]),
            },
            LaunchArg::Local {
                name: "tmp".into(),
                bytes: 256
            },
            LaunchArg::Scalar {
                name: "n".into(),
                elem: elem("uint"),
                bytes: vec![3, 0, 0, 0]
            },
            LaunchArg::Scalar {
                name: "v".into(),
                elem: elem("float3"),
                bytes: [
                    1.5f32.to_le_bytes(),
                    (-2.0f32).to_le_bytes(),
                    0.25f32.to_le_bytes(),
                    [0; 4]
                ]
                .concat(),
            },
        ]
    );
    let names: Vec<&str> = launch.args.iter().map(LaunchArg::name).collect();
    assert_eq!(names, ["src", "c", "tmp", "n", "v"]);
    assert_eq!(
        launch.expectations,
        vec![PreparedExpectation {
            name: "src".into(),
            param_index: 0,
            elem: elem("short"),
            len: 3,
            want: ValueSpec::Range,
            tolerance: Tolerance::Exact,
        }]
    );
    // The bytes the specs give, generated when the driver fills the buffers.
    let bytes: Vec<Vec<u8>> = launch
        .args
        .iter()
        .filter_map(|a| match a {
            LaunchArg::Buffer {
                elem, len, init, ..
            } => Some(init.materialize(*elem, *len).expect("bytes")),
            _ => None,
        })
        .collect();
    assert_eq!(bytes, [vec![1, 0, 0xfe, 0xff, 3, 0], vec![7, 7]]);
    let e = &launch.expectations[0];
    assert_eq!(
        e.want.materialize(e.elem, e.len),
        Ok(vec![0, 0, 1, 0, 2, 0])
    );
}

#[test]
fn void_pointers_take_any_buffer() {
    let p = ParamInfo {
        name: "p".into(),
        ty: "__global void *".into(),
        kind: ParamKind::Buffer {
            space: BufferSpace::Global,
            pointee: Pointee {
                elem: None,
                size: 0,
            },
        },
    };
    let launch = job("p = { buffer = \"double2\", len = 1 }\n").prepare(&sig(vec![p]));
    assert!(matches!(launch.map(|l| l.args), Ok(a) if a.len() == 1));
}

#[test]
fn missing_extra_and_unnamed() {
    assert_eq!(
        prepare_errors(
            "src = { buffer = \"int\", len = 4 }\nextra = { value = 1 }\n",
            vec![
                buffer("src", BufferSpace::Global, "int"),
                scalar("n", "int")
            ]
        ),
        [
            "job.toml:4:2: error: args.n: missing: kernel 'k' has parameter 'n' of type 'int'",
            "job.toml:6:1: error: args.extra: kernel 'k' has no parameter named 'extra' (its parameters: src, n)",
        ]
    );
    assert_eq!(
        prepare_errors("x = { value = 1 }\n", vec![]),
        [
            "job.toml:5:1: error: args.x: kernel 'k' has no parameter named 'x' (it has no parameters)"
        ]
    );
    let unnamed = ParamInfo {
        name: String::new(),
        ty: "int".into(),
        kind: ParamKind::Scalar { elem: elem("int") },
    };
    assert_eq!(
        prepare_errors("", vec![unnamed]),
        [
            "job.toml:4:2: error: args: parameter 1 of kernel 'k' (int) has no name, so a run file cannot give it a value"
        ]
    );
}

#[test]
fn kinds_and_types_must_agree() {
    let params = || {
        vec![
            buffer("a", BufferSpace::Global, "float"),
            local("b", "int"),
            scalar("c", "int"),
            buffer("d", BufferSpace::Constant, "uchar"),
            local("e", "int"),
            ParamInfo {
                name: "s".into(),
                ty: "struct S".into(),
                kind: ParamKind::Unsupported,
            },
        ]
    };
    assert_eq!(
        prepare_errors(
            "a = { local = \"float\", len = 4 }\nb = { buffer = \"int\", len = 4 }\nc = { buffer = \"int\", len = 4 }\n\
             d = { value = 1 }\ne = { value = 1 }\ns = { value = 1 }\n",
            params()
        ),
        [
            "job.toml:5:1: error: args.a: parameter 'a' is '__global float *', which takes { buffer = TYPE, len = N }, not a local allocation",
            "job.toml:6:1: error: args.b: parameter 'b' is '__local int *', which takes { local = TYPE, len = N }, not a buffer",
            "job.toml:7:1: error: args.c: parameter 'c' is 'int', which takes { value = V }, not a buffer",
            "job.toml:8:1: error: args.d: parameter 'd' is '__constant uchar *', which takes { buffer = TYPE, len = N }, not a value",
            "job.toml:9:1: error: args.e: parameter 'e' is '__local int *', which takes { local = TYPE, len = N }, not a value",
            "job.toml:10:1: error: args.s: parameter 's' has type 'struct S', which run files cannot supply",
        ]
    );
    assert_eq!(
        prepare_errors(
            "a = { buffer = \"uchar\", len = 4 }\nb = { local = \"uint\", len = 4 }\nc = { value = 1 }\nd = { buffer = \"uchar\", len = 1 }\ne = { local = \"int\", len = 1 }\ns = { value = 1 }\n",
            params()
        )[..2],
        [
            "job.toml:5:1: error: args.a.buffer: parameter 'a' is '__global float *', but the buffer holds uchar",
            "job.toml:6:1: error: args.b.local: parameter 'b' is '__local int *', but the allocation holds uint",
        ]
    );
}

#[test]
fn scalar_values() {
    let one = |value: &str, ty: &str| match job(&format!("x = {{ value = {value} }}\n"))
        .prepare(&sig(vec![scalar("x", ty)]))
    {
        Ok(l) => Ok(match &l.args[0] {
            LaunchArg::Scalar { bytes, .. } => bytes.clone(),
            other => panic!("{other:?}"),
        }),
        Err(e) => Err(e.to_string()),
    };
    assert_eq!(one("-1", "char"), Ok(vec![0xff]));
    assert_eq!(one("65535", "ushort"), Ok(vec![0xff, 0xff]));
    assert_eq!(one("\"0xFFFFFFFFFFFFFFFF\"", "ulong"), Ok(vec![0xff; 8]));
    assert_eq!(one("0.1", "half"), Ok(vec![0x66, 0x2e]));
    assert_eq!(one("2", "double"), Ok(2.0f64.to_le_bytes().to_vec()));
    assert_eq!(one("[1, 2]", "int2"), Ok(vec![1, 0, 0, 0, 2, 0, 0, 0]));
    assert_eq!(one("[1, 2, 3]", "uchar3"), Ok(vec![1, 2, 3, 0]));
    // x's value starts at column 15 of line 5.
    assert_eq!(
        one("256", "uchar"),
        Err("job.toml:5:15: error: args.x.value: 256 is out of range for uchar (0 to 255)".into())
    );
    assert_eq!(
        one("1.5", "int"),
        Err(
            "job.toml:5:15: error: args.x.value: expected an integer for int, got the float 1.5"
                .into()
        )
    );
    assert_eq!(one("[1, 2]", "int"), Err("job.toml:5:15: error: args.x.value: parameter 'x' is int: expected a number, got an array".into()));
    assert_eq!(one("1", "int4"), Err("job.toml:5:15: error: args.x.value: parameter 'x' is int4: expected a list of 4 numbers, got an integer".into()));
    assert_eq!(one("[1, 2, 3]", "int4"), Err("job.toml:5:15: error: args.x.value: parameter 'x' is int4: expected a list of 4 numbers, got 3".into()));
    assert_eq!(
        one("[1, 2, 3.5, -1]", "uint4"),
        Err("job.toml:5:22: error: args.x.value[2]: expected an integer for uint, got the float 3.5\njob.toml:5:27: error: args.x.value[3]: -1 is out of range for uint (0 to 4294967295)".into())
    );
}

#[test]
fn files_are_read_at_prepare_time() {
    let dir = std::env::temp_dir().join(format!("oclc-runfile-prepare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok();
    std::fs::write(dir.join("in.bin"), [1u8, 0, 2, 0]).ok();
    let text = "kernel = \"k\"\nglobal = [2]\ncode = \"\"\n[args]\na = { buffer = \"ushort\", len = 2, init = { file = \"in.bin\" } }\n\
                b = { buffer = \"ushort\", len = 3, init = { file = \"in.bin\" } }\n[expect]\na = { equals = { file = \"gone.bin\" } }\n";
    let j = RunFile::parse(text, &dir.join("job.toml")).unwrap_or_else(|e| panic!("{e}"));
    let params = vec![
        buffer("a", BufferSpace::Global, "ushort"),
        buffer("b", BufferSpace::Global, "ushort"),
    ];
    let errs = j
        .prepare(&sig(params.clone()))
        .err()
        .map(|e| e.0)
        .unwrap_or_default();
    let shown: Vec<String> = errs
        .iter()
        .map(|e| {
            format!(
                "{}:{}: {}: {}",
                e.at.map_or(0, |a| a.line),
                e.at.map_or(0, |a| a.col),
                e.field,
                e.message
            )
        })
        .collect();
    assert_eq!(shown.len(), 2);
    assert_eq!(
        shown[0],
        "6:1: args.b.init.file: 'in.bin' has 4 bytes, but 3 ushort values take 6"
    );
    assert!(
        shown[1].starts_with("8:1: expect.a.equals.file: cannot read 'gone.bin': "),
        "{}",
        shown[1]
    );
    let good = RunFile::parse(
        &text
            .replace("len = 3", "len = 2")
            .replace("gone.bin", "in.bin"),
        &dir.join("job.toml"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let launch = good.prepare(&sig(params)).unwrap_or_else(|e| panic!("{e}"));
    let LaunchArg::Buffer {
        elem, len, init, ..
    } = &launch.args[0]
    else {
        panic!("{:?}", launch.args[0]);
    };
    assert_eq!(init.materialize(*elem, *len), Ok(vec![1, 0, 2, 0]));
    let e = &launch.expectations[0];
    assert_eq!(e.want.materialize(e.elem, e.len), Ok(vec![1, 0, 2, 0]));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn kernel_not_found_and_source_errors() {
    let j = job("");
    assert_eq!(
        j.kernel_not_found(&["a", "b"]).to_string(),
        "job.toml:1:1: error: kernel: no kernel named 'k' in the program (kernels: a, b)"
    );
    assert_eq!(
        j.kernel_not_found(&[]).to_string(),
        "job.toml:1:1: error: kernel: no kernel named 'k' in the program (the program defines no kernels)"
    );
    let f = RunFile::parse(
        "kernel = \"k\"\nglobal = [1]\nsource = \"missing.cl\"\n[args]\n",
        Path::new("/nonexistent/job.toml"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        f.source_text().err().map(|e| e.to_string()).as_deref(),
        Some(
            "/nonexistent/job.toml: error: source: cannot read 'missing.cl': No such file or directory (os error 2)"
        )
    );
}
