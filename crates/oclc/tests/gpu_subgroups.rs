//! Sub-groups on the cuda device are warps: the queries, votes, broadcasts, reductions, scans
//! and Intel shuffles give what a 32-lane sub-group in local linear order gives, the last
//! sub-group of a work-group of 48 having 16 lanes. Skips, saying why, without a GPU.
#![cfg(feature = "cuda")]

use oclc::{Device, NdRange, Program};

const SRC: &str = r#"
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
kernel void k(global int *o, global float *f, global long *q) {
    int g = get_global_id(0);
    int v = (g * 7) % 11 - 5;
    global int *r = o + g * 16;
    r[0] = get_sub_group_size();
    r[1] = get_max_sub_group_size();
    r[2] = get_num_sub_groups();
    r[3] = get_sub_group_id();
    r[4] = get_sub_group_local_id();
    r[5] = sub_group_all(v > -6);
    r[6] = sub_group_any(v == 5);
    r[7] = sub_group_broadcast(v, 3);
    r[8] = sub_group_reduce_add(v);
    r[9] = sub_group_reduce_min(v);
    r[10] = sub_group_reduce_max(v);
    r[11] = sub_group_scan_inclusive_add(v);
    r[12] = sub_group_scan_exclusive_add(v);
    r[13] = intel_sub_group_shuffle(v, get_sub_group_local_id() ^ 1u);
    r[14] = intel_sub_group_shuffle_down(v, v + 100, 2u);
    r[15] = intel_sub_group_shuffle_xor(v, 5u);
    f[g] = sub_group_scan_exclusive_max((float)v);
    q[g] = sub_group_reduce_add((long)v << 33);
}
"#;

#[test]
fn sub_groups_are_warps() {
    let d = match Device::cuda(0) {
        Ok(d) => d.with_printf_echo(false),
        Err(e) => {
            println!("skipped: no usable GPU ({e})");
            return;
        }
    };
    let p = Program::build(SRC, "-cl-std=CL2.0").expect("builds");
    let (n, local) = (96usize, 48usize);
    let o = d.buffer::<i32>(n * 16).expect("o");
    let f = d.buffer::<f32>(n).expect("f");
    let q = d.buffer::<i64>(n).expect("q");
    let mut k = p.kernel("k").expect("kernel");
    k.set_arg(0, &o)
        .expect("o")
        .set_arg(1, &f)
        .expect("f")
        .set_arg(2, &q)
        .expect("q");
    d.launch(&k, &NdRange::new(&[n as u64]).local(&[local as u64]))
        .expect("launch");
    let o = o.read::<i32>().expect("read");
    let f = f.read::<f32>().expect("read");
    let q = q.read::<i64>().expect("read");
    let v = |g: usize| ((g * 7) % 11) as i32 - 5;
    for g in 0..n {
        let l = g % local;
        let (sg, lane) = (l / 32, l % 32);
        let size = (local - sg * 32).min(32);
        let first = g - lane;
        let members: Vec<i32> = (first..first + size).map(v).collect();
        let r = &o[g * 16..g * 16 + 16];
        let want = [
            size as i32,
            32,
            2,
            sg as i32,
            lane as i32,
            members.iter().all(|x| *x > -6) as i32,
            members.contains(&5) as i32,
            members[3],
            members.iter().sum(),
            *members.iter().min().unwrap_or(&0),
            *members.iter().max().unwrap_or(&0),
            members[..=lane].iter().sum(),
            members[..lane].iter().sum(),
            members[lane ^ 1],
            if lane + 2 < size {
                members[lane + 2]
            } else {
                members[lane + 2 - size] + 100
            },
            members[lane ^ 5],
        ];
        assert_eq!(r, want, "work-item {g}");
        let fmax = members[..lane]
            .iter()
            .map(|x| *x as f32)
            .fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(f[g], fmax, "work-item {g}");
        assert_eq!(q[g], members.iter().map(|x| (*x as i64) << 33).sum::<i64>());
    }
}
