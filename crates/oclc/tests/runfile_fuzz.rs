//! No input makes the run-file code panic: mutated run files go through parse, prepare and
//! expectation checks.

use oclc::runfile::random::SplitMix64;
use oclc::runfile::*;
use std::path::Path;

const SEED_JOB: &str = r#"source = "k.cl"
options = "-cl-std=CL2.0"
kernel = "k"
global = [64, 2]
local = [16, 1]
offset = [0, 0]
[args]
a = { buffer = "float4", len = 2, init = [[1, 2, 3, 4], [5, 6, 7, 8]] }
b = { buffer = "uchar", len = 3, init = { range = [250, 3] } }
c = { local = "half", len = 4 }
d = { value = [1, 2, 3] }
e = { buffer = "ulong3", len = 2, init = { random = 9 } }
f = { buffer = "half", len = 2, init = { fill = 1e-8 } }
[expect]
a = { equals = "range", tol = 1e-3 }
b = { equals = [250, 253, 0] }
f = { equals = "zero", ulp = 1 }
e = { equals = { random = 9 } }
"#;

const FRAGMENTS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    "\"",
    "'",
    "\n",
    "[args]",
    "[expect]",
    "nan",
    "-inf",
    "1e400",
    "-9223372036854775808",
    "\"0x\"",
    "\"-0x\"",
    "\"18446744073709551616\"",
    "len = 0",
    "buffer = \"double16\"",
    "value = []",
    "[[",
    "]]",
    "{ fill = [] }",
    "{ range = [] }",
    "local = [0]",
    "global = []",
    "ulp = -1",
    "tol = nan",
    "equals = {}",
    "\"float3\"",
    "1979-05-27",
    "true",
    "0.5",
    "{ file = \"x.bin\" }",
    "\u{fffd}",
    "#",
    "a.b.c = 1",
    "[[args]]",
    "x = { value = { value = 1 } }",
];

fn signature() -> KernelSignature {
    let p = |name: &str, kind: ParamKind| ParamInfo {
        name: name.into(),
        ty: "t".into(),
        kind,
    };
    let ptr = |e: &str| Pointee {
        elem: ElemType::parse(e),
        size: 4,
    };
    KernelSignature {
        name: "k".into(),
        params: vec![
            p(
                "a",
                ParamKind::Buffer {
                    space: BufferSpace::Global,
                    pointee: ptr("float4"),
                },
            ),
            p(
                "b",
                ParamKind::Buffer {
                    space: BufferSpace::Constant,
                    pointee: ptr("uchar"),
                },
            ),
            p(
                "c",
                ParamKind::LocalPtr {
                    pointee: ptr("half"),
                },
            ),
            p(
                "d",
                ParamKind::Scalar {
                    elem: ElemType {
                        scalar: ScalarType::Float,
                        width: 3,
                    },
                },
            ),
            p(
                "e",
                ParamKind::Buffer {
                    space: BufferSpace::Global,
                    pointee: ptr("ulong3"),
                },
            ),
            p(
                "f",
                ParamKind::Buffer {
                    space: BufferSpace::Global,
                    pointee: Pointee {
                        elem: None,
                        size: 0,
                    },
                },
            ),
        ],
    }
}

fn mutate(rng: &mut SplitMix64, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let edits = 1 + rng.next_u64() % 4;
    for _ in 0..edits {
        let at = (rng.next_u64() % (bytes.len() as u64 + 1)) as usize;
        match rng.next_u64() % 4 {
            0 if at < bytes.len() => {
                bytes.remove(at);
            }
            1 if at < bytes.len() => {
                bytes[at] = (rng.next_u64() % 128) as u8;
            }
            _ => {
                let frag = FRAGMENTS[(rng.next_u64() % FRAGMENTS.len() as u64) as usize];
                bytes.splice(at..at, frag.bytes());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mutated_run_files_never_panic() {
    let sig = signature();
    let mut rng = SplitMix64::new(2026);
    let (mut parsed, mut prepared) = (0, 0);
    for _ in 0..4000 {
        let text = mutate(&mut rng, SEED_JOB);
        let Ok(job) = RunFile::parse(&text, Path::new("/nonexistent/job.toml")) else {
            continue;
        };
        parsed += 1;
        let _ = job.source_text();
        let _ = job.kernel_not_found(&["x"]);
        if let Ok(launch) = job.prepare(&sig) {
            prepared += 1;
            for e in &launch.expectations {
                let Ok(want) = e.want.materialize(e.elem, e.len) else {
                    continue;
                };
                let _ = e.check(&want).to_string();
                let _ = e.check(&[1, 2, 3]).to_string();
                let _ = format_dump(&e.name, e.elem, e.len, &want);
                let _ = npy_bytes(e.elem, e.len, &want);
            }
        }
    }
    // The mutations must leave some files valid, or the later stages go untested.
    assert!(parsed > 100, "only {parsed} mutated files parsed");
    assert!(prepared > 10, "only {prepared} mutated files prepared");
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..2000 {
        let len = (rng.next_u64() % 200) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| (rng.next_u64() % 256) as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            RunFile::parse(&text, Path::new("j.toml")).is_err()
                || text.trim().is_empty()
                || text.contains('=')
        );
    }
}

#[test]
fn seed_job_is_valid() {
    let job =
        RunFile::parse(SEED_JOB, Path::new("/nonexistent/job.toml")).map_err(|e| e.to_string());
    assert!(job.is_ok(), "{job:?}");
    let launch = job
        .ok()
        .map(|j| j.prepare(&signature()).map_err(|e| e.to_string()));
    assert!(matches!(launch, Some(Ok(_))), "{launch:?}");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for (open, close) in [("[", "]"), ("{ a = ", " }")] {
        let text = format!("x = {}1{}\n", open.repeat(100_000), close.repeat(100_000));
        let errors = RunFile::parse(&text, Path::new("j.toml"))
            .err()
            .map(|e| e.to_string());
        assert!(errors.is_some_and(|e| e.starts_with("j.toml:1:")), "{open}");
    }
}
