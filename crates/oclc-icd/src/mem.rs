//! Memory objects: buffers and sub-buffers over the library's buffers, their host pointers
//! and maps.

use std::collections::HashMap;
use std::sync::Mutex;

use opencl_sys::*;

use crate::context::Context;
use crate::ffi::{HostAlloc, HostPtr, ObjCallback};

use crate::handle::{ClObject, Kind, Ref};

pub struct Mem {
    pub ctx: Ref<Context>,
    pub flags: cl_mem_flags,
    pub size: usize,
    /// `CL_MEM_USE_HOST_PTR`'s memory (for a sub-buffer: the parent's, at the offset).
    pub host: Option<HostPtr>,
    /// The parent buffer and the offset in it, for a sub-buffer.
    pub parent: Option<(Ref<Mem>, usize)>,
    /// The device memory (a region of the parent's for a sub-buffer).
    pub buf: Store,
    /// Mapped regions by the address handed out.
    pub maps: Mutex<HashMap<usize, Mapping>>,
    pub destructors: Mutex<Vec<ObjCallback>>,
    /// The handle, for destructor callbacks.
    pub handle: Mutex<usize>,
    /// CL_MEM_PROPERTIES as given.
    pub properties: Vec<u64>,
    /// What makes this memory object an image (`None` for buffers).
    pub image: Option<Image>,
}

/// An image's type, format, extent and layout. `desc`'s pitches are the layout in `buf`
/// (a 1D array's layers are its rows); `row_pitch`/`slice_pitch` are the API's
/// (CL_IMAGE_ROW_PITCH, CL_IMAGE_SLICE_PITCH).
#[derive(Clone, Copy, Debug)]
pub struct Image {
    pub desc: oclc_cpu::runtime::image::ImageDesc,
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

impl ClObject for Mem {
    const KIND: Kind = Kind::Mem;
}

/// A buffer's memory on its context's device: the cpu device's (shared with the launching
/// thread directly) or a GPU's (a region of a buffer its worker owns).
#[derive(Clone)]
pub enum Store {
    Cpu(oclc_cpu::Buffer),
    #[cfg(feature = "cuda")]
    Cuda {
        buf: std::sync::Arc<crate::cuda::CudaBuf>,
        offset: usize,
        len: usize,
    },
}

impl Store {
    pub fn len(&self) -> usize {
        match self {
            Store::Cpu(b) => b.len(),
            #[cfg(feature = "cuda")]
            Store::Cuda { len, .. } => *len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `out.len()` bytes at `offset`; `CL_OUT_OF_RESOURCES` when outside the buffer.
    pub fn read_at(&self, offset: usize, out: &mut [u8]) -> Result<(), cl_int> {
        let inside = offset
            .checked_add(out.len())
            .is_some_and(|e| e <= self.len());
        if !inside {
            return Err(CL_OUT_OF_RESOURCES);
        }
        match self {
            Store::Cpu(b) => b
                .read_at(offset, out)
                .then_some(())
                .ok_or(CL_OUT_OF_RESOURCES),
            #[cfg(feature = "cuda")]
            Store::Cuda { buf, offset: o, .. } => buf.read_at(o + offset, out),
        }
    }

    /// Writes `data` at `offset`; `CL_OUT_OF_RESOURCES` when outside the buffer.
    pub fn write_at(&self, offset: usize, data: &[u8]) -> Result<(), cl_int> {
        let inside = offset
            .checked_add(data.len())
            .is_some_and(|e| e <= self.len());
        if !inside {
            return Err(CL_OUT_OF_RESOURCES);
        }
        match self {
            Store::Cpu(b) => b
                .write_at(offset, data)
                .then_some(())
                .ok_or(CL_OUT_OF_RESOURCES),
            #[cfg(feature = "cuda")]
            Store::Cuda { buf, offset: o, .. } => buf.write_at(o + offset, data),
        }
    }

    /// The whole contents.
    pub fn read_bytes(&self) -> Result<Vec<u8>, cl_int> {
        let mut out = Vec::new();
        out.try_reserve_exact(self.len())
            .map_err(|_| CL_OUT_OF_HOST_MEMORY)?;
        out.resize(self.len(), 0);
        self.read_at(0, &mut out)?;
        Ok(out)
    }

    /// The `len` bytes at `offset`, sharing this memory (sub-buffers).
    pub fn region(&self, offset: usize, len: usize) -> Result<Store, cl_int> {
        let inside = offset.checked_add(len).is_some_and(|e| e <= self.len());
        if !inside {
            return Err(CL_INVALID_VALUE);
        }
        match self {
            Store::Cpu(b) => b
                .region(offset, len)
                .map(Store::Cpu)
                .ok_or(CL_INVALID_VALUE),
            #[cfg(feature = "cuda")]
            Store::Cuda { buf, offset: o, .. } => Ok(Store::Cuda {
                buf: buf.clone(),
                offset: o + offset,
                len,
            }),
        }
    }

    /// The library buffer a cpu launch takes (`None` for a GPU's memory).
    /// The cpu device's buffer, for binding by address ([`oclc_cpu::Svm`]).
    pub fn cpu_raw(&self) -> Option<oclc_cpu::Buffer> {
        match self {
            Store::Cpu(b) => Some(b.clone()),
            #[cfg(feature = "cuda")]
            Store::Cuda { .. } => None,
        }
    }

    pub fn cpu(&self) -> Option<oclc::Buffer> {
        match self {
            Store::Cpu(b) => Some(oclc::Buffer::from(b.clone())),
            #[cfg(feature = "cuda")]
            Store::Cuda { .. } => None,
        }
    }
}

/// One `clEnqueueMapBuffer`: where in the buffer, and the host memory handed out.
pub struct Mapping {
    pub offset: usize,
    pub len: usize,
    pub write: bool,
    /// The memory of the map, unless the buffer uses the application's host memory.
    pub alloc: Option<std::sync::Arc<HostAlloc>>,
    /// How many times this address is mapped (a region may be mapped repeatedly).
    pub count: usize,
}

impl Mem {
    /// `USE_HOST_PTR` buffers keep the application's memory authoritative between
    /// commands: a command that reads the buffer first copies the host memory in.
    pub fn pull(&self) -> Result<(), cl_int> {
        if let Some(h) = &self.host {
            self.buf.write_at(0, &h.to_vec())?;
        }
        Ok(())
    }

    /// ... and a command that may write it copies the buffer back out.
    pub fn push(&self) -> Result<(), cl_int> {
        if let Some(h) = &self.host {
            let bytes = self.buf.read_bytes()?;
            h.write(0, &bytes);
        }
        Ok(())
    }

    /// Bytes at `offset` for a host-side command (read, copy): from the application's memory
    /// for a `USE_HOST_PTR` buffer (authoritative between commands), else from the device
    /// buffer. Only the bytes asked for move, whatever the buffer's size.
    pub fn read_at(&self, offset: usize, out: &mut [u8]) -> Result<(), cl_int> {
        let ok = match &self.host {
            Some(h) => h.read(offset, out),
            None => self.buf.read_at(offset, out).is_ok(),
        };
        if ok { Ok(()) } else { Err(CL_OUT_OF_RESOURCES) }
    }

    /// Writes `data` at `offset` for a host-side command (write, copy, fill), where
    /// [`Mem::read_at`] reads; the next launch's [`Mem::pull`] brings it to the device.
    pub fn write_at(&self, offset: usize, data: &[u8]) -> Result<(), cl_int> {
        let ok = match &self.host {
            Some(h) => h.write(offset, data),
            None => self.buf.write_at(offset, data).is_ok(),
        };
        if ok { Ok(()) } else { Err(CL_OUT_OF_RESOURCES) }
    }

    /// The buffer at the root of a sub-buffer chain and this one's offset in it.
    pub fn root(&self) -> (usize, usize) {
        match &self.parent {
            Some((p, off)) => (std::ptr::from_ref::<Mem>(p) as usize, *off),
            None => (std::ptr::from_ref(self) as usize, 0),
        }
    }

    /// Total maps outstanding (CL_MEM_MAP_COUNT).
    pub fn map_count(&self) -> usize {
        self.maps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .map(|m| m.count)
            .sum()
    }
}

impl Drop for Mem {
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

/// The byte ranges of a rectangular copy: for each row of `region` (bytes, rows, slices),
/// the offsets on both sides, with each side's origin (bytes, row, slice) and pitches.
pub struct Rect {
    pub region: [usize; 3],
    pub a_origin: [usize; 3],
    pub a_row: usize,
    pub a_slice: usize,
    pub b_origin: [usize; 3],
    pub b_row: usize,
    pub b_slice: usize,
}

impl Rect {
    /// Fills zero pitches with their defaults (tight rows and slices) as the specification
    /// says; `CL_INVALID_VALUE` for a zero region or pitches too small.
    pub fn normalize(mut self) -> Result<Rect, cl_int> {
        if self.region.contains(&0) {
            return Err(CL_INVALID_VALUE);
        }
        for (row, slice) in [
            (&mut self.a_row, &mut self.a_slice),
            (&mut self.b_row, &mut self.b_slice),
        ] {
            if *row == 0 {
                *row = self.region[0];
            }
            if *slice == 0 {
                *slice = row.checked_mul(self.region[1]).ok_or(CL_INVALID_VALUE)?;
            }
            if *row < self.region[0] {
                return Err(CL_INVALID_VALUE);
            }
            if *slice < row.checked_mul(self.region[1]).ok_or(CL_INVALID_VALUE)?
                || (self.region[2] > 1 && *slice % *row != 0)
            {
                return Err(CL_INVALID_VALUE);
            }
        }
        Ok(self)
    }

    fn offset(origin: [usize; 3], row: usize, slice: usize, y: usize, z: usize) -> Option<usize> {
        let r = origin[1].checked_add(y)?.checked_mul(row)?;
        let s = origin[2].checked_add(z)?.checked_mul(slice)?;
        origin[0].checked_add(r)?.checked_add(s)
    }

    /// `(a_offset, b_offset, len)` for every row; `None` when an offset overflows.
    pub fn rows(&self) -> Option<Vec<(usize, usize, usize)>> {
        let mut out =
            Vec::with_capacity(self.region[1].saturating_mul(self.region[2]).min(1 << 20));
        for z in 0..self.region[2] {
            for y in 0..self.region[1] {
                let a = Rect::offset(self.a_origin, self.a_row, self.a_slice, y, z)?;
                let b = Rect::offset(self.b_origin, self.b_row, self.b_slice, y, z)?;
                out.push((a, b, self.region[0]));
            }
        }
        Some(out)
    }

    /// One past the last byte side A touches.
    pub fn a_end(&self) -> Option<usize> {
        let last = Rect::offset(
            self.a_origin,
            self.a_row,
            self.a_slice,
            self.region[1] - 1,
            self.region[2] - 1,
        )?;
        last.checked_add(self.region[0])
    }

    /// One past the last byte side B touches.
    pub fn b_end(&self) -> Option<usize> {
        let last = Rect::offset(
            self.b_origin,
            self.b_row,
            self.b_slice,
            self.region[1] - 1,
            self.region[2] - 1,
        )?;
        last.checked_add(self.region[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(
        region: [usize; 3],
        a_row: usize,
        a_slice: usize,
        b_row: usize,
        b_slice: usize,
    ) -> Rect {
        Rect {
            region,
            a_origin: [1, 1, 0],
            a_row,
            a_slice,
            b_origin: [0, 0, 0],
            b_row,
            b_slice,
        }
    }

    #[test]
    fn rect_rows_follow_origins_and_pitches() {
        let r = rect([4, 2, 2], 10, 100, 0, 0)
            .normalize()
            .expect("valid rect");
        // Side B's pitches default to the region's: rows of 4 bytes, slices of 8.
        assert_eq!((r.b_row, r.b_slice), (4, 8));
        assert_eq!(
            r.rows(),
            Some(vec![(11, 0, 4), (21, 4, 4), (111, 8, 4), (121, 12, 4)])
        );
        assert_eq!(r.a_end(), Some(125));
        assert_eq!(r.b_end(), Some(16));
    }

    #[test]
    fn rect_rejects_empty_regions_and_short_pitches() {
        assert_eq!(
            rect([0, 1, 1], 0, 0, 0, 0).normalize().err(),
            Some(CL_INVALID_VALUE)
        );
        assert_eq!(
            rect([8, 1, 1], 4, 0, 0, 0).normalize().err(),
            Some(CL_INVALID_VALUE)
        );
        assert_eq!(
            rect([4, 2, 2], 4, 6, 0, 0).normalize().err(),
            Some(CL_INVALID_VALUE)
        );
    }
}
