//! `oclc exec [--device cpu|cuda] [--races] [--checks] [--max-steps N] -- PROGRAM ARGS...`: runs an
//! unmodified OpenCL host program with oclc as its only OpenCL platform, as `oclgrind ./app`
//! does. The program's ICD loader (ocl-icd or Khronos') is pointed at `liboclc_icd.so`
//! through a one-file vendors directory in `OCL_ICD_VENDORS`; no system-wide install. Where
//! the program would load another loader (a Khronos loader, such as the older one CUDA
//! installs ahead of the system's, which ignores that variable) and ocl-icd is installed
//! too, ocl-icd goes first on the program's `LD_LIBRARY_PATH`; with Khronos' loader alone,
//! `OCL_ICD_FILENAMES` names the library (and the vendors directory is empty).

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
    /// Check every access and barrier on NVIDIA GPUs (OCLC_CUDA_CHECKS=1); the cpu device
    /// always checks
    #[arg(long)]
    pub checks: bool,
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

/// Whether a loader is ocl-icd (it names its own `OCL_ICD_ASSUME_ICD_EXTENSION` variable),
/// which takes `OCL_ICD_VENDORS` as the only vendors directory. Khronos' loaders differ by
/// version: CUDA's (seen with driver 580) ignores the variable and lists the system's
/// platforms.
fn is_ocl_icd(loader: &Path) -> bool {
    const MARK: &[u8] = b"OCL_ICD_ASSUME_ICD_EXTENSION";
    std::fs::read(loader).is_ok_and(|b| b.windows(MARK.len()).any(|w| w == MARK))
}

/// How the program gets a loader that lists only oclc.
#[derive(Debug, PartialEq, Eq)]
enum LoaderPlan {
    /// The loader the program finds is ocl-icd: the vendors directory does it.
    AsIs,
    /// It is not; this ocl-icd goes first on `LD_LIBRARY_PATH`.
    Prefer(PathBuf),
    /// No ocl-icd is installed: `OCL_ICD_FILENAMES` names the library for Khronos' loader.
    Filenames,
}

/// The plan for `loaders` (in the dynamic linker's order).
fn plan_loader(loaders: &[PathBuf], ocl_icd: impl Fn(&Path) -> bool) -> LoaderPlan {
    match loaders.first() {
        None => LoaderPlan::AsIs,
        Some(first) if ocl_icd(first) => LoaderPlan::AsIs,
        Some(_) => match loaders.iter().find(|l| ocl_icd(l)) {
            Some(good) => LoaderPlan::Prefer(good.clone()),
            None => LoaderPlan::Filenames,
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
    match plan_loader(&loaders(), is_ocl_icd) {
        LoaderPlan::AsIs => {}
        LoaderPlan::Prefer(good) => {
            // A directory of its own with ocl-icd, first on the program's library path.
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
        LoaderPlan::Filenames => {
            // Recent Khronos loaders read no vendors directory but this empty one, and all
            // take the library from OCL_ICD_FILENAMES (older ones also list the system's
            // platforms: nothing can stop that but ocl-icd).
            let empty = vendors.0.join("none");
            std::fs::create_dir_all(&empty).map_err(|e| format!("{}: {e}", empty.display()))?;
            cmd.env("OCL_ICD_VENDORS", &empty)
                .env("OCL_ICD_FILENAMES", &icd);
        }
    }
    if let Some(d) = &args.device {
        cmd.env("OCLC_DEVICE", d);
    }
    if args.races {
        cmd.env("OCLC_RACES", "1");
    }
    if args.checks {
        cmd.env("OCLC_CUDA_CHECKS", "1");
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
    fn ocl_icd_goes_first_where_the_program_would_load_another_loader() {
        let p = |s: &str| PathBuf::from(s);
        let cuda = p("/usr/local/cuda/lib/libOpenCL.so.1");
        let system = p("/usr/lib/x86_64-linux-gnu/libOpenCL.so.1");
        let ocl_icd = |l: &Path| l.starts_with("/usr/lib");
        assert_eq!(
            plan_loader(std::slice::from_ref(&system), ocl_icd),
            LoaderPlan::AsIs
        );
        assert_eq!(
            plan_loader(&[cuda.clone(), system.clone()], ocl_icd),
            LoaderPlan::Prefer(system)
        );
        assert_eq!(plan_loader(&[cuda], ocl_icd), LoaderPlan::Filenames);
        assert_eq!(plan_loader(&[], ocl_icd), LoaderPlan::AsIs);
    }

    #[test]
    fn ocl_icd_is_told_from_khronos_loaders_by_its_text() {
        let dir = std::env::temp_dir().join(format!("oclc-exec-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (khronos, ocl) = (dir.join("khronos.so"), dir.join("ocl-icd.so"));
        std::fs::write(&khronos, b"\x7fELF...OCL_ICD_FILENAMES\0OCL_ICD_VENDORS\0").unwrap();
        std::fs::write(
            &ocl,
            b"\x7fELF...OCL_ICD_VENDORS\0OCL_ICD_ASSUME_ICD_EXTENSION\0",
        )
        .unwrap();
        assert!(!is_ocl_icd(&khronos));
        assert!(is_ocl_icd(&ocl));
        assert!(!is_ocl_icd(&dir.join("missing.so")));
        // The loader this machine has, if any, is one of the two (no crash reading it).
        for l in loaders() {
            let _ = is_ocl_icd(&l);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
