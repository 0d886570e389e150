//! `oclc exec [--device cpu|cuda] [--races] [--max-steps N] -- PROGRAM ARGS...`: runs an
//! unmodified OpenCL host program with oclc as its only OpenCL platform, as `oclgrind ./app`
//! does. The program's ICD loader (ocl-icd or Khronos') is pointed at `liboclc_icd.so`
//! through a one-file vendors directory in `OCL_ICD_VENDORS`; no system-wide install. A
//! loader that ignores that variable (older Khronos loaders, such as the one CUDA installs
//! ahead of the system's) is replaced for the program by one that honours it, through
//! `LD_LIBRARY_PATH`, when the machine has one.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The command line of `oclc exec`.
#[derive(clap::Args, Debug)]
pub struct ExecArgs {
    /// The device the platform offers: the embedded cpu device (default) or NVIDIA GPUs
    #[arg(long, value_parser = ["cpu", "cuda"])]
    pub device: Option<String>,
    /// Detect data races on local and global memory (cpu device)
    #[arg(long)]
    pub races: bool,
    /// Steps (branches and calls) one work-item may take before it is stopped as runaway
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// The host program and its arguments (after `--`)
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true, num_args = 1..)]
    pub program: Vec<String>,
}

/// The name of the ICD library.
pub const ICD_LIBRARY: &str = "liboclc_icd.so";

/// Where `liboclc_icd.so` is: `OCLC_ICD_PATH` (the file, or a directory holding it), else
/// next to the `oclc` binary, else in `../lib` from it. The error lists the places looked in.
pub fn find_icd() -> Result<PathBuf, String> {
    let mut tried = Vec::new();
    if let Some(p) = std::env::var_os("OCLC_ICD_PATH") {
        let p = PathBuf::from(p);
        let file = if p.is_dir() { p.join(ICD_LIBRARY) } else { p };
        if file.is_file() {
            return Ok(absolute(&file));
        }
        return Err(format!(
            "OCLC_ICD_PATH names {}, which is not {ICD_LIBRARY} or a directory holding it",
            file.display()
        ));
    }
    if let Ok(exe) = std::env::current_exe()
        && let Some(dir) = exe.parent()
    {
        for cand in [dir.join(ICD_LIBRARY), dir.join("../lib").join(ICD_LIBRARY)] {
            if cand.is_file() {
                return Ok(absolute(&cand));
            }
            tried.push(cand.display().to_string());
        }
    }
    Err(format!(
        "cannot find {ICD_LIBRARY} (looked for {}); build it with `cargo build --release` \
         (it is built next to the oclc binary) or set OCLC_ICD_PATH",
        tried.join(", ")
    ))
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The ICD loader's file name.
const LOADER: &str = "libOpenCL.so.1";

/// Whether an OpenCL ICD loader (`libOpenCL.so.1`) is installed where the dynamic linker
/// finds it: `LD_LIBRARY_PATH`, the usual library directories, or `ldconfig -p`.
pub fn loader_present() -> bool {
    !loaders().is_empty()
}

/// The ICD loaders installed, in the dynamic linker's order: `LD_LIBRARY_PATH`, the
/// `ldconfig` cache, the usual library directories (the first is the one a program loads).
fn loaders() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("LD_LIBRARY_PATH")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    let mut found: Vec<PathBuf> = dirs.iter().map(|d| d.join(LOADER)).collect();
    if let Ok(o) = Command::new("ldconfig").arg("-p").output() {
        for line in String::from_utf8_lossy(&o.stdout).lines() {
            let line = line.trim();
            if line.starts_with(LOADER)
                && let Some((_, path)) = line.rsplit_once(" => ")
            {
                found.push(PathBuf::from(path));
            }
        }
    }
    dirs.clear();
    for d in [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/lib/x86_64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
        "/usr/local/lib",
        "/lib64",
        "/lib",
    ] {
        dirs.push(PathBuf::from(d));
    }
    found.extend(dirs.iter().map(|d| d.join(LOADER)));
    let mut out: Vec<PathBuf> = Vec::new();
    for f in found {
        if f.is_file() && !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Whether a loader honours `OCL_ICD_VENDORS` (ocl-icd and recent Khronos loaders name the
/// variable in their text; older Khronos loaders, such as CUDA's, do not and read only the
/// system's vendors directory).
fn honours_vendors(loader: &Path) -> bool {
    const VAR: &[u8] = b"OCL_ICD_VENDORS";
    std::fs::read(loader).is_ok_and(|b| b.windows(VAR.len()).any(|w| w == VAR))
}

/// How the program gets a loader that lists only oclc.
#[derive(Debug, PartialEq, Eq)]
enum LoaderPlan {
    /// The loader the program finds honours `OCL_ICD_VENDORS`.
    AsIs,
    /// It does not; this one does, and goes first on `LD_LIBRARY_PATH`.
    Prefer(PathBuf),
    /// None does: `OCL_ICD_FILENAMES` adds oclc, and the program may list other platforms.
    Add(PathBuf),
}

/// The plan for `loaders` (in the dynamic linker's order).
fn plan_loader(loaders: &[PathBuf], honours: impl Fn(&Path) -> bool) -> LoaderPlan {
    match loaders.first() {
        None => LoaderPlan::AsIs,
        Some(first) if honours(first) => LoaderPlan::AsIs,
        Some(first) => match loaders.iter().find(|l| honours(l)) {
            Some(good) => LoaderPlan::Prefer(good.clone()),
            None => LoaderPlan::Add(first.clone()),
        },
    }
}

/// A vendors directory holding only `oclc.icd`, removed when dropped.
struct VendorsDir(PathBuf);

impl VendorsDir {
    fn new(icd: &Path) -> Result<VendorsDir, String> {
        let dir = std::env::temp_dir().join(format!("oclc-exec-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let v = VendorsDir(dir);
        let file = v.0.join("oclc.icd");
        std::fs::write(&file, format!("{}\n", icd.display()))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        Ok(v)
    }
}

impl Drop for VendorsDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the command; returns the exit status to forward (the program's, 128 + the signal
/// that ended it, or 2 when it could not be started), with the reason on stderr.
pub fn exec_command(args: &ExecArgs) -> i32 {
    match exec(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("oclc exec: error: {e}");
            2
        }
    }
}

fn exec(args: &ExecArgs) -> Result<i32, String> {
    let (program, rest) = args
        .program
        .split_first()
        .ok_or("no program to run (usage: oclc exec [OPTIONS] -- PROGRAM ARGS...)")?;
    let icd = find_icd()?;
    if !loader_present() {
        return Err(
            "no OpenCL ICD loader (libOpenCL.so.1) is installed; install ocl-icd-libopencl1 \
             (Debian, Ubuntu) or the Khronos OpenCL-ICD-Loader"
                .into(),
        );
    }
    if args.max_steps == Some(0) {
        return Err("--max-steps must be at least 1".into());
    }
    let vendors = VendorsDir::new(&icd)?;
    let mut cmd = Command::new(program);
    cmd.args(rest)
        .env("OCL_ICD_VENDORS", &vendors.0)
        .env_remove("OCL_ICD_FILENAMES")
        .env_remove("OPENCL_VENDOR_PATH");
    match plan_loader(&loaders(), honours_vendors) {
        LoaderPlan::AsIs => {}
        LoaderPlan::Prefer(good) => {
            // A directory of its own with the loader that honours the variable, first on the
            // program's library path.
            let lib = vendors.0.join("lib");
            std::fs::create_dir_all(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
            std::os::unix::fs::symlink(&good, lib.join(LOADER))
                .map_err(|e| format!("{}: {e}", lib.display()))?;
            let mut path = vec![lib];
            if let Some(old) = std::env::var_os("LD_LIBRARY_PATH") {
                path.extend(std::env::split_paths(&old));
            }
            let joined = std::env::join_paths(path).map_err(|e| e.to_string())?;
            cmd.env("LD_LIBRARY_PATH", joined);
        }
        LoaderPlan::Add(first) => {
            eprintln!(
                "oclc exec: note: the OpenCL loader {} ignores OCL_ICD_VENDORS and no other is \
                 installed (ocl-icd-libopencl1 is); the program may list other platforms besides oclc",
                first.display()
            );
            cmd.env("OCL_ICD_FILENAMES", &icd);
        }
    }
    if let Some(d) = &args.device {
        cmd.env("OCLC_DEVICE", d);
    }
    if args.races {
        cmd.env("OCLC_RACES", "1");
    }
    if let Some(n) = args.max_steps {
        cmd.env("OCLC_MAX_STEPS", n.to_string());
    }
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run '{program}': {e}"))?;
    drop(vendors);
    if let Some(code) = status.code() {
        return Ok(code);
    }
    use std::os::unix::process::ExitStatusExt;
    Ok(128 + status.signal().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loader_that_ignores_oclc_vendors_is_replaced_by_one_that_honours_it() {
        let p = |s: &str| PathBuf::from(s);
        let cuda = p("/usr/local/cuda/lib/libOpenCL.so.1");
        let system = p("/usr/lib/x86_64-linux-gnu/libOpenCL.so.1");
        let honours = |l: &Path| l.starts_with("/usr/lib");
        assert_eq!(plan_loader(std::slice::from_ref(&system), honours), LoaderPlan::AsIs);
        assert_eq!(
            plan_loader(&[cuda.clone(), system.clone()], honours),
            LoaderPlan::Prefer(system)
        );
        assert_eq!(plan_loader(std::slice::from_ref(&cuda), honours), LoaderPlan::Add(cuda));
        assert_eq!(plan_loader(&[], honours), LoaderPlan::AsIs);
    }

    #[test]
    fn honouring_the_variable_is_read_off_the_loader() {
        let dir = std::env::temp_dir().join(format!("oclc-exec-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (old, new) = (dir.join("old.so"), dir.join("new.so"));
        std::fs::write(&old, b"\x7fELF...OCL_ICD_FILENAMES\0OPENCL_VENDOR_PATH").unwrap();
        std::fs::write(&new, b"\x7fELF...OCL_ICD_FILENAMES\0OCL_ICD_VENDORS\0").unwrap();
        assert!(!honours_vendors(&old));
        assert!(honours_vendors(&new));
        assert!(!honours_vendors(&dir.join("missing.so")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
