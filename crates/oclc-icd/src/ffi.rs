//! The C side of the edge: raw pointers in, safe values out. Everything here that reads or
//! writes through a pointer the application gave is `unsafe`, states the contract it relies
//! on (the OpenCL specification's rules for that argument), and hands the rest of the crate
//! safe types: slices, strings, [`HostPtr`] regions, callbacks.
//!
//! Panics never cross into C: [`guard`] and [`guard_obj`] catch them and answer
//! `CL_OUT_OF_HOST_MEMORY`.

use std::ffi::{CStr, c_char, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use opencl_sys::*;

use crate::info::Info;

/// Runs an entry point's body; its error code, `CL_SUCCESS`, or `CL_OUT_OF_HOST_MEMORY`
/// when it panicked.
pub fn guard(f: impl FnOnce() -> Result<(), cl_int>) -> cl_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => CL_SUCCESS,
        Ok(Err(e)) => e,
        Err(_) => CL_OUT_OF_HOST_MEMORY,
    }
}

/// Runs an entry point that returns an object (or pointer) and reports through
/// `errcode_ret`: NULL and the error code on failure.
///
/// # Safety
/// `errcode_ret` is NULL or points to a writable `cl_int`.
pub unsafe fn guard_obj(
    errcode_ret: *mut cl_int,
    f: impl FnOnce() -> Result<*mut c_void, cl_int>,
) -> *mut c_void {
    let (p, code) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(p)) => (p, CL_SUCCESS),
        Ok(Err(e)) => (std::ptr::null_mut(), e),
        Err(_) => (std::ptr::null_mut(), CL_OUT_OF_HOST_MEMORY),
    };
    // SAFETY: the caller's contract: NULL or a writable cl_int.
    unsafe { put(errcode_ret, code) };
    p
}

/// Writes `v` to `p` unless `p` is NULL.
///
/// # Safety
/// `p` is NULL or valid for a write of one `T`.
pub unsafe fn put<T>(p: *mut T, v: T) {
    if !p.is_null() {
        // SAFETY: non-NULL, and valid for one write by the caller's contract; unaligned
        // writes are allowed as C callers may pass packed storage.
        unsafe { p.write_unaligned(v) };
    }
}

/// The `n` elements at `p`; empty when `n` is 0 (whatever `p` is). `Err(code)` when `p` is
/// NULL and `n` is not 0.
///
/// # Safety
/// When `n` > 0 and `p` is not NULL, `p` points to `n` initialized, aligned `T`s that stay
/// unchanged while the slice lives.
pub unsafe fn slice<'a, T>(p: *const T, n: usize, code: cl_int) -> Result<&'a [T], cl_int> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(code);
    }
    // SAFETY: non-NULL and `n` elements long by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// The `n` elements at `p` as an owned vector, or `None` when `p` is NULL.
///
/// # Safety
/// As for [`slice`].
pub unsafe fn vec_or_none<T: Copy>(p: *const T, n: usize) -> Option<Vec<T>> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller's contract, as for `slice`.
    unsafe { slice(p, n, 0) }.ok().map(<[T]>::to_vec)
}

/// A property list at `p`: (name, value) pairs up to the 0 name, at most `limit` pairs,
/// flattened; `None` when `p` is NULL.
///
/// # Safety
/// `p` is NULL or points to pairs ending with a 0 name.
pub unsafe fn zero_list<T: Copy + Default + PartialEq>(
    p: *const T,
    limit: usize,
) -> Option<Vec<T>> {
    if p.is_null() {
        return None;
    }
    let mut out = Vec::new();
    for i in 0..limit {
        // SAFETY: the list is 0-terminated at a name and we stop at that 0; a name that is
        // not 0 is followed by its value.
        let (name, value) = unsafe { (p.add(2 * i).read_unaligned(), p.add(2 * i + 1)) };
        if name == T::default() {
            break;
        }
        out.push(name);
        // SAFETY: as above.
        out.push(unsafe { value.read_unaligned() });
    }
    Some(out)
}

/// The NUL-terminated string at `p` (lossily UTF-8), or `Err(code)` when `p` is NULL.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string.
pub unsafe fn cstr(p: *const c_char, code: cl_int) -> Result<String, cl_int> {
    if p.is_null() {
        return Err(code);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    Ok(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// Copies a query's answer out under the `clGet*Info` rules: `size_ret` (if not NULL)
/// always gets the answer's size; `value` (if not NULL) gets the bytes, or the call fails
/// with `CL_INVALID_VALUE` when `size` is smaller than the answer.
///
/// # Safety
/// `value` is NULL or writable for `size` bytes; `size_ret` is NULL or a writable size_t.
pub unsafe fn write_info(
    info: Result<Info, cl_int>,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> Result<(), cl_int> {
    let info = info?;
    let n = info.0.len();
    // SAFETY: NULL or writable, by the caller's contract. Set even when `size` is too
    // small, so the application learns the size it needs.
    unsafe { put(size_ret, n) };
    if !value.is_null() {
        if size < n {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: `value` is writable for `size` >= n bytes by the caller's contract.
        unsafe { std::ptr::copy_nonoverlapping(info.0.as_ptr(), value.cast::<u8>(), n) };
    }
    Ok(())
}

/// Host memory the application owns and lent to a command (the destination of a read, the
/// source of a write, a `USE_HOST_PTR` buffer's memory). Made only by the `unsafe`
/// [`HostPtr::new`]; reading and writing it is then safe, within its length.
#[derive(Clone, Copy, Debug)]
pub struct HostPtr {
    addr: usize,
    len: usize,
}

impl HostPtr {
    /// # Safety
    /// `p` is valid for reads (and, where the command writes it, writes) of `len` bytes
    /// until the commands using it have completed, as the specification requires of the
    /// application; `p` is not NULL unless `len` is 0.
    pub unsafe fn new(p: *const c_void, len: usize) -> HostPtr {
        HostPtr {
            addr: p as usize,
            len,
        }
    }

    pub fn addr(&self) -> usize {
        self.addr
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Copies `out.len()` bytes from `offset`; false when outside the region.
    pub fn read(&self, offset: usize, out: &mut [u8]) -> bool {
        if offset.checked_add(out.len()).is_none_or(|e| e > self.len) || out.is_empty() {
            return out.is_empty();
        }
        // SAFETY: inside the region `new`'s contract makes readable; `out` is Rust memory,
        // so the two cannot overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(
                (self.addr + offset) as *const u8,
                out.as_mut_ptr(),
                out.len(),
            )
        };
        true
    }

    /// Copies `data` to `offset`; false when outside the region.
    pub fn write(&self, offset: usize, data: &[u8]) -> bool {
        if offset.checked_add(data.len()).is_none_or(|e| e > self.len) || data.is_empty() {
            return data.is_empty();
        }
        // SAFETY: inside the region `new`'s contract makes writable; `data` is Rust memory
        // or another region of the application's, copied as `memmove` would.
        unsafe { std::ptr::copy(data.as_ptr(), (self.addr + offset) as *mut u8, data.len()) };
        true
    }

    /// The region's bytes as a vector.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = vec![0; self.len];
        self.read(0, &mut v);
        v
    }
}

/// Host memory this library allocated and lends to the application: the memory of a map,
/// or an SVM allocation. Aligned to 128 bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN).
pub struct HostAlloc {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
    /// How the memory was had: this library's allocator, or an owner that frees it when
    /// dropped (a GPU's managed memory, [`HostAlloc::managed`]).
    backing: Backing,
}

enum Backing {
    Heap(std::alloc::Layout),
    /// Held only to be dropped with the allocation.
    #[allow(dead_code)]
    Owner(std::sync::Arc<dyn std::any::Any + Send + Sync>),
}

impl std::fmt::Debug for HostAlloc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostAlloc({:#x}, {} bytes)", self.addr(), self.len)
    }
}

// SAFETY: the allocation is plain bytes owned by this value; access goes through `read` and
// `write`, whose callers synchronize with the application as the OpenCL memory model says.
unsafe impl Send for HostAlloc {}
// SAFETY: as for Send: no interior references are handed out.
unsafe impl Sync for HostAlloc {}

/// Alignment of [`HostAlloc`]s in bytes.
pub const HOST_ALIGN: usize = 128;

impl HostAlloc {
    /// `len` zero bytes (at least one byte is allocated), or `None` when out of memory.
    pub fn new(len: usize, align: usize) -> Option<HostAlloc> {
        let layout = std::alloc::Layout::from_size_align(len.max(1), align.max(HOST_ALIGN)).ok()?;
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        std::ptr::NonNull::new(p).map(|ptr| HostAlloc {
            ptr,
            len,
            backing: Backing::Heap(layout),
        })
    }

    /// The `len` bytes at `addr` that `owner` holds and frees when dropped: memory the host
    /// may read and write for as long as `owner` lives (a GPU's managed memory, which
    /// launches leave coherent when they return). `None` for a NULL address.
    pub fn managed(
        addr: usize,
        len: usize,
        owner: std::sync::Arc<dyn std::any::Any + Send + Sync>,
    ) -> Option<HostAlloc> {
        std::ptr::NonNull::new(addr as *mut u8).map(|ptr| HostAlloc {
            ptr,
            len,
            backing: Backing::Owner(owner),
        })
    }

    pub fn ptr(&self) -> *mut c_void {
        self.ptr.as_ptr().cast()
    }

    pub fn addr(&self) -> usize {
        self.ptr.as_ptr() as usize
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The allocation as a [`HostPtr`] region.
    pub fn region(&self) -> HostPtr {
        HostPtr {
            addr: self.addr(),
            len: self.len,
        }
    }
}

impl Drop for HostAlloc {
    fn drop(&mut self) {
        if let Backing::Heap(layout) = self.backing {
            // SAFETY: allocated by `new` with this layout.
            unsafe { std::alloc::dealloc(self.ptr.as_ptr(), layout) };
        }
    }
}

/// `void (CL_CALLBACK *)(handle, void *user_data)`: destructor and release callbacks of
/// contexts, memory objects and programs, and build notifications.
#[derive(Clone, Copy, Debug)]
pub struct ObjCallback {
    f: unsafe extern "C" fn(*mut c_void, *mut c_void),
    data: usize,
}

impl ObjCallback {
    /// # Safety
    /// `f` is a function of that type that may be called from any thread with `data`.
    pub unsafe fn new(
        f: unsafe extern "C" fn(*mut c_void, *mut c_void),
        data: *mut c_void,
    ) -> Self {
        ObjCallback {
            f,
            data: data as usize,
        }
    }

    /// Calls the function with the handle (its address) of the object it is about.
    pub fn call(&self, handle: usize) {
        // SAFETY: `new`'s contract.
        unsafe { (self.f)(handle as *mut c_void, self.data as *mut c_void) }
    }
}

/// `void (CL_CALLBACK *)(cl_event, cl_int status, void *user_data)`.
#[derive(Clone, Copy, Debug)]
pub struct EventCallback {
    f: unsafe extern "C" fn(cl_event, cl_int, *mut c_void),
    data: usize,
}

impl EventCallback {
    /// # Safety
    /// `f` is a function of that type that may be called from any thread with `data`.
    pub unsafe fn new(
        f: unsafe extern "C" fn(cl_event, cl_int, *mut c_void),
        data: *mut c_void,
    ) -> Self {
        EventCallback {
            f,
            data: data as usize,
        }
    }

    /// Calls the function with the event's handle (its address) and status.
    pub fn call(&self, event: usize, status: cl_int) {
        // SAFETY: `new`'s contract.
        unsafe { (self.f)(event as *mut c_void, status, self.data as *mut c_void) }
    }
}

/// A context's `pfn_notify(errinfo, private_info, cb, user_data)`.
#[derive(Clone, Copy, Debug)]
pub struct ContextNotify {
    f: unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void),
    data: usize,
}

impl ContextNotify {
    /// # Safety
    /// `f` is a function of that type that may be called from any thread with `data`.
    pub unsafe fn new(
        f: unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void),
        data: *mut c_void,
    ) -> Self {
        ContextNotify {
            f,
            data: data as usize,
        }
    }

    /// Tells the application `message` (as a C string).
    pub fn call(&self, message: &str) {
        let mut s: Vec<u8> = message.bytes().filter(|&b| b != 0).collect();
        s.push(0);
        // SAFETY: `new`'s contract; the string is NUL-terminated and outlives the call.
        unsafe {
            (self.f)(
                s.as_ptr().cast(),
                std::ptr::null(),
                0,
                self.data as *mut c_void,
            )
        }
    }
}

/// `clEnqueueSVMFree`'s `pfn_free_func(queue, num, pointers, user_data)`.
#[derive(Clone, Copy, Debug)]
pub struct SvmFreeCallback {
    f: unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void),
    data: usize,
}

impl SvmFreeCallback {
    /// # Safety
    /// `f` is a function of that type that may be called from any thread with `data`.
    pub unsafe fn new(
        f: unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void),
        data: *mut c_void,
    ) -> Self {
        SvmFreeCallback {
            f,
            data: data as usize,
        }
    }

    /// Calls the function with the queue's handle (its address) and the pointers.
    pub fn call(&self, queue: usize, pointers: &[usize]) {
        let mut ptrs: Vec<*mut c_void> = pointers.iter().map(|&p| p as *mut c_void).collect();
        // SAFETY: `new`'s contract; the array lives across the call.
        unsafe {
            (self.f)(
                queue as *mut c_void,
                ptrs.len() as cl_uint,
                ptrs.as_mut_ptr(),
                self.data as *mut c_void,
            )
        }
    }
}

impl HostPtr {
    /// The `len` bytes at `offset` of this region, as a region of their own.
    pub fn sub(&self, offset: usize, len: usize) -> Option<HostPtr> {
        let end = offset.checked_add(len)?;
        (end <= self.len).then_some(HostPtr {
            addr: self.addr + offset,
            len,
        })
    }
}
