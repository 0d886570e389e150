//! Enumerations and flag values the builtins take, with clang's values (`opencl-c-base.h`).

use super::macro_defined;
use oclc_syntax::{ClStd, LangOptions};

/// `CLK_LOCAL_MEM_FENCE` (`cl_mem_fence_flags`, a `uint`).
pub const CLK_LOCAL_MEM_FENCE: u32 = 0x01;
/// `CLK_GLOBAL_MEM_FENCE`.
pub const CLK_GLOBAL_MEM_FENCE: u32 = 0x02;
/// `CLK_IMAGE_MEM_FENCE` (OpenCL C 2.0 and later).
pub const CLK_IMAGE_MEM_FENCE: u32 = 0x04;

/// `memory_order` values (clang's `__ATOMIC_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryOrder {
    Relaxed = 0,
    Acquire = 2,
    Release = 3,
    AcqRel = 4,
    SeqCst = 5,
}

/// `memory_scope` values (clang's `__OPENCL_MEMORY_SCOPE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryScope {
    WorkItem = 0,
    WorkGroup = 1,
    Device = 2,
    AllSvmDevices = 3,
    SubGroup = 4,
}

impl MemoryOrder {
    pub fn from_value(v: i64) -> Option<MemoryOrder> {
        Some(match v {
            0 => MemoryOrder::Relaxed,
            2 => MemoryOrder::Acquire,
            3 => MemoryOrder::Release,
            4 => MemoryOrder::AcqRel,
            5 => MemoryOrder::SeqCst,
            _ => return None,
        })
    }
}

impl MemoryScope {
    pub fn from_value(v: i64) -> Option<MemoryScope> {
        Some(match v {
            0 => MemoryScope::WorkItem,
            1 => MemoryScope::WorkGroup,
            2 => MemoryScope::Device,
            3 => MemoryScope::AllSvmDevices,
            4 => MemoryScope::SubGroup,
            _ => return None,
        })
    }
}

/// Which of the two builtin enums an enumerator belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinEnum {
    MemoryOrder,
    MemoryScope,
}

/// The enumerators `opencl-c-base.h` declares in this mode, in declaration order:
/// `memory_order` and `memory_scope` exist from OpenCL C 2.0, `memory_order_seq_cst` needs
/// `__opencl_c_atomic_order_seq_cst`, `memory_scope_all_svm_devices` needs
/// `__opencl_c_atomic_scope_all_devices` (and `memory_scope_all_devices` also CL3.0), and
/// `memory_scope_sub_group` needs sub-groups.
pub fn enumerators(lang: &LangOptions) -> Vec<(&'static str, BuiltinEnum, i64)> {
    let mut v = Vec::new();
    if lang.std < ClStd::Cl20 {
        return v;
    }
    let scope = BuiltinEnum::MemoryScope;
    v.push((
        "memory_scope_work_item",
        scope,
        MemoryScope::WorkItem as i64,
    ));
    v.push((
        "memory_scope_work_group",
        scope,
        MemoryScope::WorkGroup as i64,
    ));
    v.push(("memory_scope_device", scope, MemoryScope::Device as i64));
    if macro_defined(lang, "__opencl_c_atomic_scope_all_devices") {
        v.push((
            "memory_scope_all_svm_devices",
            scope,
            MemoryScope::AllSvmDevices as i64,
        ));
        if lang.std >= ClStd::Cl30 {
            v.push((
                "memory_scope_all_devices",
                scope,
                MemoryScope::AllSvmDevices as i64,
            ));
        }
    }
    if macro_defined(lang, "__opencl_subgroup_builtins") {
        v.push((
            "memory_scope_sub_group",
            scope,
            MemoryScope::SubGroup as i64,
        ));
    }
    let order = BuiltinEnum::MemoryOrder;
    v.push(("memory_order_relaxed", order, MemoryOrder::Relaxed as i64));
    v.push(("memory_order_acquire", order, MemoryOrder::Acquire as i64));
    v.push(("memory_order_release", order, MemoryOrder::Release as i64));
    v.push(("memory_order_acq_rel", order, MemoryOrder::AcqRel as i64));
    if macro_defined(lang, "__opencl_c_atomic_order_seq_cst") {
        v.push(("memory_order_seq_cst", order, MemoryOrder::SeqCst as i64));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerators_per_mode() {
        assert!(enumerators(&LangOptions::new(ClStd::Cl12)).is_empty());
        let cl20 = enumerators(&LangOptions::new(ClStd::Cl20));
        assert!(cl20.contains(&("memory_order_seq_cst", BuiltinEnum::MemoryOrder, 5)));
        assert!(cl20.contains(&("memory_scope_sub_group", BuiltinEnum::MemoryScope, 4)));
        assert!(!cl20.iter().any(|e| e.0 == "memory_scope_all_devices"));
        let mut cl30 = LangOptions::new(ClStd::Cl30);
        assert!(
            enumerators(&cl30)
                .iter()
                .any(|e| e.0 == "memory_scope_all_devices")
        );
        // The header defines `__opencl_c_atomic_order_seq_cst` for SPIR in 3.0 whatever
        // -cl-ext says, as clang-19 does.
        cl30.apply_cl_ext("-__opencl_c_atomic_order_seq_cst")
            .unwrap_or(());
        assert!(
            enumerators(&cl30)
                .iter()
                .any(|e| e.0 == "memory_order_seq_cst")
        );
    }
}
