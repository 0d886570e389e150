//! How one OpenCL ND-range becomes CUDA launches.
//!
//! - **Non-uniform work-groups**: where the local size does not divide the global size, the
//!   last work-group of a dimension is smaller. Each dimension splits into its full groups
//!   and that one partial group, so a range becomes up to 2^dims launches ([`Region`]s), each
//!   with one block shape. The hidden ND-range parameter ([`NdParam`]) tells every launch
//!   its first work-group, the enqueued local size and the total group count, so
//!   `get_group_id`, `get_global_id`, `get_enqueued_local_size` and `get_num_groups` give
//!   their OpenCL values while `get_local_size` is the block's actual size.
//! - **Coarsening**: a region of a [`KernelAbi::coarsenable`] kernel whose group count in
//!   dimension 0 divides by `k` runs `1/k` of the blocks, each thread doing the work-items of
//!   `k` consecutive work-groups (same local id), when that still leaves enough threads to
//!   fill the GPU.

use crate::{KernelAbi, ND_PARAM_BYTES};

/// An ND-range: 1 to 3 dimensions; `local` absent lets the device choose.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NdRange {
    pub global: Vec<u64>,
    pub local: Option<Vec<u64>>,
    pub offset: Option<Vec<u64>>,
}

impl NdRange {
    pub fn new(global: &[u64]) -> NdRange {
        NdRange {
            global: global.to_vec(),
            local: None,
            offset: None,
        }
    }

    pub fn local(mut self, local: &[u64]) -> NdRange {
        self.local = Some(local.to_vec());
        self
    }

    pub fn offset(mut self, offset: &[u64]) -> NdRange {
        self.offset = Some(offset.to_vec());
        self
    }
}

/// The most work-items in one CUDA block.
const MAX_BLOCK: u64 = 1024;

/// The most blocks per launch in dimension 0, and in dimensions 1 and 2.
const MAX_GRID: [u64; 3] = [(1 << 31) - 1, 65535, 65535];

/// `a x b x c`, as ND-range errors show sizes.
fn dims_text(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" x ")
}

/// One CUDA launch of a range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Blocks per dimension (after coarsening).
    pub grid: [u32; 3],
    /// Work-items per block: the local size, or the partial group's size.
    pub block: [u32; 3],
    /// The OpenCL work-group the launch's first block starts at.
    pub first_group: [u32; 3],
    /// Work-groups each block runs in dimension 0.
    pub coarsen: u32,
}

/// The launches of one ND-range and the values every work-item query derives from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub dims: u32,
    pub offset: [u64; 3],
    pub global: [u64; 3],
    /// The enqueued (uniform) local size.
    pub local: [u64; 3],
    /// Work-groups per dimension, the partial one included.
    pub groups: [u64; 3],
    pub regions: Vec<Region>,
}

/// The hidden last kernel parameter of one launch, as the emitted PTX reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NdParam(pub Vec<u8>);

impl Plan {
    /// Work-items in one full work-group.
    pub fn group_items(&self) -> u64 {
        self.local.iter().product()
    }

    /// The hidden ND-range parameter for launching `r`.
    pub fn nd_param(&self, r: &Region) -> NdParam {
        let mut nd = Vec::with_capacity(ND_PARAM_BYTES as usize);
        for x in self.offset.iter().chain(&self.global) {
            nd.extend_from_slice(&x.to_le_bytes());
        }
        nd.extend_from_slice(&self.dims.to_le_bytes());
        nd.extend_from_slice(&[0; 4]);
        let words = r
            .first_group
            .iter()
            .map(|x| u64::from(*x))
            .chain(self.local)
            .chain(self.groups);
        for x in words {
            // Every one is below 2^32: local sizes are at most 1024 and group counts are
            // checked in `plan`.
            nd.extend_from_slice(&(x as u32).to_le_bytes());
        }
        nd.resize(ND_PARAM_BYTES as usize, 0);
        NdParam(nd)
    }
}

/// Splits `range` into launches for `abi`. Coarsening uses at most `coarsen` groups per
/// block, and only while at least `min_threads` threads are left to run.
pub fn plan(
    abi: &KernelAbi,
    range: &NdRange,
    coarsen: u32,
    min_threads: u64,
) -> Result<Plan, String> {
    let dims = range.global.len();
    if !(1..=3).contains(&dims) {
        return Err(format!("{dims} dimensions (1 to 3 allowed)"));
    }
    let mut global = [1u64; 3];
    global[..dims].copy_from_slice(&range.global);
    // Checked as clEnqueueNDRangeKernel checks: the work-items must fit size_t.
    if global
        .iter()
        .try_fold(1u64, |a, &g| a.checked_mul(g))
        .is_none()
    {
        return Err(format!(
            "global: {} work-items are more than size_t counts (2^64 - 1)",
            dims_text(&range.global)
        ));
    }
    let mut offset = [0u64; 3];
    if let Some(o) = &range.offset {
        if o.len() != dims {
            return Err("the offset has a different dimension count".into());
        }
        offset[..dims].copy_from_slice(o);
    }
    for k in 0..dims {
        if offset[k].checked_add(global[k]).is_none() {
            return Err(format!(
                "offset: offset {} + global size {} in dimension {k} is more than size_t \
                 holds (2^64 - 1)",
                offset[k], global[k]
            ));
        }
    }
    abi.admits(&global, &offset)?;
    let mut local = [1u64; 3];
    match (&range.local, abi.reqd_work_group_size) {
        (Some(l), _) => {
            if l.len() != dims {
                return Err("the local size has a different dimension count".into());
            }
            local[..dims].copy_from_slice(l);
        }
        (None, Some(r)) => {
            for (d, x) in local.iter_mut().zip(r) {
                *d = u64::from(x);
            }
        }
        (None, None) => {
            // The largest divisor of the first dimension up to 256; 1 elsewhere.
            local[0] = (1..=256u64.min(global[0].max(1)))
                .rev()
                .find(|d| global[0].is_multiple_of(*d))
                .unwrap_or(1);
        }
    }
    if let Some(r) = abi.reqd_work_group_size
        && local != r.map(u64::from)
    {
        return Err(format!(
            "local size {local:?} differs from reqd_work_group_size {r:?}"
        ));
    }
    if local.contains(&0) || global.contains(&0) {
        return Err("zero-sized dimension".into());
    }
    let items = local.iter().try_fold(1u64, |a, &l| a.checked_mul(l));
    if items.is_none_or(|n| n > MAX_BLOCK) {
        return Err(format!(
            "local: {} work-items per work-group, more than the cuda device's {MAX_BLOCK} \
             (CL_DEVICE_MAX_WORK_GROUP_SIZE)",
            dims_text(&local[..dims])
        ));
    }
    let full = [0, 1, 2].map(|k| global[k] / local[k]);
    let rest = [0, 1, 2].map(|k| global[k] % local[k]);
    let groups = [0, 1, 2].map(|k| full[k] + u64::from(rest[k] > 0));
    for k in 0..3 {
        if groups[k] > MAX_GRID[k] {
            return Err(format!("{} work-groups in dimension {k}", groups[k]));
        }
    }
    // Per dimension, the parts a launch may take: (blocks, block size, first group).
    let parts = |k: usize| {
        let mut v = Vec::with_capacity(2);
        if full[k] > 0 {
            v.push((full[k], local[k], 0));
        }
        if rest[k] > 0 {
            v.push((1, rest[k], full[k]));
        }
        v
    };
    let mut regions = Vec::new();
    for z in parts(2) {
        for y in parts(1) {
            for x in parts(0) {
                let grid = [x.0, y.0, z.0];
                let block = [x.1, y.1, z.1];
                let k = if abi.coarsenable {
                    pick_coarsen(grid, block.iter().product(), coarsen, min_threads)
                } else {
                    1
                };
                regions.push(Region {
                    grid: [
                        (grid[0] / u64::from(k)) as u32,
                        grid[1] as u32,
                        grid[2] as u32,
                    ],
                    block: block.map(|b| b as u32),
                    first_group: [x.2 as u32, y.2 as u32, z.2 as u32],
                    coarsen: k,
                });
            }
        }
    }
    Ok(Plan {
        dims: dims as u32,
        offset,
        global,
        local,
        groups,
        regions,
    })
}

/// The largest factor up to `max` that divides the blocks of dimension 0 and leaves at
/// least `min_threads` threads; 1 when none does.
fn pick_coarsen(grid: [u64; 3], block_items: u64, max: u32, min_threads: u64) -> u32 {
    (2..=max.min(64))
        .rev()
        .find(|&k| {
            let k = u64::from(k);
            let threads = (grid[0] / k)
                .saturating_mul(grid[1])
                .saturating_mul(grid[2])
                .saturating_mul(block_items);
            grid[0].is_multiple_of(k) && threads >= min_threads
        })
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abi(coarsenable: bool) -> KernelAbi {
        KernelAbi {
            name: "k".into(),
            params: vec![],
            shared_static: 16,
            reqd_work_group_size: None,
            max_global_end: Some(crate::MAX_GLOBAL_END_32),
            read_only: vec![],
            vector_params: vec![],
            coarsenable,
            uses_globals: false,
            printf: false,
        }
    }

    fn u32_at(nd: &NdParam, at: usize) -> u32 {
        let b: [u8; 4] = nd.0[at..at + 4].try_into().expect("4 bytes");
        u32::from_le_bytes(b)
    }

    fn u64_at(nd: &NdParam, at: usize) -> u64 {
        let b: [u8; 8] = nd.0[at..at + 8].try_into().expect("8 bytes");
        u64::from_le_bytes(b)
    }

    #[test]
    fn picks_a_dividing_local_size() {
        let p = plan(&abi(false), &NdRange::new(&[1000]), 1, 0).expect("plan");
        assert_eq!(p.local, [250, 1, 1]);
        assert_eq!(p.regions.len(), 1);
        assert_eq!(p.regions[0].grid, [4, 1, 1]);
        assert_eq!(p.regions[0].block, [250, 1, 1]);
        let nd = p.nd_param(&p.regions[0]);
        assert_eq!(nd.0.len(), ND_PARAM_BYTES as usize);
        assert_eq!(u64_at(&nd, 24), 1000);
        assert_eq!(u32_at(&nd, 48), 1);
        assert_eq!(u32_at(&nd, 68), 250);
        assert_eq!(u32_at(&nd, 80), 4);
    }

    #[test]
    fn non_uniform_1d_adds_a_partial_group() {
        let p = plan(&abi(false), &NdRange::new(&[10]).local(&[4]), 1, 0).expect("plan");
        assert_eq!(p.groups, [3, 1, 1]);
        let shapes: Vec<_> = p
            .regions
            .iter()
            .map(|r| (r.grid, r.block, r.first_group))
            .collect();
        assert_eq!(
            shapes,
            vec![
                ([2, 1, 1], [4, 1, 1], [0, 0, 0]),
                ([1, 1, 1], [2, 1, 1], [2, 0, 0])
            ]
        );
        let nd = p.nd_param(&p.regions[1]);
        assert_eq!(u32_at(&nd, 56), 2, "first group");
        assert_eq!(u32_at(&nd, 68), 4, "enqueued local size");
        assert_eq!(u32_at(&nd, 80), 3, "group count");
    }

    #[test]
    fn non_uniform_3d_makes_eight_launches_covering_every_item() {
        let p = plan(
            &abi(false),
            &NdRange::new(&[10, 7, 5])
                .local(&[4, 2, 3])
                .offset(&[1, 2, 3]),
            1,
            0,
        )
        .expect("plan");
        assert_eq!(p.regions.len(), 8);
        assert_eq!(p.groups, [3, 4, 2]);
        let items: u64 = p
            .regions
            .iter()
            .map(|r| {
                (0..3)
                    .map(|k| u64::from(r.grid[k]) * u64::from(r.block[k]))
                    .product::<u64>()
            })
            .sum();
        assert_eq!(items, 10 * 7 * 5);
        let last = p.regions.last().expect("a region");
        assert_eq!(last.block, [2, 1, 2]);
        assert_eq!(last.first_group, [2, 3, 1]);
        assert_eq!(u64_at(&p.nd_param(last), 16), 3, "offset z");
    }

    #[test]
    fn only_the_partial_dimension_splits() {
        let p = plan(&abi(false), &NdRange::new(&[8, 5]).local(&[4, 2]), 1, 0).expect("plan");
        let shapes: Vec<_> = p.regions.iter().map(|r| (r.grid, r.block)).collect();
        assert_eq!(shapes, vec![([2, 2, 1], [4, 2, 1]), ([2, 1, 1], [4, 1, 1])]);
    }

    #[test]
    fn coarsening_divides_dimension_0_and_keeps_the_gpu_full() {
        let r = NdRange::new(&[1 << 24]).local(&[256]);
        let p = plan(&abi(true), &r, 4, 1 << 19).expect("plan");
        assert_eq!(p.regions[0].coarsen, 4);
        assert_eq!(p.regions[0].grid, [16384, 1, 1]);
        // Too few threads left at 4: 2 still fills the minimum.
        let p = plan(&abi(true), &r, 4, 1 << 23).expect("plan");
        assert_eq!(p.regions[0].coarsen, 2);
        // Not coarsenable, or disabled.
        assert_eq!(
            plan(&abi(false), &r, 4, 0).expect("plan").regions[0].coarsen,
            1
        );
        assert_eq!(
            plan(&abi(true), &r, 1, 0).expect("plan").regions[0].coarsen,
            1
        );
        // 3 groups: 4 and 2 do not divide, 3 does.
        let p = plan(&abi(true), &NdRange::new(&[768]).local(&[256]), 4, 0).expect("plan");
        assert_eq!((p.regions[0].coarsen, p.regions[0].grid[0]), (3, 1));
        // The partial group's launch has one block: never coarsened.
        let p = plan(&abi(true), &NdRange::new(&[1030]).local(&[256]), 4, 0).expect("plan");
        let ks: Vec<_> = p.regions.iter().map(|r| (r.coarsen, r.grid[0])).collect();
        assert_eq!(ks, vec![(4, 1), (1, 1)]);
    }

    #[test]
    fn the_largest_grid_plans_without_overflow() {
        let x = ((1u64 << 31) - 1) * 1024;
        let r = NdRange::new(&[x]).local(&[1024]);
        // PTX with 32-bit work-item ids refuses this range; 64-bit PTX plans it.
        assert!(plan(&abi(true), &r, 8, u64::MAX).is_err());
        let mut wide = abi(true);
        wide.max_global_end = None;
        let p = plan(&wide, &r, 8, u64::MAX).expect("plan");
        assert_eq!(p.groups, [(1 << 31) - 1, 1, 1]);
        // Every dimension at CUDA's grid maximum: 2^63 work-items, which size_t counts.
        let r = NdRange::new(&[(1 << 31) - 1, 65535, 65535]).local(&[1, 1, 1]);
        let p = plan(&wide, &r, 8, u64::MAX).expect("plan");
        assert_eq!(p.regions.len(), 1);
        assert_eq!(p.regions[0].coarsen, 1);
        assert_eq!(p.groups, [(1 << 31) - 1, 65535, 65535]);
        // 1024 work-items per group on top of that are more than size_t counts.
        let r = NdRange::new(&[x, 65535, 65535]).local(&[1024, 1, 1]);
        assert!(plan(&wide, &r, 8, u64::MAX).is_err());
    }

    #[test]
    fn bad_ranges_are_errors() {
        let a = abi(false);
        for r in [
            NdRange::new(&[]),
            NdRange::new(&[1, 2, 3, 4]),
            NdRange::new(&[0]),
            NdRange::new(&[8]).local(&[0]),
            NdRange::new(&[8]).local(&[2, 2]),
            NdRange::new(&[8]).offset(&[2, 2]),
            NdRange::new(&[2048]).local(&[2048]),
            NdRange::new(&[1 << 20, 1 << 20]).local(&[1, 1]),
        ] {
            assert!(plan(&a, &r, 1, 0).is_err(), "{r:?}");
        }
        // Products and sums that wrap in 64 bits are errors, not empty launches.
        let mut wide = abi(false);
        wide.max_global_end = None;
        let big = 1u64 << 32;
        let e = plan(&wide, &NdRange::new(&[big, big, big]), 1, 0).expect_err("wraps");
        assert!(
            e.starts_with("global: 4294967296 x 4294967296 x 4294967296"),
            "{e}"
        );
        let r = NdRange::new(&[big, big / 2, 1]).local(&[big, big, 1]);
        let e = plan(&wide, &r, 1, 0).expect_err("wraps");
        assert!(e.starts_with("local: 4294967296 x 4294967296 x 1"), "{e}");
        let r = NdRange::new(&[2]).offset(&[u64::MAX]);
        let e = plan(&wide, &r, 1, 0).expect_err("wraps");
        assert!(
            e.starts_with("offset: offset 18446744073709551615 + global size 2"),
            "{e}"
        );
        let mut reqd = abi(false);
        reqd.reqd_work_group_size = Some([8, 1, 1]);
        assert!(plan(&reqd, &NdRange::new(&[16]).local(&[4]), 1, 0).is_err());
        let p = plan(&reqd, &NdRange::new(&[20]), 1, 0).expect("reqd size");
        assert_eq!(p.regions.len(), 2);
    }
}
