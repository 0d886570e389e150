//! Run-file parsing: every accepted form lands in the right field.

use oclc::runfile::*;
use std::path::{Path, PathBuf};

fn parse(text: &str) -> RunFile {
    match RunFile::parse(text, Path::new("dir/job.toml")) {
        Ok(job) => job,
        Err(e) => panic!("unexpected errors:\n{e}"),
    }
}

fn elem(name: &str) -> ElemType {
    ElemType::parse(name).unwrap_or_else(|| panic!("bad type {name}"))
}

const HEAD: &str = "kernel = \"k\"\nglobal = [8]\ncode = \"kernel void k() {}\"\n";

fn init_of(args: &str) -> ValueSpec {
    let job = parse(&format!("{HEAD}[args]\n{args}\n"));
    match &job.args[0].kind {
        ArgKind::Buffer { init, .. } => init.clone(),
        other => panic!("not a buffer: {other:?}"),
    }
}

#[test]
fn full_job() {
    let job = parse(
        r#"
source = "memcpy.cl"
options = "-cl-std=CL2.0"
kernel = "copy"
global = [1024, 2]
local = [64, 1]
offset = [0, 3]

[args]
src = { buffer = "uchar", len = 1024, init = "range" }
dst = { buffer = "uchar", len = 1024 }
tmp = { local = "float4", len = 64 }
n   = { value = 1024 }
v   = { value = [1.0, 2.0] }

[expect]
dst = { equals = "range" }
"#,
    );
    assert_eq!(job.path, PathBuf::from("dir/job.toml"));
    assert_eq!(
        job.program,
        ProgramSource::File {
            path: PathBuf::from("dir/memcpy.cl"),
            written: "memcpy.cl".into()
        }
    );
    assert_eq!(job.options, "-cl-std=CL2.0");
    assert_eq!(job.kernel, "copy");
    assert_eq!(job.global, vec![1024, 2]);
    assert_eq!(job.local, Some(vec![64, 1]));
    assert_eq!(job.offset, Some(vec![0, 3]));
    let names: Vec<&str> = job.args.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["src", "dst", "tmp", "n", "v"]);
    assert_eq!(
        job.args[0].kind,
        ArgKind::Buffer {
            elem: elem("uchar"),
            len: 1024,
            init: ValueSpec::Range
        }
    );
    assert_eq!(
        job.args[1].kind,
        ArgKind::Buffer {
            elem: elem("uchar"),
            len: 1024,
            init: ValueSpec::Zero
        }
    );
    assert_eq!(
        job.args[2].kind,
        ArgKind::Local {
            elem: elem("float4"),
            len: 64
        }
    );
    assert!(matches!(job.args[3].kind, ArgKind::Value(_)));
    assert_eq!(job.expect.len(), 1);
    assert_eq!(job.expect[0].name, "dst");
    assert_eq!(job.expect[0].equals, ValueSpec::Range);
    assert_eq!(job.expect[0].tolerance, Tolerance::Exact);
    assert!(job.arg("tmp").is_some());
    assert!(job.arg("nope").is_none());
}

#[test]
fn inline_code_and_defaults() {
    let job = parse(
        "kernel = \"k\"\nglobal = [1, 2, 3]\ncode = \"\"\"\nkernel void k() {}\n\"\"\"\n[args]\n",
    );
    assert_eq!(
        job.program,
        ProgramSource::Inline("kernel void k() {}\n".into())
    );
    assert_eq!(
        job.source_text().ok().as_deref(),
        Some("kernel void k() {}\n")
    );
    assert_eq!(job.options, "");
    assert_eq!(job.local, None);
    assert_eq!(job.offset, None);
    assert!(job.args.is_empty());
    assert!(job.expect.is_empty());
}

#[test]
fn dotted_tables() {
    let job = parse(&format!(
        "{HEAD}[args.src]\nbuffer = \"int\"\nlen = 2\ninit = [5, -6]\n[expect.src]\nequals = {{ fill = 5 }}\n"
    ));
    assert_eq!(
        job.args[0].kind,
        ArgKind::Buffer {
            elem: elem("int"),
            len: 2,
            init: ValueSpec::List(vec![Lit::Int(5), Lit::Int(-6)])
        }
    );
    assert_eq!(job.expect[0].equals, ValueSpec::Fill(vec![Lit::Int(5)]));
}

#[test]
fn value_spec_forms() {
    assert_eq!(
        init_of("a = { buffer = \"int\", len = 3, init = \"zero\" }"),
        ValueSpec::Zero
    );
    assert_eq!(
        init_of("a = { buffer = \"int\", len = 3, init = \"range\" }"),
        ValueSpec::Range
    );
    assert_eq!(
        init_of("a = { buffer = \"short\", len = 3, init = [1, -2, 3] }"),
        ValueSpec::List(vec![Lit::Int(1), Lit::Int(-2), Lit::Int(3)])
    );
    assert_eq!(
        init_of("a = { buffer = \"float\", len = 2, init = [1, 2.5] }"),
        ValueSpec::List(vec![Lit::Float(1.0), Lit::Float(2.5)])
    );
    assert_eq!(
        init_of("a = { buffer = \"double\", len = 3, init = { fill = -0.5 } }"),
        ValueSpec::Fill(vec![Lit::Float(-0.5)])
    );
    assert_eq!(
        init_of("a = { buffer = \"uint\", len = 3, init = { range = [10, 3] } }"),
        ValueSpec::RangeFrom {
            start: Lit::Int(10),
            step: Lit::Int(3)
        }
    );
    assert_eq!(
        init_of("a = { buffer = \"uchar\", len = 3, init = { range = [255, -1] } }"),
        ValueSpec::RangeFrom {
            start: Lit::Int(255),
            step: Lit::Int(-1)
        }
    );
    assert_eq!(
        init_of("a = { buffer = \"half\", len = 3, init = { range = [0.5, 0.25] } }"),
        ValueSpec::RangeFrom {
            start: Lit::Float(0.5),
            step: Lit::Float(0.25)
        }
    );
    assert_eq!(
        init_of("a = { buffer = \"long\", len = 3, init = { random = 7 } }"),
        ValueSpec::Random(7)
    );
    assert_eq!(
        init_of("a = { buffer = \"long\", len = 3, init = { random = -1 } }"),
        ValueSpec::Random(u64::MAX)
    );
    assert_eq!(
        init_of("a = { buffer = \"uchar\", len = 3, init = { file = \"data/in.bin\" } }"),
        ValueSpec::File {
            path: PathBuf::from("dir/data/in.bin"),
            written: "data/in.bin".into()
        }
    );
}

#[test]
fn special_floats_and_big_integers() {
    let ValueSpec::List(v) =
        init_of("a = { buffer = \"float\", len = 3, init = [nan, inf, -inf] }")
    else {
        panic!("not a list")
    };
    assert!(matches!(v[0], Lit::Float(x) if x.is_nan()));
    assert_eq!(
        v[1..],
        [Lit::Float(f64::INFINITY), Lit::Float(f64::NEG_INFINITY)]
    );
    assert_eq!(
        init_of(
            "a = { buffer = \"ulong\", len = 3, init = [\"18446744073709551615\", \"0xFFFF_0000\", 9223372036854775807] }"
        ),
        ValueSpec::List(vec![
            Lit::Int(u64::MAX as i128),
            Lit::Int(0xFFFF_0000),
            Lit::Int(i64::MAX as i128)
        ])
    );
    assert_eq!(
        init_of("a = { buffer = \"long\", len = 1, init = [\"-0x8000000000000000\"] }"),
        ValueSpec::List(vec![Lit::Int(i64::MIN as i128)])
    );
}

#[test]
fn vector_values() {
    let four = |v: [f64; 4]| v.map(Lit::Float).to_vec();
    let nested =
        init_of("a = { buffer = \"float4\", len = 2, init = [[1, 2, 3, 4], [5, 6, 7, 8]] }");
    let flat = init_of("a = { buffer = \"float4\", len = 2, init = [1, 2, 3, 4, 5, 6, 7, 8] }");
    let want = ValueSpec::List([four([1.0, 2.0, 3.0, 4.0]), four([5.0, 6.0, 7.0, 8.0])].concat());
    assert_eq!(nested, want);
    assert_eq!(flat, want);
    assert_eq!(
        init_of("a = { buffer = \"int2\", len = 2, init = { fill = [7, -7] } }"),
        ValueSpec::Fill(vec![Lit::Int(7), Lit::Int(-7)])
    );
    assert_eq!(
        init_of("a = { buffer = \"int3\", len = 2, init = { fill = 9 } }"),
        ValueSpec::Fill(vec![Lit::Int(9); 3])
    );
}

#[test]
fn expectation_tolerances() {
    let job = parse(&format!(
        "{HEAD}[args]\na = {{ buffer = \"float\", len = 2 }}\nb = {{ buffer = \"half2\", len = 2 }}\nc = {{ buffer = \"double\", len = 1 }}\n\
         [expect]\na = {{ equals = [1.5, 2], tol = 1e-6 }}\nb = {{ equals = \"zero\", ulp = 2 }}\nc = {{ equals = \"zero\", tol = 0 }}\n"
    ));
    let t: Vec<Tolerance> = job.expect.iter().map(|e| e.tolerance).collect();
    assert_eq!(
        t,
        [Tolerance::Abs(1e-6), Tolerance::Ulp(2), Tolerance::Abs(0.0)]
    );
    assert_eq!(
        job.expect[0].equals,
        ValueSpec::List(vec![Lit::Float(1.5), Lit::Float(2.0)])
    );
}

#[test]
fn load_reads_the_file_and_resolves_relative_names() {
    let dir = std::env::temp_dir().join(format!("oclc-runfile-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok();
    let job_path = dir.join("job.toml");
    std::fs::write(
        &job_path,
        "source = \"k.cl\"\nkernel = \"k\"\nglobal = [1]\n[args]\n",
    )
    .ok();
    std::fs::write(dir.join("k.cl"), "kernel void k() {}\n").ok();
    let job = RunFile::load(&job_path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        job.source_text().ok().as_deref(),
        Some("kernel void k() {}\n")
    );
    std::fs::remove_dir_all(&dir).ok();
}
