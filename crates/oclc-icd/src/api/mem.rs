//! Entry points of memory objects: buffers, sub-buffers, their commands, and SVM.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use opencl_sys::*;

use super::{enqueue, info_out, object_fn, status_fn, wait_list};
use crate::context::{Context, Svm};
use crate::ffi::{self, HostAlloc, HostPtr, ObjCallback, SvmFreeCallback};
use crate::handle::{self, Kind, Ref};
use crate::info::Info;
use crate::mem::{Mapping, Mem, Rect};
use crate::queue::Queue;

const ACCESS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const HOST_ACCESS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
const HOST_PTR_FLAGS: cl_mem_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

/// Whether at most one bit of `mask` is set in `flags`.
fn at_most_one(flags: cl_mem_flags, mask: cl_mem_flags) -> bool {
    (flags & mask).count_ones() <= 1
}

/// Checks a buffer's flags: known bits, one access mode, one host access mode, no
/// USE_HOST_PTR with ALLOC_HOST_PTR or COPY_HOST_PTR.
pub(super) fn check_flags(flags: cl_mem_flags) -> Result<(), cl_int> {
    let known = ACCESS | HOST_ACCESS | HOST_PTR_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE;
    if flags & !known != 0
        || !at_most_one(flags, ACCESS)
        || !at_most_one(flags, HOST_ACCESS)
        || (flags & CL_MEM_USE_HOST_PTR != 0
            && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

/// Bytes moved per step between the application's memory and a buffer: a transfer goes
/// through one reused chunk rather than a vector of its whole size, so a large read or write
/// allocates (and page-faults in) no memory of its size.
const CHUNK: usize = 256 << 10;

/// Copies the `len` bytes of `src` into a buffer by `put(offset, bytes)`, chunk by chunk.
pub(super) fn copy_in(
    src: &HostPtr,
    len: usize,
    mut put: impl FnMut(usize, &[u8]) -> Result<(), cl_int>,
) -> Result<(), cl_int> {
    let mut chunk = vec![0u8; CHUNK.min(len)];
    let mut off = 0;
    while off < len {
        let c = &mut chunk[..CHUNK.min(len - off)];
        if !src.read(off, c) {
            return Err(CL_OUT_OF_RESOURCES);
        }
        put(off, c)?;
        off += c.len();
    }
    Ok(())
}

/// Copies `len` bytes from a buffer by `get(offset, out)` into `dst`, chunk by chunk.
fn copy_out(
    dst: &HostPtr,
    len: usize,
    mut get: impl FnMut(usize, &mut [u8]) -> Result<(), cl_int>,
) -> Result<(), cl_int> {
    let mut chunk = vec![0u8; CHUNK.min(len)];
    let mut off = 0;
    while off < len {
        let c = &mut chunk[..CHUNK.min(len - off)];
        get(off, c)?;
        if !dst.write(off, c) {
            return Err(CL_OUT_OF_RESOURCES);
        }
        off += c.len();
    }
    Ok(())
}

/// A new buffer of `size` bytes in `ctx`, with the host memory at `host` (for USE_HOST_PTR
/// and COPY_HOST_PTR).
fn make_buffer(
    ctx: Ref<Context>,
    mut flags: cl_mem_flags,
    size: usize,
    host: Option<HostPtr>,
    properties: Vec<u64>,
) -> Result<*mut c_void, cl_int> {
    check_flags(flags)?;
    let uses_host = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if uses_host != host.is_some() {
        return Err(CL_INVALID_HOST_PTR);
    }
    let dev = ctx.devices.first().ok_or(CL_INVALID_CONTEXT)?.clone();
    if size == 0 || size as u64 > dev.limits.max_alloc_size {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    // A buffer over SVM memory must lie inside its SVM allocation.
    if flags & CL_MEM_USE_HOST_PTR != 0
        && let Some(h) = &host
        && let Some((s, off)) = ctx.svm_at(h.addr())
        && off.checked_add(size).is_none_or(|end| end > s.host.len())
    {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    let buf = dev.new_buffer(size)?;
    if let Some(h) = &host {
        copy_in(h, size, |off, bytes| {
            buf.write_at(off, bytes).map_err(|_| CL_OUT_OF_RESOURCES)
        })?;
    }
    if flags & ACCESS == 0 {
        flags |= CL_MEM_READ_WRITE;
    }
    let keep_host = if flags & CL_MEM_USE_HOST_PTR != 0 {
        host
    } else {
        None
    };
    let (m, h) = handle::create(Mem {
        ctx,
        flags,
        size,
        host: keep_host,
        parent: None,
        buf,
        maps: Mutex::new(HashMap::new()),
        destructors: Mutex::new(Vec::new()),
        handle: Mutex::new(0),
        properties,
        image: None,
    });
    *m.handle.lock().unwrap_or_else(|e| e.into_inner()) = h as usize;
    Ok(h)
}

object_fn!(
    fn create_buffer(c: cl_context, flags: cl_mem_flags, size: usize, host_ptr: *mut c_void; errcode_ret) {
        let ctx = handle::get::<Context>(c)?;
        // SAFETY: with USE_HOST_PTR or COPY_HOST_PTR, host_ptr points to size bytes (for
        // USE_HOST_PTR, for the buffer's lifetime), as clCreateBuffer requires.
        let host = (!host_ptr.is_null()).then(|| unsafe { HostPtr::new(host_ptr, size) });
        make_buffer(ctx, flags, size, host, Vec::new())
    }
);

object_fn!(
    fn create_buffer_with_properties(
        c: cl_context,
        props: *const cl_mem_properties,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: *mut c_void;
        errcode_ret
    ) {
        let ctx = handle::get::<Context>(c)?;
        // SAFETY: properties is NULL or 0-terminated.
        let list = unsafe { ffi::zero_list(props, 1024) };
        if list.as_ref().is_some_and(|l| !l.is_empty()) {
            // No buffer property is supported.
            return Err(CL_INVALID_PROPERTY);
        }
        let properties = if list.is_some() { vec![0] } else { Vec::new() };
        // SAFETY: as in clCreateBuffer.
        let host = (!host_ptr.is_null()).then(|| unsafe { HostPtr::new(host_ptr, size) });
        make_buffer(ctx, flags, size, host, properties)
    }
);

object_fn!(
    fn create_sub_buffer(
        m: cl_mem,
        flags: cl_mem_flags,
        create_type: cl_buffer_create_type,
        info: *const c_void;
        errcode_ret
    ) {
        let parent = handle::get::<Mem>(m)?;
        if parent.parent.is_some() || parent.image.is_some() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        if create_type != CL_BUFFER_CREATE_TYPE_REGION || info.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: for CL_BUFFER_CREATE_TYPE_REGION, info points to a cl_buffer_region.
        let region = unsafe { info.cast::<cl_buffer_region>().read_unaligned() };
        check_flags(flags)?;
        if flags & HOST_PTR_FLAGS != 0 {
            return Err(CL_INVALID_VALUE);
        }
        let p = parent.flags;
        let bad_access = (p & CL_MEM_WRITE_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
            || (p & CL_MEM_READ_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
            || (p & CL_MEM_HOST_WRITE_ONLY != 0 && flags & CL_MEM_HOST_READ_ONLY != 0)
            || (p & CL_MEM_HOST_READ_ONLY != 0 && flags & CL_MEM_HOST_WRITE_ONLY != 0)
            || (p & CL_MEM_HOST_NO_ACCESS != 0 && flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) != 0);
        if bad_access {
            return Err(CL_INVALID_VALUE);
        }
        if region.size == 0 {
            return Err(CL_INVALID_BUFFER_SIZE);
        }
        let end = region.origin.checked_add(region.size).ok_or(CL_INVALID_VALUE)?;
        if end > parent.size {
            return Err(CL_INVALID_VALUE);
        }
        if region.origin % ffi::HOST_ALIGN != 0 {
            return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        let mut f = flags;
        if f & ACCESS == 0 {
            f |= p & ACCESS;
        }
        if f & HOST_ACCESS == 0 {
            f |= p & HOST_ACCESS;
        }
        f |= p & HOST_PTR_FLAGS;
        let buf = parent
            .buf
            .region(region.origin, region.size)
            .map_err(|_| CL_INVALID_VALUE)?;
        let host = match &parent.host {
            Some(h) => Some(h.sub(region.origin, region.size).ok_or(CL_INVALID_VALUE)?),
            None => None,
        };
        let (sub, h) = handle::create(Mem {
            ctx: parent.ctx.clone(),
            flags: f,
            size: region.size,
            host,
            parent: Some((parent.clone(), region.origin)),
            buf,
            maps: Mutex::new(HashMap::new()),
            destructors: Mutex::new(Vec::new()),
            handle: Mutex::new(0),
            properties: Vec::new(),
            image: None,
        });
        *sub.handle.lock().unwrap_or_else(|e| e.into_inner()) = h as usize;
        Ok(h)
    }
);

status_fn!(
    fn retain_mem_object(m: cl_mem) {
        handle::retain(m, Kind::Mem)
    }
);

status_fn!(
    fn release_mem_object(m: cl_mem) {
        handle::release(m, Kind::Mem)
    }
);

status_fn!(
    fn get_mem_object_info(
        m: cl_mem,
        param: cl_mem_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let mem = handle::get::<Mem>(m)?;
        let info = match param {
            CL_MEM_TYPE => Ok(Info::u32(
                mem.image.map_or(CL_MEM_OBJECT_BUFFER, |i| i.desc.ty),
            )),
            CL_MEM_FLAGS => Ok(Info::u64(mem.flags)),
            CL_MEM_SIZE => Ok(Info::usize(mem.size)),
            CL_MEM_HOST_PTR => Ok(Info::usize(mem.host.map_or(0, |h| h.addr()))),
            CL_MEM_MAP_COUNT => Ok(Info::u32(mem.map_count() as u32)),
            CL_MEM_REFERENCE_COUNT => Ok(Info::u32(handle::ref_count(m))),
            CL_MEM_CONTEXT => Ok(Info::ptr(handle::handle(&mem.ctx))),
            CL_MEM_ASSOCIATED_MEMOBJECT => Ok(Info::ptr(
                mem.parent
                    .as_ref()
                    .map_or(std::ptr::null_mut(), |(p, _)| handle::handle(p)),
            )),
            CL_MEM_OFFSET => Ok(Info::usize(mem.parent.as_ref().map_or(0, |(_, o)| *o))),
            CL_MEM_USES_SVM_POINTER => Ok(Info::bool(
                mem.host.is_some_and(|h| mem.ctx.svm_at(h.addr()).is_some()),
            )),
            CL_MEM_PROPERTIES => Ok(Info::u64s(&mem.properties)),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

status_fn!(
    fn set_mem_object_destructor_callback(
        m: cl_mem,
        f: Option<unsafe extern "C" fn(cl_mem, *mut c_void)>,
        user_data: *mut c_void,
    ) {
        let mem = handle::get::<Mem>(m)?;
        let f = f.ok_or(CL_INVALID_VALUE)?;
        // SAFETY: the callback may be called from any thread, as the specification says.
        let cb = unsafe { ObjCallback::new(f, user_data) };
        mem.destructors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(cb);
        Ok(())
    }
);

/// The queue and buffer of a command, checked to share a context (an image is
/// CL_INVALID_MEM_OBJECT: buffer commands take buffers).
fn queue_and_mem(q: cl_command_queue, m: cl_mem) -> Result<(Ref<Queue>, Ref<Mem>), cl_int> {
    let (queue, mem) = queue_and_object(q, m)?;
    if mem.image.is_some() {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    Ok((queue, mem))
}

/// The queue and memory object (buffer or image) of a command, checked to share a context.
pub(super) fn queue_and_object(
    q: cl_command_queue,
    m: cl_mem,
) -> Result<(Ref<Queue>, Ref<Mem>), cl_int> {
    let queue = handle::get::<Queue>(q)?;
    let mem = handle::get::<Mem>(m)?;
    if !Arc::ptr_eq(&queue.ctx, &mem.ctx) {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok((queue, mem))
}

/// CL_INVALID_VALUE unless `offset..offset+size` is a non-empty range inside the buffer.
fn check_range(mem: &Mem, offset: usize, size: usize) -> Result<(), cl_int> {
    match offset.checked_add(size) {
        Some(end) if size > 0 && end <= mem.size => Ok(()),
        _ => Err(CL_INVALID_VALUE),
    }
}

status_fn!(
    fn enqueue_read_buffer(
        q: cl_command_queue,
        m: cl_mem,
        blocking: cl_bool,
        offset: usize,
        size: usize,
        ptr: *mut c_void,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, mem) = queue_and_mem(q, m)?;
        check_range(&mem, offset, size)?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if mem.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        // SAFETY: ptr is writable for size bytes until the read completes, as
        // clEnqueueReadBuffer requires.
        let dst = unsafe { HostPtr::new(ptr, size) };
        let work =
            Box::new(move || copy_out(&dst, size, |off, out| mem.read_at(offset + off, out)));
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_READ_BUFFER,
                wait_list(n, list)?,
                blocking != 0,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_write_buffer(
        q: cl_command_queue,
        m: cl_mem,
        blocking: cl_bool,
        offset: usize,
        size: usize,
        ptr: *const c_void,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, mem) = queue_and_mem(q, m)?;
        check_range(&mem, offset, size)?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if mem.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        // SAFETY: ptr is readable for size bytes until the write completes, as
        // clEnqueueWriteBuffer requires.
        let src = unsafe { HostPtr::new(ptr, size) };
        let work = Box::new(move || copy_in(&src, size, |off, b| mem.write_at(offset + off, b)));
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_WRITE_BUFFER,
                wait_list(n, list)?,
                blocking != 0,
                event,
                work,
            )
        }
    }
);

/// Whether two ranges of buffers overlap in memory.
fn overlap(a: &Mem, a_off: usize, b: &Mem, b_off: usize, len: usize) -> bool {
    let (ra, oa) = a.root();
    let (rb, ob) = b.root();
    let (sa, sb) = (oa + a_off, ob + b_off);
    ra == rb && sa < sb + len && sb < sa + len
}

status_fn!(
    fn enqueue_copy_buffer(
        q: cl_command_queue,
        src: cl_mem,
        dst: cl_mem,
        src_offset: usize,
        dst_offset: usize,
        size: usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, s) = queue_and_mem(q, src)?;
        let (_, d) = queue_and_mem(q, dst)?;
        check_range(&s, src_offset, size)?;
        check_range(&d, dst_offset, size)?;
        if overlap(&s, src_offset, &d, dst_offset, size) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let work = Box::new(move || {
            let mut bytes = vec![0; size];
            s.read_at(src_offset, &mut bytes)?;
            d.write_at(dst_offset, &bytes)
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_COPY_BUFFER,
                wait_list(n, list)?,
                false,
                event,
                work,
            )
        }
    }
);

/// The three `size_t`s at `p`: CL_INVALID_VALUE when NULL.
///
/// # Safety
/// `p` is NULL or points to three size_t.
pub(super) unsafe fn triple(p: *const usize) -> Result<[usize; 3], cl_int> {
    // SAFETY: the caller's contract.
    let s = unsafe { ffi::slice(p, 3, CL_INVALID_VALUE) }?;
    Ok([s[0], s[1], s[2]])
}

/// One row of a rectangle: (offset on one side, offset on the other, length in bytes).
type Row = (usize, usize, usize);

/// The rows of a rectangle between a buffer of `size` bytes and host memory
/// (`clEnqueue{Read,Write}BufferRect`): (buffer offset, host offset, length) each, and the host
/// bytes the rectangle spans. `CL_INVALID_VALUE` for a bad region or pitch, or one past the
/// buffer.
///
/// # Safety
/// `ptrs` (buffer origin, host origin, region) are each NULL or point to three size_t.
unsafe fn host_rect(
    size: usize,
    ptrs: [*const usize; 3],
    [buffer_row, buffer_slice, host_row, host_slice]: [usize; 4],
) -> Result<(Vec<Row>, usize), cl_int> {
    // SAFETY: as the caller promises.
    let (bo, ho, r) = unsafe { (triple(ptrs[0])?, triple(ptrs[1])?, triple(ptrs[2])?) };
    let rect = Rect {
        region: r,
        a_origin: bo,
        a_row: buffer_row,
        a_slice: buffer_slice,
        b_origin: ho,
        b_row: host_row,
        b_slice: host_slice,
    }
    .normalize()?;
    if rect.a_end().is_none_or(|e| e > size) {
        return Err(CL_INVALID_VALUE);
    }
    let host_len = rect.b_end().ok_or(CL_INVALID_VALUE)?;
    let rows = rect.rows().ok_or(CL_INVALID_VALUE)?;
    Ok((rows, host_len))
}

status_fn!(
    fn enqueue_read_buffer_rect(
        q: cl_command_queue,
        m: cl_mem,
        blocking: cl_bool,
        buffer_origin: *const usize,
        host_origin: *const usize,
        region: *const usize,
        buffer_row_pitch: usize,
        buffer_slice_pitch: usize,
        host_row_pitch: usize,
        host_slice_pitch: usize,
        ptr: *mut c_void,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, mem) = queue_and_mem(q, m)?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if mem.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        // SAFETY: origin and region arguments point to three size_t each.
        let (rows, host_len) = unsafe {
            host_rect(
                mem.size,
                [buffer_origin, host_origin, region],
                [
                    buffer_row_pitch,
                    buffer_slice_pitch,
                    host_row_pitch,
                    host_slice_pitch,
                ],
            )
        }?;
        // SAFETY: ptr is writable over the rectangle the origin, region and pitches
        // describe, which ends at host_len, until the read completes.
        let dst = unsafe { HostPtr::new(ptr, host_len) };
        let work = Box::new(move || {
            let mut row = Vec::new();
            for (a, b, len) in rows {
                row.resize(len, 0);
                mem.read_at(a, &mut row)?;
                dst.write(b, &row);
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_READ_BUFFER_RECT,
                wait_list(n, list)?,
                blocking != 0,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_write_buffer_rect(
        q: cl_command_queue,
        m: cl_mem,
        blocking: cl_bool,
        buffer_origin: *const usize,
        host_origin: *const usize,
        region: *const usize,
        buffer_row_pitch: usize,
        buffer_slice_pitch: usize,
        host_row_pitch: usize,
        host_slice_pitch: usize,
        ptr: *const c_void,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, mem) = queue_and_mem(q, m)?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if mem.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        // SAFETY: origin and region arguments point to three size_t each.
        let (rows, host_len) = unsafe {
            host_rect(
                mem.size,
                [buffer_origin, host_origin, region],
                [
                    buffer_row_pitch,
                    buffer_slice_pitch,
                    host_row_pitch,
                    host_slice_pitch,
                ],
            )
        }?;
        // SAFETY: ptr is readable over the rectangle, which ends at host_len, until the
        // write completes.
        let src = unsafe { HostPtr::new(ptr, host_len) };
        let work = Box::new(move || {
            let mut row = Vec::new();
            for (a, b, len) in rows {
                row.resize(len, 0);
                src.read(b, &mut row);
                mem.write_at(a, &row)?;
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_WRITE_BUFFER_RECT,
                wait_list(n, list)?,
                blocking != 0,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_copy_buffer_rect(
        q: cl_command_queue,
        src: cl_mem,
        dst: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        src_row_pitch: usize,
        src_slice_pitch: usize,
        dst_row_pitch: usize,
        dst_slice_pitch: usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, s) = queue_and_mem(q, src)?;
        let (_, d) = queue_and_mem(q, dst)?;
        // SAFETY: origin and region arguments point to three size_t each.
        let (so, dor, r) = unsafe { (triple(src_origin)?, triple(dst_origin)?, triple(region)?) };
        let rect = Rect {
            region: r,
            a_origin: so,
            a_row: src_row_pitch,
            a_slice: src_slice_pitch,
            b_origin: dor,
            b_row: dst_row_pitch,
            b_slice: dst_slice_pitch,
        }
        .normalize()?;
        let a_end = rect.a_end().ok_or(CL_INVALID_VALUE)?;
        let b_end = rect.b_end().ok_or(CL_INVALID_VALUE)?;
        if a_end > s.size || b_end > d.size {
            return Err(CL_INVALID_VALUE);
        }
        let rows = rect.rows().ok_or(CL_INVALID_VALUE)?;
        if s.root().0 == d.root().0 {
            if (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch)
                && Arc::ptr_eq(&s, &d)
            {
                return Err(CL_INVALID_VALUE);
            }
            let any = rows
                .iter()
                .any(|&(a, _, len)| rows.iter().any(|&(_, b, _)| overlap(&s, a, &d, b, len)));
            if any {
                return Err(CL_MEM_COPY_OVERLAP);
            }
        }
        let work = Box::new(move || {
            let mut row = Vec::new();
            for (a, b, len) in rows {
                row.resize(len, 0);
                s.read_at(a, &mut row)?;
                d.write_at(b, &row)?;
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_COPY_BUFFER_RECT,
                wait_list(n, list)?,
                false,
                event,
                work,
            )
        }
    }
);

/// CL_INVALID_VALUE unless a fill pattern's size is a power of two from 1 to 128.
fn check_pattern(size: usize) -> Result<(), cl_int> {
    if size.is_power_of_two() && size <= 128 {
        Ok(())
    } else {
        Err(CL_INVALID_VALUE)
    }
}

status_fn!(
    fn enqueue_fill_buffer(
        q: cl_command_queue,
        m: cl_mem,
        pattern: *const c_void,
        pattern_size: usize,
        offset: usize,
        size: usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, mem) = queue_and_mem(q, m)?;
        if pattern.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        check_pattern(pattern_size)?;
        check_range(&mem, offset, size)?;
        if !offset.is_multiple_of(pattern_size) || !size.is_multiple_of(pattern_size) {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: pattern points to pattern_size bytes (copied now: the application may
        // reuse it once the call returns).
        let pat = unsafe { HostPtr::new(pattern, pattern_size) }.to_vec();
        let work = Box::new(move || {
            let bytes: Vec<u8> = pat.iter().copied().cycle().take(size).collect();
            mem.write_at(offset, &bytes)
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_FILL_BUFFER,
                wait_list(n, list)?,
                false,
                event,
                work,
            )
        }
    }
);

object_fn!(
    fn enqueue_map_buffer(
        q: cl_command_queue,
        m: cl_mem,
        blocking: cl_bool,
        map_flags: cl_map_flags,
        offset: usize,
        size: usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event;
        errcode_ret
    ) {
        let (queue, mem) = queue_and_mem(q, m)?;
        check_range(&mem, offset, size)?;
        // SAFETY: list is NULL or n events.
        let wait = unsafe { wait_list(n, list) }?;
        // SAFETY: event is NULL or writable.
        let addr = unsafe {
            map_range(&queue, &mem, blocking != 0, map_flags, offset, size, wait, event, CL_COMMAND_MAP_BUFFER)
        }?;
        Ok(addr as *mut c_void)
    }
);

/// Maps `size` bytes at `offset` of `mem` (a buffer, or the span of an image's region) for
/// the host: the address handed out, recorded for `clEnqueueUnmapMemObject`.
///
/// # Safety
/// `event` is NULL or a writable cl_event.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn map_range(
    queue: &Ref<Queue>,
    mem: &Ref<Mem>,
    blocking: bool,
    map_flags: cl_map_flags,
    offset: usize,
    size: usize,
    wait: Vec<Ref<crate::queue::Event>>,
    event: *mut cl_event,
    command: cl_command_type,
) -> Result<usize, cl_int> {
    let known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if map_flags & !known != 0
        || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
            && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    let reads = map_flags & CL_MAP_READ != 0;
    let writes = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    if (reads && mem.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0)
        || (writes && mem.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0)
    {
        return Err(CL_INVALID_OPERATION);
    }
    let (target, alloc) = match &mem.host {
        Some(h) => (h.sub(offset, size).ok_or(CL_INVALID_VALUE)?, None),
        None => {
            let a = Arc::new(HostAlloc::new(size, 0).ok_or(CL_MAP_FAILURE)?);
            (a.region(), Some(a))
        }
    };
    let addr = target.addr();
    {
        let mut maps = mem.maps.lock().unwrap_or_else(|e| e.into_inner());
        let e = maps.entry(addr).or_insert(Mapping {
            offset,
            len: size,
            write: false,
            alloc: alloc.clone(),
            count: 0,
        });
        e.count += 1;
        e.write |= writes;
    }
    let m2 = Arc::clone(mem);
    let work = Box::new(move || {
        // The allocation stays alive while the command runs.
        let _keep = alloc;
        if m2.host.is_none() {
            let mut bytes = vec![0; size];
            m2.buf
                .read_at(offset, &mut bytes)
                .map_err(|_| CL_OUT_OF_RESOURCES)?;
            target.write(0, &bytes);
        }
        Ok(())
    });
    // SAFETY: event is NULL or writable.
    let r = unsafe { enqueue(queue, command, wait, blocking, event, work) };
    if let Err(e) = r {
        let mut maps = mem.maps.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(m) = maps.get_mut(&addr) {
            m.count -= 1;
            if m.count == 0 {
                maps.remove(&addr);
            }
        }
        return Err(e);
    }
    Ok(addr)
}

status_fn!(
    fn enqueue_unmap_mem_object(
        q: cl_command_queue,
        m: cl_mem,
        mapped: *mut c_void,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, mem) = queue_and_object(q, m)?;
        // SAFETY: list is NULL or n events.
        let wait = unsafe { wait_list(n, list) }?;
        let addr = mapped as usize;
        // A map of the application's memory (USE_HOST_PTR) may be mapped several times at
        // one address; every other map has memory of its own, written back at its unmap.
        let (offset, len, write, alloc) = {
            let mut maps = mem.maps.lock().unwrap_or_else(|e| e.into_inner());
            let mp = maps.get_mut(&addr).ok_or(CL_INVALID_VALUE)?;
            mp.count -= 1;
            let t = (mp.offset, mp.len, mp.write, mp.alloc.clone());
            if mp.count == 0 {
                maps.remove(&addr);
            }
            t
        };
        let m2 = mem.clone();
        let work = Box::new(move || {
            if write && let Some(a) = &alloc {
                let mut bytes = vec![0; len];
                a.region().read(0, &mut bytes);
                m2.buf
                    .write_at(offset, &bytes)
                    .map_err(|_| CL_OUT_OF_RESOURCES)?;
            }
            drop(alloc);
            Ok(())
        });
        // SAFETY: event is NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_UNMAP_MEM_OBJECT,
                wait,
                false,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_migrate_mem_objects(
        q: cl_command_queue,
        num: cl_uint,
        objs: *const cl_mem,
        flags: cl_mem_migration_flags,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        if num == 0 || objs.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0 {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: objs points to num handles.
        let handles = unsafe { ffi::slice(objs, num as usize, CL_INVALID_VALUE) }?;
        for &h in handles {
            let m = handle::get::<Mem>(h)?;
            if !Arc::ptr_eq(&m.ctx, &queue.ctx) {
                return Err(CL_INVALID_CONTEXT);
            }
        }
        // One memory space: migrating moves nothing.
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_MIGRATE_MEM_OBJECTS,
                wait_list(n, list)?,
                false,
                event,
                Box::new(|| Ok(())),
            )
        }
    }
);

// ---------------------------------------------------------------- SVM

/// # Safety
/// As clSVMAlloc: a context handle; the result is NULL on any error.
pub(crate) unsafe extern "C" fn svm_alloc(
    c: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> *mut c_void {
    let r = std::panic::catch_unwind(|| -> Option<*mut c_void> {
        let ctx = handle::get::<Context>(c).ok()?;
        let known = ACCESS | CL_MEM_SVM_FINE_GRAIN_BUFFER;
        if flags & !known != 0 || !at_most_one(flags, ACCESS) {
            // SVM atomics are not supported.
            return None;
        }
        let dev = ctx.devices.first()?.clone();
        if size == 0 || size as u64 > dev.limits.max_alloc_size {
            return None;
        }
        let align = alignment as usize;
        if align != 0 && (!align.is_power_of_two() || align > 1 << 16) {
            return None;
        }
        // Only what the device offers (a GPU: coarse-grained, in managed memory).
        let caps = dev.svm_capabilities();
        let wanted = if flags & CL_MEM_SVM_FINE_GRAIN_BUFFER != 0 {
            CL_DEVICE_SVM_FINE_GRAIN_BUFFER
        } else {
            CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
        };
        if caps & wanted == 0 {
            return None;
        }
        let (host, buf) = dev.new_svm(size, align)?;
        let p = host.ptr();
        let svm = Arc::new(Svm { host, buf, flags });
        ctx.svm
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(p as usize, svm);
        Some(p)
    });
    r.ok().flatten().unwrap_or(std::ptr::null_mut())
}

/// # Safety
/// As clSVMFree.
pub(crate) unsafe extern "C" fn svm_free(c: cl_context, p: *mut c_void) {
    let _ = std::panic::catch_unwind(|| {
        if let Ok(ctx) = handle::get::<Context>(c) {
            let removed = ctx
                .svm
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&(p as usize));
            drop(removed);
        }
    });
}

status_fn!(
    fn enqueue_svm_free(
        q: cl_command_queue,
        num: cl_uint,
        ptrs: *mut *mut c_void,
        f: Option<unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void)>,
        user_data: *mut c_void,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        if num == 0 || ptrs.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: ptrs points to num pointers.
        let list_ptrs: Vec<usize> =
            unsafe { ffi::slice(ptrs.cast_const(), num as usize, CL_INVALID_VALUE) }?
                .iter()
                .map(|p| *p as usize)
                .collect();
        if list_ptrs.contains(&0) {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: pfn_free_func may be called from the queue's thread with user_data.
        let cb = f.map(|f| unsafe { SvmFreeCallback::new(f, user_data) });
        let ctx = queue.ctx.clone();
        let qh = q as usize;
        let work = Box::new(move || {
            match cb {
                Some(cb) => cb.call(qh, &list_ptrs),
                None => {
                    let mut map = ctx.svm.lock().unwrap_or_else(|e| e.into_inner());
                    for p in &list_ptrs {
                        map.remove(p);
                    }
                }
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_SVM_FREE,
                wait_list(n, list)?,
                false,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_svm_memcpy(
        q: cl_command_queue,
        blocking: cl_bool,
        dst: *mut c_void,
        src: *const c_void,
        size: usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        if dst.is_null() || src.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let (d, s) = (dst as usize, src as usize);
        if size > 0 && d < s.saturating_add(size) && s < d.saturating_add(size) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        // SAFETY: dst and src are valid for size bytes (SVM or host memory) until the copy
        // completes, as clEnqueueSVMMemcpy requires.
        let (dp, sp) = unsafe { (HostPtr::new(dst, size), HostPtr::new(src, size)) };
        let work = Box::new(move || {
            dp.write(0, &sp.to_vec());
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_SVM_MEMCPY,
                wait_list(n, list)?,
                blocking != 0,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_svm_mem_fill(
        q: cl_command_queue,
        ptr: *mut c_void,
        pattern: *const c_void,
        pattern_size: usize,
        size: usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        if ptr.is_null() || pattern.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        check_pattern(pattern_size)?;
        if !(ptr as usize).is_multiple_of(pattern_size) || !size.is_multiple_of(pattern_size) {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: pattern points to pattern_size bytes (copied now); ptr is writable for
        // size bytes until the fill completes.
        let (pat, dst) = unsafe {
            (
                HostPtr::new(pattern, pattern_size).to_vec(),
                HostPtr::new(ptr, size),
            )
        };
        let work = Box::new(move || {
            let bytes: Vec<u8> = pat.iter().copied().cycle().take(size).collect();
            dst.write(0, &bytes);
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_SVM_MEMFILL,
                wait_list(n, list)?,
                false,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_svm_map(
        q: cl_command_queue,
        blocking: cl_bool,
        flags: cl_map_flags,
        ptr: *mut c_void,
        size: usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        if ptr.is_null()
            || size == 0
            || flags & !(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0
        {
            return Err(CL_INVALID_VALUE);
        }
        // The host memory of an SVM allocation is its contents between commands: mapping
        // only orders the command.
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_SVM_MAP,
                wait_list(n, list)?,
                blocking != 0,
                event,
                Box::new(|| Ok(())),
            )
        }
    }
);

status_fn!(
    fn enqueue_svm_unmap(
        q: cl_command_queue,
        ptr: *mut c_void,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_SVM_UNMAP,
                wait_list(n, list)?,
                false,
                event,
                Box::new(|| Ok(())),
            )
        }
    }
);

status_fn!(
    fn enqueue_svm_migrate_mem(
        q: cl_command_queue,
        num: cl_uint,
        ptrs: *mut *const c_void,
        _sizes: *const usize,
        _flags: cl_mem_migration_flags,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        if num == 0 || ptrs.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_SVM_MIGRATE_MEM,
                wait_list(n, list)?,
                false,
                event,
                Box::new(|| Ok(())),
            )
        }
    }
);
