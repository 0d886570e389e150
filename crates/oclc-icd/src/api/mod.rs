//! The entry points: every OpenCL function the platform implements, as `extern "C"`
//! functions reached through the dispatch table ([`DISPATCH`]) that starts every handle.
//!
//! Each entry point is written as a body returning `Result<_, cl_int>` inside one of two
//! macros ([`status_fn!`], [`object_fn!`]) that catch panics and turn the result into the C
//! convention (a status code, or an object with `errcode_ret`). The bodies turn raw
//! arguments into safe values through [`crate::ffi`] (each `unsafe` block saying which
//! argument contract it relies on) and leave the work to the safe modules.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::*;

use crate::context::Context;
use crate::ffi::{self, ContextNotify, EventCallback, ObjCallback};
use crate::handle::{self, Kind, Ref};
use crate::info::Info;
use crate::platform::{self, Device};
use crate::queue::{Event, Queue, Work};

mod image;
mod mem;
mod program;

use image::*;

/// An entry point returning a status code.
macro_rules! status_fn {
    ($(#[$m:meta])* fn $name:ident($($a:ident: $t:ty),* $(,)?) $body:block) => {
        $(#[$m])*
        pub(crate) unsafe extern "C" fn $name($($a: $t),*) -> cl_int {
            ffi::guard(move || -> Result<(), cl_int> { $body })
        }
    };
}
pub(crate) use status_fn;

/// An entry point returning an object (or pointer) and its error through `errcode_ret`.
macro_rules! object_fn {
    ($(#[$m:meta])* fn $name:ident($($a:ident: $t:ty),* ; $err:ident) $body:block) => {
        $(#[$m])*
        pub(crate) unsafe extern "C" fn $name($($a: $t,)* $err: *mut cl_int) -> *mut c_void {
            let body = move || -> Result<*mut c_void, cl_int> { $body };
            // SAFETY: errcode_ret is NULL or a writable cl_int, as every entry point that
            // takes it specifies.
            unsafe { ffi::guard_obj($err, body) }
        }
    };
}
pub(crate) use object_fn;

/// A `clGet*Info` answer copied out under the specification's size rules.
macro_rules! info_out {
    ($info:expr, $size:ident, $value:ident, $size_ret:ident) => {
        // SAFETY: param_value is NULL or writable for param_value_size bytes, and
        // param_value_size_ret NULL or a writable size_t, as every clGet*Info specifies.
        unsafe { ffi::write_info($info, $size, $value, $size_ret) }
    };
}
pub(crate) use info_out;

/// The events of a wait list: CL_INVALID_EVENT_WAIT_LIST for a NULL list with a count, a
/// list without one, or an invalid event in it.
///
/// # Safety
/// `list` is NULL or points to `n` event handles.
pub(crate) unsafe fn wait_list(
    n: cl_uint,
    list: *const cl_event,
) -> Result<Vec<Ref<Event>>, cl_int> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    // SAFETY: the caller's contract.
    let handles = unsafe { ffi::slice(list, n as usize, CL_INVALID_EVENT_WAIT_LIST) }?;
    handles
        .iter()
        .map(|&h| handle::get::<Event>(h).map_err(|_| CL_INVALID_EVENT_WAIT_LIST))
        .collect()
}

/// Checks that a wait list's events belong to the queue's context.
pub(crate) fn same_context(q: &Queue, wait: &[Ref<Event>]) -> Result<(), cl_int> {
    if wait.iter().all(|e| Arc::ptr_eq(&e.ctx, &q.ctx)) {
        Ok(())
    } else {
        Err(CL_INVALID_CONTEXT)
    }
}

/// Enqueues `work` on `queue` after `wait`; hands the event out through `event_out` (if not
/// NULL); waits for it when `blocking` (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when
/// it or its wait list failed).
///
/// # Safety
/// `event_out` is NULL or a writable cl_event.
pub(crate) unsafe fn enqueue(
    queue: &Ref<Queue>,
    command_type: cl_command_type,
    wait: Vec<Ref<Event>>,
    blocking: bool,
    event_out: *mut cl_event,
    work: Work,
) -> Result<(), cl_int> {
    same_context(queue, &wait)?;
    let ev = queue.enqueue(command_type, wait, work)?;
    if !event_out.is_null() {
        let h = handle::register(&ev);
        // SAFETY: the caller's contract.
        unsafe { ffi::put(event_out, h) };
    }
    if blocking && ev.wait() < 0 {
        return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    Ok(())
}

// ---------------------------------------------------------------- platform and devices

/// The loader's entry: the platforms of this ICD.
///
/// # Safety
/// `platforms` is NULL or writable for `num_entries` handles; `num_platforms` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    ffi::guard(move || {
        if (num_entries == 0 && !platforms.is_null())
            || (platforms.is_null() && num_platforms.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        let (_, h) = platform::platform();
        if num_entries > 0 && !platforms.is_null() {
            // SAFETY: writable for num_entries >= 1 handles by the contract.
            unsafe { ffi::put(platforms, *h as cl_platform_id) };
        }
        // SAFETY: NULL or writable by the contract.
        unsafe { ffi::put(num_platforms, 1) };
        Ok(())
    })
}

status_fn!(
    fn get_platform_ids(
        num_entries: cl_uint,
        platforms: *mut cl_platform_id,
        num_platforms: *mut cl_uint,
    ) {
        // SAFETY: the same contract as clIcdGetPlatformIDsKHR's.
        match unsafe { clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms) } {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    }
);

/// The platform behind a handle (NULL means the only platform, as implementations may).
fn platform_of(h: cl_platform_id) -> Result<(), cl_int> {
    if h.is_null() {
        return Ok(());
    }
    handle::get::<platform::Platform>(h).map(|_| ())
}

status_fn!(
    fn get_platform_info(
        p: cl_platform_id,
        param: cl_platform_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        platform_of(p)?;
        info_out!(platform::platform_info(param), size, value, size_ret)
    }
);

status_fn!(
    fn get_device_ids(
        p: cl_platform_id,
        device_type: cl_device_type,
        num_entries: cl_uint,
        devices: *mut cl_device_id,
        num_devices: *mut cl_uint,
    ) {
        platform_of(p)?;
        let valid = CL_DEVICE_TYPE_DEFAULT
            | CL_DEVICE_TYPE_CPU
            | CL_DEVICE_TYPE_GPU
            | CL_DEVICE_TYPE_ACCELERATOR
            | CL_DEVICE_TYPE_CUSTOM;
        if device_type != CL_DEVICE_TYPE_ALL && (device_type & !valid != 0 || device_type == 0) {
            return Err(CL_INVALID_DEVICE_TYPE);
        }
        if (num_entries == 0 && !devices.is_null()) || (devices.is_null() && num_devices.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        let (plat, _) = platform::platform();
        let matching: Vec<&Ref<Device>> = plat
            .devices
            .iter()
            .enumerate()
            .filter(|(i, d)| platform::type_matches(d.device_type(), *i == 0, device_type))
            .map(|(_, d)| d)
            .collect();
        if matching.is_empty() {
            return Err(CL_DEVICE_NOT_FOUND);
        }
        if !devices.is_null() {
            for (i, d) in matching.iter().take(num_entries as usize).enumerate() {
                // SAFETY: devices is writable for num_entries handles; i < num_entries.
                unsafe { ffi::put(devices.add(i), handle::handle(d)) };
            }
        }
        // SAFETY: NULL or writable.
        unsafe { ffi::put(num_devices, matching.len() as cl_uint) };
        Ok(())
    }
);

status_fn!(
    fn get_device_info(
        d: cl_device_id,
        param: cl_device_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let dev = handle::get::<Device>(d)?;
        info_out!(platform::device_info(&dev, param), size, value, size_ret)
    }
);

status_fn!(
    fn create_sub_devices(
        d: cl_device_id,
        _props: *const cl_device_partition_property,
        _n: cl_uint,
        _out: *mut cl_device_id,
        _n_ret: *mut cl_uint,
    ) {
        handle::get::<Device>(d)?;
        // CL_DEVICE_PARTITION_PROPERTIES is empty: no partition type is supported.
        Err(CL_INVALID_VALUE)
    }
);

status_fn!(
    fn retain_device(d: cl_device_id) {
        handle::get::<Device>(d).map(|_| ())
    }
);

status_fn!(
    fn release_device(d: cl_device_id) {
        handle::get::<Device>(d).map(|_| ())
    }
);

status_fn!(
    fn unload_compiler() {
        Ok(())
    }
);

status_fn!(
    fn unload_platform_compiler(p: cl_platform_id) {
        if p.is_null() {
            return Err(CL_INVALID_PLATFORM);
        }
        platform_of(p)
    }
);

status_fn!(
    fn get_host_timer(d: cl_device_id, host: *mut cl_ulong) {
        handle::get::<Device>(d)?;
        if host.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: non-NULL cl_ulong pointer.
        unsafe { ffi::put(host, platform::now_ns()) };
        Ok(())
    }
);

status_fn!(
    fn get_device_and_host_timer(d: cl_device_id, dev_t: *mut cl_ulong, host: *mut cl_ulong) {
        handle::get::<Device>(d)?;
        if host.is_null() || dev_t.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let t = platform::now_ns();
        // SAFETY: non-NULL cl_ulong pointers.
        unsafe {
            ffi::put(host, t);
            ffi::put(dev_t, t);
        }
        Ok(())
    }
);

/// The dispatch table's slot for the deprecated 1.1 lookup: the exported
/// `clGetExtensionFunctionAddress` answers.
unsafe extern "C" fn get_extension_function_address(name: *const c_char) -> *mut c_void {
    // SAFETY: the same contract (`name` NULL or NUL-terminated).
    unsafe { clGetExtensionFunctionAddress(name) }
}

/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(name: *const c_char) -> *mut c_void {
    // SAFETY: the same contract.
    let found = std::panic::catch_unwind(|| unsafe { ffi::cstr(name, CL_INVALID_VALUE) });
    // ocl-icd looks up clGetPlatformInfo this way when the library does not export it.
    match found.as_ref().map(|r| r.as_deref()) {
        Ok(Ok("clIcdGetPlatformIDsKHR")) => clIcdGetPlatformIDsKHR as *mut c_void,
        Ok(Ok("clGetPlatformInfo")) => get_platform_info as *mut c_void,
        // cl_khr_subgroups: the extension's name for the core 2.1 query.
        Ok(Ok("clGetKernelSubGroupInfoKHR")) => program::get_kernel_sub_group_info as *mut c_void,
        _ => std::ptr::null_mut(),
    }
}

unsafe extern "C" fn get_extension_function_address_for_platform(
    p: cl_platform_id,
    name: *const c_char,
) -> *mut c_void {
    if platform_of(p).is_err() {
        return std::ptr::null_mut();
    }
    // SAFETY: name is NULL or NUL-terminated, as the specification requires.
    unsafe { clGetExtensionFunctionAddress(name) }
}

// ---------------------------------------------------------------- contexts

/// The devices and properties of a new context.
fn make_context(
    props: Option<Vec<isize>>,
    devices: Vec<Ref<Device>>,
    notify: Option<ContextNotify>,
) -> Result<*mut c_void, cl_int> {
    let mut list = props.unwrap_or_default();
    if !list.len().is_multiple_of(2) {
        return Err(CL_INVALID_PROPERTY);
    }
    // Buffers live in one device's memory: a context holds the cpu device alone or one GPU.
    if devices.len() > 1 && devices.iter().any(|d| d.is_cuda()) {
        let message = "oclc: a context may hold the cpu device or one cuda device, not several \
                       devices with a cuda device among them (CL_DEVICE_NOT_AVAILABLE)";
        eprintln!("{message}");
        if let Some(n) = &notify {
            n.call(message);
        }
        return Err(CL_DEVICE_NOT_AVAILABLE);
    }
    let mut seen = Vec::new();
    for pair in list.chunks(2) {
        let (k, v) = (pair[0], pair[1]);
        if seen.contains(&k) {
            return Err(CL_INVALID_PROPERTY);
        }
        seen.push(k);
        match k {
            CL_CONTEXT_PLATFORM => {
                let plat = handle::get::<platform::Platform>(v as *const c_void)
                    .map_err(|_| CL_INVALID_PLATFORM)?;
                drop(plat);
            }
            CL_CONTEXT_INTEROP_USER_SYNC => {
                if v != CL_TRUE as isize && v != CL_FALSE as isize {
                    return Err(CL_INVALID_PROPERTY);
                }
            }
            _ => return Err(CL_INVALID_PROPERTY),
        }
    }
    if list.is_empty() {
        list.clear();
    }
    let (ctx, h) = handle::create(Context::new(devices, list, notify));
    *ctx.handle.lock().unwrap_or_else(|e| e.into_inner()) = h as usize;
    Ok(h)
}

object_fn!(
    fn create_context(
        props: *const cl_context_properties,
        num_devices: cl_uint,
        devices: *const cl_device_id,
        notify: Option<unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>,
        user_data: *mut c_void;
        errcode_ret
    ) {
        if devices.is_null() || num_devices == 0 || (notify.is_none() && !user_data.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: devices points to num_devices handles; properties is NULL or 0-terminated.
        let (handles, props) = unsafe {
            (
                ffi::slice(devices, num_devices as usize, CL_INVALID_VALUE)?,
                ffi::zero_list(props, 1024),
            )
        };
        let mut devs: Vec<Ref<Device>> = Vec::new();
        for &h in handles {
            let d = handle::get::<Device>(h)?;
            if !devs.iter().any(|x| Arc::ptr_eq(x, &d)) {
                devs.push(d);
            }
        }
        // SAFETY: pfn_notify may be called from any thread with user_data, as the
        // specification allows the implementation to.
        let notify = notify.map(|f| unsafe { ContextNotify::new(f, user_data) });
        make_context(props, devs, notify)
    }
);

object_fn!(
    fn create_context_from_type(
        props: *const cl_context_properties,
        device_type: cl_device_type,
        notify: Option<unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>,
        user_data: *mut c_void;
        errcode_ret
    ) {
        if notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let valid = CL_DEVICE_TYPE_DEFAULT
            | CL_DEVICE_TYPE_CPU
            | CL_DEVICE_TYPE_GPU
            | CL_DEVICE_TYPE_ACCELERATOR
            | CL_DEVICE_TYPE_CUSTOM;
        if device_type != CL_DEVICE_TYPE_ALL && (device_type & !valid != 0 || device_type == 0) {
            return Err(CL_INVALID_DEVICE_TYPE);
        }
        // SAFETY: properties is NULL or 0-terminated.
        let props = unsafe { ffi::zero_list(props, 1024) };
        let (plat, _) = platform::platform();
        let devs: Vec<Ref<Device>> = plat
            .devices
            .iter()
            .enumerate()
            .filter(|(i, d)| platform::type_matches(d.device_type(), *i == 0, device_type))
            .map(|(_, d)| d.clone())
            .collect();
        if devs.is_empty() {
            return Err(CL_DEVICE_NOT_FOUND);
        }
        // SAFETY: as in clCreateContext.
        let notify = notify.map(|f| unsafe { ContextNotify::new(f, user_data) });
        make_context(props, devs, notify)
    }
);

status_fn!(
    fn retain_context(c: cl_context) {
        handle::retain(c, Kind::Context)
    }
);

status_fn!(
    fn release_context(c: cl_context) {
        handle::release(c, Kind::Context)
    }
);

status_fn!(
    fn get_context_info(
        c: cl_context,
        param: cl_context_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let ctx = handle::get::<Context>(c)?;
        let info = match param {
            CL_CONTEXT_REFERENCE_COUNT => Ok(Info::u32(handle::ref_count(c))),
            CL_CONTEXT_NUM_DEVICES => Ok(Info::u32(ctx.devices.len() as u32)),
            CL_CONTEXT_DEVICES => Ok(Info::ptrs(
                &ctx.devices.iter().map(handle::handle).collect::<Vec<_>>(),
            )),
            CL_CONTEXT_PROPERTIES => {
                if ctx.properties.is_empty() {
                    Ok(Info::empty())
                } else {
                    let mut v = ctx.properties.clone();
                    v.push(0);
                    Ok(Info::isizes(&v))
                }
            }
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

status_fn!(
    fn set_context_destructor_callback(
        c: cl_context,
        f: Option<unsafe extern "C" fn(cl_context, *mut c_void)>,
        user_data: *mut c_void,
    ) {
        let ctx = handle::get::<Context>(c)?;
        let f = f.ok_or(CL_INVALID_VALUE)?;
        // SAFETY: the callback may be called from any thread, as the specification says.
        let cb = unsafe { ObjCallback::new(f, user_data) };
        ctx.destructors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(cb);
        Ok(())
    }
);

// ---------------------------------------------------------------- command queues

fn make_queue(
    c: cl_context,
    d: cl_device_id,
    props: cl_command_queue_properties,
    props_array: Vec<u64>,
) -> Result<*mut c_void, cl_int> {
    let ctx = handle::get::<Context>(c)?;
    let dev = handle::get::<Device>(d)?;
    if !ctx.has_device(&dev) {
        return Err(CL_INVALID_DEVICE);
    }
    let known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
        | CL_QUEUE_PROFILING_ENABLE
        | CL_QUEUE_ON_DEVICE
        | CL_QUEUE_ON_DEVICE_DEFAULT;
    if props & !known != 0 {
        return Err(CL_INVALID_VALUE);
    }
    if props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT) != 0 {
        // CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES is 0: no device-side queues.
        return Err(CL_INVALID_QUEUE_PROPERTIES);
    }
    let q = Queue::new(ctx, dev, props, props_array)?;
    Ok(handle::create(q).1)
}

object_fn!(
    fn create_command_queue(
        c: cl_context,
        d: cl_device_id,
        props: cl_command_queue_properties;
        errcode_ret
    ) {
        make_queue(c, d, props, Vec::new())
    }
);

object_fn!(
    fn create_command_queue_with_properties(
        c: cl_context,
        d: cl_device_id,
        props: *const cl_queue_properties;
        errcode_ret
    ) {
        // SAFETY: properties is NULL or a 0-terminated list.
        let list = unsafe { ffi::zero_list(props, 1024) }.unwrap_or_default();
        if list.len() % 2 != 0 {
            return Err(CL_INVALID_VALUE);
        }
        let mut flags = 0;
        for pair in list.chunks(2) {
            match pair[0] as cl_uint {
                CL_QUEUE_PROPERTIES => flags = pair[1],
                CL_QUEUE_SIZE => return Err(CL_INVALID_QUEUE_PROPERTIES),
                _ => return Err(CL_INVALID_VALUE),
            }
        }
        let mut array = list.clone();
        if !array.is_empty() {
            array.push(0);
        }
        make_queue(c, d, flags, array)
    }
);

status_fn!(
    fn retain_command_queue(q: cl_command_queue) {
        handle::retain(q, Kind::Queue)
    }
);

status_fn!(
    fn release_command_queue(q: cl_command_queue) {
        // An implicit flush; the worker finishes what was enqueued.
        handle::get::<Queue>(q)?;
        handle::release(q, Kind::Queue)
    }
);

status_fn!(
    fn get_command_queue_info(
        q: cl_command_queue,
        param: cl_command_queue_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let queue = handle::get::<Queue>(q)?;
        let info = match param {
            CL_QUEUE_CONTEXT => Ok(Info::ptr(handle::handle(&queue.ctx))),
            CL_QUEUE_DEVICE => Ok(Info::ptr(handle::handle(&queue.device))),
            CL_QUEUE_REFERENCE_COUNT => Ok(Info::u32(handle::ref_count(q))),
            CL_QUEUE_PROPERTIES => Ok(Info::u64(queue.props)),
            CL_QUEUE_PROPERTIES_ARRAY => Ok(Info::u64s(&queue.props_array)),
            CL_QUEUE_SIZE => Err(CL_INVALID_COMMAND_QUEUE),
            CL_QUEUE_DEVICE_DEFAULT => Ok(Info::ptr(std::ptr::null_mut())),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

status_fn!(
    fn set_command_queue_property(
        q: cl_command_queue,
        _props: cl_command_queue_properties,
        _enable: cl_bool,
        _old: *mut cl_command_queue_properties,
    ) {
        handle::get::<Queue>(q)?;
        // Deprecated in OpenCL 1.1; properties are fixed at creation.
        Err(CL_INVALID_OPERATION)
    }
);

status_fn!(
    fn set_default_device_command_queue(c: cl_context, d: cl_device_id, q: cl_command_queue) {
        let _ = q;
        handle::get::<Context>(c)?;
        handle::get::<Device>(d)?;
        // No device-side queues (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is 0): refused
        // whatever the queue, as OpenCL 3.0 says.
        Err(CL_INVALID_OPERATION)
    }
);

status_fn!(
    fn flush(q: cl_command_queue) {
        // The worker runs commands as soon as they are enqueued.
        handle::get::<Queue>(q).map(|_| ())
    }
);

status_fn!(
    fn finish(q: cl_command_queue) {
        handle::get::<Queue>(q)?.finish();
        Ok(())
    }
);

// ---------------------------------------------------------------- events

status_fn!(
    fn wait_for_events(n: cl_uint, list: *const cl_event) {
        if n == 0 || list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: list points to n event handles.
        let handles = unsafe { ffi::slice(list, n as usize, CL_INVALID_VALUE) }?;
        let events: Vec<Ref<Event>> = handles
            .iter()
            .map(|&h| handle::get::<Event>(h))
            .collect::<Result<_, _>>()?;
        if events.iter().any(|e| !Arc::ptr_eq(&e.ctx, &events[0].ctx)) {
            return Err(CL_INVALID_CONTEXT);
        }
        crate::queue::wait_all(&events)
    }
);

status_fn!(
    fn get_event_info(
        e: cl_event,
        param: cl_event_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let ev = handle::get::<Event>(e)?;
        let info = match param {
            CL_EVENT_COMMAND_QUEUE => Ok(Info::ptr(
                ev.queue
                    .as_ref()
                    .map_or(std::ptr::null_mut(), handle::handle),
            )),
            CL_EVENT_CONTEXT => Ok(Info::ptr(handle::handle(&ev.ctx))),
            CL_EVENT_COMMAND_TYPE => Ok(Info::u32(ev.command_type)),
            CL_EVENT_COMMAND_EXECUTION_STATUS => Ok(Info::i32(ev.status())),
            CL_EVENT_REFERENCE_COUNT => Ok(Info::u32(handle::ref_count(e))),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

status_fn!(
    fn retain_event(e: cl_event) {
        handle::retain(e, Kind::Event)
    }
);

status_fn!(
    fn release_event(e: cl_event) {
        handle::release(e, Kind::Event)
    }
);

status_fn!(
    fn get_event_profiling_info(
        e: cl_event,
        param: cl_profiling_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let ev = handle::get::<Event>(e)?;
        let profiled = ev.queue.as_ref().is_some_and(|q| q.profiling());
        if !profiled || ev.status() != CL_COMPLETE {
            return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
        }
        let t = ev.times();
        let info = match param {
            CL_PROFILING_COMMAND_QUEUED => Ok(Info::u64(t[0])),
            CL_PROFILING_COMMAND_SUBMIT => Ok(Info::u64(t[1])),
            CL_PROFILING_COMMAND_START => Ok(Info::u64(t[2])),
            CL_PROFILING_COMMAND_END | CL_PROFILING_COMMAND_COMPLETE => Ok(Info::u64(t[3])),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

status_fn!(
    fn set_event_callback(
        e: cl_event,
        on: cl_int,
        f: Option<unsafe extern "C" fn(cl_event, cl_int, *mut c_void)>,
        user_data: *mut c_void,
    ) {
        let ev = handle::get::<Event>(e)?;
        let f = f.ok_or(CL_INVALID_VALUE)?;
        if ![CL_SUBMITTED, CL_RUNNING, CL_COMPLETE].contains(&on) {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: event callbacks may be called from any thread, as the specification says.
        let cb = unsafe { EventCallback::new(f, user_data) };
        ev.add_callback(on, cb);
        Ok(())
    }
);

object_fn!(
    fn create_user_event(c: cl_context; errcode_ret) {
        let ctx = handle::get::<Context>(c)?;
        let (_, h) = handle::create(Event::new(ctx, None, CL_COMMAND_USER));
        Ok(h)
    }
);

status_fn!(
    fn set_user_event_status(e: cl_event, status: cl_int) {
        let ev = handle::get::<Event>(e)?;
        if ev.queue.is_some() {
            return Err(CL_INVALID_EVENT);
        }
        if status > CL_COMPLETE {
            return Err(CL_INVALID_VALUE);
        }
        if ev.done() {
            return Err(CL_INVALID_OPERATION);
        }
        ev.set_status(status);
        Ok(())
    }
);

status_fn!(
    fn enqueue_marker_with_wait_list(
        q: cl_command_queue,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        // SAFETY: list is NULL or n event handles; event NULL or writable.
        unsafe {
            let wait = wait_list(n, list)?;
            enqueue(
                &queue,
                CL_COMMAND_MARKER,
                wait,
                false,
                event,
                Box::new(|| Ok(())),
            )
        }
    }
);

status_fn!(
    fn enqueue_barrier_with_wait_list(
        q: cl_command_queue,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        // SAFETY: list is NULL or n event handles; event NULL or writable.
        unsafe {
            let wait = wait_list(n, list)?;
            enqueue(
                &queue,
                CL_COMMAND_BARRIER,
                wait,
                false,
                event,
                Box::new(|| Ok(())),
            )
        }
    }
);

status_fn!(
    fn enqueue_marker(q: cl_command_queue, event: *mut cl_event) {
        let queue = handle::get::<Queue>(q)?;
        if event.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: event is writable.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_MARKER,
                Vec::new(),
                false,
                event,
                Box::new(|| Ok(())),
            )
        }
    }
);

status_fn!(
    fn enqueue_barrier(q: cl_command_queue) {
        let queue = handle::get::<Queue>(q)?;
        // SAFETY: no event out.
        unsafe {
            enqueue(
                &queue,
                CL_COMMAND_BARRIER,
                Vec::new(),
                false,
                std::ptr::null_mut(),
                Box::new(|| Ok(())),
            )
        }
    }
);

status_fn!(
    fn enqueue_wait_for_events(q: cl_command_queue, n: cl_uint, list: *const cl_event) {
        let queue = handle::get::<Queue>(q)?;
        if n == 0 || list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: list is n event handles.
        unsafe {
            let wait = wait_list(n, list)?;
            enqueue(
                &queue,
                CL_COMMAND_BARRIER,
                wait,
                false,
                std::ptr::null_mut(),
                Box::new(|| Ok(())),
            )
        }
    }
);

// ---------------------------------------------------------------- images, samplers, pipes

object_fn!(
    fn create_pipe(
        c: cl_context,
        _flags: cl_mem_flags,
        _packet: cl_uint,
        _max: cl_uint,
        _props: *const cl_pipe_properties;
        errcode_ret
    ) {
        handle::get::<Context>(c)?;
        // No device supports pipes (CL_DEVICE_PIPE_SUPPORT is false).
        Err(CL_INVALID_OPERATION)
    }
);

status_fn!(
    fn get_pipe_info(m: cl_mem, _p: cl_pipe_info, _s: usize, _v: *mut c_void, _r: *mut usize) {
        handle::get::<crate::mem::Mem>(m)?;
        Err(CL_INVALID_MEM_OBJECT)
    }
);

// ---------------------------------------------------------------- the dispatch table

/// The dispatch table every handle starts with, in `cl_icd.h`'s order (the struct is
/// opencl-sys's). Entries left `None` are sharing extensions (GL, D3D, DX9, EGL) that no
/// device of this platform supports, and which are reached only after an application has
/// found the extension in CL_DEVICE_EXTENSIONS.
pub static DISPATCH: cl_icd_dispatch = cl_icd_dispatch {
    clGetPlatformIDs: Some(get_platform_ids),
    clGetPlatformInfo: Some(get_platform_info),
    clGetDeviceIDs: Some(get_device_ids),
    clGetDeviceInfo: Some(get_device_info),
    clCreateContext: Some(create_context),
    clCreateContextFromType: Some(create_context_from_type),
    clRetainContext: Some(retain_context),
    clReleaseContext: Some(release_context),
    clGetContextInfo: Some(get_context_info),
    clCreateCommandQueue: Some(create_command_queue),
    clRetainCommandQueue: Some(retain_command_queue),
    clReleaseCommandQueue: Some(release_command_queue),
    clGetCommandQueueInfo: Some(get_command_queue_info),
    clSetCommandQueueProperty: Some(set_command_queue_property),
    clCreateBuffer: Some(mem::create_buffer),
    clCreateImage2D: Some(create_image_2d),
    clCreateImage3D: Some(create_image_3d),
    clRetainMemObject: Some(mem::retain_mem_object),
    clReleaseMemObject: Some(mem::release_mem_object),
    clGetSupportedImageFormats: Some(get_supported_image_formats),
    clGetMemObjectInfo: Some(mem::get_mem_object_info),
    clGetImageInfo: Some(get_image_info),
    clCreateSampler: Some(create_sampler),
    clRetainSampler: Some(retain_sampler),
    clReleaseSampler: Some(release_sampler),
    clGetSamplerInfo: Some(get_sampler_info),
    clCreateProgramWithSource: Some(program::create_program_with_source),
    clCreateProgramWithBinary: Some(program::create_program_with_binary),
    clRetainProgram: Some(program::retain_program),
    clReleaseProgram: Some(program::release_program),
    clBuildProgram: Some(program::build_program),
    clUnloadCompiler: Some(unload_compiler),
    clGetProgramInfo: Some(program::get_program_info),
    clGetProgramBuildInfo: Some(program::get_program_build_info),
    clCreateKernel: Some(program::create_kernel),
    clCreateKernelsInProgram: Some(program::create_kernels_in_program),
    clRetainKernel: Some(program::retain_kernel),
    clReleaseKernel: Some(program::release_kernel),
    clSetKernelArg: Some(program::set_kernel_arg),
    clGetKernelInfo: Some(program::get_kernel_info),
    clGetKernelWorkGroupInfo: Some(program::get_kernel_work_group_info),
    clWaitForEvents: Some(wait_for_events),
    clGetEventInfo: Some(get_event_info),
    clRetainEvent: Some(retain_event),
    clReleaseEvent: Some(release_event),
    clGetEventProfilingInfo: Some(get_event_profiling_info),
    clFlush: Some(flush),
    clFinish: Some(finish),
    clEnqueueReadBuffer: Some(mem::enqueue_read_buffer),
    clEnqueueWriteBuffer: Some(mem::enqueue_write_buffer),
    clEnqueueCopyBuffer: Some(mem::enqueue_copy_buffer),
    clEnqueueReadImage: Some(enqueue_read_image),
    clEnqueueWriteImage: Some(enqueue_write_image),
    clEnqueueCopyImage: Some(enqueue_copy_image),
    clEnqueueCopyImageToBuffer: Some(enqueue_copy_image_to_buffer),
    clEnqueueCopyBufferToImage: Some(enqueue_copy_buffer_to_image),
    clEnqueueMapBuffer: Some(mem::enqueue_map_buffer),
    clEnqueueMapImage: Some(enqueue_map_image),
    clEnqueueUnmapMemObject: Some(mem::enqueue_unmap_mem_object),
    clEnqueueNDRangeKernel: Some(program::enqueue_nd_range_kernel),
    clEnqueueTask: Some(program::enqueue_task),
    clEnqueueNativeKernel: Some(program::enqueue_native_kernel),
    clEnqueueMarker: Some(enqueue_marker),
    clEnqueueWaitForEvents: Some(enqueue_wait_for_events),
    clEnqueueBarrier: Some(enqueue_barrier),
    clGetExtensionFunctionAddress: Some(get_extension_function_address),
    clCreateFromGLBuffer: None,
    clCreateFromGLTexture2D: None,
    clCreateFromGLTexture3D: None,
    clCreateFromGLRenderbuffer: None,
    clGetGLObjectInfo: None,
    clGetGLTextureInfo: None,
    clEnqueueAcquireGLObjects: None,
    clEnqueueReleaseGLObjects: None,
    clGetGLContextInfoKHR: None,
    clGetDeviceIDsFromD3D10KHR: None,
    clCreateFromD3D10BufferKHR: None,
    clCreateFromD3D10Texture2DKHR: None,
    clCreateFromD3D10Texture3DKHR: None,
    clEnqueueAcquireD3D10ObjectsKHR: None,
    clEnqueueReleaseD3D10ObjectsKHR: None,
    clSetEventCallback: Some(set_event_callback),
    clCreateSubBuffer: Some(mem::create_sub_buffer),
    clSetMemObjectDestructorCallback: Some(mem::set_mem_object_destructor_callback),
    clCreateUserEvent: Some(create_user_event),
    clSetUserEventStatus: Some(set_user_event_status),
    clEnqueueReadBufferRect: Some(mem::enqueue_read_buffer_rect),
    clEnqueueWriteBufferRect: Some(mem::enqueue_write_buffer_rect),
    clEnqueueCopyBufferRect: Some(mem::enqueue_copy_buffer_rect),
    clCreateSubDevicesEXT: None,
    clRetainDeviceEXT: None,
    clReleaseDeviceEXT: None,
    clCreateEventFromGLsyncKHR: None,
    clCreateSubDevices: Some(create_sub_devices),
    clRetainDevice: Some(retain_device),
    clReleaseDevice: Some(release_device),
    clCreateImage: Some(create_image),
    clCreateProgramWithBuiltInKernels: Some(program::create_program_with_built_in_kernels),
    clCompileProgram: Some(program::compile_program),
    clLinkProgram: Some(program::link_program),
    clUnloadPlatformCompiler: Some(unload_platform_compiler),
    clGetKernelArgInfo: Some(program::get_kernel_arg_info),
    clEnqueueFillBuffer: Some(mem::enqueue_fill_buffer),
    clEnqueueFillImage: Some(enqueue_fill_image),
    clEnqueueMigrateMemObjects: Some(mem::enqueue_migrate_mem_objects),
    clEnqueueMarkerWithWaitList: Some(enqueue_marker_with_wait_list),
    clEnqueueBarrierWithWaitList: Some(enqueue_barrier_with_wait_list),
    clGetExtensionFunctionAddressForPlatform: Some(get_extension_function_address_for_platform),
    clCreateFromGLTexture: None,
    clGetDeviceIDsFromD3D11KHR: None,
    clCreateFromD3D11BufferKHR: None,
    clCreateFromD3D11Texture2DKHR: None,
    clCreateFromD3D11Texture3DKHR: None,
    clCreateFromDX9MediaSurfaceKHR: None,
    clEnqueueAcquireD3D11ObjectsKHR: None,
    clEnqueueReleaseD3D11ObjectsKHR: None,
    clGetDeviceIDsFromDX9MediaAdapterKHR: None,
    clEnqueueAcquireDX9MediaSurfacesKHR: None,
    clEnqueueReleaseDX9MediaSurfacesKHR: None,
    clCreateFromEGLImageKHR: None,
    clEnqueueAcquireEGLObjectsKHR: None,
    clEnqueueReleaseEGLObjectsKHR: None,
    clCreateEventFromEGLSyncKHR: None,
    clCreateCommandQueueWithProperties: Some(create_command_queue_with_properties),
    clCreatePipe: Some(create_pipe),
    clGetPipeInfo: Some(get_pipe_info),
    clSVMAlloc: Some(mem::svm_alloc),
    clSVMFree: Some(mem::svm_free),
    clEnqueueSVMFree: Some(mem::enqueue_svm_free),
    clEnqueueSVMMemcpy: Some(mem::enqueue_svm_memcpy),
    clEnqueueSVMMemFill: Some(mem::enqueue_svm_mem_fill),
    clEnqueueSVMMap: Some(mem::enqueue_svm_map),
    clEnqueueSVMUnmap: Some(mem::enqueue_svm_unmap),
    clCreateSamplerWithProperties: Some(create_sampler_with_properties),
    clSetKernelArgSVMPointer: Some(program::set_kernel_arg_svm_pointer),
    clSetKernelExecInfo: Some(program::set_kernel_exec_info),
    clGetKernelSubGroupInfoKHR: Some(program::get_kernel_sub_group_info),
    clCloneKernel: Some(program::clone_kernel),
    clCreateProgramWithIL: Some(program::create_program_with_il),
    clEnqueueSVMMigrateMem: Some(mem::enqueue_svm_migrate_mem),
    clGetDeviceAndHostTimer: Some(get_device_and_host_timer),
    clGetHostTimer: Some(get_host_timer),
    clGetKernelSubGroupInfo: Some(program::get_kernel_sub_group_info),
    clSetDefaultDeviceCommandQueue: Some(set_default_device_command_queue),
    clSetProgramReleaseCallback: Some(program::set_program_release_callback),
    clSetProgramSpecializationConstant: Some(program::set_program_specialization_constant),
    clCreateBufferWithProperties: Some(mem::create_buffer_with_properties),
    clCreateImageWithProperties: Some(create_image_with_properties),
    clSetContextDestructorCallback: Some(set_context_destructor_callback),
    clGetKernelSuggestedLocalWorkSize: 0,
};
