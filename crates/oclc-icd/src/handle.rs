//! Handles: every OpenCL object handed to the application is the address of an [`Obj`],
//! whose first field is the ICD dispatch table (as `cl_khr_icd` requires), kept alive by an
//! `Arc`. A registry of live addresses validates a handle before anything reads through it,
//! so a NULL, freed or foreign handle is an `CL_INVALID_<OBJECT>` error, never a crash.
//!
//! The application's reference count (`clRetain*`/`clRelease*`) is kept in the registry;
//! objects that refer to each other hold `Arc`s, so a released context lives on (and its
//! handle stays valid) while a queue or buffer made from it does, as the specification says.

use std::any::Any;
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::*;

/// The kinds of object, each with the error code of an invalid handle of its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Platform,
    Device,
    Context,
    Queue,
    Mem,
    Program,
    Kernel,
    Event,
    Sampler,
}

impl Kind {
    /// `CL_INVALID_<OBJECT>` for this kind.
    pub fn invalid(self) -> cl_int {
        match self {
            Kind::Platform => CL_INVALID_PLATFORM,
            Kind::Device => CL_INVALID_DEVICE,
            Kind::Context => CL_INVALID_CONTEXT,
            Kind::Queue => CL_INVALID_COMMAND_QUEUE,
            Kind::Mem => CL_INVALID_MEM_OBJECT,
            Kind::Program => CL_INVALID_PROGRAM,
            Kind::Kernel => CL_INVALID_KERNEL,
            Kind::Event => CL_INVALID_EVENT,
            Kind::Sampler => CL_INVALID_SAMPLER,
        }
    }
}

/// A Rust type that stands behind handles of one kind.
pub trait ClObject: Send + Sync + 'static {
    const KIND: Kind;
}

/// An object as the application sees it: the dispatch table first, then the object.
#[repr(C)]
pub struct Obj<T> {
    dispatch: &'static cl_icd_dispatch,
    inner: T,
}

/// A counted reference to an object.
pub type Ref<T> = Arc<Obj<T>>;

impl<T> Deref for Obj<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> Drop for Obj<T> {
    fn drop(&mut self) {
        let addr = self as *const Obj<T> as usize;
        registry().remove(&addr);
    }
}

struct Entry {
    kind: Kind,
    /// The application's references (`clRetain*` adds one, `clRelease*` takes one away).
    api_refs: u32,
    /// Keeps the object alive while `api_refs` > 0.
    strong: Option<Arc<dyn Any + Send + Sync>>,
    weak: Weak<dyn Any + Send + Sync>,
}

fn registry() -> MutexGuard<'static, HashMap<usize, Entry>> {
    static REGISTRY: OnceLock<Mutex<HashMap<usize, Entry>>> = OnceLock::new();
    REGISTRY
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// A new object, not yet known to the application (see [`register`]).
pub fn new<T: ClObject>(inner: T) -> Ref<T> {
    Arc::new(Obj {
        dispatch: &crate::api::DISPATCH,
        inner,
    })
}

/// The handle of an object: its address.
pub fn handle<T>(r: &Ref<T>) -> *mut std::ffi::c_void {
    Arc::as_ptr(r) as *mut std::ffi::c_void
}

/// Makes the object valid as a handle with one application reference; returns the handle.
pub fn register<T: ClObject>(r: &Ref<T>) -> *mut std::ffi::c_void {
    let strong: Arc<dyn Any + Send + Sync> = r.clone();
    let weak = Arc::downgrade(&strong);
    let h = handle(r);
    let old = registry().insert(
        h as usize,
        Entry {
            kind: T::KIND,
            api_refs: 1,
            strong: Some(strong),
            weak,
        },
    );
    drop(old);
    h
}

/// [`new`] and [`register`] in one.
pub fn create<T: ClObject>(inner: T) -> (Ref<T>, *mut std::ffi::c_void) {
    let r = new(inner);
    let h = register(&r);
    (r, h)
}

/// The object behind handle `h`, or `CL_INVALID_<OBJECT>` when `h` is not a live object of
/// type `T` (NULL, released and gone, another kind, or never a handle).
pub fn get<T: ClObject>(h: *const std::ffi::c_void) -> Result<Ref<T>, cl_int> {
    let any = {
        let reg = registry();
        let e = reg.get(&(h as usize)).ok_or(T::KIND.invalid())?;
        if e.kind != T::KIND {
            return Err(T::KIND.invalid());
        }
        e.weak.upgrade().ok_or(T::KIND.invalid())?
    };
    any.downcast::<Obj<T>>().map_err(|_| T::KIND.invalid())
}

/// `clRetain*`: one more application reference.
pub fn retain(h: *const std::ffi::c_void, kind: Kind) -> Result<(), cl_int> {
    let mut reg = registry();
    let e = reg.get_mut(&(h as usize)).ok_or(kind.invalid())?;
    if e.kind != kind || e.weak.strong_count() == 0 {
        return Err(kind.invalid());
    }
    if e.api_refs == 0 {
        e.strong = e.weak.upgrade();
    }
    e.api_refs = e.api_refs.saturating_add(1);
    Ok(())
}

/// `clRelease*`: one application reference fewer; at zero the object goes once nothing
/// else refers to it. Returns the object's strong reference the registry held, dropped by
/// the caller outside the registry's lock (its destructor may release other objects).
pub fn release(h: *const std::ffi::c_void, kind: Kind) -> Result<(), cl_int> {
    let dropped = {
        let mut reg = registry();
        let e = reg.get_mut(&(h as usize)).ok_or(kind.invalid())?;
        if e.kind != kind || e.api_refs == 0 {
            return Err(kind.invalid());
        }
        e.api_refs -= 1;
        if e.api_refs == 0 {
            e.strong.take()
        } else {
            None
        }
    };
    drop(dropped);
    Ok(())
}

/// The application's reference count of a live handle (0 when unknown).
pub fn ref_count(h: *const std::ffi::c_void) -> u32 {
    registry().get(&(h as usize)).map_or(0, |e| e.api_refs)
}

/// Handles of live registered objects of a kind (for tests and diagnostics).
pub fn live(kind: Kind) -> usize {
    registry()
        .values()
        .filter(|e| e.kind == kind && e.weak.strong_count() > 0)
        .count()
}
