//! Sub-groups on the cpu device: one sub-group per work-group, of the work-group's size, so
//! the queries, barrier, votes, broadcast, reductions and scans give the work-group's values
//! (a 2-D work-group of 6x4 here: the sub-group local id is the local linear id).

use oclc::{Device, NdRange, Program};

const SRC: &str = r#"
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void k(global int *o, global float *f, global uint *u) {
    int g = get_global_linear_id();
    int v = (g * 7) % 11 - 5;
    global int *r = o + g * 13;
    r[0] = get_sub_group_size();
    r[1] = get_max_sub_group_size();
    r[2] = get_num_sub_groups();
    r[3] = get_sub_group_id();
    r[4] = get_sub_group_local_id();
    r[5] = sub_group_all(v > -6);
    r[6] = sub_group_any(v == 5);
    r[7] = sub_group_broadcast(v, 9);
    r[8] = sub_group_reduce_add(v);
    r[9] = sub_group_reduce_min(v);
    r[10] = sub_group_reduce_max(v);
    r[11] = sub_group_scan_inclusive_add(v);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
    r[12] = sub_group_scan_exclusive_add(v);
    f[g] = sub_group_scan_exclusive_max((float)v);
    u[g] = sub_group_reduce_min((uint)(v + 100));
}
"#;

#[test]
fn one_sub_group_per_work_group() {
    let d = Device::cpu().with_printf_echo(false);
    let p = Program::build(SRC, "-cl-std=CL2.0").expect("builds");
    let (gx, gy, lx, ly) = (12usize, 4usize, 6usize, 4usize);
    let n = gx * gy;
    let o = d.buffer::<i32>(n * 13).expect("o");
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
    let v = |g: usize| ((g * 7) % 11) as i32 - 5;
    for g in 0..n {
        let (x, y) = (g % gx, g / gx);
        let (group, lid) = (x / lx, (y % ly) * lx + x % lx);
        // The group's work-items in local linear order, by global linear id.
        let members: Vec<i32> = (0..lx * ly)
            .map(|l| v((l / lx) * gx + group * lx + l % lx))
            .collect();
        let want = [
            (lx * ly) as i32,
            (lx * ly) as i32,
            1,
            0,
            lid as i32,
            members.iter().all(|m| *m > -6) as i32,
            members.contains(&5) as i32,
            members[9],
            members.iter().sum(),
            *members.iter().min().unwrap_or(&0),
            *members.iter().max().unwrap_or(&0),
            members[..=lid].iter().sum(),
            members[..lid].iter().sum(),
        ];
        assert_eq!(&o[g * 13..g * 13 + 13], want, "work-item {g}");
        let fmax = members[..lid]
            .iter()
            .map(|m| *m as f32)
            .fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(f[g], fmax, "work-item {g}");
        assert_eq!(
            u[g],
            members.iter().map(|m| (m + 100) as u32).min().unwrap_or(0)
        );
    }
}
