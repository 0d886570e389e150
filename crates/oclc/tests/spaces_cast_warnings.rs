//! The `address-space-cast` warnings of `oclc check` (and `oclc spaces`): explicit
//! generic→named casts and `to_X` calls the passes prove never succeed.

use oclc::cli::check_command;

fn check(flags: &[&str], src: &str) -> oclc::cli::CliOutput {
    let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
    args.push("-".into());
    check_command(args, &mut src.as_bytes())
}

const CL20: &[&str] = &["-cl-std=CL2.0"];

#[test]
fn explicit_cast_to_local_of_a_global_pointer() {
    let src = "kernel void k(global int *g, global int *out) {\n    int *p = g;\n    local int *q = (local int *)p;\n    out[0] = q != 0;\n}\n";
    let out = check(CL20, src);
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stderr,
        concat!(
            "<stdin>:3:20: warning: cast from '__generic int *' to '__local int *' never succeeds: ",
            "the pointer always points into __global (line 2) [-Waddress-space-cast]\n",
            "    3 |     local int *q = (local int *)p;\n",
            "      |                    ^\n",
            "<stdin>:2:14: note: the pointer points into __global from here\n",
            "    2 |     int *p = g;\n",
            "      |              ^\n",
            "1 warning generated.\n"
        )
    );
}

#[test]
fn explicit_cast_to_global_of_a_private_pointer() {
    let src = "kernel void k(global float *out) {\n    float x = 1;\n    float *p = &x;\n    out[0] = *(global float *)p;\n}\n";
    let out = check(CL20, src);
    assert!(
        out.stderr.contains(
            "<stdin>:4:15: warning: cast from '__generic float *' to '__global float *' never succeeds: the pointer always points into __private (line 3) [-Waddress-space-cast]"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn to_global_of_a_local_pointer() {
    let src = "kernel void k(local int *l, global int *out) {\n    int *p = l;\n    out[0] = to_global(p) != 0;\n}\n";
    let out = check(CL20, src);
    assert!(
        out.stderr.contains(
            "<stdin>:3:14: warning: to_global() on '__generic int *' always returns NULL: the pointer always points into __local (line 2) [-Waddress-space-cast]"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.ends_with("1 warning generated.\n"),
        "{}",
        out.stderr
    );
}

#[test]
fn to_local_of_a_global_pointer() {
    let src = "kernel void k(global int *g) {\n    int *p = g;\n    if (to_local(p))\n        *p = 1;\n}\n";
    let out = check(CL20, src);
    assert!(
        out.stderr.contains(
            "<stdin>:3:9: warning: to_local() on '__generic int *' always returns NULL: the pointer always points into __global (line 2) [-Waddress-space-cast]"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn to_private_through_a_called_function() {
    // The pointer reaches the test through a parameter: only the clone for __global exists.
    let src = "int is_private(int *p) { return to_private(p) != 0; }\n\
kernel void k(global int *g) { g[0] = is_private(g); }\n";
    let out = check(CL20, src);
    assert!(
        out.stderr.contains(
            "<stdin>:1:33: warning: to_private() on '__generic int *' always returns NULL: the pointer always points into __global"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn casts_that_may_succeed_are_not_warned() {
    let src = "int *pick(global int *g, local int *l, int c) { return c ? (int *)g : (int *)l; }\n\
kernel void k(global int *g, local int *l) {\n    int *p = pick(g, l, g[0]);\n    local int *q = to_local(p);\n    global int *r = (global int *)p;\n    if (q) *q = 1;\n    if (r) *r = 2;\n}\n\
void f(int *p) { local int *q = (local int *)p; *q = 1; }\n";
    let out = check(CL20, src);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
}

#[test]
fn a_cast_impossible_in_one_caller_only_is_not_warned() {
    let src = "void f(int *p) { if (to_local(p)) *p = 1; }\n\
kernel void k(global int *g, local int *l) { f(g); f(l); }\n";
    let out = check(CL20, src);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
}

#[test]
fn the_group_follows_warning_flags() {
    let src = "kernel void k(global int *g) {\n    int *p = g;\n    if (to_local(p)) *p = 1;\n}\n";
    let out = check(&["-cl-std=CL2.0", "-Wno-address-space-cast"], src);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    let out = check(&["-cl-std=CL2.0", "-Werror=address-space-cast"], src);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("error: to_local() on '__generic int *' always returns NULL")
            && out.stderr.contains("[-Werror,-Waddress-space-cast]"),
        "{}",
        out.stderr
    );
    let out = check(&["-cl-std=CL2.0", "-w"], src);
    assert_eq!(out.stderr, "");
}

#[test]
fn no_warnings_without_the_generic_space_or_with_errors() {
    // OpenCL C 1.2 has no generic pointers (and the cast is an error there).
    let out = check(
        &[],
        "kernel void k(global int *g) { local int *q = (local int *)g; }\n",
    );
    assert!(!out.stderr.contains("never succeeds"), "{}", out.stderr);
    // With an error elsewhere, only the error is reported.
    let src = "kernel void k(global int *g) {\n    int *p = g;\n    if (to_local(p)) *p = y;\n}\n";
    let out = check(CL20, src);
    assert_eq!(out.code, 1);
    assert!(!out.stderr.contains("address-space-cast"), "{}", out.stderr);
}

#[test]
fn oclc_spaces_prints_the_same_warnings() {
    let src = "kernel void k(global int *g) {\n    int *p = g;\n    if (to_local(p)) *p = 1;\n}\n";
    let out = oclc::spaces_cmd::spaces_command(
        vec!["-cl-std=CL2.0".into(), "-".into(), "--format=json".into()],
        &mut src.as_bytes(),
    );
    assert_eq!(out.code, 0);
    assert_eq!(out.stderr, check(CL20, src).stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["warnings"][0]["line"], 3);
    assert_eq!(v["warnings"][0]["group"], "address-space-cast");
    assert_eq!(
        v["warnings"][0]["message"],
        "to_local() on '__generic int *' always returns NULL: the pointer always points into __global (line 2)"
    );
}
