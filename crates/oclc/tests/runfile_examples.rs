//! The example run files in examples/ parse, match their kernels' parameters, and expect what a
//! Rust reference computes from their inputs.

use oclc::runfile::*;
use std::path::PathBuf;

fn example(name: &str) -> RunFile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    RunFile::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn elem(name: &str) -> ElemType {
    ElemType::parse(name).unwrap_or_else(|| panic!("bad type {name}"))
}

fn global(name: &str, ty: &str) -> ParamInfo {
    let e = elem(ty);
    ParamInfo {
        name: name.into(),
        ty: format!("__global {ty} *"),
        kind: ParamKind::Buffer {
            space: BufferSpace::Global,
            pointee: Pointee {
                elem: Some(e),
                size: e.size(),
            },
        },
    }
}

fn local(name: &str, ty: &str) -> ParamInfo {
    let e = elem(ty);
    ParamInfo {
        name: name.into(),
        ty: format!("__local {ty} *"),
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

fn prepare(job: &RunFile, params: Vec<ParamInfo>) -> Launch {
    let sig = KernelSignature {
        name: job.kernel.clone(),
        params,
    };
    job.prepare(&sig).unwrap_or_else(|e| panic!("{e}"))
}

fn data(launch: &Launch, name: &str) -> Vec<u8> {
    match launch.args.iter().find(|a| a.name() == name) {
        Some(LaunchArg::Buffer {
            elem, len, init, ..
        }) => init
            .materialize(*elem, *len)
            .unwrap_or_else(|e| panic!("{name}: {e}")),
        other => panic!("{name}: {other:?}"),
    }
}

/// The expected bytes of expectation `e`.
fn want_bytes(e: &PreparedExpectation) -> Vec<u8> {
    e.want
        .materialize(e.elem, e.len)
        .unwrap_or_else(|m| panic!("{}: {m}", e.name))
}

fn want<'a>(launch: &'a Launch, name: &str) -> &'a PreparedExpectation {
    launch
        .expectations
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no expectation {name}"))
}

fn words<const N: usize>(bytes: &[u8]) -> impl Iterator<Item = [u8; N]> + '_ {
    bytes
        .chunks_exact(N)
        .map(|c| c.try_into().unwrap_or([0; N]))
}

#[test]
fn memcpy_copies_through_global_and_local() {
    let job = example("memcpy.toml");
    assert_eq!(job.options, "-cl-std=CL2.0");
    let src = job.source_text().unwrap_or_else(|e| panic!("{e}"));
    assert!(src.contains("void GenericXToY_internal(unsigned char *in, unsigned char *out"));
    let launch = prepare(
        &job,
        vec![
            global("src", "uchar"),
            global("from_global", "uchar"),
            global("from_local", "uchar"),
            local("tmp", "uchar"),
            scalar("chunk", "uint"),
        ],
    );
    // Work-item g copies bytes 16g .. 16g+15 to the same place; its group's staging area is
    // 64 work-items x 16 bytes.
    let chunk = 16;
    assert_eq!(job.global[0] as usize * chunk, data(&launch, "src").len());
    assert!(
        matches!(launch.args[3], LaunchArg::Local { bytes, .. } if bytes == job.local.as_ref().map_or(0, |l| l[0] as usize) * chunk)
    );
    for name in ["from_global", "from_local"] {
        let e = want(&launch, name);
        assert_eq!(want_bytes(e), data(&launch, "src"));
        assert!(e.check(&data(&launch, "src")).passed());
    }
}

#[test]
fn matmul_expects_the_exact_product() {
    let job = example("matmul.toml");
    let launch = prepare(
        &job,
        vec![
            global("a", "float"),
            global("b", "float"),
            global("c", "float"),
            scalar("n", "uint"),
        ],
    );
    let n = 128;
    let a: Vec<f64> = words::<4>(&data(&launch, "a"))
        .map(|w| f64::from(f32::from_le_bytes(w)))
        .collect();
    let b: Vec<f64> = words::<4>(&data(&launch, "b"))
        .map(|w| f64::from(f32::from_le_bytes(w)))
        .collect();
    // The generator's formulas, so the data files are what gen_data.py says they are.
    for i in 0..n {
        for k in 0..n {
            assert_eq!(a[i * n + k], (((7 * i + 3 * k) % 17) as f64 - 8.0) / 8.0);
            assert_eq!(b[i * n + k], (((5 * i + 11 * k) % 13) as f64 - 6.0) / 4.0);
        }
    }
    let mut c = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let sum: f64 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
            // Every partial sum is exact in float.
            assert_eq!(f64::from(sum as f32), sum);
            c.extend_from_slice(&(sum as f32).to_le_bytes());
        }
    }
    let e = want(&launch, "c");
    assert_eq!(e.tolerance, Tolerance::Exact);
    assert_eq!(want_bytes(e), c);
}

#[test]
fn reduce_expects_each_groups_sum() {
    let job = example("reduce.toml");
    let launch = prepare(
        &job,
        vec![
            global("values", "uint"),
            global("partial", "ulong"),
            local("scratch", "ulong"),
            scalar("per_item", "uint"),
        ],
    );
    let values: Vec<u64> = words::<4>(&data(&launch, "values"))
        .map(|w| u64::from(u32::from_le_bytes(w)))
        .collect();
    assert_eq!(values.len(), 1 << 20);
    let group_elems = 256 * 64;
    let sums: Vec<u8> = values
        .chunks(group_elems)
        .flat_map(|g| g.iter().sum::<u64>().to_le_bytes())
        .collect();
    assert_eq!(want_bytes(want(&launch, "partial")), sums);
    assert!(matches!(
        launch.args[2],
        LaunchArg::Local { bytes: 2048, .. }
    ));
}

#[test]
fn histogram_expects_the_counts_of_its_data() {
    let job = example("histogram.toml");
    let launch = prepare(
        &job,
        vec![
            global("data", "uchar"),
            scalar("n", "uint"),
            global("hist", "uint"),
        ],
    );
    let mut counts = [0u32; 256];
    for &b in &data(&launch, "data") {
        counts[b as usize] += 1;
    }
    assert_eq!(counts.iter().sum::<u32>(), 65536);
    let bytes: Vec<u8> = counts.iter().flat_map(|c| c.to_le_bytes()).collect();
    assert_eq!(want_bytes(want(&launch, "hist")), bytes);
}
