//! The cuda devices behind the platform (feature `cuda`): one worker thread per GPU owns
//! every CUDA object of that GPU (the library's [`oclc::Device`], its buffers and loaded
//! modules), because those hold `Rc`s and may not cross threads. OpenCL objects hold only
//! [`Worker`] handles and buffer ids, which are `Send`; each operation is a closure sent to
//! the worker, and the caller waits for its reply (host memory copies, launches, builds).

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

use opencl_sys::*;

/// The most GPUs the platform looks for.
const MAX_GPUS: usize = 16;

/// What the worker thread owns.
struct State {
    dev: oclc::Device,
    /// Device buffers by id; [`CudaBuf`]'s drop removes its entry.
    bufs: HashMap<u64, oclc::Buffer>,
    next_id: u64,
}

type Job = Box<dyn FnOnce(&mut State) + Send>;

/// One GPU's worker thread, and what the driver reported about the GPU.
pub struct Worker {
    tx: Sender<Job>,
    pub ordinal: usize,
    pub info: oclc::CudaDeviceInfo,
    /// Held by a launch from copying host-pointer memory in to copying it back out, so
    /// launches from several queues see each other's changes whole (as the cpu device's
    /// lock does).
    pub launches: Mutex<()>,
    /// The process that started the thread: a child of `fork` has no worker thread (and
    /// CUDA does not survive a fork), so its calls fail at once instead of waiting forever.
    pid: u32,
}

/// An argument of a launch on the worker.
pub enum Arg {
    Buf(Arc<CudaBuf>),
    /// A sub-buffer: `len` bytes at `offset` of a buffer. The library's cuda buffers have no
    /// regions, so the launch runs on a copy of the bytes, copied back after it (a kernel
    /// that also reaches the same bytes through the parent sees the copy apart).
    Sub(Arc<CudaBuf>, usize, usize),
    Local(usize),
    Bytes(Vec<u8>),
    Null,
    /// An SVM pointer: an address in managed memory, valid on the GPU as it is.
    Address(u64),
}

impl Worker {
    /// Starts a worker for each GPU the driver has (none without a driver); each GPU that
    /// fails to open is reported on stderr when `verbose` (the user asked for cuda). With
    /// `OCLC_CUDA_EMULATE=1` (for testing this module on machines without a GPU) one more
    /// device follows: a worker that owns the library's cpu device instead of a GPU, so
    /// everything between the API and `oclc::Device` runs as for a GPU.
    pub fn start_all(verbose: bool) -> Vec<Arc<Worker>> {
        let mut out = Vec::new();
        for ordinal in 0..MAX_GPUS {
            match Worker::start(ordinal) {
                Ok(w) => out.push(Arc::new(w)),
                Err(e) => {
                    if verbose && out.is_empty() && !emulate() {
                        eprintln!("oclc: no cuda device: {e}");
                    }
                    break;
                }
            }
        }
        if emulate() {
            match Worker::spawn(out.len(), || Ok((oclc::Device::cpu(), emulated_info()))) {
                Ok(w) => out.push(Arc::new(w)),
                Err(e) => eprintln!("oclc: OCLC_CUDA_EMULATE: {e}"),
            }
        }
        out
    }

    /// GPU `ordinal`'s worker thread, once the GPU has opened.
    fn start(ordinal: usize) -> Result<Worker, String> {
        Worker::spawn(ordinal, move || {
            let dev = oclc::Device::cuda(ordinal as u32).map_err(|e| e.to_string())?;
            let info = dev
                .cuda_info()
                .ok_or_else(|| format!("cuda device {ordinal}: not a GPU"))?;
            Ok((dev, info))
        })
    }

    /// A worker thread owning the device `open` makes there (CUDA objects must be made on
    /// the thread that keeps them).
    fn spawn(
        ordinal: usize,
        open: impl FnOnce() -> Result<(oclc::Device, oclc::CudaDeviceInfo), String> + Send + 'static,
    ) -> Result<Worker, String> {
        let (tx, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("oclc-cuda-{ordinal}"))
            .spawn(move || match open() {
                Ok((dev, info)) => {
                    let _ = ready_tx.send(Ok(info));
                    serve(
                        State {
                            dev,
                            bufs: HashMap::new(),
                            next_id: 1,
                        },
                        rx,
                    );
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                }
            })
            .map_err(|e| format!("cannot start a thread for cuda device {ordinal}: {e}"))?;
        let info = ready_rx
            .recv()
            .map_err(|_| format!("cuda device {ordinal}: its thread ended"))??;
        Ok(Worker {
            tx,
            ordinal,
            info,
            launches: Mutex::new(()),
            pid: std::process::id(),
        })
    }

    /// Runs `f` on the worker and waits for its result; `CL_OUT_OF_RESOURCES` when the
    /// worker is gone (a job panicked, or this is a forked child).
    fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut State) -> R + Send + 'static,
    ) -> Result<R, cl_int> {
        if std::process::id() != self.pid {
            eprintln!(
                "oclc: cuda device {}: not usable in a child process made by fork",
                self.ordinal
            );
            return Err(CL_OUT_OF_RESOURCES);
        }
        let (tx, rx) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |s| {
            let _ = tx.send(f(s));
        });
        self.tx.send(job).map_err(|_| CL_OUT_OF_RESOURCES)?;
        rx.recv().map_err(|_| CL_OUT_OF_RESOURCES)
    }

    /// A zeroed buffer of `len` bytes in the GPU's memory.
    pub fn alloc(self: &Arc<Worker>, len: usize) -> Result<Arc<CudaBuf>, cl_int> {
        let id = self
            .call(move |s| {
                let b = s.dev.buffer::<u8>(len).ok()?;
                let id = s.next_id;
                s.next_id += 1;
                s.bufs.insert(id, b);
                Some(id)
            })?
            .ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        Ok(Arc::new(CudaBuf {
            worker: self.clone(),
            id,
            len,
        }))
    }

    /// A zeroed SVM allocation of `len` bytes in managed memory and its address, valid on
    /// the host and the GPU (`CL_MEM_OBJECT_ALLOCATION_FAILURE` where the GPU has none).
    pub fn alloc_managed(self: &Arc<Worker>, len: usize) -> Result<(Arc<CudaBuf>, u64), cl_int> {
        let (id, addr) = self
            .call(move |s| {
                let b = s.dev.svm_buffer(len).ok()?;
                let addr = b.svm_address()?;
                let id = s.next_id;
                s.next_id += 1;
                s.bufs.insert(id, b);
                Some((id, addr))
            })?
            .ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        Ok((
            Arc::new(CudaBuf {
                worker: self.clone(),
                id,
                len,
            }),
            addr,
        ))
    }

    /// Generates PTX for `program` and loads it now, so that a program the GPU cannot run
    /// fails its build rather than its first launch: the message, as the build log says it.
    pub fn prepare(&self, program: Arc<oclc::Program>) -> Result<(), String> {
        self.call(move |s| s.dev.prepare(&program).map_err(|e| e.to_string()))
            .map_err(|_| "the cuda device's thread ended".to_string())?
    }

    /// Runs kernel `name` of `program` with `args` over `range` and waits for it; the
    /// error's text, as `oclc run --device cuda` says it.
    pub fn launch(
        &self,
        program: Arc<oclc::Program>,
        name: String,
        args: Vec<Arg>,
        range: oclc::NdRange,
    ) -> Result<(), String> {
        self.call(move |s| -> Result<(), String> {
            let mut k = program.kernel(&name).map_err(|e| e.to_string())?;
            // Sub-buffer copies: (copy, parent, offset), written back after the launch.
            let mut copies: Vec<(oclc::Buffer, oclc::Buffer, usize)> = Vec::new();
            for (i, a) in args.iter().enumerate() {
                let buffer = |id: u64| {
                    s.bufs
                        .get(&id)
                        .cloned()
                        .ok_or_else(|| format!("argument {i}: the buffer was released"))
                };
                let ka = match a {
                    Arg::Buf(b) => oclc::KernelArg::Buffer(buffer(b.id)?),
                    Arg::Sub(b, offset, len) => {
                        let parent = buffer(b.id)?;
                        let mut bytes = vec![0u8; *len];
                        parent
                            .read_at(*offset, &mut bytes)
                            .map_err(|e| e.to_string())?;
                        let copy = s.dev.buffer_from_bytes(&bytes).map_err(|e| e.to_string())?;
                        copies.push((copy.clone(), parent, *offset));
                        oclc::KernelArg::Buffer(copy)
                    }
                    Arg::Local(n) => oclc::KernelArg::Local(*n),
                    Arg::Bytes(v) => oclc::KernelArg::Value(v.clone()),
                    Arg::Null => oclc::KernelArg::Null,
                    Arg::Address(a) => oclc::KernelArg::Address(*a),
                };
                k.set_arg(i, ka).map_err(|e| e.to_string())?;
            }
            s.dev
                .launch(&k, &range)
                .map(|_| ())
                .map_err(|e| e.to_string())?;
            for (copy, parent, offset) in copies {
                let bytes = copy.read_bytes().map_err(|e| e.to_string())?;
                parent.write_at(offset, &bytes).map_err(|e| e.to_string())?;
            }
            Ok(())
        })
        .map_err(|_| "the cuda device's thread ended".to_string())?
    }

    /// Sends `f` without waiting (buffer frees).
    fn post(&self, f: impl FnOnce(&mut State) + Send + 'static) {
        let _ = self.tx.send(Box::new(f));
    }
}

/// `OCLC_CUDA_EMULATE=1`: list a GPU device that runs on the cpu device (testing only).
fn emulate() -> bool {
    std::env::var("OCLC_CUDA_EMULATE").is_ok_and(|v| v == "1")
}

/// What the emulated GPU reports: a GPU's usual limits.
fn emulated_info() -> oclc::CudaDeviceInfo {
    oclc::CudaDeviceInfo {
        name: "emulated on the cpu device".into(),
        target: "OCLC_CUDA_EMULATE".into(),
        compute_units: 1,
        clock_mhz: 1000,
        global_mem: 4 << 30,
        shared_mem_per_block: 48 << 10,
        constant_mem: 64 << 10,
        max_threads_per_block: 1024,
        max_block_dims: [1024, 1024, 64],
        l2_cache: 0,
        managed_svm: false,
    }
}

/// Runs jobs until every sender is gone; a job that panics is dropped with its reply
/// channel (its caller gets `CL_OUT_OF_RESOURCES`) and the worker goes on.
fn serve(mut state: State, rx: Receiver<Job>) {
    while let Ok(job) = rx.recv() {
        let _ = std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut state)));
    }
}

/// A buffer in a GPU's memory, by id on its worker; freed when the last handle goes.
pub struct CudaBuf {
    worker: Arc<Worker>,
    id: u64,
    pub len: usize,
}

/// The most bytes one copy between host and GPU moves through the worker: larger reads and
/// writes go piece by piece, so the copies they need stay small.
const COPY_CHUNK: usize = 64 << 20;

impl CudaBuf {
    /// Copies `out.len()` bytes at `offset` to `out`.
    pub fn read_at(&self, offset: usize, out: &mut [u8]) -> Result<(), cl_int> {
        let id = self.id;
        for (k, piece) in out.chunks_mut(COPY_CHUNK).enumerate() {
            let (at, n) = (offset + k * COPY_CHUNK, piece.len());
            let bytes = self
                .worker
                .call(move |s| {
                    let b = s.bufs.get(&id)?;
                    let mut v = Vec::new();
                    v.try_reserve_exact(n).ok()?;
                    v.resize(n, 0);
                    b.read_at(at, &mut v).ok()?;
                    Some(v)
                })?
                .ok_or(CL_OUT_OF_RESOURCES)?;
            piece.copy_from_slice(&bytes);
        }
        Ok(())
    }

    /// Writes `data` at `offset`.
    pub fn write_at(&self, offset: usize, data: &[u8]) -> Result<(), cl_int> {
        let id = self.id;
        for (k, piece) in data.chunks(COPY_CHUNK).enumerate() {
            let at = offset + k * COPY_CHUNK;
            let mut bytes = Vec::new();
            bytes
                .try_reserve_exact(piece.len())
                .map_err(|_| CL_OUT_OF_HOST_MEMORY)?;
            bytes.extend_from_slice(piece);
            self.worker
                .call(move |s| s.bufs.get(&id)?.write_at(at, &bytes).ok())?
                .ok_or(CL_OUT_OF_RESOURCES)?;
        }
        Ok(())
    }
}

impl Drop for CudaBuf {
    fn drop(&mut self) {
        let id = self.id;
        self.worker.post(move |s| {
            s.bufs.remove(&id);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emulated() -> Arc<Worker> {
        Arc::new(
            Worker::spawn(0, || Ok((oclc::Device::cpu(), emulated_info())))
                .expect("the emulated worker starts"),
        )
    }

    #[test]
    fn copies_larger_than_a_chunk_go_piece_by_piece() {
        let w = emulated();
        let len = COPY_CHUNK + 100;
        let b = w.alloc(len).expect("allocation");
        let data: Vec<u8> = (0..COPY_CHUNK + 10).map(|i| (i % 251) as u8).collect();
        b.write_at(50, &data).expect("write");
        let mut back = vec![0u8; len];
        b.read_at(0, &mut back).expect("read");
        assert!(back[..50].iter().all(|&x| x == 0));
        assert_eq!(&back[50..50 + data.len()], &data[..]);
        assert!(back[50 + data.len()..].iter().all(|&x| x == 0));
        // Past the end: an error, nothing written.
        assert_eq!(b.write_at(len - 2, &[1, 2, 3]), Err(CL_OUT_OF_RESOURCES));
        let mut three = [9u8; 3];
        assert_eq!(b.read_at(len - 2, &mut three), Err(CL_OUT_OF_RESOURCES));
    }

    #[test]
    fn a_dropped_buffer_is_freed_on_the_worker() {
        let w = emulated();
        let a = w.alloc(16).expect("allocation");
        let b = w.alloc(16).expect("allocation");
        assert_eq!(w.call(|s| s.bufs.len()), Ok(2));
        drop(a);
        // Jobs run in order: the free is done before this count.
        assert_eq!(w.call(|s| s.bufs.len()), Ok(1));
        drop(b);
        assert_eq!(w.call(|s| s.bufs.len()), Ok(0));
    }

    #[test]
    fn a_job_that_panics_fails_its_call_and_the_worker_goes_on() {
        let w = emulated();
        let r: Result<(), cl_int> = w.call(|_| panic!("job panics"));
        assert_eq!(r, Err(CL_OUT_OF_RESOURCES));
        assert_eq!(w.call(|s| s.next_id), Ok(1));
    }
}
