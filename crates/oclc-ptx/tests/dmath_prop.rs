//! Property tests of the double-precision PTX sequences (host model): arbitrary bit patterns
//! for every argument, each builtin within its OpenCL ULP limit of the cpu runtime.

mod dmath_support;
use dmath_support::*;
use oclc_ptx::dmath::eval;
use proptest::prelude::*;

fn check(x: f64, y: f64, n: i32) -> Result<(), TestCaseError> {
    for (name, args, limit) in FUNCTIONS {
        if cpu_inexact(name, x) {
            continue;
        }
        let got = eval(name, x, y, n).expect("implemented").value;
        let (want, _) = cpu(name, *args, x, y, n);
        let (ok, err) = accept(name, got, want, *limit);
        let ok = ok || snan_pow_one(name, x, y, got, want);
        prop_assert!(
            ok,
            "{}({:e}, {:e}, {}): got {:e}, want {:e} ({} ulp)",
            name,
            x,
            y,
            n,
            got,
            want,
            err
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn arbitrary_bits(xb in any::<u64>(), yb in any::<u64>(), n in any::<i32>()) {
        check(f64::from_bits(xb), f64::from_bits(yb), n)?;
    }

    #[test]
    fn moderate_values(x in -800.0f64..800.0, y in -60.0f64..60.0, n in -64i32..64) {
        check(x, y, n)?;
    }

    #[test]
    fn near_one_and_zero(x in -2.0f64..2.0, e in -60i32..4, y in -4.0f64..4.0) {
        check(x * f64::powi(2.0, e), y, e)?;
    }
}
