//! Entry points of images and samplers (cpu device): creation with every check the
//! specification lists, queries, read/write/copy/fill/map commands, and sampler objects.
//!
//! An image is a [`Mem`] whose `image` says its type, format and layout; its pixels are an
//! ordinary device buffer, so kernels reach them through the cpu device's bounds checks and
//! host commands move rows of bytes as the buffer-rectangle commands do.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use oclc_cpu::runtime::image::{self as rt, Color, ImageDesc, Kind as ReadKind};
use opencl_sys::*;

use super::mem::{check_flags, map_range, queue_and_object, triple};
use super::{enqueue, info_out, object_fn, status_fn, wait_list};
use crate::context::Context;
use crate::ffi::{self, HostPtr};
use crate::handle::{self, ClObject, Kind, Ref};
use crate::info::Info;
use crate::mem::{Image, Mem};
use crate::platform;

/// Channel orders and data types of the formats the cpu device supports, as the
/// specification's table of format combinations allows them.
fn supported(order: cl_channel_order, dt: cl_channel_type) -> bool {
    let all = [
        CL_SNORM_INT8,
        CL_SNORM_INT16,
        CL_UNORM_INT8,
        CL_UNORM_INT16,
        CL_SIGNED_INT8,
        CL_SIGNED_INT16,
        CL_SIGNED_INT32,
        CL_UNSIGNED_INT8,
        CL_UNSIGNED_INT16,
        CL_UNSIGNED_INT32,
        CL_HALF_FLOAT,
        CL_FLOAT,
    ];
    let norm_or_float = [
        CL_UNORM_INT8,
        CL_UNORM_INT16,
        CL_SNORM_INT8,
        CL_SNORM_INT16,
        CL_HALF_FLOAT,
        CL_FLOAT,
    ];
    let eight = [
        CL_UNORM_INT8,
        CL_SNORM_INT8,
        CL_SIGNED_INT8,
        CL_UNSIGNED_INT8,
    ];
    match order {
        CL_R | CL_A | CL_RG | CL_RA | CL_RGBA => all.contains(&dt),
        CL_BGRA | CL_ARGB | CL_ABGR => eight.contains(&dt),
        CL_INTENSITY | CL_LUMINANCE => norm_or_float.contains(&dt),
        _ => false,
    }
}

/// Every supported format, in a stable order.
fn formats() -> Vec<cl_image_format> {
    let orders = [
        CL_RGBA,
        CL_BGRA,
        CL_R,
        CL_RG,
        CL_A,
        CL_RA,
        CL_ARGB,
        CL_ABGR,
        CL_INTENSITY,
        CL_LUMINANCE,
    ];
    let mut out = Vec::new();
    for o in orders {
        for dt in CL_SNORM_INT8..=CL_FLOAT {
            if supported(o, dt) {
                out.push(cl_image_format {
                    image_channel_order: o,
                    image_channel_data_type: dt,
                });
            }
        }
    }
    out
}

/// Whether `order`/`dt` are values the specification defines (else the format descriptor
/// itself is invalid, not merely unsupported).
fn known_format(order: cl_channel_order, dt: cl_channel_type) -> bool {
    let order_ok = (CL_R..=CL_sBGRA).contains(&order) || order == CL_ABGR;
    order_ok && (CL_SNORM_INT8..=CL_UNORM_INT_101010_2).contains(&dt)
}

const IMAGE_TYPES: [cl_mem_object_type; 6] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D,
];

/// The context's memory device, if it has images (the cpu device).
fn image_context(ctx: &Context) -> Result<(), cl_int> {
    match ctx.devices.first() {
        Some(d) if !d.is_cuda() => Ok(()),
        _ => Err(CL_INVALID_OPERATION),
    }
}

/// Creates an image (`clCreateImage` and its variants).
fn make_image(
    ctx: Ref<Context>,
    mut flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    properties: Vec<u64>,
) -> Result<*mut c_void, cl_int> {
    check_flags(flags)?;
    if format.is_null() {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    // SAFETY: format points to a cl_image_format, as clCreateImage requires.
    let f = unsafe { format.read_unaligned() };
    let (order, dt) = (f.image_channel_order, f.image_channel_data_type);
    if !known_format(order, dt) {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    if desc.is_null() {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // SAFETY: desc points to a cl_image_desc, as clCreateImage requires.
    let d = unsafe { desc.read_unaligned() };
    let ty = d.image_type;
    if !IMAGE_TYPES.contains(&ty) || d.num_mip_levels != 0 || d.num_samples != 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let is_array = matches!(
        ty,
        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY
    );
    let has_height = matches!(
        ty,
        CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
    );
    let is_3d = ty == CL_MEM_OBJECT_IMAGE3D;
    let (w, h, depth, layers) = (
        d.image_width,
        if has_height { d.image_height } else { 1 },
        if is_3d { d.image_depth } else { 1 },
        if is_array { d.image_array_size } else { 1 },
    );
    if [w, h, depth, layers].contains(&0) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let from_buffer = !d.buffer.is_null();
    if from_buffer != (ty == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        && !(from_buffer && ty == CL_MEM_OBJECT_IMAGE2D)
    {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let Some(elem) = rt::pixel_size(order, dt).filter(|_| supported(order, dt)) else {
        return Err(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    };
    image_context(&ctx)?;
    let dev = ctx.devices.first().ok_or(CL_INVALID_CONTEXT)?.clone();
    // Sizes against the device's limits.
    let too_big = match ty {
        CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_ARRAY => w > platform::IMAGE2D_MAX,
        CL_MEM_OBJECT_IMAGE1D_BUFFER => w > platform::IMAGE_MAX_BUFFER,
        CL_MEM_OBJECT_IMAGE3D => {
            w > platform::IMAGE3D_MAX || h > platform::IMAGE3D_MAX || depth > platform::IMAGE3D_MAX
        }
        _ => w > platform::IMAGE2D_MAX || h > platform::IMAGE2D_MAX,
    } || layers > platform::IMAGE_MAX_ARRAY;
    if too_big {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    // Pitches: given ones only with host memory (or a buffer for 2D), at least tight, whole
    // pixels.
    let tight_row = w.checked_mul(elem).ok_or(CL_INVALID_IMAGE_SIZE)?;
    let with_host = !host_ptr.is_null() || from_buffer;
    if !with_host && (d.image_row_pitch != 0 || d.image_slice_pitch != 0) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let row = if d.image_row_pitch == 0 {
        tight_row
    } else {
        d.image_row_pitch
    };
    if row < tight_row || !row.is_multiple_of(elem) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let planes = matches!(
        ty,
        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
    );
    let tight_slice = if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
        row
    } else {
        row.checked_mul(h).ok_or(CL_INVALID_IMAGE_SIZE)?
    };
    let slice = if planes && d.image_slice_pitch != 0 {
        d.image_slice_pitch
    } else {
        tight_slice
    };
    if slice < tight_slice || (planes && !slice.is_multiple_of(row)) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // The layout in memory: a 1D array's layers are rows `slice` bytes apart. The size
    // ends with the last pixel, as the host memory of USE_HOST_PTR does.
    let (in_row, planes_n) = match ty {
        CL_MEM_OBJECT_IMAGE1D_ARRAY => (slice, 1),
        CL_MEM_OBJECT_IMAGE2D_ARRAY => (row, layers),
        CL_MEM_OBJECT_IMAGE3D => (row, depth),
        _ => (row, 1),
    };
    let rows_n = if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
        layers
    } else {
        h
    };
    let size = slice
        .checked_mul(planes_n - 1)
        .and_then(|s| s.checked_add(in_row.checked_mul(rows_n - 1)?))
        .and_then(|s| s.checked_add(tight_row))
        .ok_or(CL_INVALID_IMAGE_SIZE)?;
    let in_slice = if planes {
        slice
    } else {
        in_row.saturating_mul(rows_n)
    };
    if size as u64 > dev.limits.max_alloc_size {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    let uses_host = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if uses_host == host_ptr.is_null() || (from_buffer && uses_host) {
        return Err(CL_INVALID_HOST_PTR);
    }
    let (buf, host, parent) = if from_buffer {
        let b = handle::get::<Mem>(d.buffer)?;
        if b.image.is_some() || !Arc::ptr_eq(&b.ctx, &ctx) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        if size > b.size {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
        let p = b.flags;
        let conflict = (p & CL_MEM_WRITE_ONLY != 0
            && flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
            || (p & CL_MEM_READ_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
            || flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
        if conflict {
            return Err(CL_INVALID_VALUE);
        }
        if flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY) == 0 {
            flags |= p & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY);
        }
        flags |= p & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        let host = match &b.host {
            Some(hp) => Some(hp.sub(0, b.size).ok_or(CL_INVALID_VALUE)?),
            None => None,
        };
        (b.buf.region(0, b.size)?, host, Some((b.clone(), 0)))
    } else {
        let buf = dev.new_buffer(size)?;
        // SAFETY: with USE_HOST_PTR or COPY_HOST_PTR, host_ptr points to the image's bytes
        // laid out with the given (or tight) pitches, as clCreateImage requires.
        let h = (!host_ptr.is_null()).then(|| unsafe { HostPtr::new(host_ptr, size) });
        if let Some(h) = &h {
            let mut bytes = vec![0u8; size];
            if !h.read(0, &mut bytes) {
                return Err(CL_OUT_OF_RESOURCES);
            }
            buf.write_at(0, &bytes)?;
        }
        let keep = if flags & CL_MEM_USE_HOST_PTR != 0 {
            h
        } else {
            None
        };
        (buf, keep, None)
    };
    if flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY) == 0 {
        flags |= CL_MEM_READ_WRITE;
    }
    let desc = ImageDesc {
        ty,
        order,
        dtype: dt,
        width: w as u64,
        height: h as u64,
        depth: depth as u64,
        array_size: layers as u64,
        row_pitch: in_row as u64,
        slice_pitch: in_slice as u64,
        data: 0,
    };
    let image = Image {
        desc,
        row_pitch: row,
        slice_pitch: if planes { slice } else { 0 },
    };
    let mem_size = buf.len();
    let (m, handle) = handle::create(Mem {
        ctx,
        flags,
        size: mem_size,
        host,
        parent,
        buf,
        maps: Mutex::new(HashMap::new()),
        destructors: Mutex::new(Vec::new()),
        handle: Mutex::new(0),
        properties,
        image: Some(image),
    });
    *m.handle.lock().unwrap_or_else(|e| e.into_inner()) = handle as usize;
    Ok(handle)
}

object_fn!(
    fn create_image(
        c: cl_context,
        flags: cl_mem_flags,
        format: *const cl_image_format,
        desc: *const cl_image_desc,
        host: *mut c_void;
        errcode_ret
    ) {
        let ctx = handle::get::<Context>(c)?;
        make_image(ctx, flags, format, desc, host, Vec::new())
    }
);

object_fn!(
    fn create_image_with_properties(
        c: cl_context,
        props: *const cl_mem_properties,
        flags: cl_mem_flags,
        format: *const cl_image_format,
        desc: *const cl_image_desc,
        host: *mut c_void;
        errcode_ret
    ) {
        let ctx = handle::get::<Context>(c)?;
        // SAFETY: properties is NULL or 0-terminated.
        let list = unsafe { ffi::zero_list(props, 1024) };
        if list.as_ref().is_some_and(|l| !l.is_empty()) {
            return Err(CL_INVALID_PROPERTY);
        }
        let properties = if list.is_some() { vec![0] } else { Vec::new() };
        make_image(ctx, flags, format, desc, host, properties)
    }
);

/// A `cl_image_desc` for the OpenCL 1.1 entry points.
fn desc_of(
    ty: cl_mem_object_type,
    w: usize,
    h: usize,
    d: usize,
    rp: usize,
    sp: usize,
) -> cl_image_desc {
    cl_image_desc {
        image_type: ty,
        image_width: w,
        image_height: h,
        image_depth: d,
        image_array_size: 0,
        image_row_pitch: rp,
        image_slice_pitch: sp,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: std::ptr::null_mut(),
    }
}

object_fn!(
    fn create_image_2d(
        c: cl_context,
        flags: cl_mem_flags,
        format: *const cl_image_format,
        w: usize,
        h: usize,
        pitch: usize,
        host: *mut c_void;
        errcode_ret
    ) {
        let ctx = handle::get::<Context>(c)?;
        let d = desc_of(CL_MEM_OBJECT_IMAGE2D, w, h, 0, pitch, 0);
        make_image(ctx, flags, format, &d, host, Vec::new())
    }
);

object_fn!(
    fn create_image_3d(
        c: cl_context,
        flags: cl_mem_flags,
        format: *const cl_image_format,
        w: usize,
        h: usize,
        d: usize,
        rp: usize,
        sp: usize,
        host: *mut c_void;
        errcode_ret
    ) {
        let ctx = handle::get::<Context>(c)?;
        if d <= 1 {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
        let desc = desc_of(CL_MEM_OBJECT_IMAGE3D, w, h, d, rp, sp);
        make_image(ctx, flags, format, &desc, host, Vec::new())
    }
);

status_fn!(
    fn get_supported_image_formats(
        c: cl_context,
        flags: cl_mem_flags,
        ty: cl_mem_object_type,
        num_entries: cl_uint,
        out: *mut cl_image_format,
        num_formats: *mut cl_uint,
    ) {
        let ctx = handle::get::<Context>(c)?;
        if num_entries == 0 && !out.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        check_flags(flags)?;
        if !IMAGE_TYPES.contains(&ty) {
            return Err(CL_INVALID_VALUE);
        }
        let list = if image_context(&ctx).is_ok() {
            formats()
        } else {
            Vec::new()
        };
        if !out.is_null() {
            for (i, f) in list.iter().take(num_entries as usize).enumerate() {
                // SAFETY: out holds num_entries formats.
                unsafe { out.add(i).write_unaligned(*f) };
            }
        }
        // SAFETY: NULL or writable.
        unsafe { ffi::put(num_formats, list.len() as cl_uint) };
        Ok(())
    }
);

/// The image behind a handle: CL_INVALID_MEM_OBJECT for a buffer.
fn image_of(m: cl_mem) -> Result<(Ref<Mem>, Image), cl_int> {
    let mem = handle::get::<Mem>(m)?;
    let img = mem.image.ok_or(CL_INVALID_MEM_OBJECT)?;
    Ok((mem, img))
}

status_fn!(
    fn get_image_info(
        m: cl_mem,
        param: cl_image_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let (mem, img) = image_of(m)?;
        let d = img.desc;
        let ty = d.ty;
        let is_array = matches!(
            ty,
            CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY
        );
        let has_height = matches!(
            ty,
            CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
        );
        let info = match param {
            CL_IMAGE_FORMAT => {
                let mut b = d.order.to_ne_bytes().to_vec();
                b.extend_from_slice(&d.dtype.to_ne_bytes());
                Ok(Info(b))
            }
            CL_IMAGE_ELEMENT_SIZE => Ok(Info::usize(d.pixel_size())),
            CL_IMAGE_ROW_PITCH => Ok(Info::usize(img.row_pitch)),
            CL_IMAGE_SLICE_PITCH => Ok(Info::usize(img.slice_pitch)),
            CL_IMAGE_WIDTH => Ok(Info::usize(d.width as usize)),
            CL_IMAGE_HEIGHT => Ok(Info::usize(if has_height { d.height as usize } else { 0 })),
            CL_IMAGE_DEPTH => Ok(Info::usize(if ty == CL_MEM_OBJECT_IMAGE3D {
                d.depth as usize
            } else {
                0
            })),
            CL_IMAGE_ARRAY_SIZE => Ok(Info::usize(if is_array {
                d.array_size as usize
            } else {
                0
            })),
            CL_IMAGE_BUFFER => Ok(Info::ptr(
                mem.parent
                    .as_ref()
                    .map_or(std::ptr::null_mut(), |(p, _)| handle::handle(p)),
            )),
            CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => Ok(Info::u32(0)),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

/// A region of an image checked against its extent: the stored origin and region in pixels
/// (a 1D array's layer is `y`, a 2D array's `z`). CL_INVALID_VALUE when outside or when the
/// image type has no such dimension.
///
/// # Safety
/// `origin` and `region` are NULL or point to three size_t.
unsafe fn image_region(
    img: &Image,
    origin: *const usize,
    region: *const usize,
) -> Result<([usize; 3], [usize; 3]), cl_int> {
    // SAFETY: the caller's contract.
    let (o, r) = unsafe { (triple(origin)?, triple(region)?) };
    let ext = img.desc.extent();
    let dims = match img.desc.ty {
        CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => 1,
        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D => 2,
        _ => 3,
    };
    for k in 0..3 {
        if r[k] == 0 {
            return Err(CL_INVALID_VALUE);
        }
        if k >= dims && (o[k] != 0 || r[k] != 1) {
            return Err(CL_INVALID_VALUE);
        }
        if o[k].checked_add(r[k]).is_none_or(|e| e as u64 > ext[k]) {
            return Err(CL_INVALID_VALUE);
        }
    }
    Ok((o, r))
}

/// Byte offset in the image's memory of pixel `(x, y, z)` (stored axes).
fn pixel_offset(img: &Image, p: [usize; 3]) -> usize {
    img.desc.offset([p[0] as u64, p[1] as u64, p[2] as u64]) as usize
}

/// For every row of the region: (offset in the image, offset on the other side with rows
/// `row` and slices `slice` bytes apart, row length).
fn image_rows(
    img: &Image,
    o: [usize; 3],
    r: [usize; 3],
    row: usize,
    slice: usize,
) -> Vec<(usize, usize, usize)> {
    let len = r[0] * img.desc.pixel_size();
    let mut out = Vec::with_capacity(r[1] * r[2]);
    for z in 0..r[2] {
        for y in 0..r[1] {
            let a = pixel_offset(img, [o[0], o[1] + y, o[2] + z]);
            out.push((a, y * row + z * slice, len));
        }
    }
    out
}

/// The host pitches of a read or write: defaults tight, a 1D array's layers `slice` apart.
fn host_pitches(
    img: &Image,
    r: [usize; 3],
    row: usize,
    slice: usize,
) -> Result<(usize, usize), cl_int> {
    let tight = r[0] * img.desc.pixel_size();
    let row = if row == 0 { tight } else { row };
    if row < tight {
        return Err(CL_INVALID_VALUE);
    }
    let one_d_array = img.desc.ty == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    let planes = matches!(
        img.desc.ty,
        CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
    );
    if !one_d_array && !planes && slice != 0 {
        return Err(CL_INVALID_VALUE);
    }
    if one_d_array {
        // Layers are the rows here: `slice` (or the row pitch) apart.
        let s = if slice == 0 { row } else { slice };
        if s < row {
            return Err(CL_INVALID_VALUE);
        }
        return Ok((s, 0));
    }
    let tight_slice = row * r[1];
    let s = if slice == 0 { tight_slice } else { slice };
    if s < tight_slice {
        return Err(CL_INVALID_VALUE);
    }
    Ok((row, s))
}

/// The bytes the host side of `rows` spans.
fn span(rows: &[(usize, usize, usize)]) -> usize {
    rows.iter().map(|&(_, b, l)| b + l).max().unwrap_or(0)
}

status_fn!(
    fn enqueue_read_image(
        q: cl_command_queue,
        m: cl_mem,
        blocking: cl_bool,
        origin: *const usize,
        region: *const usize,
        row_pitch: usize,
        slice_pitch: usize,
        ptr: *mut c_void,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, mem) = queue_and_object(q, m)?;
        let img = mem.image.ok_or(CL_INVALID_MEM_OBJECT)?;
        // SAFETY: origin and region point to three size_t each.
        let (o, r) = unsafe { image_region(&img, origin, region) }?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if mem.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        let (row, slice) = host_pitches(&img, r, row_pitch, slice_pitch)?;
        let rows = image_rows(&img, o, r, row, slice);
        // SAFETY: ptr is writable over the rectangle until the read completes.
        let dst = unsafe { HostPtr::new(ptr, span(&rows)) };
        let work = Box::new(move || {
            let mut buf = Vec::new();
            for (a, b, len) in rows {
                buf.resize(len, 0);
                mem.read_at(a, &mut buf)?;
                dst.write(b, &buf);
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_READ_IMAGE,
                wait_list(n, list)?,
                blocking != 0,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_write_image(
        q: cl_command_queue,
        m: cl_mem,
        blocking: cl_bool,
        origin: *const usize,
        region: *const usize,
        row_pitch: usize,
        slice_pitch: usize,
        ptr: *const c_void,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, mem) = queue_and_object(q, m)?;
        let img = mem.image.ok_or(CL_INVALID_MEM_OBJECT)?;
        // SAFETY: origin and region point to three size_t each.
        let (o, r) = unsafe { image_region(&img, origin, region) }?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if mem.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        let (row, slice) = host_pitches(&img, r, row_pitch, slice_pitch)?;
        let rows = image_rows(&img, o, r, row, slice);
        // SAFETY: ptr is readable over the rectangle until the write completes.
        let src = unsafe { HostPtr::new(ptr, span(&rows)) };
        let work = Box::new(move || {
            let mut buf = Vec::new();
            for (a, b, len) in rows {
                buf.resize(len, 0);
                src.read(b, &mut buf);
                mem.write_at(a, &buf)?;
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_WRITE_IMAGE,
                wait_list(n, list)?,
                blocking != 0,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_copy_image(
        q: cl_command_queue,
        s: cl_mem,
        d: cl_mem,
        so: *const usize,
        dor: *const usize,
        region: *const usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, src) = queue_and_object(q, s)?;
        let (_, dst) = queue_and_object(q, d)?;
        let si = src.image.ok_or(CL_INVALID_MEM_OBJECT)?;
        let di = dst.image.ok_or(CL_INVALID_MEM_OBJECT)?;
        if (si.desc.order, si.desc.dtype) != (di.desc.order, di.desc.dtype) {
            return Err(CL_IMAGE_FORMAT_MISMATCH);
        }
        // SAFETY: origins and region point to three size_t each.
        let (o1, r) = unsafe { image_region(&si, so, region) }?;
        // SAFETY: as above.
        let (o2, _) = unsafe { image_region(&di, dor, region) }?;
        if Arc::ptr_eq(&src, &dst) {
            let apart = (0..3).any(|k| o1[k] + r[k] <= o2[k] || o2[k] + r[k] <= o1[k]);
            if !apart {
                return Err(CL_MEM_COPY_OVERLAP);
            }
        }
        let rows: Vec<(usize, usize, usize)> = image_rows(&si, o1, r, 0, 0)
            .into_iter()
            .zip(image_rows(&di, o2, r, 0, 0))
            .map(|((a, _, len), (b, _, _))| (a, b, len))
            .collect();
        let work = Box::new(move || {
            let mut buf = Vec::new();
            for (a, b, len) in rows {
                buf.resize(len, 0);
                src.read_at(a, &mut buf)?;
                dst.write_at(b, &buf)?;
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_COPY_IMAGE,
                wait_list(n, list)?,
                false,
                event,
                work,
            )
        }
    }
);

/// Rows between an image region and a tightly packed buffer range at `offset`, checked to
/// fit the buffer: (image offset, buffer offset, length).
fn buffer_rows(
    img: &Image,
    buf: &Mem,
    o: [usize; 3],
    r: [usize; 3],
    offset: usize,
) -> Result<Vec<(usize, usize, usize)>, cl_int> {
    if buf.image.is_some() {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    let row = r[0] * img.desc.pixel_size();
    let total = row
        .checked_mul(r[1])
        .and_then(|x| x.checked_mul(r[2]))
        .ok_or(CL_INVALID_VALUE)?;
    if offset.checked_add(total).is_none_or(|e| e > buf.size) {
        return Err(CL_INVALID_VALUE);
    }
    Ok(image_rows(img, o, r, row, row * r[1])
        .into_iter()
        .map(|(a, b, l)| (a, b + offset, l))
        .collect())
}

status_fn!(
    fn enqueue_copy_image_to_buffer(
        q: cl_command_queue,
        s: cl_mem,
        d: cl_mem,
        so: *const usize,
        region: *const usize,
        offset: usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, src) = queue_and_object(q, s)?;
        let (_, dst) = queue_and_object(q, d)?;
        let si = src.image.ok_or(CL_INVALID_MEM_OBJECT)?;
        // SAFETY: origin and region point to three size_t each.
        let (o, r) = unsafe { image_region(&si, so, region) }?;
        let rows = buffer_rows(&si, &dst, o, r, offset)?;
        let work = Box::new(move || {
            let mut buf = Vec::new();
            for (a, b, len) in rows {
                buf.resize(len, 0);
                src.read_at(a, &mut buf)?;
                dst.write_at(b, &buf)?;
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_COPY_IMAGE_TO_BUFFER,
                wait_list(n, list)?,
                false,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_copy_buffer_to_image(
        q: cl_command_queue,
        s: cl_mem,
        d: cl_mem,
        offset: usize,
        dor: *const usize,
        region: *const usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, src) = queue_and_object(q, s)?;
        let (_, dst) = queue_and_object(q, d)?;
        let di = dst.image.ok_or(CL_INVALID_MEM_OBJECT)?;
        // SAFETY: origin and region point to three size_t each.
        let (o, r) = unsafe { image_region(&di, dor, region) }?;
        let rows = buffer_rows(&di, &src, o, r, offset)?;
        let work = Box::new(move || {
            let mut buf = Vec::new();
            for (a, b, len) in rows {
                buf.resize(len, 0);
                src.read_at(b, &mut buf)?;
                dst.write_at(a, &buf)?;
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_COPY_BUFFER_TO_IMAGE,
                wait_list(n, list)?,
                false,
                event,
                work,
            )
        }
    }
);

status_fn!(
    fn enqueue_fill_image(
        q: cl_command_queue,
        m: cl_mem,
        color: *const c_void,
        origin: *const usize,
        region: *const usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let (queue, mem) = queue_and_object(q, m)?;
        let img = mem.image.ok_or(CL_INVALID_MEM_OBJECT)?;
        if color.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: origin and region point to three size_t each.
        let (o, r) = unsafe { image_region(&img, origin, region) }?;
        // SAFETY: fill_color is a float4, int4 or uint4 (16 bytes).
        let raw = unsafe { HostPtr::new(color, 16) }.to_vec();
        let words: [u32; 4] = std::array::from_fn(|k| {
            u32::from_ne_bytes([raw[4 * k], raw[4 * k + 1], raw[4 * k + 2], raw[4 * k + 3]])
        });
        let c = if ReadKind::Float.accepts(img.desc.dtype) {
            Color::F(words.map(f32::from_bits))
        } else {
            Color::I(words)
        };
        let pixel = rt::encode(&img.desc, c);
        let rows = image_rows(&img, o, r, 0, 0);
        let work = Box::new(move || {
            for (a, _, len) in rows {
                let bytes: Vec<u8> = pixel.iter().copied().cycle().take(len).collect();
                mem.write_at(a, &bytes)?;
            }
            Ok(())
        });
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_FILL_IMAGE,
                wait_list(n, list)?,
                false,
                event,
                work,
            )
        }
    }
);

object_fn!(
    fn enqueue_map_image(
        q: cl_command_queue,
        m: cl_mem,
        blocking: cl_bool,
        flags: cl_map_flags,
        origin: *const usize,
        region: *const usize,
        row_pitch: *mut usize,
        slice_pitch: *mut usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event;
        errcode_ret
    ) {
        let (queue, mem) = queue_and_object(q, m)?;
        let img = mem.image.ok_or(CL_INVALID_MEM_OBJECT)?;
        // SAFETY: origin and region point to three size_t each.
        let (o, r) = unsafe { image_region(&img, origin, region) }?;
        let needs_slice = matches!(
            img.desc.ty,
            CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
        );
        if row_pitch.is_null() || (needs_slice && slice_pitch.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        // The map is the image's own layout: the bytes from the region's first pixel to
        // its last, with the image's pitches.
        let start = pixel_offset(&img, o);
        let last = pixel_offset(&img, [o[0] + r[0] - 1, o[1] + r[1] - 1, o[2] + r[2] - 1]);
        let len = last + img.desc.pixel_size() - start;
        // SAFETY: list is NULL or n events.
        let wait = unsafe { wait_list(n, list) }?;
        // SAFETY: event is NULL or writable.
        let addr = unsafe {
            map_range(&queue, &mem, blocking != 0, flags, start, len, wait, event, CL_COMMAND_MAP_IMAGE)
        }?;
        let (rp, sp) = if img.desc.ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            (img.row_pitch, img.desc.row_pitch as usize)
        } else {
            (img.desc.row_pitch as usize, img.slice_pitch)
        };
        // SAFETY: row_pitch is writable; slice_pitch NULL or writable.
        unsafe {
            ffi::put(row_pitch, rp);
            ffi::put(slice_pitch, sp);
        }
        Ok(addr as *mut c_void)
    }
);

// ---------------------------------------------------------------- samplers

/// A sampler object: the `CLK_*` bits a kernel's `sampler_t` receives, and its properties.
pub struct Sampler {
    pub ctx: Ref<Context>,
    pub normalized: bool,
    pub addressing: cl_addressing_mode,
    pub filter: cl_filter_mode,
    /// CL_SAMPLER_PROPERTIES as given.
    pub properties: Vec<u64>,
}

impl ClObject for Sampler {
    const KIND: Kind = Kind::Sampler;
}

impl Sampler {
    /// The value of a `sampler_t` argument (OpenCL C's `CLK_*` encoding).
    pub fn bits(&self) -> u32 {
        let addr = match self.addressing {
            CL_ADDRESS_CLAMP_TO_EDGE => rt::sampler::CLAMP_TO_EDGE,
            CL_ADDRESS_CLAMP => rt::sampler::CLAMP,
            CL_ADDRESS_REPEAT => rt::sampler::REPEAT,
            CL_ADDRESS_MIRRORED_REPEAT => rt::sampler::MIRRORED_REPEAT,
            _ => rt::sampler::ADDRESS_NONE,
        };
        let filter = if self.filter == CL_FILTER_LINEAR {
            rt::sampler::FILTER_LINEAR
        } else {
            rt::sampler::FILTER_NEAREST
        };
        u32::from(self.normalized) | addr | filter
    }
}

fn make_sampler(
    ctx: Ref<Context>,
    normalized: cl_bool,
    addressing: cl_addressing_mode,
    filter: cl_filter_mode,
    properties: Vec<u64>,
) -> Result<*mut c_void, cl_int> {
    if normalized > 1
        || !(CL_ADDRESS_NONE..=CL_ADDRESS_MIRRORED_REPEAT).contains(&addressing)
        || !(CL_FILTER_NEAREST..=CL_FILTER_LINEAR).contains(&filter)
    {
        return Err(CL_INVALID_VALUE);
    }
    image_context(&ctx)?;
    let (_, h) = handle::create(Sampler {
        ctx,
        normalized: normalized != 0,
        addressing,
        filter,
        properties,
    });
    Ok(h)
}

object_fn!(
    fn create_sampler(c: cl_context, normalized: cl_bool, a: cl_addressing_mode, f: cl_filter_mode; errcode_ret) {
        let ctx = handle::get::<Context>(c)?;
        make_sampler(ctx, normalized, a, f, Vec::new())
    }
);

object_fn!(
    fn create_sampler_with_properties(c: cl_context, p: *const cl_sampler_properties; errcode_ret) {
        let ctx = handle::get::<Context>(c)?;
        // SAFETY: properties is NULL or a 0-terminated list of (name, value) pairs.
        let list = unsafe { ffi::zero_list(p, 64) }.unwrap_or_default();
        let (mut normalized, mut a, mut f) = (CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
        let mut seen = Vec::new();
        for pair in list.chunks(2) {
            let [name, v] = pair else {
                return Err(CL_INVALID_VALUE);
            };
            if seen.contains(name) {
                return Err(CL_INVALID_VALUE);
            }
            seen.push(*name);
            match *name as u32 {
                CL_SAMPLER_NORMALIZED_COORDS => normalized = *v as cl_bool,
                CL_SAMPLER_ADDRESSING_MODE => a = *v as cl_addressing_mode,
                CL_SAMPLER_FILTER_MODE => f = *v as cl_filter_mode,
                _ => return Err(CL_INVALID_VALUE),
            }
        }
        let mut props: Vec<u64> = list.clone();
        if !p.is_null() {
            props.push(0);
        }
        make_sampler(ctx, normalized, a, f, props)
    }
);

status_fn!(
    fn retain_sampler(s: cl_sampler) {
        handle::retain(s, Kind::Sampler)
    }
);

status_fn!(
    fn release_sampler(s: cl_sampler) {
        handle::release(s, Kind::Sampler)
    }
);

status_fn!(
    fn get_sampler_info(
        s: cl_sampler,
        param: cl_sampler_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let smp = handle::get::<Sampler>(s)?;
        let info = match param {
            CL_SAMPLER_REFERENCE_COUNT => Ok(Info::u32(handle::ref_count(s))),
            CL_SAMPLER_CONTEXT => Ok(Info::ptr(handle::handle(&smp.ctx))),
            CL_SAMPLER_NORMALIZED_COORDS => Ok(Info::bool(smp.normalized)),
            CL_SAMPLER_ADDRESSING_MODE => Ok(Info::u32(smp.addressing)),
            CL_SAMPLER_FILTER_MODE => Ok(Info::u32(smp.filter)),
            CL_SAMPLER_PROPERTIES => Ok(Info::u64s(&smp.properties)),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);
