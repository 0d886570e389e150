//! PTX of OpenCL C sources (front end → lowering → IR passes → emitter), as snapshots.

mod common;
use common::{ptx, save};

fn snap(name: &str, src: &str) -> String {
    let p = ptx(src);
    save(name, &p.text);
    p.text
}

#[test]
fn memcpy_global_named_spaces() {
    let t = snap(
        "memcpy_global",
        "kernel void copy(global const float4 *src, global float4 *dst) {\n\
         size_t i = get_global_id(0);\n\
         dst[i] = src[i];\n\
         }\n",
    );
    assert!(t.contains("ld.global.v4.f32"), "{t}");
    assert!(t.contains("st.global.v4.f32"), "{t}");
    assert!(!t.contains("cvta.global"), "{t}");
    insta::assert_snapshot!(t);
}
