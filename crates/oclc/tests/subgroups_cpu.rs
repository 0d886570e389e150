//! Sub-groups on the cpu device have one work-item: the queries say so (a 2-D work-group of
//! 6x4 has 24 sub-groups, numbered by local linear id), a collective gives the one-item
//! value (the identity for an exclusive scan) and a shuffle the work-item's own value.

use oclc::{Device, NdRange, Program};

const SRC: &str = r#"
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
kernel void k(global int *o, global float *f, global uint *u) {
    int g = get_global_linear_id();
    int v = (g * 7) % 11 - 5;
    global int *r = o + g * 16;
    r[0] = get_sub_group_size();
    r[1] = get_max_sub_group_size();
    r[2] = get_num_sub_groups();
    r[3] = get_sub_group_id();
    r[4] = get_sub_group_local_id();
    r[5] = sub_group_all(v > 0);
    r[6] = sub_group_any(v == 5);
    r[7] = sub_group_broadcast(v, 0);
    r[8] = sub_group_reduce_add(v);
    r[9] = sub_group_reduce_min(v);
    r[10] = sub_group_scan_inclusive_max(v);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
    r[11] = sub_group_scan_exclusive_add(v);
    r[12] = sub_group_scan_exclusive_min(v);
    r[13] = intel_sub_group_shuffle(v, 0u);
    r[14] = intel_sub_group_shuffle_down(v, v + 100, 1u);
    r[15] = intel_sub_group_shuffle_up(v - 100, v, 0u);
    f[g] = sub_group_scan_exclusive_max((float)v);
    u[g] = sub_group_scan_exclusive_min((uint)v);
}
"#;

#[test]
fn sub_groups_of_one_work_item() {
    let d = Device::cpu().with_printf_echo(false);
    let p = Program::build(SRC, "-cl-std=CL2.0").expect("builds");
    let (gx, gy, lx, ly) = (12usize, 4usize, 6usize, 4usize);
    let n = gx * gy;
    let o = d.buffer::<i32>(n * 16).expect("o");
    let f = d.buffer::<f32>(n).expect("f");
    let u = d.buffer::<u32>(n).expect("u");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o)
        .expect("o")
        .set_arg(1, &f)
        .expect("f")
        .set_arg(2, &u)
        .expect("u");
    d.launch(
        &k,
        &NdRange::new(&[gx as u64, gy as u64]).local(&[lx as u64, ly as u64]),
    )
    .expect("launch");
    let (o, f, u) = (
        o.read::<i32>().expect("o"),
        f.read::<f32>().expect("f"),
        u.read::<u32>().expect("u"),
    );
    for g in 0..n {
        let v = ((g * 7) % 11) as i32 - 5;
        let (x, y) = (g % gx, g / gx);
        let lid = (y % ly) * lx + x % lx;
        let want = [
            1,
            1,
            (lx * ly) as i32,
            lid as i32,
            0,
            (v > 0) as i32,
            (v == 5) as i32,
            v,
            v,
            v,
            v,
            0,
            i32::MAX,
            v,
            v + 100,
            v,
        ];
        assert_eq!(&o[g * 16..g * 16 + 16], want, "work-item {g}");
        assert_eq!(f[g], f32::NEG_INFINITY, "work-item {g}");
        assert_eq!(u[g], u32::MAX, "work-item {g}");
    }
}
