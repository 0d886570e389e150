//! Fuzz target: preprocess + parse + sema (+ rendering and -verify) must never panic, hang or
//! overflow the stack, whatever the bytes. The first byte picks the language mode.
//!
//! Run with `cargo +nightly fuzz run check` from the repository root.

#![no_main]

use libfuzzer_sys::fuzz_target;
use oclc::args::parse_check_args;
use oclc::check_source;

const MODES: &[&[&str]] = &[
    &["-cl-std=CL1.2"],
    &["-cl-std=CL2.0", "-Wconversion", "-pedantic"],
    &["-cl-std=CL3.0", "-cl-ext=+all"],
    &["-cl-std=CL3.0", "-cl-ext=-all"],
];

fuzz_target!(|data: &[u8]| {
    let (mode, src) = match data.split_first() {
        Some((&m, rest)) => (MODES[usize::from(m) % MODES.len()], rest),
        None => (MODES[0], data),
    };
    let Ok(args) = parse_check_args(mode.iter().copied()) else { return };
    let out = check_source("fuzz.cl", src, &args.options);
    let _ = out.render_text();
    let _ = out.verify(&["expected".to_string()]);
});
