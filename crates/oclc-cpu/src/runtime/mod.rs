//! Pure-Rust implementations of the OpenCL builtin math, integer, common, geometric,
//! relational and conversion functions for the cpu device.
//!
//! The interpreter maps an IR builtin call onto a [`Builtin`] once (by name, at lowering time)
//! and evaluates it with [`call`] (scalars or vectors, as [`Lanes`]) or [`call_scalar`]. Values
//! are [`Scalar`]s: every OpenCL C scalar type, half as its bits ([`Half`]). The typed functions
//! in [`math`], [`integer`], [`common`], [`geometric`], [`relational`] and [`convert`] are public
//! too, for callers that know their types statically (vload_half/vstore_half use
//! [`Half::to_f32`] and [`Half::from_f32_mode`]).
//!
//! ```
//! use oclc_cpu::runtime::{call, Builtin, Lanes, Scalar};
//!
//! // fmax(float2, float): the scalar broadcasts.
//! let b = Builtin::from_name("fmax").unwrap();
//! let x = Lanes::from_slice(&[Scalar::F32(1.0), Scalar::F32(f32::NAN)]).unwrap();
//! let out = call(b, &[x, Lanes::scalar(Scalar::F32(0.5))]).unwrap();
//! assert_eq!(out.value.as_slice(), &[Scalar::F32(1.0), Scalar::F32(0.5)]);
//!
//! // frexp(float) returns the exponent through its pointer argument: `out`.
//! let out = call(Builtin::Frexp, &[Lanes::scalar(Scalar::F32(8.0))]).unwrap();
//! assert_eq!(out.value.lane(0), Scalar::F32(0.5));
//! assert_eq!(out.out.map(|o| o.lane(0)), Some(Scalar::I32(4)));
//!
//! // Relational builtins on vectors give -1/0 lanes.
//! let v = Lanes::from_slice(&[Scalar::F64(f64::NAN), Scalar::F64(1.0)]).unwrap();
//! let out = call(Builtin::IsNan, &[v]).unwrap();
//! assert_eq!(out.value.as_slice(), &[Scalar::I64(-1), Scalar::I64(0)]);
//! ```
//!
//! Accuracy: float and half math is computed in f64 and rounded once, so it is within about
//! 0.5 ulp (far inside the spec's 7.4 limits); double math uses the platform libm (glibc: within
//! 1 ulp) or the routines here (each documents its method); fma, fmin/fmax, rounding functions,
//! fmod/remainder/remquo, frexp/ldexp, nextafter and all conversions are exact.

pub mod builtin;
pub mod common;
pub mod convert;
pub mod dispatch;
pub mod float;
pub mod geometric;
pub mod half;
pub mod image;
pub mod integer;
pub mod math;
pub mod media;
pub mod relational;
pub mod round;
pub mod scalar;
mod special;

pub use builtin::{Builtin, Family};
pub use dispatch::{BuiltinError, Output, ScalarOutput, call, call_scalar};
pub use float::Fp;
pub use half::Half;
pub use round::Rounding;
pub use scalar::{Lanes, MAX_LANES, Scalar, ScalarType};
