//! Contexts: the devices they hold, their properties, destructor callbacks and their SVM
//! allocations.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use opencl_sys::*;

use crate::ffi::{ContextNotify, HostAlloc, ObjCallback};
use crate::handle::{ClObject, Kind, Ref};
use crate::platform::Device;

pub struct Context {
    pub devices: Vec<Ref<Device>>,
    /// The properties as given (without the terminating 0), for CL_CONTEXT_PROPERTIES.
    pub properties: Vec<isize>,
    pub notify: Option<ContextNotify>,
    /// `clSetContextDestructorCallback`s, called last-registered first.
    pub destructors: Mutex<Vec<ObjCallback>>,
    /// The handle, for the destructor callbacks (set once registered).
    pub handle: Mutex<usize>,
    /// SVM allocations by start address.
    pub svm: Mutex<BTreeMap<usize, Arc<Svm>>>,
}

impl ClObject for Context {
    const KIND: Kind = Kind::Context;
}

impl Context {
    pub fn new(
        devices: Vec<Ref<Device>>,
        properties: Vec<isize>,
        notify: Option<ContextNotify>,
    ) -> Context {
        Context {
            devices,
            properties,
            notify,
            destructors: Mutex::new(Vec::new()),
            handle: Mutex::new(0),
            svm: Mutex::new(BTreeMap::new()),
        }
    }

    /// Whether `d` is one of the context's devices.
    pub fn has_device(&self, d: &Ref<Device>) -> bool {
        self.devices.iter().any(|x| Arc::ptr_eq(x, d))
    }

    /// The SVM allocation holding address `p`, and `p`'s offset in it.
    pub fn svm_at(&self, p: usize) -> Option<(Arc<Svm>, usize)> {
        let map = self.svm.lock().unwrap_or_else(|e| e.into_inner());
        let (start, a) = map.range(..=p).next_back()?;
        let off = p - start;
        (off < a.host.len().max(1)).then(|| (a.clone(), off))
    }

    /// Tells the application about an error through the context's `pfn_notify`.
    pub fn notify(&self, message: &str) {
        if let Some(n) = &self.notify {
            n.call(message);
        }
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        let h = *self.handle.get_mut().unwrap_or_else(|e| e.into_inner());
        let cbs = std::mem::take(
            self.destructors
                .get_mut()
                .unwrap_or_else(|e| e.into_inner()),
        );
        for cb in cbs.iter().rev() {
            cb.call(h);
        }
    }
}

/// An SVM allocation (coarse- or fine-grained buffer): host memory the application reads and
/// writes directly, and a device buffer that kernels use. Launches copy the host bytes to the
/// device buffer before and the bytes the kernel changed back after, so host writes to other
/// bytes of a fine-grained allocation during the launch survive it.
pub struct Svm {
    pub host: HostAlloc,
    pub buf: crate::mem::Store,
    pub flags: cl_svm_mem_flags,
}

impl Svm {
    /// Host bytes to the device buffer (before a launch that uses it); returns them, for
    /// [`Svm::to_host`] to find what the launch changed.
    pub fn to_device(&self) -> Result<Vec<u8>, cl_int> {
        let bytes = self.host.region().to_vec();
        self.buf.write_at(0, &bytes)?;
        Ok(bytes)
    }

    /// The device buffer's bytes that differ from `before` (what [`Svm::to_device`] copied
    /// in) back to the host memory, run by run (after the launch).
    pub fn to_host(&self, before: &[u8]) -> Result<(), cl_int> {
        let after = self.buf.read_bytes()?;
        let host = self.host.region();
        let mut i = 0;
        while i < after.len() {
            if before.get(i) == Some(&after[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < after.len() && before.get(i) != Some(&after[i]) {
                i += 1;
            }
            host.write(start, &after[start..i]);
        }
        Ok(())
    }
}
