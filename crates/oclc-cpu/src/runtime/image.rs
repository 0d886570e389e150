//! Images and samplers: the descriptor a kernel's image argument points to, and
//! `read_image*` / `write_image*` / `get_image_*` with OpenCL's exact semantics (spec 8.2 and
//! 8.3: addressing modes, normalized coordinates, nearest and linear filtering, border color,
//! channel orders and the conversion rules of every channel data type).
//!
//! An image is a [`ImageDesc`] (format, extent, pitches) plus a global allocation holding its
//! pixels. The sampling functions here are pure: they fetch pixel bytes through a callback,
//! so the device's bounds checks stay exact and this module has no memory of its own.

/// `CL_MEM_OBJECT_IMAGE*` values (the descriptor's `ty`).
pub mod object {
    pub const IMAGE2D: u32 = 0x10F1;
    pub const IMAGE3D: u32 = 0x10F2;
    pub const IMAGE2D_ARRAY: u32 = 0x10F3;
    pub const IMAGE1D: u32 = 0x10F4;
    pub const IMAGE1D_ARRAY: u32 = 0x10F5;
    pub const IMAGE1D_BUFFER: u32 = 0x10F6;
}

/// `CL_*` channel orders.
pub mod order {
    pub const R: u32 = 0x10B0;
    pub const A: u32 = 0x10B1;
    pub const RG: u32 = 0x10B2;
    pub const RA: u32 = 0x10B3;
    pub const RGB: u32 = 0x10B4;
    pub const RGBA: u32 = 0x10B5;
    pub const BGRA: u32 = 0x10B6;
    pub const ARGB: u32 = 0x10B7;
    pub const INTENSITY: u32 = 0x10B8;
    pub const LUMINANCE: u32 = 0x10B9;
    pub const DEPTH: u32 = 0x10BD;
    pub const ABGR: u32 = 0x10C3;
}

/// `CL_*` channel data types.
pub mod dtype {
    pub const SNORM_INT8: u32 = 0x10D0;
    pub const SNORM_INT16: u32 = 0x10D1;
    pub const UNORM_INT8: u32 = 0x10D2;
    pub const UNORM_INT16: u32 = 0x10D3;
    pub const SIGNED_INT8: u32 = 0x10D7;
    pub const SIGNED_INT16: u32 = 0x10D8;
    pub const SIGNED_INT32: u32 = 0x10D9;
    pub const UNSIGNED_INT8: u32 = 0x10DA;
    pub const UNSIGNED_INT16: u32 = 0x10DB;
    pub const UNSIGNED_INT32: u32 = 0x10DC;
    pub const HALF_FLOAT: u32 = 0x10DD;
    pub const FLOAT: u32 = 0x10DE;
}

/// Sampler bits as OpenCL C's `CLK_*` macros give them (and `sampler_t` values carry).
pub mod sampler {
    pub const NORMALIZED: u32 = 1;
    pub const ADDRESS_MASK: u32 = 0xE;
    pub const ADDRESS_NONE: u32 = 0;
    pub const CLAMP_TO_EDGE: u32 = 2;
    pub const CLAMP: u32 = 4;
    pub const REPEAT: u32 = 6;
    pub const MIRRORED_REPEAT: u32 = 8;
    pub const FILTER_NEAREST: u32 = 0x10;
    pub const FILTER_LINEAR: u32 = 0x20;
}

/// The bytes of an [`ImageDesc`] in device memory.
pub const DESC_SIZE: usize = 80;
const MAGIC: u32 = 0x494d_4731; // "IMG1"

/// What a kernel knows about an image: its type, format and extent, and where its pixels
/// are. Rows and slices are `row_pitch` and `slice_pitch` bytes apart; a 1D array's layers
/// are its rows, a 2D array's layers its slices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageDesc {
    /// `CL_MEM_OBJECT_IMAGE*`.
    pub ty: u32,
    pub order: u32,
    pub dtype: u32,
    pub width: u64,
    pub height: u64,
    pub depth: u64,
    pub array_size: u64,
    pub row_pitch: u64,
    pub slice_pitch: u64,
    /// The device address of pixel (0, 0, 0).
    pub data: u64,
}

impl ImageDesc {
    /// A tightly packed image of `ty` and format; `height`/`depth`/`array_size` are 1 where
    /// the type has no such dimension.
    pub fn packed(
        ty: u32,
        order: u32,
        dtype: u32,
        width: u64,
        height: u64,
        depth: u64,
        array_size: u64,
    ) -> Option<ImageDesc> {
        let elem = pixel_size(order, dtype)? as u64;
        let row_pitch = width.checked_mul(elem)?;
        let rows = match ty {
            object::IMAGE1D_ARRAY => array_size,
            object::IMAGE2D | object::IMAGE2D_ARRAY | object::IMAGE3D => height,
            _ => 1,
        };
        let slice_pitch = row_pitch.checked_mul(rows)?;
        Some(ImageDesc {
            ty,
            order,
            dtype,
            width,
            height,
            depth,
            array_size,
            row_pitch,
            slice_pitch,
            data: 0,
        })
    }

    /// Bytes of one pixel.
    pub fn pixel_size(&self) -> usize {
        pixel_size(self.order, self.dtype).unwrap_or(0)
    }

    /// The extent as stored: (width, rows, slices), layers included.
    pub fn extent(&self) -> [u64; 3] {
        match self.ty {
            object::IMAGE1D_ARRAY => [self.width, self.array_size, 1],
            object::IMAGE2D => [self.width, self.height, 1],
            object::IMAGE2D_ARRAY => [self.width, self.height, self.array_size],
            object::IMAGE3D => [self.width, self.height, self.depth],
            _ => [self.width, 1, 1],
        }
    }

    /// The number of coordinates that are filtered (the rest is the array layer).
    fn spatial_dims(&self) -> usize {
        match self.ty {
            object::IMAGE2D | object::IMAGE2D_ARRAY => 2,
            object::IMAGE3D => 3,
            _ => 1,
        }
    }

    /// Which stored axis is the array layer, for array images.
    fn layer_axis(&self) -> Option<usize> {
        match self.ty {
            object::IMAGE1D_ARRAY => Some(1),
            object::IMAGE2D_ARRAY => Some(2),
            _ => None,
        }
    }

    /// Byte offset of pixel `p` (stored axes) from `data`.
    pub fn offset(&self, p: [u64; 3]) -> u64 {
        p[0].wrapping_mul(self.pixel_size() as u64)
            .wrapping_add(p[1].wrapping_mul(self.row_pitch))
            .wrapping_add(p[2].wrapping_mul(self.slice_pitch))
    }

    pub fn to_bytes(&self) -> [u8; DESC_SIZE] {
        let mut b = [0u8; DESC_SIZE];
        let words32 = [MAGIC, self.ty, self.order, self.dtype];
        for (i, w) in words32.iter().enumerate() {
            b[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        let words64 = [
            self.width,
            self.height,
            self.depth,
            self.array_size,
            self.row_pitch,
            self.slice_pitch,
            self.data,
        ];
        for (i, w) in words64.iter().enumerate() {
            b[16 + i * 8..24 + i * 8].copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// The descriptor in `b`, `None` if it is not one (an image argument never set right).
    pub fn from_bytes(b: &[u8]) -> Option<ImageDesc> {
        let w32 = |i: usize| -> Option<u32> {
            Some(u32::from_le_bytes(
                b.get(i * 4..i * 4 + 4)?.try_into().ok()?,
            ))
        };
        let w64 = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(
                b.get(16 + i * 8..24 + i * 8)?.try_into().ok()?,
            ))
        };
        if w32(0)? != MAGIC {
            return None;
        }
        let d = ImageDesc {
            ty: w32(1)?,
            order: w32(2)?,
            dtype: w32(3)?,
            width: w64(0)?,
            height: w64(1)?,
            depth: w64(2)?,
            array_size: w64(3)?,
            row_pitch: w64(4)?,
            slice_pitch: w64(5)?,
            data: w64(6)?,
        };
        d.check().ok().map(|()| d)
    }

    /// Why this descriptor cannot describe an image: an unsupported format or type, or an
    /// extent of 0 or beyond 2^31 pixels in some dimension.
    pub fn check(&self) -> Result<(), String> {
        if pixel_size(self.order, self.dtype).is_none() {
            return Err(format!(
                "unsupported image format (channel order {:#x}, channel type {:#x})",
                self.order, self.dtype
            ));
        }
        if !(object::IMAGE2D..=object::IMAGE1D_BUFFER).contains(&self.ty) {
            return Err(format!("unknown image type {:#x}", self.ty));
        }
        let ext = self.extent();
        if ext.iter().any(|&e| e == 0 || e > 1 << 31) {
            return Err(format!(
                "image extent {} x {} x {} (each from 1 to 2^31)",
                ext[0], ext[1], ext[2]
            ));
        }
        Ok(())
    }
}

/// Channels stored per pixel for a channel order, `None` for orders not supported.
pub fn channels(order: u32) -> Option<usize> {
    Some(match order {
        order::R | order::A | order::INTENSITY | order::LUMINANCE | order::DEPTH => 1,
        order::RG | order::RA => 2,
        order::RGB => 3,
        order::RGBA | order::BGRA | order::ARGB | order::ABGR => 4,
        _ => return None,
    })
}

/// Bytes of one channel of a data type, `None` for types not supported.
pub fn channel_size(dtype: u32) -> Option<usize> {
    Some(match dtype {
        dtype::SNORM_INT8 | dtype::UNORM_INT8 | dtype::SIGNED_INT8 | dtype::UNSIGNED_INT8 => 1,
        dtype::SNORM_INT16
        | dtype::UNORM_INT16
        | dtype::SIGNED_INT16
        | dtype::UNSIGNED_INT16
        | dtype::HALF_FLOAT => 2,
        dtype::SIGNED_INT32 | dtype::UNSIGNED_INT32 | dtype::FLOAT => 4,
        _ => return None,
    })
}

/// Bytes of one pixel of a format, `None` if the format is not supported.
pub fn pixel_size(order: u32, dt: u32) -> Option<usize> {
    Some(channels(order)? * channel_size(dt)?)
}

/// Which logical channel (0 r, 1 g, 2 b, 3 a) each stored channel is.
fn layout(order: u32) -> &'static [usize] {
    match order {
        order::A => &[3],
        order::RG => &[0, 1],
        order::RA => &[0, 3],
        order::RGB => &[0, 1, 2],
        order::RGBA => &[0, 1, 2, 3],
        order::BGRA => &[2, 1, 0, 3],
        order::ARGB => &[3, 0, 1, 2],
        order::ABGR => &[3, 2, 1, 0],
        _ => &[0],
    }
}

/// What a `read_image*` returns, by its suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `f` and `h`: normalized, half and float formats.
    Float,
    /// `i`: `SIGNED_INT*` formats.
    Int,
    /// `ui`: `UNSIGNED_INT*` formats.
    UInt,
}

impl Kind {
    /// The function's suffix, for messages.
    pub fn suffix(self) -> &'static str {
        match self {
            Kind::Float => "f",
            Kind::Int => "i",
            Kind::UInt => "ui",
        }
    }

    /// Whether a format of this data type may be read and written by this kind.
    pub fn accepts(self, dt: u32) -> bool {
        match self {
            Kind::Int => matches!(
                dt,
                dtype::SIGNED_INT8 | dtype::SIGNED_INT16 | dtype::SIGNED_INT32
            ),
            Kind::UInt => matches!(
                dt,
                dtype::UNSIGNED_INT8 | dtype::UNSIGNED_INT16 | dtype::UNSIGNED_INT32
            ),
            Kind::Float => matches!(
                dt,
                dtype::SNORM_INT8
                    | dtype::SNORM_INT16
                    | dtype::UNORM_INT8
                    | dtype::UNORM_INT16
                    | dtype::HALF_FLOAT
                    | dtype::FLOAT
            ),
        }
    }
}

/// A color as the kernel sees it: four float lanes or four 32-bit integer lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Color {
    F([f32; 4]),
    I([u32; 4]),
}

/// Name of a channel data type, for messages.
pub fn dtype_name(dt: u32) -> &'static str {
    match dt {
        dtype::SNORM_INT8 => "CL_SNORM_INT8",
        dtype::SNORM_INT16 => "CL_SNORM_INT16",
        dtype::UNORM_INT8 => "CL_UNORM_INT8",
        dtype::UNORM_INT16 => "CL_UNORM_INT16",
        dtype::SIGNED_INT8 => "CL_SIGNED_INT8",
        dtype::SIGNED_INT16 => "CL_SIGNED_INT16",
        dtype::SIGNED_INT32 => "CL_SIGNED_INT32",
        dtype::UNSIGNED_INT8 => "CL_UNSIGNED_INT8",
        dtype::UNSIGNED_INT16 => "CL_UNSIGNED_INT16",
        dtype::UNSIGNED_INT32 => "CL_UNSIGNED_INT32",
        dtype::HALF_FLOAT => "CL_HALF_FLOAT",
        dtype::FLOAT => "CL_FLOAT",
        _ => "an unknown channel type",
    }
}

/// Decodes one stored pixel into the four logical channels, with the missing ones filled
/// as the spec's table of channel orders says (0 for color, 1 for alpha; intensity and
/// luminance replicated).
pub fn decode(desc: &ImageDesc, bytes: &[u8], kind: Kind) -> Color {
    let cs = channel_size(desc.dtype).unwrap_or(1);
    let n = channels(desc.order).unwrap_or(1);
    let raw = |i: usize| -> u32 {
        let mut v = 0u32;
        for k in 0..cs {
            v |= u32::from(bytes.get(i * cs + k).copied().unwrap_or(0)) << (8 * k);
        }
        v
    };
    let mut all = [0u32; 4];
    for (i, v) in all.iter_mut().enumerate().take(n) {
        *v = raw(i);
    }
    let stored = &all[..n.min(4)];
    let map = layout(desc.order);
    match kind {
        Kind::Float => {
            let conv = |v: u32| -> f32 {
                match desc.dtype {
                    dtype::UNORM_INT8 => v as f32 / 255.0,
                    dtype::UNORM_INT16 => v as f32 / 65535.0,
                    dtype::SNORM_INT8 => (v as u8 as i8 as f32 / 127.0).max(-1.0),
                    dtype::SNORM_INT16 => (v as u16 as i16 as f32 / 32767.0).max(-1.0),
                    dtype::HALF_FLOAT => crate::ops::f16_to_f64(v as u16) as f32,
                    _ => f32::from_bits(v),
                }
            };
            let mut out = [0.0, 0.0, 0.0, 1.0];
            match desc.order {
                order::INTENSITY => out = [conv(stored[0]); 4],
                order::LUMINANCE => {
                    let l = conv(stored[0]);
                    out = [l, l, l, 1.0];
                }
                _ => {
                    for (s, &c) in stored.iter().zip(map) {
                        out[c] = conv(*s);
                    }
                }
            }
            Color::F(out)
        }
        Kind::Int | Kind::UInt => {
            let conv = |v: u32| -> u32 {
                match desc.dtype {
                    dtype::SIGNED_INT8 => v as u8 as i8 as i32 as u32,
                    dtype::SIGNED_INT16 => v as u16 as i16 as i32 as u32,
                    _ => v,
                }
            };
            let mut out = [0, 0, 0, 1];
            match desc.order {
                order::INTENSITY => out = [conv(stored[0]); 4],
                order::LUMINANCE => {
                    let l = conv(stored[0]);
                    out = [l, l, l, 1];
                }
                _ => {
                    for (s, &c) in stored.iter().zip(map) {
                        out[c] = conv(*s);
                    }
                }
            }
            Color::I(out)
        }
    }
}

/// Round to nearest even, then saturate to `[lo, hi]`; NaN gives 0 (the spec's
/// `convert_*_sat_rte`).
fn sat_rte(x: f32, lo: f32, hi: f32) -> i64 {
    if x.is_nan() {
        return 0;
    }
    x.round_ties_even().clamp(lo, hi) as i64
}

/// Encodes a color into the stored bytes of one pixel (spec 8.3: `write_imagef` rounds to
/// nearest even and saturates normalized formats; `write_imagei/ui` saturate to the channel
/// type; half rounds to nearest even).
pub fn encode(desc: &ImageDesc, c: Color) -> Vec<u8> {
    let cs = channel_size(desc.dtype).unwrap_or(1);
    let map = layout(desc.order);
    let mut out = Vec::with_capacity(desc.pixel_size());
    let lanes: Vec<usize> = match desc.order {
        order::INTENSITY | order::LUMINANCE | order::DEPTH | order::R => vec![0],
        _ => map.to_vec(),
    };
    for &l in &lanes {
        let v: u32 = match c {
            Color::F(f) => {
                let x = f[l];
                match desc.dtype {
                    dtype::UNORM_INT8 => sat_rte(x * 255.0, 0.0, 255.0) as u32,
                    dtype::UNORM_INT16 => sat_rte(x * 65535.0, 0.0, 65535.0) as u32,
                    dtype::SNORM_INT8 => sat_rte(x * 127.0, -128.0, 127.0) as u32,
                    dtype::SNORM_INT16 => sat_rte(x * 32767.0, -32768.0, 32767.0) as u32,
                    dtype::HALF_FLOAT => u32::from(crate::ops::f64_to_f16(f64::from(x))),
                    _ => x.to_bits(),
                }
            }
            Color::I(i) => {
                let (s, u) = (i[l] as i32 as i64, i64::from(i[l]));
                match desc.dtype {
                    dtype::SIGNED_INT8 => s.clamp(-128, 127) as u32,
                    dtype::SIGNED_INT16 => s.clamp(-32768, 32767) as u32,
                    dtype::UNSIGNED_INT8 => u.min(255) as u32,
                    dtype::UNSIGNED_INT16 => u.min(65535) as u32,
                    _ => i[l],
                }
            }
        };
        out.extend_from_slice(&v.to_le_bytes()[..cs]);
    }
    out
}

/// The border color of `CLK_ADDRESS_CLAMP`: transparent black, with alpha 1 for orders
/// that have no alpha channel.
fn border(desc: &ImageDesc, kind: Kind) -> Color {
    let has_alpha = !matches!(
        desc.order,
        order::R | order::RG | order::RGB | order::LUMINANCE | order::DEPTH
    );
    match kind {
        Kind::Float => Color::F([0.0, 0.0, 0.0, if has_alpha { 0.0 } else { 1.0 }]),
        _ => Color::I([0, 0, 0, u32::from(!has_alpha)]),
    }
}

/// Coordinates as the kernel passed them.
#[derive(Clone, Copy, Debug)]
pub enum Coords {
    F([f32; 4]),
    I([i32; 4]),
}

/// Why a read or write cannot give a defined result (the device reports it as a fault).
#[derive(Clone, Debug, PartialEq)]
pub enum ImageFault<E> {
    /// A pixel outside the image, with addressing mode `CLK_ADDRESS_NONE` or a write: the
    /// stored coordinates and the extent.
    Outside { at: [i64; 3], extent: [u64; 3] },
    /// An undefined combination (wrong function for the format, a sampler the spec forbids
    /// here): the message.
    Undefined(String),
    /// The pixel fetch itself failed.
    Fetch(E),
}

/// The pixel at stored coordinates `p` (inside the image), through `fetch(offset, buf)`.
fn pixel<E>(
    desc: &ImageDesc,
    p: [i64; 3],
    kind: Kind,
    fetch: &mut impl FnMut(u64, &mut [u8]) -> Result<(), E>,
) -> Result<Color, ImageFault<E>> {
    let mut buf = [0u8; 16];
    let n = desc.pixel_size().min(16);
    let off = desc.offset([p[0] as u64, p[1] as u64, p[2] as u64]);
    fetch(off, &mut buf[..n]).map_err(ImageFault::Fetch)?;
    Ok(decode(desc, &buf[..n], kind))
}

/// A float coordinate as an integer: NaN is 0 and huge values saturate far outside any
/// image, so the arithmetic after it cannot overflow.
fn to_int(x: f32) -> i64 {
    (x as i64).clamp(-(1 << 40), 1 << 40)
}

fn inside(p: [i64; 3], ext: [u64; 3]) -> bool {
    p.iter().zip(ext).all(|(&c, e)| c >= 0 && (c as u64) < e)
}

/// `read_image{f,i,ui,h}`: `sampler` is `None` for the sampler-less forms (integer
/// coordinates, no filtering, and addressing is the caller's business: outside is undefined).
pub fn read<E>(
    desc: &ImageDesc,
    sampler: Option<u32>,
    coords: Coords,
    kind: Kind,
    fetch: &mut impl FnMut(u64, &mut [u8]) -> Result<(), E>,
) -> Result<Color, ImageFault<E>> {
    if !kind.accepts(desc.dtype) {
        return Err(ImageFault::Undefined(format!(
            "read_image{} on an image of channel type {}: the result is undefined \
             (read_imagef reads normalized, half and float formats, read_imagei \
             CL_SIGNED_INT*, read_imageui CL_UNSIGNED_INT*)",
            kind.suffix(),
            dtype_name(desc.dtype)
        )));
    }
    let ext = desc.extent();
    let dims = desc.spatial_dims();
    let bits = sampler.unwrap_or(sampler::CLAMP_TO_EDGE | sampler::FILTER_NEAREST);
    let addr = bits & sampler::ADDRESS_MASK;
    let normalized = bits & sampler::NORMALIZED != 0;
    let linear = bits & sampler::FILTER_LINEAR != 0;
    if matches!(addr, sampler::REPEAT | sampler::MIRRORED_REPEAT) && !normalized {
        return Err(ImageFault::Undefined(
            "a sampler with CLK_ADDRESS_REPEAT or CLK_ADDRESS_MIRRORED_REPEAT needs \
             CLK_NORMALIZED_COORDS_TRUE: the result is undefined"
                .into(),
        ));
    }
    if let Coords::I(_) = coords
        && sampler.is_some()
        && (normalized || linear)
    {
        return Err(ImageFault::Undefined(
            "integer coordinates need a sampler with CLK_NORMALIZED_COORDS_FALSE and \
             CLK_FILTER_NEAREST: the result is undefined"
                .into(),
        ));
    }
    if linear && kind != Kind::Float {
        return Err(ImageFault::Undefined(format!(
            "read_image{} with a CLK_FILTER_LINEAR sampler: the result is undefined",
            kind.suffix()
        )));
    }
    // The array layer: rint, clamped to the layers (spec 8.2 for array images).
    let mut base = [0i64; 3];
    if let Some(ax) = desc.layer_axis() {
        let layer = match coords {
            Coords::F(c) => to_int(c[dims].round_ties_even()),
            Coords::I(c) => i64::from(c[dims]),
        };
        base[ax] = layer.clamp(0, ext[ax] as i64 - 1);
    }
    let nsamp = match coords {
        Coords::I(c) => {
            let mut p = base;
            for k in 0..dims {
                p[k] = i64::from(c[k]);
            }
            return fetch_addressed(desc, p, dims, addr, sampler.is_none(), kind, fetch);
        }
        Coords::F(c) => c,
    };
    let mut lo = [0i64; 3];
    let mut hi = [0i64; 3];
    let mut frac = [0f32; 3];
    for k in 0..dims {
        let w = ext[k] as f32;
        let s = nsamp[k];
        match addr {
            sampler::REPEAT => {
                let u = (s - s.floor()) * w;
                if linear {
                    let i0 = (u - 0.5).floor();
                    frac[k] = (u - 0.5) - i0;
                    let mut i0 = to_int(i0);
                    let mut i1 = i0 + 1;
                    if i0 < 0 {
                        i0 += ext[k] as i64;
                    }
                    if i1 > ext[k] as i64 - 1 {
                        i1 -= ext[k] as i64;
                    }
                    (lo[k], hi[k]) = (i0, i1);
                } else {
                    let mut i = to_int(u.floor());
                    if i > ext[k] as i64 - 1 {
                        i -= ext[k] as i64;
                    }
                    lo[k] = i;
                }
            }
            sampler::MIRRORED_REPEAT => {
                let sp = 2.0 * (0.5 * s).round_ties_even();
                let sp = (s - sp).abs();
                let u = sp * w;
                if linear {
                    let i0 = (u - 0.5).floor();
                    frac[k] = (u - 0.5) - i0;
                    let i0 = to_int(i0);
                    (lo[k], hi[k]) = (i0.max(0), (i0 + 1).min(ext[k] as i64 - 1));
                } else {
                    lo[k] = to_int(u.floor()).min(ext[k] as i64 - 1);
                }
            }
            _ => {
                let u = if normalized { s * w } else { s };
                if linear {
                    let i0 = (u - 0.5).floor();
                    frac[k] = (u - 0.5) - i0;
                    let i0 = to_int(i0);
                    (lo[k], hi[k]) = (i0, i0 + 1);
                } else {
                    lo[k] = to_int(u.floor());
                }
            }
        }
    }
    // An infinite coordinate has no fraction (inf - inf): all weight on one neighbour.
    for f in &mut frac {
        if !f.is_finite() {
            *f = 0.0;
        }
    }
    let wrap = matches!(addr, sampler::REPEAT | sampler::MIRRORED_REPEAT);
    let mode = if wrap { sampler::CLAMP_TO_EDGE } else { addr };
    if !linear {
        let mut p = base;
        p[..dims].copy_from_slice(&lo[..dims]);
        return fetch_addressed(desc, p, dims, mode, false, kind, fetch);
    }
    // Linear: the weighted sum of the 2, 4 or 8 neighbours (spec 8.2's formulas).
    let mut acc = [0f32; 4];
    for corner in 0..(1usize << dims) {
        let mut p = base;
        let mut weight = 1.0f32;
        for k in 0..dims {
            let up = corner >> k & 1 == 1;
            p[k] = if up { hi[k] } else { lo[k] };
            weight *= if up { frac[k] } else { 1.0 - frac[k] };
        }
        if let Color::F(c) = fetch_addressed(desc, p, dims, mode, false, kind, fetch)? {
            for (a, v) in acc.iter_mut().zip(c) {
                *a += weight * v;
            }
        }
    }
    Ok(Color::F(acc))
}

/// The pixel at `p` after the addressing mode: clamped to the edge, the border color
/// outside for `CLK_ADDRESS_CLAMP`, a fault outside for `CLK_ADDRESS_NONE` (and for the
/// sampler-less reads, `no_sampler`).
fn fetch_addressed<E>(
    desc: &ImageDesc,
    mut p: [i64; 3],
    dims: usize,
    addr: u32,
    no_sampler: bool,
    kind: Kind,
    fetch: &mut impl FnMut(u64, &mut [u8]) -> Result<(), E>,
) -> Result<Color, ImageFault<E>> {
    let ext = desc.extent();
    if inside(p, ext) {
        return pixel(desc, p, kind, fetch);
    }
    match addr {
        sampler::CLAMP_TO_EDGE if !no_sampler => {
            for k in 0..dims {
                p[k] = p[k].clamp(0, ext[k] as i64 - 1);
            }
            pixel(desc, p, kind, fetch)
        }
        sampler::CLAMP if !no_sampler => Ok(border(desc, kind)),
        _ => Err(ImageFault::Outside { at: p, extent: ext }),
    }
}

/// `write_image{f,i,ui,h}` at integer coordinates: the stored bytes and their offset from
/// the image's `data`.
pub fn write<E>(
    desc: &ImageDesc,
    coords: [i32; 4],
    color: Color,
    kind: Kind,
) -> Result<(u64, Vec<u8>), ImageFault<E>> {
    if !kind.accepts(desc.dtype) {
        return Err(ImageFault::Undefined(format!(
            "write_image{} on an image of channel type {}: the result is undefined \
             (write_imagef writes normalized, half and float formats, write_imagei \
             CL_SIGNED_INT*, write_imageui CL_UNSIGNED_INT*)",
            kind.suffix(),
            dtype_name(desc.dtype)
        )));
    }
    let dims = desc.spatial_dims();
    let mut p = [0i64; 3];
    for k in 0..dims {
        p[k] = i64::from(coords[k]);
    }
    if let Some(ax) = desc.layer_axis() {
        p[ax] = i64::from(coords[dims]);
    }
    let ext = desc.extent();
    if !inside(p, ext) {
        return Err(ImageFault::Outside { at: p, extent: ext });
    }
    Ok((
        desc.offset([p[0] as u64, p[1] as u64, p[2] as u64]),
        encode(desc, color),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn img(order: u32, dt: u32, w: u64, h: u64) -> ImageDesc {
        ImageDesc::packed(object::IMAGE2D, order, dt, w, h, 1, 1).expect("format")
    }

    fn read_from(
        d: &ImageDesc,
        data: &[u8],
        s: Option<u32>,
        c: Coords,
        k: Kind,
    ) -> Result<Color, ImageFault<()>> {
        read(d, s, c, k, &mut |off, buf: &mut [u8]| {
            let o = off as usize;
            buf.copy_from_slice(data.get(o..o + buf.len()).ok_or(())?);
            Ok(())
        })
    }

    #[test]
    fn unorm8_converts_and_rounds_to_nearest_even() {
        let d = img(order::RGBA, dtype::UNORM_INT8, 1, 1);
        assert_eq!(
            encode(&d, Color::F([0.5, 1.5, -0.2, 2.0 / 255.0])),
            vec![128, 255, 0, 2]
        );
        assert_eq!(
            decode(&d, &[255, 0, 51, 128], Kind::Float),
            Color::F([1.0, 0.0, 0.2, 128.0 / 255.0])
        );
    }

    #[test]
    fn bgra_and_missing_channels() {
        let d = img(order::BGRA, dtype::UNSIGNED_INT8, 1, 1);
        assert_eq!(
            decode(&d, &[1, 2, 3, 4], Kind::UInt),
            Color::I([3, 2, 1, 4])
        );
        let r = img(order::R, dtype::SIGNED_INT16, 1, 1);
        assert_eq!(
            decode(&r, &[0xff, 0xff], Kind::Int),
            Color::I([u32::MAX, 0, 0, 1])
        );
    }

    #[test]
    fn linear_filter_averages_neighbours() {
        // 2x1 float image [0, 1]: at u = 1.0 (between the centres) the average is 0.5.
        let d = img(order::R, dtype::FLOAT, 2, 1);
        let data: Vec<u8> = [0f32, 1.0].iter().flat_map(|f| f.to_le_bytes()).collect();
        let s = sampler::CLAMP_TO_EDGE | sampler::FILTER_LINEAR;
        let c = read_from(
            &d,
            &data,
            Some(s),
            Coords::F([1.0, 0.5, 0.0, 0.0]),
            Kind::Float,
        );
        assert_eq!(c, Ok(Color::F([0.5, 0.0, 0.0, 1.0])));
    }

    #[test]
    fn clamp_gives_the_border_and_none_reports() {
        let d = img(order::RGBA, dtype::FLOAT, 1, 1);
        let data = [0u8; 16];
        let s = sampler::CLAMP | sampler::FILTER_NEAREST;
        let c = read_from(
            &d,
            &data,
            Some(s),
            Coords::F([-1.0, 0.0, 0.0, 0.0]),
            Kind::Float,
        );
        assert_eq!(c, Ok(Color::F([0.0; 4])));
        let c = read_from(
            &d,
            &data,
            Some(sampler::FILTER_NEAREST),
            Coords::I([3, 0, 0, 0]),
            Kind::Float,
        );
        assert!(matches!(c, Err(ImageFault::Outside { at: [3, 0, 0], .. })));
        // An infinite coordinate is far outside (the border) in both filters; NaN is 0.
        for f in [sampler::FILTER_NEAREST, sampler::FILTER_LINEAR] {
            let s = Some(sampler::CLAMP | f);
            let c = read_from(
                &d,
                &data,
                s,
                Coords::F([f32::INFINITY, 0.5, 0.0, 0.0]),
                Kind::Float,
            );
            assert_eq!(c, Ok(Color::F([0.0; 4])));
        }
        let s = Some(sampler::CLAMP | sampler::FILTER_NEAREST);
        let c = read_from(
            &d,
            &data,
            s,
            Coords::F([f32::NAN, 0.5, 0.0, 0.0]),
            Kind::Float,
        );
        assert_eq!(c, Ok(Color::F([0.0; 4])));
    }
}
