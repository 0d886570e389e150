//! `oclc exec [--device cpu|cuda] [--races] [--max-steps N] -- PROGRAM ARGS...`: runs an
//! unmodified OpenCL host program with oclc as its only OpenCL platform, as `oclgrind ./app`
//! does. The program's ICD loader (ocl-icd or Khronos') is pointed at `liboclc_icd.so`
//! through a one-file vendors directory in `OCL_ICD_VENDORS`; no system-wide install.

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

/// Whether an OpenCL ICD loader (`libOpenCL.so.1`) is installed where the dynamic linker
/// finds it: `LD_LIBRARY_PATH`, the usual library directories, or `ldconfig -p`.
pub fn loader_present() -> bool {
    const NAME: &str = "libOpenCL.so.1";
    let mut dirs: Vec<PathBuf> = std::env::var_os("LD_LIBRARY_PATH")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
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
    if dirs.iter().any(|d| d.join(NAME).exists()) {
        return true;
    }
    Command::new("ldconfig")
        .arg("-p")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(NAME))
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
