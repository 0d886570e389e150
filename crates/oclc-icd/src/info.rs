//! Values of `clGet*Info` queries as the bytes the application receives. Every query builds
//! one [`Info`]; one function in [`crate::ffi`] copies it out under the specification's size
//! rules, so no query handles `param_value_size` itself.

use std::ffi::c_void;

use opencl_sys::*;

/// The bytes of one query's answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info(pub Vec<u8>);

impl Info {
    pub fn u32(v: u32) -> Info {
        Info(v.to_ne_bytes().to_vec())
    }
    pub fn i32(v: i32) -> Info {
        Info(v.to_ne_bytes().to_vec())
    }
    pub fn u64(v: u64) -> Info {
        Info(v.to_ne_bytes().to_vec())
    }
    pub fn usize(v: usize) -> Info {
        Info(v.to_ne_bytes().to_vec())
    }
    /// A `cl_bool`.
    pub fn bool(v: bool) -> Info {
        Info::u32(if v { CL_TRUE } else { CL_FALSE })
    }
    /// A NUL-terminated string.
    pub fn str(s: &str) -> Info {
        let mut v = s.as_bytes().to_vec();
        v.push(0);
        Info(v)
    }
    pub fn usizes(v: &[usize]) -> Info {
        Info(v.iter().flat_map(|x| x.to_ne_bytes()).collect())
    }
    pub fn u64s(v: &[u64]) -> Info {
        Info(v.iter().flat_map(|x| x.to_ne_bytes()).collect())
    }
    pub fn isizes(v: &[isize]) -> Info {
        Info(v.iter().flat_map(|x| x.to_ne_bytes()).collect())
    }
    /// A handle (or an array of them).
    pub fn ptr(p: *mut c_void) -> Info {
        Info::usize(p as usize)
    }
    pub fn ptrs(v: &[*mut c_void]) -> Info {
        Info(v.iter().flat_map(|p| (*p as usize).to_ne_bytes()).collect())
    }
    /// An array of `cl_name_version` (a version and a 64-byte name).
    pub fn name_versions(v: &[(u32, &str)]) -> Info {
        let mut out = Vec::with_capacity(v.len() * 68);
        for (version, name) in v {
            out.extend_from_slice(&version.to_ne_bytes());
            let mut n = [0u8; CL_NAME_VERSION_MAX_NAME_SIZE];
            let b = name.as_bytes();
            let len = b.len().min(n.len() - 1);
            n[..len].copy_from_slice(&b[..len]);
            out.extend_from_slice(&n);
        }
        Info(out)
    }
    pub fn empty() -> Info {
        Info(Vec::new())
    }
}

/// `CL_MAKE_VERSION`.
pub const fn version(major: u32, minor: u32, patch: u32) -> u32 {
    (major << 22) | (minor << 12) | patch
}
