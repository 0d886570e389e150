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
    /// The IR of a compiled object (`clCompileProgram`) or a library (`-create-library`),
    /// which `clLinkProgram` links.
    pub unit: Option<Arc<oclc::CompiledUnit>>,
    /// The translation units the program was made of, as its binary carries them.
    pub units: Vec<UnitSource>,
}

/// One translation unit of a program as the application gave it: its compile options,
/// source and `clCompileProgram`'s input headers (include name, text); a binary carries
/// these, and loading it compiles them again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitSource {
    pub options: String,
    pub source: String,
    pub headers: Vec<(String, String)>,
}

impl Default for Build {
    fn default() -> Build {
        Build {
            status: CL_BUILD_NONE,
            log: String::new(),
            options: String::new(),
            binary_type: CL_PROGRAM_BINARY_TYPE_NONE as cl_program_binary_type,
            lib: None,
            unit: None,
            units: Vec::new(),
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
const BINARY_MAGIC: &[u8; 8] = b"OCLCBIN2";

/// Magic of the earlier format (binary type, options, source of one unit): still loaded, as
/// applications keep binaries in caches (PyOpenCL's) across versions.
const BINARY_MAGIC_V1: &[u8; 8] = b"OCLCBIN1";

/// A program binary: magic, binary type, the number of translation units, then each unit's
/// options, source, number of input headers and their include names and texts, all
/// length-prefixed. Loading it compiles the units again (and links them
/// for a library or an executable of several): the IR is not serialized, as the front end
/// rebuilds it exactly from these, and the format stays independent of the IR's.
pub fn encode_binary(binary_type: cl_program_binary_type, units: &[UnitSource]) -> Vec<u8> {
    let mut out = BINARY_MAGIC.to_vec();
    out.extend_from_slice(&binary_type.to_le_bytes());
    out.extend_from_slice(&(units.len() as u64).to_le_bytes());
    let mut put = |part: &[u8]| {
        out.extend_from_slice(&(part.len() as u64).to_le_bytes());
        out.extend_from_slice(part);
    };
    for u in units {
        put(u.options.as_bytes());
        put(u.source.as_bytes());
        put(&(u.headers.len() as u64).to_le_bytes());
        for (name, text) in &u.headers {
            put(name.as_bytes());
            put(text.as_bytes());
        }
    }
    out
}

/// The length-prefixed part at the start of `rest`, and what follows it.
fn take_part(rest: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, r) = rest.split_at_checked(8)?;
    let len = usize::try_from(u64::from_le_bytes(len.try_into().ok()?)).ok()?;
    r.split_at_checked(len)
}

/// The length-prefixed UTF-8 string at the start of `rest`, and what follows it.
fn take_string(rest: &[u8]) -> Option<(String, &[u8])> {
    let (part, r) = take_part(rest)?;
    Some((String::from_utf8(part.to_vec()).ok()?, r))
}

/// The binary type and units of a binary; `None` when it is not one of ours (or has no
/// unit).
pub fn decode_binary(b: &[u8]) -> Option<(cl_program_binary_type, Vec<UnitSource>)> {
    if let Some(rest) = b.strip_prefix(BINARY_MAGIC_V1) {
        let (ty, rest) = rest.split_at_checked(4)?;
        let ty = u32::from_le_bytes(ty.try_into().ok()?) as cl_program_binary_type;
        let (options, rest) = take_string(rest)?;
        let (source, rest) = take_string(rest)?;
        let unit = UnitSource {
            options,
            source,
            headers: Vec::new(),
        };
        return rest.is_empty().then(|| (ty, vec![unit]));
    }
    let rest = b.strip_prefix(BINARY_MAGIC)?;
    let (ty, rest) = rest.split_at_checked(4)?;
    let ty = u32::from_le_bytes(ty.try_into().ok()?) as cl_program_binary_type;
    let (n, mut rest) = rest.split_at_checked(8)?;
    let n = u64::from_le_bytes(n.try_into().ok()?);
    let mut units = Vec::new();
    for _ in 0..n {
        let (options, r) = take_string(rest)?;
        let (source, r) = take_string(r)?;
        let (count, mut r) = take_part(r)?;
        let count = u64::from_le_bytes(count.try_into().ok()?);
        let mut headers = Vec::new();
        for _ in 0..count {
            let (name, r2) = take_string(r)?;
            let (text, r2) = take_string(r2)?;
            headers.push((name, text));
            r = r2;
        }
        rest = r;
        units.push(UnitSource {
            options,
            source,
            headers,
        });
    }
    if !rest.is_empty() || units.is_empty() {
        return None;
    }
    Some((ty, units))
}

/// Whether programs for `devices` have images: all of them are the cpu device.
pub fn images(devices: &[Ref<Device>]) -> bool {
    devices.iter().all(|d| !d.is_cuda())
}

/// OpenCL build options the library does not take and that change nothing here.
const IGNORED_OPTIONS: &[&str] = &["-g", "-enable-link-options", "-cl-no-subgroup-ifp"];

/// The options the library gets for `user` options: the device's extensions and features
/// first, then the application's, less the ones that mean nothing to oclc.
pub fn library_options(user: &str, extra_dirs: &[&std::path::Path], images: bool) -> String {
    // `__OPENCL_VERSION__` is the device's OpenCL version, which the runtime (not the
    // compiler, as in clang) defines; `__IMAGE_SUPPORT__` is defined only for programs of
    // devices with images, the cpu device (OpenCL C 6.13.16).
    let mut out = cl_ext_option(images) + " -D__OPENCL_VERSION__=300";
    if !images {
        out.push_str(" -U__IMAGE_SUPPORT__");
    }
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
    images: bool,
) -> Result<(Arc<oclc::Program>, String), (cl_int, String)> {
    let opts = library_options(options, dirs, images);
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

/// Compiles one translation unit (`clCompileProgram`) to IR: the unit, or the error code
/// and the log.
pub fn compile(
    source: &str,
    options: &str,
    dirs: &[&std::path::Path],
    images: bool,
) -> Result<Arc<oclc::CompiledUnit>, (cl_int, String)> {
    let opts = library_options(options, dirs, images);
    match oclc::CompiledUnit::compile("<source>", source.as_bytes(), &opts) {
        Ok(u) => Ok(Arc::new(u)),
        Err(oclc::BuildError::Options(m)) => {
            Err((CL_INVALID_COMPILER_OPTIONS, format!("error: {m}\n")))
        }
        Err(oclc::BuildError::Compile { log, .. }) => Err((CL_COMPILE_PROGRAM_FAILURE, log)),
        Err(e) => Err((CL_COMPILE_PROGRAM_FAILURE, format!("error: {e}\n"))),
    }
}

/// What linking made: an executable or a library.
pub enum Linked {
    Executable(Arc<oclc::Program>),
    Library(Arc<oclc::CompiledUnit>),
}

/// Links compiled units (`clLinkProgram`), named `input 1`, `input 2`, ... in link errors:
/// a library with `-create-library`, else an executable; or the error code and the log
/// (`oclc: error: duplicate symbol 'f' in 'input 1' and 'input 2'`, `oclc: error:
/// undefined reference to 'g' in 'input 1'`).
pub fn link(
    units: &[Arc<oclc::CompiledUnit>],
    options: &str,
    images: bool,
) -> Result<Linked, (cl_int, String)> {
    let names: Vec<String> = (1..=units.len()).map(|i| format!("input {i}")).collect();
    let named: Vec<(&str, &oclc::CompiledUnit)> = names
        .iter()
        .map(String::as_str)
        .zip(units.iter().map(|u| &**u))
        .collect();
    let create_library = options.split_whitespace().any(|w| w == "-create-library");
    let opts = library_options(options, &[], images);
    let r = if create_library {
        oclc::program::BuildOptions::parse(&opts)
            .and_then(|_| oclc::CompiledUnit::link_library(&named, "<library>"))
            .map(|u| Linked::Library(Arc::new(u)))
    } else {
        oclc::Program::link(&named, &opts).map(|p| Linked::Executable(Arc::new(p)))
    };
    r.map_err(|e| match e {
        oclc::BuildError::Options(m) => (CL_INVALID_LINKER_OPTIONS, format!("error: {m}\n")),
        oclc::BuildError::Link { log } => (CL_LINK_PROGRAM_FAILURE, log),
        oclc::BuildError::Compile { log, .. } => (CL_LINK_PROGRAM_FAILURE, log),
        e => (CL_LINK_PROGRAM_FAILURE, format!("oclc: error: {e}\n")),
    })
}

/// Loads the units of a binary of type `ty`: compiles each again and, for a library or an
/// executable, links them. The build state, or the log of what failed.
/// `images`: whether the program's devices have images ([`images`]).
pub fn load_binary(
    ty: cl_program_binary_type,
    units: &[UnitSource],
    images: bool,
) -> Result<Build, String> {
    let exe = CL_PROGRAM_BINARY_TYPE_EXECUTABLE as cl_program_binary_type;
    let obj = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT as cl_program_binary_type;
    let mut build = Build {
        binary_type: ty,
        options: units.first().map(|u| u.options.clone()).unwrap_or_default(),
        units: units.to_vec(),
        ..Build::default()
    };
    if let [one] = units
        && ty == exe
    {
        let (lib, log) =
            crate::program::build(&one.source, &one.options, &[], images).map_err(|e| e.1)?;
        build.lib = Some(lib);
        build.log = log;
        return Ok(build);
    }
    let mut compiled = Vec::new();
    for u in units {
        let dir = match u.headers.is_empty() {
            true => None,
            false => Some(HeaderDir::new(&u.headers)?),
        };
        let dirs: Vec<&std::path::Path> = dir.iter().map(|h| h.0.as_path()).collect();
        compiled.push(compile(&u.source, &u.options, &dirs, images).map_err(|e| e.1)?);
    }
    match (ty, &compiled[..]) {
        (t, [one]) if t == obj => build.unit = Some(one.clone()),
        (t, _) if t == exe => match link(&compiled, "", images).map_err(|e| e.1)? {
            Linked::Executable(p) => build.lib = Some(p),
            Linked::Library(u) => build.unit = Some(u),
        },
        _ => match link(&compiled, "-create-library", images).map_err(|e| e.1)? {
            Linked::Library(u) => build.unit = Some(u),
            Linked::Executable(p) => build.lib = Some(p),
        },
    }
    Ok(build)
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
        // Image objects are always in the global space (OpenCL C 6.12.14).
        KernelParamKind::Image { .. } => CL_KERNEL_ARG_ADDRESS_GLOBAL,
        _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
    }
}

/// CL_KERNEL_ARG_ACCESS_QUALIFIER: an image's access, NONE for everything else.
pub fn access_qualifier(kind: &KernelParamKind) -> cl_uint {
    match kind {
        KernelParamKind::Image {
            read: true,
            write: true,
            ..
        } => CL_KERNEL_ARG_ACCESS_READ_WRITE,
        KernelParamKind::Image { write: true, .. } => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
        KernelParamKind::Image { .. } => CL_KERNEL_ARG_ACCESS_READ_ONLY,
        _ => CL_KERNEL_ARG_ACCESS_NONE,
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
            | "__private" | "private" | "__generic" | "generic" | "__kernel" | "__read_only"
            | "read_only" | "__write_only" | "write_only" | "__read_write" | "read_write" => {}
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
        let units = vec![
            UnitSource {
                options: "-cl-std=CL2.0".into(),
                source: "kernel void k() {}".into(),
                headers: Vec::new(),
            },
            UnitSource {
                options: String::new(),
                source: "#include \"h.h\"\nvoid f(void) {}".into(),
                headers: vec![("h.h".into(), "#define X 1\n".into())],
            },
        ];
        let b = encode_binary(2, &units);
        assert_eq!(decode_binary(&b), Some((2, units.clone())));
        assert_eq!(decode_binary(&encode_binary(2, &[])), None);
        // The first format: one unit's options and source.
        let mut v1 = b"OCLCBIN1".to_vec();
        v1.extend_from_slice(&2u32.to_le_bytes());
        for part in ["-cl-std=CL2.0", "kernel void k() {}"] {
            v1.extend_from_slice(&(part.len() as u64).to_le_bytes());
            v1.extend_from_slice(part.as_bytes());
        }
        assert_eq!(decode_binary(&v1), Some((2, units[..1].to_vec())));
        assert_eq!(decode_binary(b"\x7fELF...."), None);
        assert_eq!(decode_binary(&b[..b.len() - 1]), None);
        let mut longer = b.clone();
        longer.push(0);
        assert_eq!(decode_binary(&longer), None);
    }

    #[test]
    fn build_options_put_the_device_extensions_first_and_drop_spec_only_flags() {
        let o = library_options("-g -cl-std=CL2.0 -create-library -DX=1", &[], false);
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
