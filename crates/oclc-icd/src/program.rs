//! Programs (from source or from this library's binaries; build, compile, link) and
//! kernels (arguments, queries, launches).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use oclc_lower::{KernelParamKind, KernelSignature};
use opencl_sys::*;

use crate::context::{Context, Svm};
use crate::handle::{ClObject, Kind, Ref};
use crate::mem::Mem;
use crate::platform::{Device, cl_ext_option};

pub struct Program {
    pub ctx: Ref<Context>,
    pub devices: Vec<Ref<Device>>,
    /// The OpenCL C source (for a program from a binary: the source the binary carries).
    pub source: String,
    pub from_binary: bool,
    pub state: Mutex<Build>,
    /// Kernel objects made from the program: it cannot be rebuilt while any exist.
    pub kernels: AtomicUsize,
}

impl ClObject for Program {
    const KIND: Kind = Kind::Program;
}

/// The state of a program's (last) build.
pub struct Build {
    pub status: cl_build_status,
    pub log: String,
    pub options: String,
    pub binary_type: cl_program_binary_type,
    pub lib: Option<Arc<oclc::Program>>,
    /// Header files of a `clCompileProgram`, kept for the link (directory removed on drop).
    pub headers: Option<HeaderDir>,
}

impl Default for Build {
    fn default() -> Build {
        Build {
            status: CL_BUILD_NONE,
            log: String::new(),
            options: String::new(),
            binary_type: CL_PROGRAM_BINARY_TYPE_NONE as cl_program_binary_type,
            lib: None,
            headers: None,
        }
    }
}

/// A temporary directory holding `clCompileProgram`'s input headers under their include
/// names, searched with `-I`.
pub struct HeaderDir(pub std::path::PathBuf);

impl Drop for HeaderDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl HeaderDir {
    /// Writes `headers` (include name, text) into a new directory.
    pub fn new(headers: &[(String, String)]) -> Result<HeaderDir, String> {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "oclc-icd-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let d = HeaderDir(dir.clone());
        for (name, text) in headers {
            if name.split('/').any(|c| c == "..") || name.starts_with('/') {
                return Err(format!(
                    "header include name '{name}' must be a relative path"
                ));
            }
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(d)
    }
}

/// Magic at the start of a program binary of this library.
const BINARY_MAGIC: &[u8; 8] = b"OCLCBIN1";

/// A program binary: magic, binary type, options and source, each length-prefixed. The
/// binary carries the source: loading it rebuilds the program.
pub fn encode_binary(binary_type: cl_program_binary_type, options: &str, source: &str) -> Vec<u8> {
    let mut out = BINARY_MAGIC.to_vec();
    out.extend_from_slice(&binary_type.to_le_bytes());
    for part in [options.as_bytes(), source.as_bytes()] {
        out.extend_from_slice(&(part.len() as u64).to_le_bytes());
        out.extend_from_slice(part);
    }
    out
}

/// The binary type, options and source of a binary; `None` when it is not one of ours.
pub fn decode_binary(b: &[u8]) -> Option<(cl_program_binary_type, String, String)> {
    let rest = b.strip_prefix(BINARY_MAGIC)?;
    let (ty, mut rest) = rest.split_at_checked(4)?;
    let ty = u32::from_le_bytes(ty.try_into().ok()?) as cl_program_binary_type;
    let mut parts = Vec::new();
    for _ in 0..2 {
        let (n, r) = rest.split_at_checked(8)?;
        let n = usize::try_from(u64::from_le_bytes(n.try_into().ok()?)).ok()?;
        let (part, r) = r.split_at_checked(n)?;
        parts.push(String::from_utf8(part.to_vec()).ok()?);
        rest = r;
    }
    if !rest.is_empty() {
        return None;
    }
    let source = parts.pop()?;
    let options = parts.pop()?;
    Some((ty, options, source))
}

/// OpenCL build options the library does not take and that change nothing here.
const IGNORED_OPTIONS: &[&str] = &["-g", "-enable-link-options", "-cl-no-subgroup-ifp"];

/// The options the library gets for `user` options: the device's extensions and features
/// first, then the application's, less the ones that mean nothing to oclc.
pub fn library_options(user: &str, extra_dirs: &[&std::path::Path]) -> String {
    // `__OPENCL_VERSION__` is the device's OpenCL version, which the runtime (not the
    // compiler, as in clang) defines; the devices have no images, so `__IMAGE_SUPPORT__` is
    // not defined (OpenCL C 6.13.16).
    let mut out = cl_ext_option() + " -D__OPENCL_VERSION__=300 -U__IMAGE_SUPPORT__";
    for d in extra_dirs {
        out.push_str(" -I ");
        out.push_str(&d.display().to_string());
    }
    for w in user.split_whitespace() {
        if IGNORED_OPTIONS.contains(&w) || w == "-create-library" {
            continue;
        }
        out.push(' ');
        out.push_str(w);
    }
    out
}

/// Builds `source` with the application's `options`: the library program, or the error
/// code and the build log.
pub fn build(
    source: &str,
    options: &str,
    dirs: &[&std::path::Path],
) -> Result<(Arc<oclc::Program>, String), (cl_int, String)> {
    let opts = library_options(options, dirs);
    match oclc::Program::build_named("<source>", source.as_bytes(), &opts) {
        Ok(p) => {
            let log = p.build_log().to_string();
            Ok((Arc::new(p), log))
        }
        Err(oclc::BuildError::Options(m)) => {
            Err((CL_INVALID_BUILD_OPTIONS, format!("error: {m}\n")))
        }
        Err(oclc::BuildError::Compile { log, .. }) => Err((CL_BUILD_PROGRAM_FAILURE, log)),
        Err(e) => Err((CL_BUILD_PROGRAM_FAILURE, format!("error: {e}\n"))),
    }
}

/// Compiles a built program for each GPU among `devices` now (PTX, loaded on the GPU), so
/// that code a GPU cannot run fails the build with the reason in the log rather than the
/// first launch. Nothing to do for the cpu device.
#[cfg_attr(not(feature = "cuda"), allow(unused_variables))]
pub fn prepare(devices: &[Ref<Device>], lib: &Arc<oclc::Program>) -> Result<(), (cl_int, String)> {
    #[cfg(feature = "cuda")]
    for d in devices {
        if let crate::platform::Backend::Cuda(w) = &d.backend {
            w.prepare(lib.clone())
                .map_err(|m| (CL_BUILD_PROGRAM_FAILURE, format!("error: {m}\n")))?;
        }
    }
    Ok(())
}

/// The files an include read from disk: absolute path and text.
pub type IncludedFiles = Vec<(std::path::PathBuf, std::sync::Arc<[u8]>)>;

/// The front end alone (`clCompileProgram`): the log and the files its includes read, or the
/// error code and the log.
pub fn compile(
    source: &str,
    options: &str,
    dirs: &[&std::path::Path],
) -> Result<(String, IncludedFiles), (cl_int, String)> {
    let opts = library_options(options, dirs);
    let parsed = oclc::program::BuildOptions::parse(&opts)
        .map_err(|e| (CL_INVALID_BUILD_OPTIONS, format!("error: {e}\n")))?;
    let outcome = oclc::check_source("<source>", source.as_bytes(), &parsed.check);
    let log = outcome.render_text();
    if outcome.has_errors() {
        return Err((CL_COMPILE_PROGRAM_FAILURE, log));
    }
    let files = outcome
        .sm
        .files()
        .filter(|(id, _)| *id != outcome.main)
        .filter_map(|(_, f)| {
            let path = std::path::absolute(&f.name).ok()?;
            path.is_file().then(|| (path, f.text.clone()))
        })
        .collect();
    Ok((log, files))
}

/// Where a compiled program keeps copies of the files its includes read (`abs/` + their
/// absolute path under its header directory), so that linking it finds them after the
/// application deleted them.
pub fn snapshot_includes(dir: &HeaderDir, files: &IncludedFiles) -> Result<(), String> {
    for (path, text) in files {
        let rel = path.strip_prefix("/").unwrap_or(path);
        let to = dir.0.join("abs").join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&to, text).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    Ok(())
}

/// The copies of `options`' `-I` directories under a header directory `dir` that
/// [`snapshot_includes`] filled, for those it has.
pub fn snapshot_dirs(dir: &HeaderDir, options: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut words = options.split_whitespace();
    while let Some(w) = words.next() {
        let inc = match w {
            "-I" => words.next().unwrap_or(""),
            _ => w.strip_prefix("-I").unwrap_or(""),
        };
        if inc.is_empty() {
            continue;
        }
        let Ok(abs) = std::path::absolute(inc) else {
            continue;
        };
        let copy = dir
            .0
            .join("abs")
            .join(abs.strip_prefix("/").unwrap_or(&abs));
        if copy.is_dir() {
            out.push(copy);
        }
    }
    out
}

/// A kernel argument as `clSetKernelArg` gave it.
#[derive(Clone)]
pub enum ArgValue {
    /// A buffer, as `clSetKernelArg` set it: not a reference that keeps it alive (the
    /// application may release it; the kernel then cannot be enqueued until it is set again).
    Mem(std::sync::Weak<crate::handle::Obj<Mem>>),
    /// A buffer held by an enqueued launch until it has run.
    Held(Ref<Mem>),
    /// A NULL buffer.
    Null,
    /// `__local` bytes.
    Local(usize),
    Bytes(Vec<u8>),
    /// An SVM pointer: the allocation and the offset in it.
    Svm(Arc<Svm>, usize),
}

pub struct Kernel {
    pub program: Ref<Program>,
    pub lib: Arc<oclc::Program>,
    pub sig: KernelSignature,
    pub args: Mutex<Vec<Option<ArgValue>>>,
    /// CL_KERNEL_EXEC_INFO_SVM_PTRS: SVM allocations the kernel may use indirectly.
    pub exec_svm: Mutex<Vec<Arc<Svm>>>,
}

impl ClObject for Kernel {
    const KIND: Kind = Kind::Kernel;
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.kernels.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Kernel {
    pub fn new(program: Ref<Program>, lib: Arc<oclc::Program>, sig: KernelSignature) -> Kernel {
        program.kernels.fetch_add(1, Ordering::Relaxed);
        let n = sig.params.len();
        Kernel {
            program,
            lib,
            sig,
            args: Mutex::new(vec![None; n]),
            exec_svm: Mutex::new(Vec::new()),
        }
    }

    /// `__local` bytes of the kernel's own `local` variables.
    pub fn static_local_bytes(&self) -> u64 {
        let m = self.lib.ir();
        m.locals
            .iter()
            .filter(|l| {
                m.functions
                    .get(l.kernel.0 as usize)
                    .is_some_and(|f| f.name == self.sig.name)
            })
            .map(|l| l.size)
            .sum()
    }
}

/// CL_KERNEL_ARG_ADDRESS_QUALIFIER of a parameter.
pub fn address_qualifier(kind: &KernelParamKind) -> cl_uint {
    match kind {
        KernelParamKind::Pointer { space, .. } => match space {
            oclc::program::AddrSpace::Global => CL_KERNEL_ARG_ADDRESS_GLOBAL,
            oclc::program::AddrSpace::Constant => CL_KERNEL_ARG_ADDRESS_CONSTANT,
            oclc::program::AddrSpace::Local => CL_KERNEL_ARG_ADDRESS_LOCAL,
            _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
        },
        _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
    }
}

/// CL_KERNEL_ARG_TYPE_NAME and CL_KERNEL_ARG_TYPE_QUALIFIER from the parameter's C type as
/// diagnostics print it (`__global const float *restrict`): the type without address-space
/// and type qualifiers and without spaces (`float*`), unsigned scalars as `uint` etc.
pub fn type_name_and_qualifier(c_type: &str, kind: &KernelParamKind) -> (String, u64) {
    let spaced = c_type.replace('*', " * ");
    let words: Vec<&str> = spaced.split_whitespace().collect();
    let star = words.iter().position(|w| *w == "*");
    let mut q: u64 = 0;
    let mut kept: Vec<String> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let before_star = star.is_none_or(|s| i < s);
        match *w {
            "__global" | "global" | "__local" | "local" | "__constant" | "constant"
            | "__private" | "private" | "__generic" | "generic" | "__kernel" => {}
            "const" => {
                if star.is_some() && before_star {
                    q |= CL_KERNEL_ARG_TYPE_CONST as u64;
                }
            }
            "volatile" => {
                if star.is_some() && before_star {
                    q |= CL_KERNEL_ARG_TYPE_VOLATILE as u64;
                }
            }
            "restrict" | "__restrict" => q |= CL_KERNEL_ARG_TYPE_RESTRICT as u64,
            w => kept.push(w.to_string()),
        }
    }
    if let KernelParamKind::Pointer {
        space: oclc::program::AddrSpace::Constant,
        ..
    } = kind
    {
        q |= CL_KERNEL_ARG_TYPE_CONST as u64;
    }
    let mut name = kept.join(" ");
    for (long, short) in [
        ("unsigned char", "uchar"),
        ("unsigned short", "ushort"),
        ("unsigned int", "uint"),
        ("unsigned long", "ulong"),
    ] {
        name = name.replace(long, short);
    }
    if name == "unsigned" {
        name = "uint".into();
    }
    let name = name.replace(" *", "*").replace("* ", "*");
    (name.trim().to_string(), q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oclc::program::AddrSpace;

    fn ptr(space: AddrSpace) -> KernelParamKind {
        KernelParamKind::Pointer {
            space,
            pointee: None,
            pointee_size: 4,
        }
    }

    #[test]
    fn arg_type_names_drop_qualifiers_and_spaces() {
        let (n, q) =
            type_name_and_qualifier("__global const float *restrict", &ptr(AddrSpace::Global));
        assert_eq!(n, "float*");
        assert_eq!(
            q,
            (CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT) as u64
        );
        let (n, q) =
            type_name_and_qualifier("__constant unsigned int *", &ptr(AddrSpace::Constant));
        assert_eq!(n, "uint*");
        assert_eq!(q, CL_KERNEL_ARG_TYPE_CONST as u64);
        let (n, q) = type_name_and_qualifier("__global volatile float4 *", &ptr(AddrSpace::Global));
        assert_eq!(
            (n.as_str(), q),
            ("float4*", CL_KERNEL_ARG_TYPE_VOLATILE as u64)
        );
        // `const` on the parameter itself is not a type qualifier of the argument.
        let (n, q) = type_name_and_qualifier("const int", &KernelParamKind::Other);
        assert_eq!((n.as_str(), q), ("int", 0));
    }

    #[test]
    fn binaries_round_trip_and_foreign_bytes_are_refused() {
        let b = encode_binary(2, "-cl-std=CL2.0", "kernel void k() {}");
        assert_eq!(
            decode_binary(&b),
            Some((
                2,
                "-cl-std=CL2.0".to_string(),
                "kernel void k() {}".to_string()
            ))
        );
        assert_eq!(decode_binary(b"\x7fELF...."), None);
        assert_eq!(decode_binary(&b[..b.len() - 1]), None);
        let mut longer = b.clone();
        longer.push(0);
        assert_eq!(decode_binary(&longer), None);
    }

    #[test]
    fn build_options_put_the_device_extensions_first_and_drop_spec_only_flags() {
        let o = library_options("-g -cl-std=CL2.0 -create-library -DX=1", &[]);
        assert!(o.starts_with("-cl-ext=-"), "{o}");
        assert!(o.contains("-__opencl_c_images"), "{o}");
        assert!(!o.contains("-cl_khr_fp64"), "{o}");
        assert!(
            o.contains(" -D__OPENCL_VERSION__=300 -U__IMAGE_SUPPORT__ "),
            "{o}"
        );
        assert!(o.ends_with(" -cl-std=CL2.0 -DX=1"), "{o}");
    }
}
