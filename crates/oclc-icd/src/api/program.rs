//! Entry points of programs and kernels, and kernel launches.

use std::ffi::{c_char, c_void};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use oclc_lower::KernelParamKind;
use opencl_sys::*;

use super::{enqueue, info_out, object_fn, status_fn, wait_list};
use crate::context::Context;
use crate::ffi::{self, ObjCallback};
use crate::handle::{self, Kind, Ref};
use crate::info::Info;
use crate::mem::Mem;
use crate::platform::{Backend, Device, GPU_SUB_GROUP, PREFERRED_MULTIPLE, sub_group_size};
use crate::program::{self as prog, ArgValue, Build, HeaderDir, Kernel, Program};
use crate::queue::Queue;

/// A new program in `ctx` for `devices` with `source`.
fn make_program(
    ctx: Ref<Context>,
    devices: Vec<Ref<Device>>,
    source: String,
    from_binary: bool,
    build: Build,
) -> *mut c_void {
    handle::create(Program {
        ctx,
        devices,
        source,
        from_binary,
        state: Mutex::new(build),
        kernels: Default::default(),
    })
    .1
}

object_fn!(
    fn create_program_with_source(
        c: cl_context,
        count: cl_uint,
        strings: *mut *const c_char,
        lengths: *const usize;
        errcode_ret
    ) {
        let ctx = handle::get::<Context>(c)?;
        if count == 0 || strings.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: strings points to count pointers; lengths is NULL or count sizes.
        let (ptrs, lens) = unsafe {
            (
                ffi::slice(strings.cast_const(), count as usize, CL_INVALID_VALUE)?,
                ffi::vec_or_none(lengths, count as usize),
            )
        };
        let mut source = Vec::new();
        for (i, &p) in ptrs.iter().enumerate() {
            if p.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            match lens.as_ref().map_or(0, |l| l[i]) {
                // SAFETY: with no length (or 0) the string is NUL-terminated.
                0 => source.extend_from_slice(unsafe { std::ffi::CStr::from_ptr(p) }.to_bytes()),
                // SAFETY: with a length, the string has that many bytes.
                n => source.extend_from_slice(unsafe { ffi::slice(p.cast::<u8>(), n, CL_INVALID_VALUE) }?),
            }
        }
        let source = String::from_utf8_lossy(&source).into_owned();
        let devices = ctx.devices.clone();
        Ok(make_program(ctx, devices, source, false, Build::default()))
    }
);

/// The devices of a device list, each in the context: CL_INVALID_VALUE for a NULL list
/// with a count or a list without one, CL_INVALID_DEVICE for a device not in the context.
///
/// # Safety
/// `list` is NULL or points to `n` handles.
unsafe fn device_list(
    ctx: &Context,
    n: cl_uint,
    list: *const cl_device_id,
) -> Result<Option<Vec<Ref<Device>>>, cl_int> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    if list.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller's contract.
    let hs = unsafe { ffi::slice(list, n as usize, CL_INVALID_VALUE) }?;
    let mut out = Vec::new();
    for &h in hs {
        let d = handle::get::<Device>(h)?;
        if !ctx.has_device(&d) {
            return Err(CL_INVALID_DEVICE);
        }
        out.push(d);
    }
    Ok(Some(out))
}

object_fn!(
    fn create_program_with_binary(
        c: cl_context,
        n: cl_uint,
        list: *const cl_device_id,
        lengths: *const usize,
        binaries: *mut *const u8,
        status: *mut cl_int;
        errcode_ret
    ) {
        let ctx = handle::get::<Context>(c)?;
        if n == 0 || list.is_null() || lengths.is_null() || binaries.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: list, lengths and binaries point to n entries each.
        let (devs, lens, bins) = unsafe {
            (
                device_list(&ctx, n, list)?.unwrap_or_default(),
                ffi::slice(lengths, n as usize, CL_INVALID_VALUE)?,
                ffi::slice(binaries.cast_const(), n as usize, CL_INVALID_VALUE)?,
            )
        };
        let mut decoded = Vec::new();
        let mut statuses = Vec::new();
        for i in 0..n as usize {
            if bins[i].is_null() || lens[i] == 0 {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: binaries[i] points to lengths[i] bytes.
            let bytes = unsafe { ffi::slice(bins[i], lens[i], CL_INVALID_VALUE) }?;
            match prog::decode_binary(bytes) {
                Some(d) => {
                    statuses.push(CL_SUCCESS);
                    decoded.push(d);
                }
                None => statuses.push(CL_INVALID_BINARY),
            }
        }
        if !status.is_null() {
            for (i, s) in statuses.iter().enumerate() {
                // SAFETY: binary_status is writable for n entries.
                unsafe { ffi::put(status.add(i), *s) };
            }
        }
        if statuses.iter().any(|s| *s != CL_SUCCESS) {
            return Err(CL_INVALID_BINARY);
        }
        let (ty, units) = decoded.swap_remove(0);
        let source = units.first().map(|u| u.source.clone()).unwrap_or_default();
        // The binary is loaded (its units compiled again, and linked for a library or an
        // executable of several) now, so that an executable's kernels can be made once
        // clBuildProgram has been called and an object or library can be linked.
        let build = match prog::load_binary(ty, &units, prog::images(&devs)) {
            Ok(b) => b,
            Err(log) => Build {
                binary_type: ty,
                options: units.first().map(|u| u.options.clone()).unwrap_or_default(),
                units,
                log,
                ..Build::default()
            },
        };
        Ok(make_program(ctx, devs, source, true, build))
    }
);

object_fn!(
    fn create_program_with_built_in_kernels(
        c: cl_context,
        n: cl_uint,
        list: *const cl_device_id,
        names: *const c_char;
        errcode_ret
    ) {
        let ctx = handle::get::<Context>(c)?;
        // SAFETY: list is NULL or n handles.
        unsafe { device_list(&ctx, n, list) }?;
        if names.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // The devices have no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty).
        Err(CL_INVALID_VALUE)
    }
);

object_fn!(
    fn create_program_with_il(c: cl_context, il: *const c_void, len: usize; errcode_ret) {
        handle::get::<Context>(c)?;
        if il.is_null() || len == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // No device takes an intermediate language (CL_DEVICE_IL_VERSION is empty).
        Err(CL_INVALID_OPERATION)
    }
);

status_fn!(
    fn retain_program(p: cl_program) {
        handle::retain(p, Kind::Program)
    }
);

status_fn!(
    fn release_program(p: cl_program) {
        handle::release(p, Kind::Program)
    }
);

/// Calls a build's `pfn_notify` (after the build, from the calling thread).
fn notify(cb: Option<ObjCallback>, p: cl_program) {
    if let Some(cb) = cb {
        cb.call(p as usize);
    }
}

/// # Safety
/// The notify function may be called with user_data from the calling thread.
unsafe fn build_callback(
    f: Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
    user_data: *mut c_void,
) -> Result<Option<ObjCallback>, cl_int> {
    match f {
        // SAFETY: the caller's contract.
        Some(f) => Ok(Some(unsafe { ObjCallback::new(f, user_data) })),
        None if !user_data.is_null() => Err(CL_INVALID_VALUE),
        None => Ok(None),
    }
}

status_fn!(
    fn build_program(
        p: cl_program,
        n: cl_uint,
        list: *const cl_device_id,
        options: *const c_char,
        f: Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
        user_data: *mut c_void,
    ) {
        let program = handle::get::<Program>(p)?;
        // SAFETY: list is NULL or n handles; options NULL or a string; pfn_notify may be
        // called with user_data.
        let (_, options, cb) = unsafe {
            (
                device_list(&program.ctx, n, list)?,
                if options.is_null() {
                    String::new()
                } else {
                    ffi::cstr(options, CL_INVALID_VALUE)?
                },
                build_callback(f, user_data)?,
            )
        };
        if program.kernels.load(Ordering::Relaxed) > 0 {
            return Err(CL_INVALID_OPERATION);
        }
        let result = {
            let mut st = program.state.lock().unwrap_or_else(|e| e.into_inner());
            if program.from_binary
                && st.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE as cl_program_binary_type
                && st.lib.is_some()
            {
                st.status = CL_BUILD_SUCCESS;
                Ok(())
            } else if !program.from_binary && program.source.is_empty() {
                Err(CL_INVALID_OPERATION)
            } else {
                st.status = CL_BUILD_IN_PROGRESS;
                st.options = options.clone();
                let built = prog::build(
                    &program.source,
                    &options,
                    &[],
                    prog::images(&program.devices),
                )
                .and_then(|(lib, log)| prog::prepare(&program.devices, &lib).map(|()| (lib, log)));
                match built {
                    Ok((lib, log)) => {
                        st.units = vec![prog::UnitSource {
                            options: options.clone(),
                            source: program.source.clone(),
                            headers: Vec::new(),
                        }];
                        st.unit = None;
                        st.lib = Some(lib);
                        st.log = log;
                        st.status = CL_BUILD_SUCCESS;
                        st.binary_type =
                            CL_PROGRAM_BINARY_TYPE_EXECUTABLE as cl_program_binary_type;
                        Ok(())
                    }
                    Err((code, log)) => {
                        st.lib = None;
                        st.log = log;
                        st.status = CL_BUILD_ERROR;
                        Err(code)
                    }
                }
            }
        };
        notify(cb, p);
        result
    }
);

/// `(include name, source)` of compile's input headers.
///
/// # Safety
/// `headers` and `names` are NULL or point to `n` entries.
unsafe fn input_headers(
    n: cl_uint,
    headers: *const cl_program,
    names: *mut *const c_char,
) -> Result<Vec<(String, String)>, cl_int> {
    if (n == 0) != headers.is_null() || (n == 0) != names.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: the caller's contract.
    let (hs, ns) = unsafe {
        (
            ffi::slice(headers, n as usize, CL_INVALID_VALUE)?,
            ffi::slice(names.cast_const(), n as usize, CL_INVALID_VALUE)?,
        )
    };
    let mut out = Vec::new();
    for (h, name) in hs.iter().zip(ns) {
        let hp = handle::get::<Program>(*h)?;
        // SAFETY: each name is a NUL-terminated string.
        let name = unsafe { ffi::cstr(*name, CL_INVALID_VALUE) }?;
        out.push((name, hp.source.clone()));
    }
    Ok(out)
}

status_fn!(
    fn compile_program(
        p: cl_program,
        n: cl_uint,
        list: *const cl_device_id,
        options: *const c_char,
        num_headers: cl_uint,
        headers: *const cl_program,
        names: *mut *const c_char,
        f: Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
        user_data: *mut c_void,
    ) {
        let program = handle::get::<Program>(p)?;
        // SAFETY: list is NULL or n handles; options NULL or a string; the header arrays
        // num_headers entries; pfn_notify may be called with user_data.
        let (_, options, hdrs, cb) = unsafe {
            (
                device_list(&program.ctx, n, list)?,
                if options.is_null() {
                    String::new()
                } else {
                    ffi::cstr(options, CL_INVALID_VALUE)?
                },
                input_headers(num_headers, headers, names)?,
                build_callback(f, user_data)?,
            )
        };
        if program.kernels.load(Ordering::Relaxed) > 0 || program.from_binary {
            return Err(CL_INVALID_OPERATION);
        }
        let result = {
            let mut st = program.state.lock().unwrap_or_else(|e| e.into_inner());
            let dir = if hdrs.is_empty() {
                None
            } else {
                Some(HeaderDir::new(&hdrs).map_err(|_| CL_OUT_OF_HOST_MEMORY)?)
            };
            let dirs: Vec<&std::path::Path> = dir.iter().map(|h| h.0.as_path()).collect();
            // Preprocessed now: the input headers are not needed after this.
            let r = prog::compile(
                &program.source,
                &options,
                &dirs,
                prog::images(&program.devices),
            );
            st.options = options.clone();
            st.lib = None;
            st.unit = None;
            match r {
                Ok(unit) => {
                    st.log = unit.log().to_string();
                    st.status = CL_BUILD_SUCCESS;
                    st.binary_type =
                        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT as cl_program_binary_type;
                    st.unit = Some(unit);
                    st.units = vec![prog::UnitSource {
                        options: options.clone(),
                        source: program.source.clone(),
                        headers: hdrs.clone(),
                    }];
                    Ok(())
                }
                Err((code, log)) => {
                    st.log = log;
                    st.status = CL_BUILD_ERROR;
                    Err(code)
                }
            }
        };
        notify(cb, p);
        result
    }
);

/// `clLinkProgram`: a failed link still returns the program (its log says why) along with
/// the error code, so it is written out by hand rather than with `object_fn!`.
pub(crate) unsafe extern "C" fn link_program(
    c: cl_context,
    n: cl_uint,
    list: *const cl_device_id,
    options: *const c_char,
    num_inputs: cl_uint,
    inputs: *const cl_program,
    f: Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let r = std::panic::catch_unwind(move || -> Result<(cl_program, cl_int), cl_int> {
        let ctx = handle::get::<Context>(c)?;
        if num_inputs == 0 || inputs.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: list is NULL or n handles; options NULL or a string; inputs num_inputs
        // handles; pfn_notify may be called with user_data.
        let (devs, options, ins, cb) = unsafe {
            (
                device_list(&ctx, n, list)?,
                if options.is_null() {
                    String::new()
                } else {
                    ffi::cstr(options, CL_INVALID_VALUE)?
                },
                ffi::slice(inputs, num_inputs as usize, CL_INVALID_VALUE)?,
                build_callback(f, user_data)?,
            )
        };
        let lib_kind = CL_PROGRAM_BINARY_TYPE_LIBRARY as cl_program_binary_type;
        let obj_kind = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT as cl_program_binary_type;
        let mut units = Vec::new();
        let mut sources = Vec::new();
        for &h in ins {
            let p = handle::get::<Program>(h)?;
            if !Arc::ptr_eq(&p.ctx, &ctx) {
                return Err(CL_INVALID_CONTEXT);
            }
            let st = p.state.lock().unwrap_or_else(|e| e.into_inner());
            let Some(unit) = st.unit.clone() else {
                return Err(CL_INVALID_OPERATION);
            };
            if st.binary_type != obj_kind && st.binary_type != lib_kind {
                return Err(CL_INVALID_OPERATION);
            }
            units.push(unit);
            sources.extend(st.units.iter().cloned());
        }
        let devices = devs.unwrap_or_else(|| ctx.devices.clone());
        let mut build = Build {
            options: options.clone(),
            units: sources,
            ..Build::default()
        };
        let result = match prog::link(&units, &options, prog::images(&devices)) {
            Ok(prog::Linked::Executable(lib)) => {
                build.log = lib.build_log().to_string();
                build.lib = Some(lib);
                build.status = CL_BUILD_SUCCESS;
                build.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE as cl_program_binary_type;
                Ok(())
            }
            Ok(prog::Linked::Library(unit)) => {
                build.unit = Some(unit);
                build.status = CL_BUILD_SUCCESS;
                build.binary_type = lib_kind;
                Ok(())
            }
            Err((code, log)) => {
                build.log = log;
                build.status = CL_BUILD_ERROR;
                Err(code)
            }
        };
        // A linked program has no source of its own (CL_PROGRAM_SOURCE is empty).
        let source = String::new();
        let h = make_program(ctx, devices, source, false, build);
        notify(cb, h);
        Ok((h, result.err().unwrap_or(CL_SUCCESS)))
    });
    let (h, code) = match r {
        Ok(Ok(x)) => x,
        Ok(Err(e)) => (std::ptr::null_mut(), e),
        Err(_) => (std::ptr::null_mut(), CL_OUT_OF_HOST_MEMORY),
    };
    // SAFETY: errcode_ret is NULL or a writable cl_int.
    unsafe { ffi::put(errcode_ret, code) };
    h
}

status_fn!(
    fn get_program_info(
        p: cl_program,
        param: cl_program_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let program = handle::get::<Program>(p)?;
        let st = program.state.lock().unwrap_or_else(|e| e.into_inner());
        let built = || st.lib.as_ref().ok_or(CL_INVALID_PROGRAM_EXECUTABLE);
        let info = match param {
            CL_PROGRAM_REFERENCE_COUNT => Ok(Info::u32(handle::ref_count(p))),
            CL_PROGRAM_CONTEXT => Ok(Info::ptr(handle::handle(&program.ctx))),
            CL_PROGRAM_NUM_DEVICES => Ok(Info::u32(program.devices.len() as u32)),
            CL_PROGRAM_DEVICES => Ok(Info::ptrs(
                &program
                    .devices
                    .iter()
                    .map(handle::handle)
                    .collect::<Vec<_>>(),
            )),
            CL_PROGRAM_SOURCE => Ok(Info::str(if program.from_binary {
                ""
            } else {
                &program.source
            })),
            CL_PROGRAM_IL => Ok(Info::empty()),
            CL_PROGRAM_BINARY_SIZES => {
                let n = prog::encode_binary(st.binary_type, &st.units).len();
                let n = if st.binary_type == CL_PROGRAM_BINARY_TYPE_NONE as cl_program_binary_type {
                    0
                } else {
                    n
                };
                Ok(Info::usizes(&vec![n; program.devices.len()]))
            }
            CL_PROGRAM_BINARIES => {
                // An array of pointers to buffers the application allocated.
                let bin = prog::encode_binary(st.binary_type, &st.units);
                let none = st.binary_type == CL_PROGRAM_BINARY_TYPE_NONE as cl_program_binary_type;
                let n = program.devices.len();
                if !value.is_null() {
                    if size < n * std::mem::size_of::<*mut u8>() {
                        return Err(CL_INVALID_VALUE);
                    }
                    // SAFETY: param_value holds n pointers, each NULL or to a buffer of
                    // CL_PROGRAM_BINARY_SIZES bytes, as clGetProgramInfo requires.
                    let ptrs = unsafe {
                        ffi::slice(value.cast::<*mut u8>().cast_const(), n, CL_INVALID_VALUE)
                    }?;
                    for &dst in ptrs {
                        if !dst.is_null() && !none {
                            // SAFETY: as above.
                            unsafe { ffi::HostPtr::new(dst.cast(), bin.len()) }.write(0, &bin);
                        }
                    }
                }
                // SAFETY: NULL or writable.
                unsafe { ffi::put(size_ret, n * std::mem::size_of::<*mut u8>()) };
                return Ok(());
            }
            CL_PROGRAM_NUM_KERNELS => built().map(|l| Info::usize(l.kernel_names().len())),
            CL_PROGRAM_KERNEL_NAMES => built().map(|l| Info::str(&l.kernel_names().join(";"))),
            CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
                Ok(Info::bool(false))
            }
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

status_fn!(
    fn get_program_build_info(
        p: cl_program,
        d: cl_device_id,
        param: cl_program_build_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let program = handle::get::<Program>(p)?;
        let dev = handle::get::<Device>(d)?;
        if !program.devices.iter().any(|x| Arc::ptr_eq(x, &dev)) {
            return Err(CL_INVALID_DEVICE);
        }
        let st = program.state.lock().unwrap_or_else(|e| e.into_inner());
        let info = match param {
            CL_PROGRAM_BUILD_STATUS => Ok(Info::i32(st.status)),
            CL_PROGRAM_BUILD_OPTIONS => Ok(Info::str(&st.options)),
            CL_PROGRAM_BUILD_LOG => Ok(Info::str(&st.log)),
            CL_PROGRAM_BINARY_TYPE => Ok(Info::u32(st.binary_type)),
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => {
                Ok(Info::usize(st.lib.as_ref().map_or(0, |l| {
                    l.ir()
                        .globals
                        .iter()
                        .filter(|g| g.space == oclc::program::AddrSpace::Global)
                        .map(|g| g.size as usize)
                        .sum()
                })))
            }
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

status_fn!(
    fn set_program_release_callback(
        p: cl_program,
        _f: Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
        _u: *mut c_void,
    ) {
        handle::get::<Program>(p)?;
        // No program-scope global constructors or destructors: OpenCL 3.0 lets such
        // implementations refuse the callback.
        Err(CL_INVALID_OPERATION)
    }
);

status_fn!(
    fn set_program_specialization_constant(
        p: cl_program,
        _id: cl_uint,
        _size: usize,
        _v: *const c_void,
    ) {
        handle::get::<Program>(p)?;
        // Specialization constants need an IL program, which no device takes.
        Err(CL_INVALID_OPERATION)
    }
);

// ---------------------------------------------------------------- kernels

/// A kernel of a built program.
fn make_kernel(program: &Ref<Program>, name: &str) -> Result<*mut c_void, cl_int> {
    let lib = {
        let st = program.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.status != CL_BUILD_SUCCESS {
            return Err(CL_INVALID_PROGRAM_EXECUTABLE);
        }
        st.lib.clone().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?
    };
    let sig = lib.signature(name).ok_or(CL_INVALID_KERNEL_NAME)?.clone();
    Ok(handle::create(Kernel::new(program.clone(), lib, sig)).1)
}

object_fn!(
    fn create_kernel(p: cl_program, name: *const c_char; errcode_ret) {
        let program = handle::get::<Program>(p)?;
        // SAFETY: kernel_name is a NUL-terminated string.
        let name = unsafe { ffi::cstr(name, CL_INVALID_VALUE) }?;
        make_kernel(&program, &name)
    }
);

status_fn!(
    fn create_kernels_in_program(
        p: cl_program,
        n: cl_uint,
        kernels: *mut cl_kernel,
        n_ret: *mut cl_uint,
    ) {
        let program = handle::get::<Program>(p)?;
        let lib = {
            let st = program.state.lock().unwrap_or_else(|e| e.into_inner());
            st.lib.clone().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?
        };
        let names: Vec<String> = lib.kernel_names().iter().map(|s| s.to_string()).collect();
        if !kernels.is_null() && (n as usize) < names.len() {
            return Err(CL_INVALID_VALUE);
        }
        if !kernels.is_null() {
            for (i, name) in names.iter().enumerate() {
                let h = make_kernel(&program, name)?;
                // SAFETY: kernels is writable for n >= names.len() handles.
                unsafe { ffi::put(kernels.add(i), h) };
            }
        }
        // SAFETY: NULL or writable.
        unsafe { ffi::put(n_ret, names.len() as cl_uint) };
        Ok(())
    }
);

status_fn!(
    fn retain_kernel(k: cl_kernel) {
        handle::retain(k, Kind::Kernel)
    }
);

status_fn!(
    fn release_kernel(k: cl_kernel) {
        handle::release(k, Kind::Kernel)
    }
);

object_fn!(
    fn clone_kernel(k: cl_kernel; errcode_ret) {
        let kernel = handle::get::<Kernel>(k)?;
        let copy = Kernel::new(kernel.program.clone(), kernel.lib.clone(), kernel.sig.clone());
        *copy.args.lock().unwrap_or_else(|e| e.into_inner()) = kernel.args.lock().unwrap_or_else(|e| e.into_inner()).clone();
        *copy.exec_svm.lock().unwrap_or_else(|e| e.into_inner()) =
            kernel.exec_svm.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Ok(handle::create(copy).1)
    }
);

/// The OpenCL C type name of an image of type `ty` (`CL_MEM_OBJECT_IMAGE2D`: `image2d_t`).
fn image_type_name(ty: cl_mem_object_type) -> &'static str {
    match ty {
        CL_MEM_OBJECT_IMAGE1D => "image1d_t",
        CL_MEM_OBJECT_IMAGE1D_ARRAY => "image1d_array_t",
        CL_MEM_OBJECT_IMAGE1D_BUFFER => "image1d_buffer_t",
        CL_MEM_OBJECT_IMAGE2D => "image2d_t",
        CL_MEM_OBJECT_IMAGE2D_ARRAY => "image2d_array_t",
        _ => "image3d_t",
    }
}

status_fn!(
    fn set_kernel_arg(k: cl_kernel, index: cl_uint, size: usize, value: *const c_void) {
        let kernel = handle::get::<Kernel>(k)?;
        let p = kernel
            .sig
            .params
            .get(index as usize)
            .ok_or(CL_INVALID_ARG_INDEX)?;
        let arg = match &p.kind {
            KernelParamKind::Pointer {
                space: oclc::program::AddrSpace::Local,
                ..
            } => {
                if !value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                if size == 0 {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                ArgValue::Local(size)
            }
            KernelParamKind::Pointer { .. } => {
                if size != std::mem::size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                // SAFETY: a buffer argument's value is NULL or points to a cl_mem.
                let h = if value.is_null() {
                    std::ptr::null_mut()
                } else {
                    unsafe { value.cast::<cl_mem>().read_unaligned() }
                };
                if h.is_null() {
                    ArgValue::Null
                } else {
                    let m = handle::get::<Mem>(h)?;
                    if !Arc::ptr_eq(&m.ctx, &kernel.program.ctx) || m.image.is_some() {
                        return Err(CL_INVALID_MEM_OBJECT);
                    }
                    ArgValue::Mem(Arc::downgrade(&m))
                }
            }
            KernelParamKind::Image { dim, read, write } => {
                if size != std::mem::size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                // SAFETY: an image argument's value points to a cl_mem.
                let h = unsafe { value.cast::<cl_mem>().read_unaligned() };
                let m = handle::get::<Mem>(h)?;
                let img = m.image.ok_or(CL_INVALID_MEM_OBJECT)?;
                if !Arc::ptr_eq(&m.ctx, &kernel.program.ctx) {
                    return Err(CL_INVALID_MEM_OBJECT);
                }
                // A write_only image to a parameter that reads it, a read_only one to one
                // that writes it, or another image type.
                let denied = (*read && m.flags & CL_MEM_WRITE_ONLY != 0)
                    || (*write && m.flags & CL_MEM_READ_ONLY != 0);
                if image_type_name(img.desc.ty) != *dim || denied {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                ArgValue::Mem(Arc::downgrade(&m))
            }
            KernelParamKind::Sampler => {
                if size != std::mem::size_of::<cl_sampler>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if value.is_null() {
                    return Err(CL_INVALID_SAMPLER);
                }
                // SAFETY: a sampler argument's value points to a cl_sampler.
                let h = unsafe { value.cast::<cl_sampler>().read_unaligned() };
                let smp = handle::get::<super::image::Sampler>(h)?;
                ArgValue::Bytes(smp.bits().to_le_bytes().to_vec())
            }
            KernelParamKind::Value { elem, size: want } => {
                let want = *want as usize;
                let three = elem.lanes == 3 && size == 3 * elem.scalar.size() as usize;
                if size != want && !three {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                // SAFETY: a value argument points to arg_size bytes.
                let mut bytes = unsafe { ffi::HostPtr::new(value, size) }.to_vec();
                bytes.resize(want, 0);
                ArgValue::Bytes(bytes)
            }
            KernelParamKind::Aggregate { size: want, .. } => {
                if size != *want as usize {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                // SAFETY: a value argument points to arg_size bytes.
                ArgValue::Bytes(unsafe { ffi::HostPtr::new(value, size) }.to_vec())
            }
            KernelParamKind::Other => {
                // Images, samplers and pipes cannot be made on this platform.
                return Err(if p.c_type.contains("sampler") {
                    CL_INVALID_SAMPLER
                } else {
                    CL_INVALID_MEM_OBJECT
                });
            }
        };
        let mut args = kernel.args.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(slot) = args.get_mut(index as usize) {
            *slot = Some(arg);
        }
        Ok(())
    }
);

status_fn!(
    fn set_kernel_arg_svm_pointer(k: cl_kernel, index: cl_uint, value: *const c_void) {
        let kernel = handle::get::<Kernel>(k)?;
        let p = kernel
            .sig
            .params
            .get(index as usize)
            .ok_or(CL_INVALID_ARG_INDEX)?;
        let is_buffer = matches!(
            p.kind,
            KernelParamKind::Pointer {
                space: oclc::program::AddrSpace::Global | oclc::program::AddrSpace::Constant,
                ..
            }
        );
        if !is_buffer {
            return Err(CL_INVALID_ARG_VALUE);
        }
        let arg = if value.is_null() {
            ArgValue::Null
        } else {
            let (svm, off) = kernel
                .program
                .ctx
                .svm_at(value as usize)
                .ok_or(CL_INVALID_ARG_VALUE)?;
            ArgValue::Svm(svm, off)
        };
        let mut args = kernel.args.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(slot) = args.get_mut(index as usize) {
            *slot = Some(arg);
        }
        Ok(())
    }
);

status_fn!(
    fn set_kernel_exec_info(
        k: cl_kernel,
        param: cl_kernel_exec_info,
        size: usize,
        value: *const c_void,
    ) {
        let kernel = handle::get::<Kernel>(k)?;
        // An empty SVM pointer list (size 0, value NULL) unsets the previous one.
        let unset = param == CL_KERNEL_EXEC_INFO_SVM_PTRS && size == 0;
        if value.is_null() && !unset {
            return Err(CL_INVALID_VALUE);
        }
        match param {
            CL_KERNEL_EXEC_INFO_SVM_PTRS => {
                if !size.is_multiple_of(std::mem::size_of::<*const c_void>()) {
                    return Err(CL_INVALID_VALUE);
                }
                if unset {
                    kernel
                        .exec_svm
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .clear();
                    return Ok(());
                }
                let n = size / std::mem::size_of::<*const c_void>();
                // SAFETY: param_value holds size bytes of pointers.
                let ptrs =
                    unsafe { ffi::slice(value.cast::<*const c_void>(), n, CL_INVALID_VALUE) }?;
                let mut list = Vec::new();
                for &p in ptrs {
                    let (svm, _) = kernel
                        .program
                        .ctx
                        .svm_at(p as usize)
                        .ok_or(CL_INVALID_VALUE)?;
                    list.push(svm);
                }
                *kernel.exec_svm.lock().unwrap_or_else(|e| e.into_inner()) = list;
                Ok(())
            }
            CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
                if size != std::mem::size_of::<cl_bool>() {
                    return Err(CL_INVALID_VALUE);
                }
                // SAFETY: a cl_bool.
                let on = unsafe { value.cast::<cl_bool>().read_unaligned() };
                // Fine-grained system SVM is not supported.
                if on != 0 {
                    Err(CL_INVALID_OPERATION)
                } else {
                    Ok(())
                }
            }
            _ => Err(CL_INVALID_VALUE),
        }
    }
);

status_fn!(
    fn get_kernel_info(
        k: cl_kernel,
        param: cl_kernel_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let kernel = handle::get::<Kernel>(k)?;
        let info = match param {
            CL_KERNEL_FUNCTION_NAME => Ok(Info::str(&kernel.sig.name)),
            CL_KERNEL_NUM_ARGS => Ok(Info::u32(kernel.sig.params.len() as u32)),
            CL_KERNEL_REFERENCE_COUNT => Ok(Info::u32(handle::ref_count(k))),
            CL_KERNEL_CONTEXT => Ok(Info::ptr(handle::handle(&kernel.program.ctx))),
            CL_KERNEL_PROGRAM => Ok(Info::ptr(handle::handle(&kernel.program))),
            CL_KERNEL_ATTRIBUTES => Ok(Info::str(&kernel.sig.attributes)),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

/// The kernel's device for a query: `d`, or the only device when `d` is NULL.
fn query_device(kernel: &Kernel, d: cl_device_id) -> Result<Ref<Device>, cl_int> {
    if d.is_null() {
        return match kernel.program.devices.as_slice() {
            [only] => Ok(only.clone()),
            _ => Err(CL_INVALID_DEVICE),
        };
    }
    let dev = handle::get::<Device>(d)?;
    if kernel.program.devices.iter().any(|x| Arc::ptr_eq(x, &dev)) {
        Ok(dev)
    } else {
        Err(CL_INVALID_DEVICE)
    }
}

/// CL_KERNEL_WORK_GROUP_SIZE: the device's maximum on the cpu device; on a GPU at most 256,
/// which every kernel ptxas compiles can launch (255 registers a thread at most, 64 Ki a
/// multiprocessor).
fn kernel_work_group_size(dev: &Device) -> usize {
    if dev.is_cuda() {
        dev.max_work_group().min(256)
    } else {
        dev.max_work_group()
    }
}

/// `__local` bytes of the arguments set so far.
fn local_arg_bytes(kernel: &Kernel) -> u64 {
    kernel
        .args
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|a| match a {
            Some(ArgValue::Local(n)) => (*n as u64).next_multiple_of(16),
            _ => 0,
        })
        .sum()
}

status_fn!(
    fn get_kernel_work_group_info(
        k: cl_kernel,
        d: cl_device_id,
        param: cl_kernel_work_group_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let kernel = handle::get::<Kernel>(k)?;
        let dev = query_device(&kernel, d)?;
        let info = match param {
            CL_KERNEL_WORK_GROUP_SIZE => Ok(Info::usize(kernel_work_group_size(&dev))),
            CL_KERNEL_COMPILE_WORK_GROUP_SIZE => {
                let r = kernel.sig.reqd_work_group_size.unwrap_or([0; 3]);
                Ok(Info::usizes(&[r[0] as usize, r[1] as usize, r[2] as usize]))
            }
            CL_KERNEL_LOCAL_MEM_SIZE => Ok(Info::u64(
                kernel.static_local_bytes() + local_arg_bytes(&kernel),
            )),
            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => Ok(Info::usize(if dev.is_cuda() {
                32
            } else {
                PREFERRED_MULTIPLE
            })),
            CL_KERNEL_PRIVATE_MEM_SIZE => Ok(Info::u64(0)),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

status_fn!(
    fn get_kernel_arg_info(
        k: cl_kernel,
        index: cl_uint,
        param: cl_kernel_arg_info,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let kernel = handle::get::<Kernel>(k)?;
        let p = kernel
            .sig
            .params
            .get(index as usize)
            .ok_or(CL_INVALID_ARG_INDEX)?;
        let (ty, q) = prog::type_name_and_qualifier(&p.c_type, &p.kind);
        let info = match param {
            CL_KERNEL_ARG_ADDRESS_QUALIFIER => Ok(Info::u32(prog::address_qualifier(&p.kind))),
            CL_KERNEL_ARG_ACCESS_QUALIFIER => Ok(Info::u32(prog::access_qualifier(&p.kind))),
            CL_KERNEL_ARG_TYPE_NAME => Ok(Info::str(&ty)),
            CL_KERNEL_ARG_TYPE_QUALIFIER => Ok(Info::u64(q)),
            CL_KERNEL_ARG_NAME => Ok(Info::str(&p.name)),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

status_fn!(
    fn get_kernel_sub_group_info(
        k: cl_kernel,
        d: cl_device_id,
        param: cl_kernel_sub_group_info,
        in_size: usize,
        input: *const c_void,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) {
        let kernel = handle::get::<Kernel>(k)?;
        let dev = query_device(&kernel, d)?;
        let max = kernel_work_group_size(&dev);
        let word = std::mem::size_of::<usize>();
        // The local size an NDRANGE query names: 1 to 3 size_t.
        let local = || -> Result<usize, cl_int> {
            if input.is_null()
                || in_size == 0
                || !in_size.is_multiple_of(word)
                || in_size > 3 * word
            {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: `input` holds `in_size` bytes (the caller's contract), a whole number of
            // size_t (checked above).
            let dims =
                unsafe { ffi::slice(input.cast::<usize>(), in_size / word, CL_INVALID_VALUE) }?;
            Ok(dims.iter().product())
        };
        let info = match param {
            CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => {
                local().map(|n| Info::usize(sub_group_size(&dev, n)))
            }
            CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => local().map(|n| {
                let s = sub_group_size(&dev, n).max(1);
                Info::usize(n.div_ceil(s))
            }),
            CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
                if input.is_null() || in_size != word {
                    return Err(CL_INVALID_VALUE);
                }
                // SAFETY: `input` holds one size_t (checked above).
                let count = unsafe { ffi::slice(input.cast::<usize>(), 1, CL_INVALID_VALUE) }?
                    .first()
                    .copied()
                    .unwrap_or(0);
                // A 1-D local size giving exactly `count` sub-groups, or 0 where none does.
                let per = if dev.is_cuda() { GPU_SUB_GROUP } else { 1 };
                let n = match count.checked_mul(per) {
                    Some(n) if n > 0 && n <= max => n,
                    _ => 0,
                };
                let dims = (size / word).clamp(1, 3);
                let mut v = vec![0usize; dims];
                if n > 0 {
                    v[0] = n;
                    for x in v.iter_mut().skip(1) {
                        *x = 1;
                    }
                }
                Ok(Info::usizes(&v))
            }
            CL_KERNEL_MAX_NUM_SUB_GROUPS => {
                Ok(Info::usize(max.div_ceil(sub_group_size(&dev, max).max(1))))
            }
            CL_KERNEL_COMPILE_NUM_SUB_GROUPS => Ok(Info::usize(0)),
            _ => Err(CL_INVALID_VALUE),
        };
        info_out!(info, size, value, size_ret)
    }
);

// ---------------------------------------------------------------- launches

/// The `work_dim` values at `p`, or `None` for NULL.
///
/// # Safety
/// `p` is NULL or points to `dims` size_t.
unsafe fn dims_of(p: *const usize, dims: usize) -> Option<Vec<u64>> {
    // SAFETY: the caller's contract.
    unsafe { ffi::vec_or_none(p, dims) }.map(|v| v.into_iter().map(|x| x as u64).collect())
}

/// Enqueues `kernel` over `range` after checking it can launch.
///
/// # Safety
/// `list` is NULL or `n` events; `event` NULL or writable.
unsafe fn launch(
    queue: &Ref<Queue>,
    kernel: Ref<Kernel>,
    range: oclc::NdRange,
    command_type: cl_command_type,
    n: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    if !Arc::ptr_eq(&queue.ctx, &kernel.program.ctx) {
        return Err(CL_INVALID_CONTEXT);
    }
    if !kernel
        .program
        .devices
        .iter()
        .any(|d| Arc::ptr_eq(d, &queue.device))
    {
        return Err(CL_INVALID_PROGRAM_EXECUTABLE);
    }
    // SAFETY: the caller's contract.
    let wait = unsafe { wait_list(n, list) }?;
    let args: Vec<ArgValue> = kernel
        .args
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|a| match a {
            // A launch holds its buffers until it has run; a released one cannot be used.
            Some(ArgValue::Mem(w)) => w.upgrade().map(ArgValue::Held),
            a => a.clone(),
        })
        .collect::<Option<Vec<_>>>()
        .ok_or(CL_INVALID_KERNEL_ARGS)?;
    // Without a local size, a kernel's required work-group size is the local size.
    let mut range = range;
    if range.local.is_none()
        && let Some(r) = kernel.sig.reqd_work_group_size
    {
        range.local = Some(r[..range.global.len()].to_vec());
    }
    let max_group = kernel_work_group_size(&queue.device) as u64;
    let max_items = queue.device.max_work_item_sizes();
    if let Some(local) = &range.local {
        let mut product: u64 = 1;
        for (k, (&l, &g)) in local.iter().zip(&range.global).enumerate() {
            if l == 0 || l > max_group || l > max_items[k] as u64 {
                return Err(CL_INVALID_WORK_ITEM_SIZE);
            }
            product = product.saturating_mul(l);
            if kernel.lib.uniform_work_groups() && g % l != 0 {
                return Err(CL_INVALID_WORK_GROUP_SIZE);
            }
            if let Some(r) = kernel.sig.reqd_work_group_size
                && r[k] != l
            {
                return Err(CL_INVALID_WORK_GROUP_SIZE);
            }
        }
        if product > max_group {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
    }
    let local_bytes = kernel.static_local_bytes() + local_arg_bytes(&kernel);
    if local_bytes > queue.device.limits.local_mem_size {
        return Err(CL_OUT_OF_RESOURCES);
    }
    let svm: Vec<Arc<crate::context::Svm>> = kernel
        .exec_svm
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    let device = queue.device.clone();
    let empty = range.global.contains(&0);
    let work = Box::new(move || {
        if empty {
            return Ok(());
        }
        run_kernel(&kernel, &device, &args, &svm, &range)
    });
    // SAFETY: the caller's contract.
    unsafe { enqueue(queue, command_type, wait, false, event, work) }
}

/// Runs a kernel on the device (on the queue's thread): SVM and host-pointer memory in,
/// launch, memory back out. A runtime-check fault prints `oclc run`'s report on stderr and
/// ends the command with CL_OUT_OF_RESOURCES.
fn run_kernel(
    kernel: &Kernel,
    device: &Device,
    args: &[ArgValue],
    exec_svm: &[Arc<crate::context::Svm>],
    range: &oclc::NdRange,
) -> Result<(), cl_int> {
    let name = &kernel.sig.name;
    // Without the cuda feature the cpu device is the only backend.
    #[cfg_attr(not(feature = "cuda"), allow(clippy::infallible_destructuring_match))]
    let cpu = match &device.backend {
        Backend::Cpu(cpu) => cpu,
        #[cfg(feature = "cuda")]
        Backend::Cuda(w) => return run_kernel_cuda(kernel, w, args, range),
    };
    let mut k = kernel.lib.kernel(name).map_err(|_| CL_INVALID_KERNEL)?;
    let mut svms: Vec<Arc<crate::context::Svm>> = exec_svm.to_vec();
    let mut mems: Vec<&Ref<Mem>> = Vec::new();
    // SVM pointer arguments of `__global` parameters: raw host addresses.
    let mut addresses: Vec<(usize, u64)> = Vec::new();
    let ctx = &kernel.program.ctx;
    for (i, a) in args.iter().enumerate() {
        let ka = match a {
            // A USE_HOST_PTR buffer over SVM memory is that memory (CL_MEM_USES_SVM_POINTER):
            // the kernel addresses it by its SVM addresses, so the pointers it stores are
            // host pointers, and the SVM allocation carries the bytes in and out.
            ArgValue::Held(m)
                if !is_constant_param(kernel, i)
                    && let Some((s, off)) = m.host.and_then(|h| ctx.svm_at(h.addr())) =>
            {
                addresses.push((i, (s.host.addr() + off) as u64));
                svms.push(s);
                oclc::KernelArg::Null
            }
            ArgValue::Held(m) if let Some(img) = m.image => {
                mems.push(m);
                oclc::KernelArg::Image {
                    desc: img.desc,
                    data: m.buf.cpu().ok_or(CL_INVALID_KERNEL_ARGS)?,
                }
            }
            ArgValue::Held(m) => {
                mems.push(m);
                oclc::KernelArg::Buffer(m.buf.cpu().ok_or(CL_INVALID_KERNEL_ARGS)?)
            }
            ArgValue::Mem(_) => return Err(CL_INVALID_KERNEL_ARGS),
            ArgValue::Null => oclc::KernelArg::Null,
            ArgValue::Local(n) => oclc::KernelArg::Local(*n),
            ArgValue::Bytes(b) => oclc::KernelArg::Value(b.clone()),
            ArgValue::Svm(s, off) if !is_constant_param(kernel, i) => {
                svms.push(s.clone());
                addresses.push((i, (s.host.addr() + off) as u64));
                oclc::KernelArg::Null
            }
            ArgValue::Svm(s, off) => {
                svms.push(s.clone());
                let len = s.host.len() - off;
                let region = s.buf.region(*off, len).map_err(|_| CL_INVALID_ARG_VALUE)?;
                oclc::KernelArg::Buffer(region.cpu().ok_or(CL_INVALID_ARG_VALUE)?)
            }
        };
        if let Err(e) = k.set_arg(i, ka) {
            eprintln!("oclc: kernel '{name}': {e}");
            return Err(CL_INVALID_KERNEL_ARGS);
        }
    }
    // One launch at a time from memory in to memory out: SVM allocations and host-pointer
    // buffers that two queues share see each launch's changes whole.
    let lib = cpu.lock().unwrap_or_else(|e| e.into_inner());
    for m in &mems {
        m.pull()?;
    }
    svms.sort_by_key(Arc::as_ptr);
    svms.dedup_by_key(|s| Arc::as_ptr(s));
    let mut before = Vec::with_capacity(svms.len());
    let mut bound = Vec::with_capacity(svms.len());
    for s in &svms {
        before.push(s.to_device()?);
        bound.push(oclc_cpu::Svm {
            addr: s.host.addr() as u64,
            len: s.host.len() as u64,
            buffer: Some(s.buf.cpu_raw().ok_or(CL_INVALID_KERNEL_ARGS)?),
        });
    }
    // The context's other SVM allocations, so that an access to one says it was not given.
    for (&addr, s) in kernel
        .program
        .ctx
        .svm
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
    {
        bound.push(oclc_cpu::Svm {
            addr: addr as u64,
            len: s.host.len() as u64,
            buffer: None,
        });
    }
    let result = k.launch_on_cpu_svm(&lib, range, &bound, &addresses);
    drop(lib);
    for (s, b) in svms.iter().zip(&before) {
        s.to_host(b)?;
    }
    for m in &mems {
        m.push()?;
    }
    match result {
        Ok(_) => Ok(()),
        // The report goes to stderr and to the context's pfn_notify, if it has one.
        Err(oclc::Error::Runtime(fault)) => {
            eprint!("{}", fault.rendered);
            kernel.program.ctx.notify(&fault.rendered);
            Err(CL_OUT_OF_RESOURCES)
        }
        Err(e) => {
            let message = format!("oclc: kernel '{name}': {e}");
            eprintln!("{message}");
            kernel.program.ctx.notify(&message);
            Err(CL_OUT_OF_RESOURCES)
        }
    }
}

/// Whether parameter `i` of the kernel is a `__constant` pointer (an SVM pointer given to
/// one is bound as a buffer of its own rather than by address, so writes stay refused).
fn is_constant_param(kernel: &Kernel, i: usize) -> bool {
    matches!(
        kernel.sig.params.get(i).map(|p| &p.kind),
        Some(KernelParamKind::Pointer {
            space: oclc::program::AddrSpace::Constant,
            ..
        })
    )
}

/// [`run_kernel`] on a GPU: host-pointer memory in, the launch on the GPU's worker (the
/// library's `Device::launch`, as `oclc run --device cuda`), memory back out. A fault or
/// launch error prints the library's message on stderr and ends the command with
/// CL_OUT_OF_RESOURCES. A sub-buffer runs on a copy of its bytes ([`crate::cuda::Arg::Sub`]);
/// SVM pointers (and USE_HOST_PTR buffers over SVM) are addresses in managed memory, passed
/// as they are; the launch returns synchronized, so the host sees the kernel's writes.
#[cfg(feature = "cuda")]
fn run_kernel_cuda(
    kernel: &Kernel,
    worker: &crate::cuda::Worker,
    args: &[ArgValue],
    range: &oclc::NdRange,
) -> Result<(), cl_int> {
    use crate::cuda::Arg;
    use crate::mem::Store;
    let name = &kernel.sig.name;
    let refuse = |i: usize, what: &str| {
        let message = format!("oclc: kernel '{name}': argument {i}: {what}");
        eprintln!("{message}");
        kernel.program.ctx.notify(&message);
        CL_INVALID_KERNEL_ARGS
    };
    let mut mems: Vec<&Ref<Mem>> = Vec::new();
    let mut wargs = Vec::with_capacity(args.len());
    let ctx = &kernel.program.ctx;
    // An SVM allocation in a GPU's managed memory: its address is the kernel's pointer.
    let managed = |s: &crate::context::Svm, off: usize| match &s.buf {
        Store::Cuda { .. } => Some(Arg::Address((s.host.addr() + off) as u64)),
        Store::Cpu(_) => None,
    };
    for (i, a) in args.iter().enumerate() {
        wargs.push(match a {
            // A USE_HOST_PTR buffer over SVM memory is that memory (CL_MEM_USES_SVM_POINTER).
            ArgValue::Held(m)
                if let Some(arg) = m
                    .host
                    .and_then(|h| ctx.svm_at(h.addr()))
                    .and_then(|(s, off)| managed(&s, off)) =>
            {
                arg
            }
            ArgValue::Held(m) if m.image.is_some() => {
                return Err(refuse(i, "images are not supported on the cuda device"));
            }
            ArgValue::Held(m) => {
                mems.push(m);
                match &m.buf {
                    Store::Cuda {
                        buf,
                        offset: 0,
                        len,
                    } if *len == buf.len => Arg::Buf(buf.clone()),
                    Store::Cuda { buf, offset, len } => Arg::Sub(buf.clone(), *offset, *len),
                    Store::Cpu(_) => {
                        return Err(refuse(i, "the buffer is not in the GPU's memory"));
                    }
                }
            }
            ArgValue::Mem(_) => return Err(CL_INVALID_KERNEL_ARGS),
            ArgValue::Null => Arg::Null,
            ArgValue::Local(n) => Arg::Local(*n),
            ArgValue::Bytes(b) => Arg::Bytes(b.clone()),
            ArgValue::Svm(s, off) => match managed(s, *off) {
                Some(arg) => arg,
                None => {
                    return Err(refuse(i, "the SVM pointer is not in the GPU's memory"));
                }
            },
        });
    }
    let lock = worker.launches.lock().unwrap_or_else(|e| e.into_inner());
    for m in &mems {
        m.pull()?;
    }
    let result = worker.launch(kernel.lib.clone(), name.clone(), wargs, range.clone());
    for m in &mems {
        m.push()?;
    }
    drop(lock);
    result.map_err(|e| {
        let message = format!("oclc: kernel '{name}': {e}");
        eprintln!("{message}");
        kernel.program.ctx.notify(&message);
        CL_OUT_OF_RESOURCES
    })
}

status_fn!(
    fn enqueue_nd_range_kernel(
        q: cl_command_queue,
        k: cl_kernel,
        work_dim: cl_uint,
        offset: *const usize,
        global: *const usize,
        local: *const usize,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        let kernel = handle::get::<Kernel>(k)?;
        if !(1..=3).contains(&work_dim) {
            return Err(CL_INVALID_WORK_DIMENSION);
        }
        let dims = work_dim as usize;
        // SAFETY: each of offset, global and local is NULL or work_dim size_t.
        let (off, glob, loc) = unsafe {
            (
                dims_of(offset, dims),
                dims_of(global, dims),
                dims_of(local, dims),
            )
        };
        // A NULL global size, like a 0 in it, is an empty launch (OpenCL 2.1 on).
        let glob = glob.unwrap_or_else(|| vec![0; dims]);
        if let Some(o) = &off
            && o.iter()
                .zip(&glob)
                .any(|(o, g)| o.checked_add(*g).is_none())
        {
            return Err(CL_INVALID_GLOBAL_OFFSET);
        }
        let range = oclc::NdRange {
            global: glob,
            local: loc,
            offset: off,
        };
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe {
            launch(
                &queue,
                kernel,
                range,
                CL_COMMAND_NDRANGE_KERNEL,
                n,
                list,
                event,
            )
        }
    }
);

status_fn!(
    fn enqueue_task(
        q: cl_command_queue,
        k: cl_kernel,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) {
        let queue = handle::get::<Queue>(q)?;
        let kernel = handle::get::<Kernel>(k)?;
        let range = oclc::NdRange::new(&[1]).local(&[1]);
        // SAFETY: list is NULL or n events; event NULL or writable.
        unsafe { launch(&queue, kernel, range, CL_COMMAND_TASK, n, list, event) }
    }
);

status_fn!(
    fn enqueue_native_kernel(
        q: cl_command_queue,
        _f: Option<unsafe extern "C" fn(*mut c_void)>,
        _args: *mut c_void,
        _cb: usize,
        _num: cl_uint,
        _mems: *const cl_mem,
        _locs: *mut *const c_void,
        _n: cl_uint,
        _list: *const cl_event,
        _event: *mut cl_event,
    ) {
        handle::get::<Queue>(q)?;
        // CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL.
        Err(CL_INVALID_OPERATION)
    }
);
