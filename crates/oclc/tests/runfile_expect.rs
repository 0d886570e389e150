//! Expectation comparisons (integers, tol, ulp, NaN, vectors) and their report lines.

use oclc::runfile::*;

fn elem(name: &str) -> ElemType {
    ElemType::parse(name).unwrap_or_else(|| panic!("bad type {name}"))
}

fn expectation(ty: &str, want: &[u8], tolerance: Tolerance) -> PreparedExpectation {
    let e = elem(ty);
    PreparedExpectation {
        name: "out".into(),
        param_index: 0,
        elem: e,
        len: want.len() / e.size(),
        want: ValueSpec::Bytes(want.to_vec()),
        tolerance,
    }
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn f64s(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn i32s(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn halfs(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn integers_compare_exactly() {
    let e = expectation("int", &i32s(&[1, 2, 3, 4]), Tolerance::Exact);
    let ok = e.check(&i32s(&[1, 2, 3, 4]));
    assert!(ok.passed());
    assert_eq!(ok.to_string(), "expect out: ok (4 elements)");
    let bad = e.check(&i32s(&[1, -2, 3, 5]));
    assert!(!bad.passed());
    assert_eq!(bad.differing, 2);
    assert_eq!(
        bad.to_string(),
        "expect out: FAIL, 2 of 4 differ; first at [1]: got -2, want 2"
    );
    let u = expectation("ulong", &u64::MAX.to_le_bytes(), Tolerance::Exact);
    assert_eq!(
        u.check(&[0; 8]).to_string(),
        "expect out: FAIL, 1 of 1 differ; first at [0]: got 0, want 18446744073709551615"
    );
}

#[test]
fn floats_exact_tol_and_nan() {
    let want = f32s(&[1.0, 0.0, f32::NAN, f32::INFINITY]);
    let exact = expectation("float", &want, Tolerance::Exact);
    // -0 equals +0, NaN equals any NaN, inf equals inf.
    let got = f32s(&[1.0, -0.0, f32::from_bits(0x7fc0_0001), f32::INFINITY]);
    assert!(exact.check(&got).passed());
    let off = f32s(&[1.0 + f32::EPSILON, 0.0, 1.0, f32::NEG_INFINITY]);
    assert_eq!(
        exact.check(&off).to_string(),
        "expect out: FAIL, 3 of 4 differ; first at [0]: got 1.0000001, want 1.0"
    );
    let tol = expectation("float", &f32s(&[1.0, 2.0]), Tolerance::Abs(1e-3));
    assert!(tol.check(&f32s(&[1.0009, 1.9995])).passed());
    assert_eq!(
        tol.check(&f32s(&[1.0011, f32::NAN])).to_string(),
        "expect out: FAIL, 2 of 2 differ; first at [0]: got 1.0011, want 1.0"
    );
    let nan_want = expectation("double", &f64s(&[f64::NAN]), Tolerance::Abs(1e9));
    assert_eq!(
        nan_want.check(&f64s(&[0.0])).to_string(),
        "expect out: FAIL, 1 of 1 differ; first at [0]: got 0.0, want NaN"
    );
    assert!(nan_want.check(&f64s(&[f64::NAN])).passed());
}

#[test]
fn ulp_distances() {
    let one_up = f32::from_bits(1.0f32.to_bits() + 1);
    let two_up = f32::from_bits(1.0f32.to_bits() + 2);
    let e = expectation("float", &f32s(&[1.0]), Tolerance::Ulp(1));
    assert!(e.check(&f32s(&[one_up])).passed());
    assert!(!e.check(&f32s(&[two_up])).passed());
    // Across zero: the smallest subnormals of each sign are 2 ulps apart.
    let tiny = f32::from_bits(1);
    assert_eq!(
        ulp_distance(ScalarType::Float, f64::from(tiny), f64::from(-tiny)),
        2
    );
    assert_eq!(ulp_distance(ScalarType::Float, 0.0, -0.0), 0);
    assert_eq!(ulp_distance(ScalarType::Double, 1.0, 1.0 + f64::EPSILON), 1);
    assert_eq!(ulp_distance(ScalarType::Half, 1.0, 1.0 + 3.0 / 1024.0), 3);
    assert_eq!(ulp_distance(ScalarType::Half, 65504.0, f64::INFINITY), 1);
    // But an infinity matches only itself, whatever the tolerance.
    let inf = expectation("half", &halfs(&[0x7c00]), Tolerance::Ulp(5));
    assert!(!inf.check(&halfs(&[0x7bff])).passed());
    // Half expectations compare in half ulps.
    let h = expectation("half", &halfs(&[0x3c00, 0x3c00]), Tolerance::Ulp(2));
    assert_eq!(
        h.check(&halfs(&[0x3c02, 0x3c03])).to_string(),
        "expect out: FAIL, 1 of 2 differ; first at [1]: got 1.003, want 1.0"
    );
    let d = expectation("double", &f64s(&[1e300]), Tolerance::Ulp(u64::MAX));
    assert!(d.check(&f64s(&[-1e300])).passed());
}

#[test]
fn vectors_differ_as_whole_elements() {
    let want = i32s(&[1, 2, 3, 0, 4, 5, 6, 0]);
    let e = expectation("int3", &want, Tolerance::Exact);
    // The padding component is ignored.
    assert!(e.check(&i32s(&[1, 2, 3, 99, 4, 5, 6, -1])).passed());
    assert_eq!(
        e.check(&i32s(&[1, 2, 3, 0, 4, 5, 7, 0])).to_string(),
        "expect out: FAIL, 1 of 2 differ; first at [1]: got (4, 5, 7), want (4, 5, 6)"
    );
    let f = expectation("float2", &f32s(&[0.5, 1.5, 2.5, 3.5]), Tolerance::Abs(0.01));
    assert_eq!(
        f.check(&f32s(&[0.5, 1.6, 2.5, 3.6])).to_string(),
        "expect out: FAIL, 2 of 2 differ; first at [0]: got (0.5, 1.6), want (0.5, 1.5)"
    );
}

#[test]
fn short_results_count_as_differing() {
    let e = expectation("int", &i32s(&[1, 2, 3]), Tolerance::Exact);
    assert_eq!(
        e.check(&i32s(&[1])).to_string(),
        "expect out: FAIL, 2 of 3 differ; first at [1]: got ?, want 2"
    );
}

#[test]
fn component_matching() {
    use Lit::{Float, Int};
    assert!(components_match(
        ScalarType::Int,
        Int(3),
        Int(3),
        Tolerance::Exact
    ));
    assert!(!components_match(
        ScalarType::Int,
        Int(3),
        Int(4),
        Tolerance::Exact
    ));
    assert!(components_match(
        ScalarType::Float,
        Float(1.0),
        Float(1.5),
        Tolerance::Abs(0.5)
    ));
    assert!(!components_match(
        ScalarType::Float,
        Float(1.0),
        Float(1.5),
        Tolerance::Abs(0.49)
    ));
    assert!(!components_match(
        ScalarType::Float,
        Float(f64::INFINITY),
        Float(f64::NEG_INFINITY),
        Tolerance::Abs(f64::INFINITY)
    ));
}

#[test]
fn exit_statuses() {
    assert_eq!(RunStatus::Passed.code(), 0);
    assert_eq!(RunStatus::ExpectationFailed.code(), 1);
    assert_eq!(RunStatus::BuildError.code(), 2);
    assert_eq!(RunStatus::RuntimeCheck.code(), 3);
    let e = expectation("int", &i32s(&[1]), Tolerance::Exact);
    let pass = e.check(&i32s(&[1]));
    let fail = e.check(&i32s(&[2]));
    assert_eq!(
        RunStatus::from_outcomes(std::slice::from_ref(&pass)),
        RunStatus::Passed
    );
    assert_eq!(RunStatus::from_outcomes(&[]), RunStatus::Passed);
    assert_eq!(
        RunStatus::from_outcomes(&[pass, fail]),
        RunStatus::ExpectationFailed
    );
}
