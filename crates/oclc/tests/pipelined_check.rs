//! Large inputs are parsed while sema checks what is parsed (on one thread taking turns, or
//! on two), and their syntax tree is freed item by item or batch by batch; the diagnostics
//! must be exactly those of checking in order, whichever way runs.

use oclc::args::parse_check_args;
use oclc::{Schedule, check_source};

/// Every way to schedule parse and sema.
const SCHEDULES: [Schedule; 4] = [
    Schedule::Auto,
    Schedule::InOrder,
    Schedule::Interleaved,
    Schedule::TwoThreads,
];

/// `n` valid functions, one per line: well over the size at which parsing is pipelined.
fn filler(n: usize) -> String {
    (0..n)
        .map(|i| format!("int f{i}(int a) {{ int b = a * {i}; return b + a; }}\n"))
        .collect()
}

/// The first line of each rendered diagnostic, its line number moved up by `offset`.
fn first_lines(text: &str, offset: usize) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("t.cl:"))
        .map(|l| {
            let mut parts = l.splitn(3, ':');
            let (file, line, rest) = (parts.next(), parts.next(), parts.next());
            let line: usize = line.and_then(|n| n.parse().ok()).expect("line number");
            format!(
                "{}:{}:{}",
                file.unwrap_or(""),
                line - offset,
                rest.unwrap_or("")
            )
        })
        .collect()
}

fn check(src: &str) -> String {
    check_with(src, Schedule::Auto)
}

fn check_with(src: &str, schedule: Schedule) -> String {
    let mut opts = parse_check_args(["-cl-std=CL2.0"]).expect("flags").options;
    opts.schedule = schedule;
    check_source("t.cl", src.as_bytes(), &opts).render_text()
}

/// `src` gives the same text under every schedule (the in-order one is the reference).
fn same_under_every_schedule(src: &str) -> String {
    let in_order = check_with(src, Schedule::InOrder);
    for s in SCHEDULES {
        assert_eq!(check_with(src, s), in_order, "{s:?}");
    }
    in_order
}

#[test]
fn every_schedule_gives_the_in_order_diagnostics() {
    // Sema diagnostics that look back across items (a redefinition, a use of an earlier
    // declaration with a note pointing at it) and forward to the end of the unit (an unused
    // static function is reported after the last item).
    let n = 9000;
    let tail = "int f3(int a);\nfloat f3(int a);\nvoid g(void) { f5(1, 2); }\n\
                static void unused(void) { }\nvoid h(void) { undeclared = 1; }\n";
    let text = same_under_every_schedule(&format!("{}{tail}", filler(n)));
    assert!(text.contains("conflicting types for 'f3'"), "{text}");
    assert!(
        text.contains("too many arguments to function call"),
        "{text}"
    );
    assert!(
        text.contains("use of undeclared identifier 'undeclared'"),
        "{text}"
    );
    // Small inputs (below the size at which two threads may be used) too.
    let small = same_under_every_schedule(tail);
    assert!(small.contains("conflicting types for 'f3'"), "{small}");
}

#[test]
fn every_schedule_gives_the_in_order_result_after_a_parse_error() {
    let tail = "void g(void) { int x = ; }\nvoid k(void) { undeclared = 2; }\n";
    let text = same_under_every_schedule(&format!("{}{tail}", filler(9000)));
    assert!(text.contains("expected expression"), "{text}");
    assert!(text.contains("undeclared"), "{text}");
}

#[test]
fn sema_errors_after_many_items_match_a_small_file() {
    let tail = "void g(void) { undeclared = 1; }\nint h(void) { return 1.0f + (int *)0; }\n";
    let n = 9000;
    let big = check(&format!("{}{tail}", filler(n)));
    let small = check(tail);
    assert!(small.contains("use of undeclared identifier 'undeclared'"));
    assert_eq!(first_lines(&big, n), first_lines(&small, 0));
}

#[test]
fn a_parse_error_gives_the_in_order_result() {
    // A syntax error and a sema error: parse diagnostics and sema's interleave by position.
    let tail = "void g(void) { int x = ; }\nvoid k(void) { undeclared = 2; }\n";
    let n = 9000;
    let big = check(&format!("{}{tail}", filler(n)));
    let small = check(tail);
    assert!(small.contains("expected expression"), "{small}");
    assert!(small.contains("undeclared"), "{small}");
    assert_eq!(first_lines(&big, n), first_lines(&small, 0));
}

#[test]
fn a_file_over_a_megabyte_gives_the_same_diagnostics() {
    // Large enough for the front end's thread to start before preprocessing.
    let tail = "void g(void) { int x = ; }\nkernel void k(global int *p) { undeclared = p; }\n";
    let n = 25_000;
    let src = format!("{}{tail}", filler(n));
    assert!(src.len() > 1 << 20);
    assert_eq!(first_lines(&check(&src), n), first_lines(&check(tail), 0));
}

#[test]
fn a_clean_large_file_has_no_diagnostics() {
    assert_eq!(check(&filler(9000)), "");
}

#[test]
fn every_schedule_gives_the_in_order_result_after_preprocessor_diagnostics() {
    // The preprocessor's warnings come first; sema's diagnostics follow them as in order.
    let head = "#define A 1\n#define A 2\n#warning careful\n";
    let tail = "int f3(int a);\nfloat f3(int a);\nvoid h(void) { undeclared = 1; }\n";
    for src in [
        format!("{head}{}{tail}", filler(9000)),
        format!("{head}{tail}"),
    ] {
        let text = same_under_every_schedule(&src);
        assert!(text.contains("'A' macro redefined"), "{text}");
        assert!(text.contains("warning: careful"), "{text}");
        assert!(text.contains("conflicting types for 'f3'"), "{text}");
        assert!(
            text.contains("use of undeclared identifier 'undeclared'"),
            "{text}"
        );
    }
}
