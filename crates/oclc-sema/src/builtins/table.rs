//! The builtin declarations, as a compact text table modelled on clang's
//! `lib/Sema/OpenCLBuiltins.td`, plus the builtins clang declares in `Builtins.td` (custom
//! type-checked) and `opencl-c-base.h` (`printf`, `as_T`).
//!
//! Format (indexed at compile time by `build.rs`, which includes this file; parsed lazily by
//! `parse.rs`):
//! - `gen NAME = T1 T2 ... : W1 W2 ...` defines a gentype: the cartesian product of vector
//!   widths × element types, widths outer (clang's order). `NAME@W` uses the same element list
//!   with the single width `W`.
//! - `@ key=value ... [| key=value ...]` starts a section; every declaration after it is
//!   expanded once per `|` alternative. Keys: `since=2.0` (inclusive), `until=2.0` (exclusive),
//!   `ext=a+b` (macros that must all be defined), `as=global,local` (values of the `AS`
//!   placeholder), `acc=RO,WO` (values of the `ACC` image placeholder), `attr=const|pure|conv`.
//! - `name1 name2 = RET(P1, P2, ...)` declares one signature per name. Types are
//!   `[AS|global|...] [ACC|RO|WO|RW] [const] [volatile] BASE [*]`; `...` makes it variadic.
//!   `name = special(KIND)` declares a builtin sema checks by hand. A lone parameter may end
//!   with `$name`, the name the header gives it (clang's arity errors quote it).
//!
//! Gentypes in one signature combine as in clang: after dropping element types whose extension
//! is off, overload `i` takes entry `i % len` of every gentype.

/// Element type lists shared by the generated gentypes and conversions (clang's order).
pub(crate) const ALL_TYPES: [&str; 11] = [
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half",
];

/// The hand-written part of the table.
pub(crate) const TABLE: &str = r#"
# ---- gentypes (clang's OpenCLBuiltins.td names in comments) ----
gen AGen1 = char uchar short ushort int uint long ulong float double half : 1
gen AGenN = char uchar short ushort int uint long ulong float double half : 1 2 3 4 8 16
gen AGenNS = char uchar short ushort int uint long ulong float double half : 2 3 4 8 16
gen AIGen1 = char uchar short ushort int uint long ulong : 1
gen AIGenN = char uchar short ushort int uint long ulong : 1 2 3 4 8 16
gen AIGenNS = char uchar short ushort int uint long ulong : 2 3 4 8 16
gen AI2UGenN = uchar uchar ushort ushort uint uint ulong ulong : 1 2 3 4 8 16
gen SGenN = char short int long : 1 2 3 4 8 16
gen UGenN = uchar ushort uint ulong : 1 2 3 4 8 16
gen FGenN = float double half : 1 2 3 4 8 16
gen ILFGen1 = int uint long ulong float double half : 1
gen CSGen1 = char uchar short ushort : 1
gen ConvSrc = float double half char uchar short ushort int uint long ulong : 1
gen Coord = int float : 1
gen ShufT = char uchar short ushort int uint long ulong float double half : 1
gen ShufM = uchar uchar ushort ushort uint uint ulong ulong uint ulong ushort : 1
gen Short5 = short : 1 2 3 4 8
gen UShort5 = ushort : 1 2 3 4 8

# ---- 6.15.1 work-item functions ----
@ attr=const
get_work_dim = uint()
get_global_size get_global_id get_local_size get_local_id get_num_groups get_group_id get_global_offset = size_t(uint)
@ since=2.0
get_enqueued_local_size = size_t(uint)
get_global_linear_id get_local_linear_id = size_t()

# ---- 6.15.2 math functions ----
@ attr=const
acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt ceil cos cosh cospi erfc erf exp exp2 exp10 expm1 fabs floor log log2 log10 log1p logb rint round rsqrt sin sinh sinpi sqrt tan tanh tanpi tgamma trunc lgamma = FGenN(FGenN)
nan = floatN(uintN)
nan = doubleN(ulongN)
nan = halfN(ushortN)
atan2 atan2pi copysign fdim fmod hypot maxmag minmag nextafter pow powr remainder = FGenN(FGenN, FGenN)
fmax fmin = FGenN(FGenN, FGenN)
fmax fmin = floatNS(floatNS, float)
fmax fmin = doubleNS(doubleNS, double)
fmax fmin = halfNS(halfNS, half)
ilogb = intN(floatN)
ilogb = intN(doubleN)
ilogb = intN(halfN)
ldexp = floatN(floatN, intN)
ldexp = floatNS(floatNS, int)
ldexp = doubleN(doubleN, intN)
ldexp = doubleNS(doubleNS, int)
ldexp = halfN(halfN, intN)
ldexp = halfNS(halfNS, int)
pown rootn = floatN(floatN, intN)
pown rootn = doubleN(doubleN, intN)
pown rootn = halfN(halfN, intN)
fma mad = FGenN(FGenN, FGenN, FGenN)

# Math with pointer arguments: named-space overloads without the generic address space,
# generic ones with it (clang's __opencl_c_named_address_space_builtins).
@ ext=__opencl_c_named_address_space_builtins as=global,local,private | ext=__opencl_c_generic_address_space as=generic
fract modf sincos = FGenN(FGenN, AS FGenN *)
frexp lgamma_r = floatN(floatN, AS intN *)
frexp lgamma_r = doubleN(doubleN, AS intN *)
frexp lgamma_r = halfN(halfN, AS intN *)
remquo = floatN(floatN, floatN, AS intN *)
remquo = doubleN(doubleN, doubleN, AS intN *)
remquo = halfN(halfN, halfN, AS intN *)

@ attr=const
half_cos half_exp half_exp2 half_exp10 half_log half_log2 half_log10 half_recip half_rsqrt half_sin half_sqrt half_tan native_cos native_exp native_exp2 native_exp10 native_log native_log2 native_log10 native_recip native_rsqrt native_sin native_sqrt native_tan = floatN(floatN)
half_divide half_powr native_divide native_powr = floatN(floatN, floatN)

# ---- 6.15.3 integer functions ----
@ attr=const
abs = AI2UGenN(AIGenN)
clz = AIGenN(AIGenN)
@ attr=const since=1.2
popcount = AIGenN(AIGenN)
@ attr=const since=2.0
ctz = AIGenN(AIGenN)
@ attr=const
abs_diff = AI2UGenN(AIGenN, AIGenN)
add_sat hadd rhadd mul_hi rotate sub_sat = AIGenN(AIGenN, AIGenN)
max min = AIGenN(AIGenN, AIGenN)
max min = AIGenNS(AIGenNS, AIGen1)
upsample = shortN(charN, ucharN)
upsample = ushortN(ucharN, ucharN)
upsample = intN(shortN, ushortN)
upsample = uintN(ushortN, ushortN)
upsample = longN(intN, uintN)
upsample = ulongN(uintN, uintN)
clamp = AIGenN(AIGenN, AIGenN, AIGenN)
clamp = AIGenNS(AIGenNS, AIGen1, AIGen1)
mad_hi mad_sat = AIGenN(AIGenN, AIGenN, AIGenN)
mad24 = intN(intN, intN, intN)
mad24 = uintN(uintN, uintN, uintN)
mul24 = intN(intN, intN)
mul24 = uintN(uintN, uintN)

# ---- 6.15.4 common functions ----
degrees radians sign = FGenN(FGenN)
max min = FGenN(FGenN, FGenN)
max min = floatNS(floatNS, float)
max min = doubleNS(doubleNS, double)
max min = halfNS(halfNS, half)
step = FGenN(FGenN, FGenN)
step = floatNS(float, floatNS)
step = doubleNS(double, doubleNS)
step = halfNS(half, halfNS)
clamp = FGenN(FGenN, FGenN, FGenN)
clamp = floatNS(floatNS, float, float)
clamp = doubleNS(doubleNS, double, double)
clamp = halfNS(halfNS, half, half)
mix = FGenN(FGenN, FGenN, FGenN)
mix = floatNS(floatNS, floatNS, float)
mix = doubleNS(doubleNS, doubleNS, double)
mix = halfNS(halfNS, halfNS, half)
smoothstep = FGenN(FGenN, FGenN, FGenN)
smoothstep = floatNS(float, float, floatNS)
smoothstep = doubleNS(double, double, doubleNS)
smoothstep = halfNS(half, half, halfNS)

# ---- 6.15.5 geometric functions ----
length = float(float1234)
length = double(double1234)
length = half(half1234)
normalize = float1234(float1234)
normalize = double1234(double1234)
normalize = half1234(half1234)
fast_length = float(float1234)
fast_normalize = float1234(float1234)
cross = float3(float3, float3)
cross = double3(double3, double3)
cross = half3(half3, half3)
cross = float4(float4, float4)
cross = double4(double4, double4)
cross = half4(half4, half4)
dot distance = float(float1234, float1234)
dot distance = double(double1234, double1234)
dot distance = half(half1234, half1234)
fast_distance = float(float1234, float1234)

# ---- 6.15.6 relational functions ----
isfinite isinf isnan isnormal signbit = intN(floatN)
isfinite isinf isnan isnormal signbit = int(double)
isfinite isinf isnan isnormal signbit = longNS(doubleNS)
isfinite isinf isnan isnormal signbit = int(half)
isfinite isinf isnan isnormal signbit = shortNS(halfNS)
any all = int(SGenN)
isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater isordered isunordered = intN(floatN, floatN)
isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater isordered isunordered = int(double, double)
isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater isordered isunordered = longNS(doubleNS, doubleNS)
isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater isordered isunordered = int(half, half)
isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater isordered isunordered = shortNS(halfNS, halfNS)
bitselect = AGenN(AGenN, AGenN, AGenN)
select = SGenN(SGenN, SGenN, SGenN)
select = SGenN(SGenN, SGenN, UGenN)
select = UGenN(UGenN, UGenN, UGenN)
select = UGenN(UGenN, UGenN, SGenN)
select = floatN(floatN, floatN, intN)
select = floatN(floatN, floatN, uintN)
select = doubleN(doubleN, doubleN, longN)
select = doubleN(doubleN, doubleN, ulongN)
select = halfN(halfN, halfN, shortN)
select = halfN(halfN, halfN, ushortN)

# ---- 6.15.7 vector data load and store (vloadN/vstoreN are generated) ----
@ attr=pure ext=__opencl_c_named_address_space_builtins as=global,local,private | attr=pure ext=__opencl_c_generic_address_space as=generic | attr=pure as=constant
# (no scalar vloada_half/vstorea_half: opencl-c.h declares the aligned forms for n = 2..16 only)
vload_half = float(size_t, AS const half *)
vload_half2 vloada_half2 = float2(size_t, AS const half *)
vload_half3 vloada_half3 = float3(size_t, AS const half *)
vload_half4 vloada_half4 = float4(size_t, AS const half *)
vload_half8 vloada_half8 = float8(size_t, AS const half *)
vload_half16 vloada_half16 = float16(size_t, AS const half *)

# ---- 6.15.8 synchronization, 6.15.9 legacy fences ----
@ attr=conv
barrier = void(cl_mem_fence_flags)
@ attr=conv since=2.0
work_group_barrier = void(cl_mem_fence_flags)
work_group_barrier = void(cl_mem_fence_flags, memory_scope)
@
mem_fence read_mem_fence write_mem_fence = void(cl_mem_fence_flags)

# ---- 6.15.10 address space qualifier functions ----
@ ext=__opencl_c_generic_address_space
get_fence = cl_mem_fence_flags(generic void *)
get_fence = cl_mem_fence_flags(generic const void *)
@ lang ext=__opencl_c_generic_address_space
to_global = special(to_global)
to_local = special(to_local)
to_private = special(to_private)

# ---- 6.15.11 async copies and prefetch ----
@
async_work_group_copy = event_t(local AGenN *, global const AGenN *, size_t, event_t)
async_work_group_copy = event_t(global AGenN *, local const AGenN *, size_t, event_t)
async_work_group_strided_copy = event_t(local AGenN *, global const AGenN *, size_t, size_t, event_t)
async_work_group_strided_copy = event_t(global AGenN *, local const AGenN *, size_t, size_t, event_t)
wait_group_events = void(int, generic event_t *)
prefetch = void(global const AGenN *, size_t)

# ---- 6.15.12 atomics: cl_khr_*_int32_* atom_* ----
@ ext=cl_khr_global_int32_base_atomics
atom_add atom_sub atom_xchg = int(global volatile int *, int)
atom_inc atom_dec = int(global volatile int *)
atom_cmpxchg = int(global volatile int *, int, int)
atom_add atom_sub atom_xchg = uint(global volatile uint *, uint)
atom_inc atom_dec = uint(global volatile uint *)
atom_cmpxchg = uint(global volatile uint *, uint, uint)
@ ext=cl_khr_local_int32_base_atomics
atom_add atom_sub atom_xchg = int(local volatile int *, int)
atom_inc atom_dec = int(local volatile int *)
atom_cmpxchg = int(local volatile int *, int, int)
atom_add atom_sub atom_xchg = uint(local volatile uint *, uint)
atom_inc atom_dec = uint(local volatile uint *)
atom_cmpxchg = uint(local volatile uint *, uint, uint)
@ ext=cl_khr_int64_base_atomics as=global,local
atom_add atom_sub atom_xchg = long(AS volatile long *, long)
atom_inc atom_dec = long(AS volatile long *)
atom_cmpxchg = long(AS volatile long *, long, long)
atom_add atom_sub atom_xchg = ulong(AS volatile ulong *, ulong)
atom_inc atom_dec = ulong(AS volatile ulong *)
atom_cmpxchg = ulong(AS volatile ulong *, ulong, ulong)
@ ext=cl_khr_global_int32_extended_atomics
atom_min atom_max atom_and atom_or atom_xor = int(global volatile int *, int)
atom_min atom_max atom_and atom_or atom_xor = uint(global volatile uint *, uint)
@ ext=cl_khr_local_int32_extended_atomics
atom_min atom_max atom_and atom_or atom_xor = int(local volatile int *, int)
atom_min atom_max atom_and atom_or atom_xor = uint(local volatile uint *, uint)
@ ext=cl_khr_int64_extended_atomics as=global,local
atom_min atom_max atom_and atom_or atom_xor = long(AS volatile long *, long)
atom_min atom_max atom_and atom_or atom_xor = ulong(AS volatile ulong *, ulong)

# ---- OpenCL 1.1 atomic_* ----
@ as=global,local
atomic_xchg = float(AS volatile float *, float)
atomic_add atomic_sub atomic_xchg atomic_min atomic_max atomic_and atomic_or atomic_xor = int(AS volatile int *, int)
atomic_inc atomic_dec = int(AS volatile int *)
atomic_cmpxchg = int(AS volatile int *, int, int)
atomic_add atomic_sub atomic_xchg atomic_min atomic_max atomic_and atomic_or atomic_xor = uint(AS volatile uint *, uint)
atomic_inc atomic_dec = uint(AS volatile uint *)
atomic_cmpxchg = uint(AS volatile uint *, uint, uint)

@ since=2.0
atomic_work_item_fence = void(cl_mem_fence_flags, memory_order, memory_scope)

# ---- 6.15.14 image functions ----
@ attr=pure
read_imagef = float4(RO image1d_t, sampler_t, Coord)
read_imagei = int4(RO image1d_t, sampler_t, Coord)
read_imageui = uint4(RO image1d_t, sampler_t, Coord)
read_imagef = float4(RO image2d_t, sampler_t, Coord@2)
read_imagei = int4(RO image2d_t, sampler_t, Coord@2)
read_imageui = uint4(RO image2d_t, sampler_t, Coord@2)
read_imagef = float4(RO image1d_array_t, sampler_t, Coord@2)
read_imagei = int4(RO image1d_array_t, sampler_t, Coord@2)
read_imageui = uint4(RO image1d_array_t, sampler_t, Coord@2)
read_imagef = float4(RO image3d_t, sampler_t, Coord@4)
read_imagei = int4(RO image3d_t, sampler_t, Coord@4)
read_imageui = uint4(RO image3d_t, sampler_t, Coord@4)
read_imagef = float4(RO image2d_array_t, sampler_t, Coord@4)
read_imagei = int4(RO image2d_array_t, sampler_t, Coord@4)
read_imageui = uint4(RO image2d_array_t, sampler_t, Coord@4)
read_imagef = float(RO image2d_depth_t, sampler_t, Coord@2)
read_imagef = float(RO image2d_array_depth_t, sampler_t, Coord@4)
@ attr=pure since=1.2 acc=RO | attr=pure since=1.2 acc=RW ext=__opencl_c_read_write_images
read_imagef = float4(ACC image2d_t, int2)
read_imagei = int4(ACC image2d_t, int2)
read_imageui = uint4(ACC image2d_t, int2)
read_imagef = float4(ACC image1d_array_t, int2)
read_imagei = int4(ACC image1d_array_t, int2)
read_imageui = uint4(ACC image1d_array_t, int2)
read_imagef = float4(ACC image3d_t, int4)
read_imagei = int4(ACC image3d_t, int4)
read_imageui = uint4(ACC image3d_t, int4)
read_imagef = float4(ACC image2d_array_t, int4)
read_imagei = int4(ACC image2d_array_t, int4)
read_imageui = uint4(ACC image2d_array_t, int4)
read_imagef = float4(ACC image1d_t, int)
read_imagei = int4(ACC image1d_t, int)
read_imageui = uint4(ACC image1d_t, int)
read_imagef = float4(ACC image1d_buffer_t, int)
read_imagei = int4(ACC image1d_buffer_t, int)
read_imageui = uint4(ACC image1d_buffer_t, int)
read_imagef = float(ACC image2d_depth_t, int2)
read_imagef = float(ACC image2d_array_depth_t, int4)
@ acc=WO | acc=RW ext=__opencl_c_read_write_images
write_imagef = void(ACC image2d_t, int2, float4)
write_imagei = void(ACC image2d_t, int2, int4)
write_imageui = void(ACC image2d_t, int2, uint4)
write_imagef = void(ACC image2d_array_t, int4, float4)
write_imagei = void(ACC image2d_array_t, int4, int4)
write_imageui = void(ACC image2d_array_t, int4, uint4)
write_imagef = void(ACC image1d_t, int, float4)
write_imagei = void(ACC image1d_t, int, int4)
write_imageui = void(ACC image1d_t, int, uint4)
write_imagef = void(ACC image1d_buffer_t, int, float4)
write_imagei = void(ACC image1d_buffer_t, int, int4)
write_imageui = void(ACC image1d_buffer_t, int, uint4)
write_imagef = void(ACC image1d_array_t, int2, float4)
write_imagei = void(ACC image1d_array_t, int2, int4)
write_imageui = void(ACC image1d_array_t, int2, uint4)
write_imagef = void(ACC image3d_t, int4, float4)
write_imagei = void(ACC image3d_t, int4, int4)
write_imageui = void(ACC image3d_t, int4, uint4)
write_imagef = void(ACC image2d_depth_t, int2, float)
write_imagef = void(ACC image2d_array_depth_t, int4, float)
@ attr=const acc=RO | attr=const acc=WO | attr=const acc=RW ext=__opencl_c_read_write_images
get_image_width get_image_channel_data_type get_image_channel_order = int(ACC image1d_t)
get_image_width get_image_channel_data_type get_image_channel_order = int(ACC image1d_buffer_t)
get_image_width get_image_channel_data_type get_image_channel_order = int(ACC image2d_t)
get_image_width get_image_channel_data_type get_image_channel_order = int(ACC image3d_t)
get_image_width get_image_channel_data_type get_image_channel_order = int(ACC image1d_array_t)
get_image_width get_image_channel_data_type get_image_channel_order = int(ACC image2d_array_t)
get_image_width get_image_channel_data_type get_image_channel_order = int(ACC image2d_depth_t)
get_image_width get_image_channel_data_type get_image_channel_order = int(ACC image2d_array_depth_t)
get_image_height = int(ACC image2d_t)
get_image_height = int(ACC image3d_t)
get_image_height = int(ACC image2d_array_t)
get_image_height = int(ACC image2d_depth_t)
get_image_height = int(ACC image2d_array_depth_t)
get_image_depth = int(ACC image3d_t)
get_image_dim = int2(ACC image2d_t)
get_image_dim = int2(ACC image2d_array_t)
get_image_dim = int2(ACC image2d_depth_t)
get_image_dim = int2(ACC image2d_array_depth_t)
get_image_dim = int4(ACC image3d_t)
get_image_array_size = size_t(ACC image1d_array_t)
get_image_array_size = size_t(ACC image2d_array_t)
get_image_array_size = size_t(ACC image2d_array_depth_t)
@ attr=pure
read_imageh = half4(RO image2d_t, sampler_t, Coord@2)
read_imageh = half4(RO image1d_array_t, sampler_t, Coord@2)
read_imageh = half4(RO image3d_t, sampler_t, Coord@4)
read_imageh = half4(RO image2d_array_t, sampler_t, Coord@4)
read_imageh = half4(RO image1d_t, sampler_t, Coord)
@ attr=pure since=1.2 acc=RO | attr=pure since=1.2 acc=RW ext=__opencl_c_read_write_images
read_imageh = half4(ACC image2d_t, int2)
read_imageh = half4(ACC image1d_array_t, int2)
read_imageh = half4(ACC image3d_t, int4)
read_imageh = half4(ACC image2d_array_t, int4)
read_imageh = half4(ACC image1d_t, int)
read_imageh = half4(ACC image1d_buffer_t, int)
@ acc=WO | acc=RW ext=__opencl_c_read_write_images
write_imageh = void(ACC image2d_t, int2, half4)
write_imageh = void(ACC image2d_array_t, int4, half4)
write_imageh = void(ACC image1d_t, int, half4)
write_imageh = void(ACC image1d_buffer_t, int, half4)
write_imageh = void(ACC image1d_array_t, int2, half4)
write_imageh = void(ACC image3d_t, int4, half4)

# ---- 6.15.15 work-group collectives ----
@ attr=conv ext=__opencl_c_work_group_collective_functions
work_group_all work_group_any = int(int)
work_group_broadcast = ILFGen1(ILFGen1, size_t)
work_group_broadcast = ILFGen1(ILFGen1, size_t, size_t)
work_group_broadcast = ILFGen1(ILFGen1, size_t, size_t, size_t)
work_group_reduce_add work_group_scan_exclusive_add work_group_scan_inclusive_add = ILFGen1(ILFGen1)
work_group_reduce_min work_group_scan_exclusive_min work_group_scan_inclusive_min = ILFGen1(ILFGen1)
work_group_reduce_max work_group_scan_exclusive_max work_group_scan_inclusive_max = ILFGen1(ILFGen1)

# ---- 6.15.16 pipes (custom type checking, Builtins.td) ----
@ lang ext=__opencl_c_pipes
read_pipe = special(read_pipe)
write_pipe = special(write_pipe)
reserve_read_pipe reserve_write_pipe work_group_reserve_read_pipe work_group_reserve_write_pipe sub_group_reserve_read_pipe sub_group_reserve_write_pipe = special(reserve_pipe)
commit_read_pipe commit_write_pipe work_group_commit_read_pipe work_group_commit_write_pipe sub_group_commit_read_pipe sub_group_commit_write_pipe = special(commit_pipe)
get_pipe_num_packets get_pipe_max_packets = special(pipe_query)
@ ext=__opencl_c_pipes
is_valid_reserve_id = bool(reserve_id_t)

# ---- 6.15.17 enqueuing kernels ----
@ lang ext=__opencl_c_device_enqueue
enqueue_kernel = special(enqueue_kernel)
get_kernel_work_group_size get_kernel_preferred_work_group_size_multiple = special(kernel_query)
get_kernel_max_sub_group_size_for_ndrange get_kernel_sub_group_count_for_ndrange = special(kernel_ndrange_query)
@ ext=__opencl_c_device_enqueue
enqueue_marker = int(queue_t, uint, generic const clk_event_t *, generic clk_event_t *)
retain_event release_event = void(clk_event_t)
create_user_event = clk_event_t()
is_valid_event = bool(clk_event_t)
set_user_event_status = void(clk_event_t, int)
capture_event_profiling_info = void(clk_event_t, clk_profiling_info, global void *)
get_default_queue = queue_t()
ndrange_1D = ndrange_t(size_t)
ndrange_1D = ndrange_t(size_t, size_t)
ndrange_1D = ndrange_t(size_t, size_t, size_t)
ndrange_2D ndrange_3D = ndrange_t(private const size_t *)
ndrange_2D ndrange_3D = ndrange_t(private const size_t *, private const size_t *)
ndrange_2D ndrange_3D = ndrange_t(private const size_t *, private const size_t *, private const size_t *)

# ---- GNU builtins (clang's Builtins.td): every mode, C prototypes, checked by hand ----
@ lang
__builtin_expect __builtin_expect_with_probability __builtin_inff __builtin_inf __builtin_huge_valf __builtin_huge_val __builtin_nanf __builtin_nan = special(gnu)
__builtin_popcount __builtin_popcountl __builtin_popcountll __builtin_clz __builtin_clzl __builtin_clzll __builtin_ctz __builtin_ctzl __builtin_ctzll = special(gnu)
__builtin_bswap16 __builtin_bswap32 __builtin_bswap64 = special(gnu)
__builtin_rotateleft8 __builtin_rotateleft16 __builtin_rotateleft32 __builtin_rotateleft64 = special(gnu)
__builtin_rotateright8 __builtin_rotateright16 __builtin_rotateright32 __builtin_rotateright64 = special(gnu)
__builtin_constant_p __builtin_isnan __builtin_isinf __builtin_isfinite __builtin_fabsf __builtin_fabs __builtin_sqrtf __builtin_sqrt __builtin_abs = special(gnu)
__builtin_unreachable __builtin_trap __builtin_assume __builtin_assume_aligned = special(gnu)
__builtin_prefetch __builtin_isnormal __builtin_signbit __builtin_labs __builtin_ffs __builtin_parity __builtin_clrsb = special(gnu)
__builtin_floorf __builtin_floor __builtin_ceilf __builtin_ceil __builtin_truncf __builtin_trunc __builtin_roundf __builtin_round = special(gnu)
__builtin_expf __builtin_exp __builtin_logf __builtin_log __builtin_exp2f __builtin_exp2 __builtin_log2f __builtin_log2 = special(gnu)
__builtin_sinf __builtin_sin __builtin_cosf __builtin_cos __builtin_powf __builtin_pow = special(gnu)
__builtin_fminf __builtin_fmin __builtin_fmaxf __builtin_fmax __builtin_copysignf __builtin_copysign __builtin_fmaf __builtin_fma = special(gnu)
__builtin_clzs __builtin_ctzs __builtin_ilogbf __builtin_ilogb __builtin_ldexpf __builtin_ldexp __builtin_powif __builtin_powi = special(gnu)
__builtin_sqrtf16 __builtin_fabsf16 __builtin_ceilf16 __builtin_floorf16 __builtin_truncf16 __builtin_rintf16 __builtin_roundf16 = special(gnu)
__builtin_sinf16 __builtin_cosf16 __builtin_tanf16 __builtin_asinf16 __builtin_acosf16 __builtin_atanf16 __builtin_sinhf16 __builtin_coshf16 __builtin_tanhf16 = special(gnu)
__builtin_expf16 __builtin_exp2f16 __builtin_exp10f16 __builtin_logf16 __builtin_log2f16 __builtin_log10f16 = special(gnu)
__builtin_copysignf16 __builtin_fmaxf16 __builtin_fminf16 __builtin_powf16 __builtin_fmodf16 __builtin_fmaf16 __builtin_ldexpf16 = special(gnu)
__builtin_rintf __builtin_rint __builtin_nearbyintf __builtin_nearbyint __builtin_tanf __builtin_tan __builtin_asinf __builtin_asin __builtin_acosf __builtin_acos = special(gnu)
__builtin_atanf __builtin_atan __builtin_sinhf __builtin_sinh __builtin_coshf __builtin_cosh __builtin_tanhf __builtin_tanh = special(gnu)
__builtin_exp10f __builtin_exp10 __builtin_log10f __builtin_log10 __builtin_fmodf __builtin_fmod = special(gnu)
__builtin_frexpf __builtin_frexp __builtin_frexpf16 __builtin_modff __builtin_modf __builtin_readcyclecounter __builtin_printf = special(gnu)
# The keyword `__builtin_bit_cast(T, x)` reaches lowering as a call of this name.
__builtin_bit_cast = special(gnu)
# The GNU, C11 and OpenCL atomics (type-generic, checked by `check/gnu_atomic.rs`) and fences.
__atomic_load_n __atomic_load __atomic_store_n __atomic_store __atomic_exchange_n __atomic_exchange = special(gnu)
__atomic_compare_exchange_n __atomic_compare_exchange __atomic_thread_fence __atomic_signal_fence = special(gnu)
__atomic_fetch_add __atomic_fetch_sub __atomic_fetch_and __atomic_fetch_or __atomic_fetch_xor __atomic_fetch_nand = special(gnu)
__atomic_fetch_min __atomic_fetch_max __atomic_add_fetch __atomic_sub_fetch __atomic_and_fetch __atomic_or_fetch = special(gnu)
__atomic_xor_fetch __atomic_nand_fetch __atomic_min_fetch __atomic_max_fetch = special(gnu)
__atomic_test_and_set __atomic_clear __atomic_always_lock_free __atomic_is_lock_free = special(gnu)
__c11_atomic_init __c11_atomic_load __c11_atomic_store __c11_atomic_exchange __c11_atomic_compare_exchange_strong = special(gnu)
__c11_atomic_compare_exchange_weak __c11_atomic_fetch_add __c11_atomic_fetch_sub __c11_atomic_fetch_and __c11_atomic_fetch_or = special(gnu)
__c11_atomic_fetch_xor __c11_atomic_fetch_nand __c11_atomic_fetch_min __c11_atomic_fetch_max = special(gnu)
__c11_atomic_thread_fence __c11_atomic_signal_fence __c11_atomic_is_lock_free = special(gnu)
__opencl_atomic_init __opencl_atomic_load __opencl_atomic_store __opencl_atomic_exchange = special(gnu)
__opencl_atomic_compare_exchange_strong __opencl_atomic_compare_exchange_weak __opencl_atomic_fetch_add = special(gnu)
__opencl_atomic_fetch_sub __opencl_atomic_fetch_and __opencl_atomic_fetch_or __opencl_atomic_fetch_xor = special(gnu)
__opencl_atomic_fetch_min __opencl_atomic_fetch_max = special(gnu)
# GCC's legacy `__sync_*` atomics (`check/sync_atomic.rs`, prototypes in `gnu_builtin.rs`).
__sync_fetch_and_add __sync_fetch_and_sub __sync_fetch_and_or __sync_fetch_and_and __sync_fetch_and_xor __sync_fetch_and_nand = special(gnu)
__sync_add_and_fetch __sync_sub_and_fetch __sync_or_and_fetch __sync_and_and_fetch __sync_xor_and_fetch __sync_nand_and_fetch = special(gnu)
__sync_val_compare_and_swap __sync_bool_compare_and_swap __sync_lock_test_and_set __sync_lock_release __sync_swap = special(gnu)
__sync_synchronize __sync_fetch_and_min __sync_fetch_and_max __sync_fetch_and_umin __sync_fetch_and_umax = special(gnu)

# ---- printf (opencl-c-base.h, OpenCL C 1.2 and later) ----
@ since=1.2
printf = int(constant const char *, ...)

# ---- cl_khr_mipmap_image ----
@ attr=pure ext=cl_khr_mipmap_image
read_imagef = float4(RO image2d_t, sampler_t, float2, float)
read_imagef = float4(RO image2d_t, sampler_t, float2, float2, float2)
read_imagei = int4(RO image2d_t, sampler_t, float2, float)
read_imagei = int4(RO image2d_t, sampler_t, float2, float2, float2)
read_imageui = uint4(RO image2d_t, sampler_t, float2, float)
read_imageui = uint4(RO image2d_t, sampler_t, float2, float2, float2)
read_imagef = float(RO image2d_depth_t, sampler_t, float2, float)
read_imagef = float(RO image2d_depth_t, sampler_t, float2, float2, float2)
read_imagef = float4(RO image1d_t, sampler_t, float, float)
read_imagef = float4(RO image1d_t, sampler_t, float, float, float)
read_imagei = int4(RO image1d_t, sampler_t, float, float)
read_imagei = int4(RO image1d_t, sampler_t, float, float, float)
read_imageui = uint4(RO image1d_t, sampler_t, float, float)
read_imageui = uint4(RO image1d_t, sampler_t, float, float, float)
read_imagef = float4(RO image3d_t, sampler_t, float4, float4, float4)
read_imagef = float4(RO image3d_t, sampler_t, float4, float)
read_imagei = int4(RO image3d_t, sampler_t, float4, float4, float4)
read_imagei = int4(RO image3d_t, sampler_t, float4, float)
read_imageui = uint4(RO image3d_t, sampler_t, float4, float4, float4)
read_imageui = uint4(RO image3d_t, sampler_t, float4, float)
read_imagef = float4(RO image1d_array_t, sampler_t, float2, float)
read_imagef = float4(RO image1d_array_t, sampler_t, float2, float, float)
read_imagei = int4(RO image1d_array_t, sampler_t, float2, float)
read_imagei = int4(RO image1d_array_t, sampler_t, float2, float, float)
read_imageui = uint4(RO image1d_array_t, sampler_t, float2, float)
read_imageui = uint4(RO image1d_array_t, sampler_t, float2, float, float)
read_imagef = float4(RO image2d_array_t, sampler_t, float4, float)
read_imagef = float4(RO image2d_array_t, sampler_t, float4, float2, float2)
read_imagei = int4(RO image2d_array_t, sampler_t, float4, float)
read_imagei = int4(RO image2d_array_t, sampler_t, float4, float2, float2)
read_imageui = uint4(RO image2d_array_t, sampler_t, float4, float)
read_imageui = uint4(RO image2d_array_t, sampler_t, float4, float2, float2)
read_imagef = float(RO image2d_array_depth_t, sampler_t, float4, float)
read_imagef = float(RO image2d_array_depth_t, sampler_t, float4, float2, float2)
@ ext=cl_khr_mipmap_image acc=RO | ext=cl_khr_mipmap_image acc=WO | ext=cl_khr_mipmap_image+__opencl_c_read_write_images acc=RW
get_image_num_mip_levels = int(ACC image1d_t)
get_image_num_mip_levels = int(ACC image2d_t)
get_image_num_mip_levels = int(ACC image3d_t)
get_image_num_mip_levels = int(ACC image1d_array_t)
get_image_num_mip_levels = int(ACC image2d_array_t)
get_image_num_mip_levels = int(ACC image2d_depth_t)
get_image_num_mip_levels = int(ACC image2d_array_depth_t)
@ ext=cl_khr_mipmap_image_writes
write_imagef = void(WO image2d_t, int2, int, float4)
write_imagei = void(WO image2d_t, int2, int, int4)
write_imageui = void(WO image2d_t, int2, int, uint4)
write_imagef = void(WO image2d_depth_t, int2, int, float)
write_imagef = void(WO image1d_t, int, int, float4)
write_imagei = void(WO image1d_t, int, int, int4)
write_imageui = void(WO image1d_t, int, int, uint4)
write_imagef = void(WO image1d_array_t, int2, int, float4)
write_imagei = void(WO image1d_array_t, int2, int, int4)
write_imageui = void(WO image1d_array_t, int2, int, uint4)
write_imagef = void(WO image2d_array_t, int4, int, float4)
write_imagei = void(WO image2d_array_t, int4, int, int4)
write_imageui = void(WO image2d_array_t, int4, int, uint4)
write_imagef = void(WO image2d_array_depth_t, int4, int, float)
write_imagef = void(WO image3d_t, int4, int, float4)
write_imagei = void(WO image3d_t, int4, int, int4)
write_imageui = void(WO image3d_t, int4, int, uint4)

# ---- cl_khr_gl_msaa_sharing ----
@ attr=pure ext=cl_khr_gl_msaa_sharing acc=RO | attr=pure ext=cl_khr_gl_msaa_sharing+__opencl_c_read_write_images acc=RW
read_imagef = float4(ACC image2d_msaa_t, int2, int)
read_imagei = int4(ACC image2d_msaa_t, int2, int)
read_imageui = uint4(ACC image2d_msaa_t, int2, int)
read_imagef = float4(ACC image2d_array_msaa_t, int4, int)
read_imagei = int4(ACC image2d_array_msaa_t, int4, int)
read_imageui = uint4(ACC image2d_array_msaa_t, int4, int)
read_imagef = float(ACC image2d_msaa_depth_t, int2, int)
read_imagef = float(ACC image2d_array_msaa_depth_t, int4, int)
@ attr=const ext=cl_khr_gl_msaa_sharing acc=RO | attr=const ext=cl_khr_gl_msaa_sharing acc=WO | attr=const ext=cl_khr_gl_msaa_sharing+__opencl_c_read_write_images acc=RW
get_image_width get_image_height get_image_channel_data_type get_image_channel_order get_image_num_samples = int(ACC image2d_msaa_t)
get_image_dim = int2(ACC image2d_msaa_t)
get_image_width get_image_height get_image_channel_data_type get_image_channel_order get_image_num_samples = int(ACC image2d_array_msaa_t)
get_image_dim = int2(ACC image2d_array_msaa_t)
get_image_width get_image_height get_image_channel_data_type get_image_channel_order get_image_num_samples = int(ACC image2d_msaa_depth_t)
get_image_dim = int2(ACC image2d_msaa_depth_t)
get_image_width get_image_height get_image_channel_data_type get_image_channel_order get_image_num_samples = int(ACC image2d_array_msaa_depth_t)
get_image_dim = int2(ACC image2d_array_msaa_depth_t)
get_image_array_size = size_t(ACC image2d_array_msaa_t)
get_image_array_size = size_t(ACC image2d_array_msaa_depth_t)

# ---- cl_khr_subgroups and the extended sub-group extensions ----
@ ext=__opencl_subgroup_builtins
get_sub_group_size get_max_sub_group_size get_num_sub_groups get_sub_group_id get_sub_group_local_id = uint()
@ ext=__opencl_subgroup_builtins since=2.0
get_enqueued_num_sub_groups = uint()
@ attr=conv ext=__opencl_subgroup_builtins
sub_group_barrier = void(cl_mem_fence_flags)
@ attr=conv ext=__opencl_subgroup_builtins since=2.0
sub_group_barrier = void(cl_mem_fence_flags, memory_scope)
@ attr=conv ext=__opencl_subgroup_builtins
sub_group_all sub_group_any = int(int)
sub_group_broadcast = ILFGen1(ILFGen1, uint)
sub_group_reduce_add sub_group_reduce_min sub_group_reduce_max = ILFGen1(ILFGen1)
sub_group_scan_exclusive_add sub_group_scan_exclusive_min sub_group_scan_exclusive_max = ILFGen1(ILFGen1)
sub_group_scan_inclusive_add sub_group_scan_inclusive_min sub_group_scan_inclusive_max = ILFGen1(ILFGen1)
@ attr=conv ext=cl_khr_subgroup_extended_types
sub_group_broadcast = CSGen1(CSGen1, uint)
sub_group_broadcast = AGenNS(AGenNS, uint)
sub_group_reduce_add sub_group_reduce_min sub_group_reduce_max = CSGen1(CSGen1)
sub_group_scan_exclusive_add sub_group_scan_exclusive_min sub_group_scan_exclusive_max = CSGen1(CSGen1)
sub_group_scan_inclusive_add sub_group_scan_inclusive_min sub_group_scan_inclusive_max = CSGen1(CSGen1)
@ ext=cl_khr_subgroup_non_uniform_vote
sub_group_elect = int()
sub_group_non_uniform_all sub_group_non_uniform_any = int(int)
sub_group_non_uniform_all_equal = int(AGen1)
@ ext=cl_khr_subgroup_ballot
sub_group_non_uniform_broadcast = AGenN(AGenN, uint)
sub_group_broadcast_first = AGen1(AGen1)
sub_group_ballot = uint4(int)
sub_group_inverse_ballot = int(uint4)
sub_group_ballot_bit_extract = int(uint4, uint)
sub_group_ballot_bit_count sub_group_ballot_inclusive_scan sub_group_ballot_exclusive_scan sub_group_ballot_find_lsb sub_group_ballot_find_msb = uint(uint4)
get_sub_group_eq_mask get_sub_group_ge_mask get_sub_group_gt_mask get_sub_group_le_mask get_sub_group_lt_mask = uint4()
@ ext=cl_khr_subgroup_non_uniform_arithmetic
sub_group_non_uniform_reduce_add sub_group_non_uniform_reduce_min sub_group_non_uniform_reduce_max sub_group_non_uniform_reduce_mul = AGen1(AGen1)
sub_group_non_uniform_reduce_and sub_group_non_uniform_reduce_or sub_group_non_uniform_reduce_xor = AIGen1(AIGen1)
sub_group_non_uniform_reduce_logical_and sub_group_non_uniform_reduce_logical_or sub_group_non_uniform_reduce_logical_xor = int(int)
sub_group_non_uniform_scan_exclusive_add sub_group_non_uniform_scan_exclusive_min sub_group_non_uniform_scan_exclusive_max sub_group_non_uniform_scan_exclusive_mul = AGen1(AGen1)
sub_group_non_uniform_scan_exclusive_and sub_group_non_uniform_scan_exclusive_or sub_group_non_uniform_scan_exclusive_xor = AIGen1(AIGen1)
sub_group_non_uniform_scan_exclusive_logical_and sub_group_non_uniform_scan_exclusive_logical_or sub_group_non_uniform_scan_exclusive_logical_xor = int(int)
sub_group_non_uniform_scan_inclusive_add sub_group_non_uniform_scan_inclusive_min sub_group_non_uniform_scan_inclusive_max sub_group_non_uniform_scan_inclusive_mul = AGen1(AGen1)
sub_group_non_uniform_scan_inclusive_and sub_group_non_uniform_scan_inclusive_or sub_group_non_uniform_scan_inclusive_xor = AIGen1(AIGen1)
sub_group_non_uniform_scan_inclusive_logical_and sub_group_non_uniform_scan_inclusive_logical_or sub_group_non_uniform_scan_inclusive_logical_xor = int(int)
@ ext=cl_khr_subgroup_shuffle
sub_group_shuffle sub_group_shuffle_xor = AGen1(AGen1, uint)
@ ext=cl_khr_subgroup_shuffle_relative
sub_group_shuffle_up sub_group_shuffle_down = AGen1(AGen1, uint)
@ ext=cl_khr_subgroup_clustered_reduce
sub_group_clustered_reduce_add sub_group_clustered_reduce_min sub_group_clustered_reduce_max sub_group_clustered_reduce_mul = AGen1(AGen1, uint)
sub_group_clustered_reduce_and sub_group_clustered_reduce_or sub_group_clustered_reduce_xor = AIGen1(AIGen1, uint)
sub_group_clustered_reduce_logical_and sub_group_clustered_reduce_logical_or sub_group_clustered_reduce_logical_xor = int(int, uint)
@ ext=cl_khr_subgroup_rotate
sub_group_rotate = AGen1(AGen1, int)
sub_group_clustered_rotate = AGen1(AGen1, int, uint)

# ---- cl_khr_kernel_clock ----
@ ext=cl_khr_kernel_clock+__opencl_c_kernel_clock_scope_device
clock_read_device = ulong()
clock_read_hilo_device = uint2()
@ ext=cl_khr_kernel_clock+__opencl_c_kernel_clock_scope_work_group
clock_read_work_group = ulong()
clock_read_hilo_work_group = uint2()
@ ext=cl_khr_kernel_clock+__opencl_c_kernel_clock_scope_sub_group
clock_read_sub_group = ulong()
clock_read_hilo_sub_group = uint2()

# ---- cl_khr_extended_bit_ops ----
@ attr=const ext=cl_khr_extended_bit_ops
bitfield_insert = AIGenN(AIGenN, AIGenN, uint, uint)
bitfield_extract_signed = SGenN(SGenN, uint, uint)
bitfield_extract_signed = SGenN(UGenN, uint, uint)
bitfield_extract_unsigned = UGenN(SGenN, uint, uint)
bitfield_extract_unsigned = UGenN(UGenN, uint, uint)
bit_reverse = AIGenN(AIGenN)

# ---- cl_khr_integer_dot_product ----
@ attr=const ext=__opencl_c_integer_dot_product_input_4x8bit
dot = uint(uchar4, uchar4)
dot = int(char4, char4)
dot = int(uchar4, char4)
dot = int(char4, uchar4)
dot_acc_sat = uint(uchar4, uchar4, uint)
dot_acc_sat = int(char4, char4, int)
dot_acc_sat = int(uchar4, char4, int)
dot_acc_sat = int(char4, uchar4, int)
@ attr=const ext=__opencl_c_integer_dot_product_input_4x8bit_packed
dot_4x8packed_uu_uint = uint(uint, uint)
dot_4x8packed_ss_int dot_4x8packed_us_int dot_4x8packed_su_int = int(uint, uint)
dot_acc_sat_4x8packed_uu_uint = uint(uint, uint, uint)
dot_acc_sat_4x8packed_ss_int dot_acc_sat_4x8packed_us_int dot_acc_sat_4x8packed_su_int = int(uint, uint, int)

# ---- vendor extensions of clang's SPIR target, as clang-19's opencl-c.h declares them ----
@ attr=conv ext=cl_intel_subgroups
intel_sub_group_shuffle intel_sub_group_shuffle_xor = floatN(floatN, uint)
intel_sub_group_shuffle intel_sub_group_shuffle_xor = intN(intN, uint)
intel_sub_group_shuffle intel_sub_group_shuffle_xor = uintN(uintN, uint)
intel_sub_group_shuffle intel_sub_group_shuffle_xor = long(long, uint)
intel_sub_group_shuffle intel_sub_group_shuffle_xor = ulong(ulong, uint)
intel_sub_group_shuffle_down intel_sub_group_shuffle_up = floatN(floatN, floatN, uint)
intel_sub_group_shuffle_down intel_sub_group_shuffle_up = intN(intN, intN, uint)
intel_sub_group_shuffle_down intel_sub_group_shuffle_up = uintN(uintN, uintN, uint)
intel_sub_group_shuffle_down intel_sub_group_shuffle_up = long(long, long, uint)
intel_sub_group_shuffle_down intel_sub_group_shuffle_up = ulong(ulong, ulong, uint)
@ attr=conv ext=cl_intel_subgroups+__opencl_c_images
intel_sub_group_block_read = uint(RO image2d_t, int2)
intel_sub_group_block_read2 = uint2(RO image2d_t, int2)
intel_sub_group_block_read4 = uint4(RO image2d_t, int2)
intel_sub_group_block_read8 = uint8(RO image2d_t, int2)
@ attr=conv ext=cl_intel_subgroups+__opencl_c_read_write_images
intel_sub_group_block_read = uint(RW image2d_t, int2)
intel_sub_group_block_read2 = uint2(RW image2d_t, int2)
intel_sub_group_block_read4 = uint4(RW image2d_t, int2)
intel_sub_group_block_read8 = uint8(RW image2d_t, int2)
@ attr=conv ext=cl_intel_subgroups
intel_sub_group_block_read = uint(global const uint * $p)
intel_sub_group_block_read2 = uint2(global const uint * $p)
intel_sub_group_block_read4 = uint4(global const uint * $p)
intel_sub_group_block_read8 = uint8(global const uint * $p)
@ attr=conv ext=cl_intel_subgroups+__opencl_c_images
intel_sub_group_block_write = void(WO image2d_t, int2, uint)
intel_sub_group_block_write2 = void(WO image2d_t, int2, uint2)
intel_sub_group_block_write4 = void(WO image2d_t, int2, uint4)
intel_sub_group_block_write8 = void(WO image2d_t, int2, uint8)
@ attr=conv ext=cl_intel_subgroups+__opencl_c_read_write_images
intel_sub_group_block_write = void(RW image2d_t, int2, uint)
intel_sub_group_block_write2 = void(RW image2d_t, int2, uint2)
intel_sub_group_block_write4 = void(RW image2d_t, int2, uint4)
intel_sub_group_block_write8 = void(RW image2d_t, int2, uint8)
@ attr=conv ext=cl_intel_subgroups
intel_sub_group_block_write = void(global uint *, uint)
intel_sub_group_block_write2 = void(global uint *, uint2)
intel_sub_group_block_write4 = void(global uint *, uint4)
intel_sub_group_block_write8 = void(global uint *, uint8)
@ attr=conv ext=cl_intel_subgroups+cl_khr_fp16
intel_sub_group_shuffle intel_sub_group_shuffle_xor = half(half, uint)
intel_sub_group_shuffle_down intel_sub_group_shuffle_up = half(half, half, uint)
@ attr=conv ext=cl_intel_subgroups+cl_khr_fp64
intel_sub_group_shuffle intel_sub_group_shuffle_xor = double(double, uint)
intel_sub_group_shuffle_down intel_sub_group_shuffle_up = double(double, double, uint)

@ attr=conv ext=cl_intel_subgroups_short
intel_sub_group_broadcast = Short5(Short5, uint)
intel_sub_group_broadcast = UShort5(UShort5, uint)
intel_sub_group_shuffle intel_sub_group_shuffle_xor = shortN(shortN, uint)
intel_sub_group_shuffle intel_sub_group_shuffle_xor = ushortN(ushortN, uint)
intel_sub_group_shuffle_down intel_sub_group_shuffle_up = shortN(shortN, shortN, uint)
intel_sub_group_shuffle_down intel_sub_group_shuffle_up = ushortN(ushortN, ushortN, uint)
intel_sub_group_reduce_add intel_sub_group_reduce_min intel_sub_group_reduce_max = short(short)
intel_sub_group_reduce_add intel_sub_group_reduce_min intel_sub_group_reduce_max = ushort(ushort)
intel_sub_group_scan_exclusive_add intel_sub_group_scan_exclusive_min intel_sub_group_scan_exclusive_max = short(short)
intel_sub_group_scan_exclusive_add intel_sub_group_scan_exclusive_min intel_sub_group_scan_exclusive_max = ushort(ushort)
intel_sub_group_scan_inclusive_add intel_sub_group_scan_inclusive_min intel_sub_group_scan_inclusive_max = short(short)
intel_sub_group_scan_inclusive_add intel_sub_group_scan_inclusive_min intel_sub_group_scan_inclusive_max = ushort(ushort)
@ attr=conv ext=cl_intel_subgroups_short+__opencl_c_images
intel_sub_group_block_read_ui = uint(RO image2d_t, int2)
intel_sub_group_block_read_ui2 = uint2(RO image2d_t, int2)
intel_sub_group_block_read_ui4 = uint4(RO image2d_t, int2)
intel_sub_group_block_read_ui8 = uint8(RO image2d_t, int2)
@ attr=conv ext=cl_intel_subgroups_short+__opencl_c_read_write_images
intel_sub_group_block_read_ui = uint(RW image2d_t, int2)
intel_sub_group_block_read_ui2 = uint2(RW image2d_t, int2)
intel_sub_group_block_read_ui4 = uint4(RW image2d_t, int2)
intel_sub_group_block_read_ui8 = uint8(RW image2d_t, int2)
@ attr=conv ext=cl_intel_subgroups_short
intel_sub_group_block_read_ui = uint(global const uint * $p)
intel_sub_group_block_read_ui2 = uint2(global const uint * $p)
intel_sub_group_block_read_ui4 = uint4(global const uint * $p)
intel_sub_group_block_read_ui8 = uint8(global const uint * $p)
# (sic) clang-19's header declares these image writes on read_only images.
@ attr=conv ext=cl_intel_subgroups_short+__opencl_c_images
intel_sub_group_block_write_ui = void(RO image2d_t, int2, uint)
intel_sub_group_block_write_ui2 = void(RO image2d_t, int2, uint2)
intel_sub_group_block_write_ui4 = void(RO image2d_t, int2, uint4)
intel_sub_group_block_write_ui8 = void(RO image2d_t, int2, uint8)
@ attr=conv ext=cl_intel_subgroups_short+__opencl_c_read_write_images
intel_sub_group_block_write_ui = void(RW image2d_t, int2, uint)
intel_sub_group_block_write_ui2 = void(RW image2d_t, int2, uint2)
intel_sub_group_block_write_ui4 = void(RW image2d_t, int2, uint4)
intel_sub_group_block_write_ui8 = void(RW image2d_t, int2, uint8)
@ attr=conv ext=cl_intel_subgroups_short
intel_sub_group_block_write_ui = void(global uint *, uint)
intel_sub_group_block_write_ui2 = void(global uint *, uint2)
intel_sub_group_block_write_ui4 = void(global uint *, uint4)
intel_sub_group_block_write_ui8 = void(global uint *, uint8)
@ attr=conv ext=cl_intel_subgroups_short+__opencl_c_images
intel_sub_group_block_read_us = ushort(RO image2d_t, int2)
intel_sub_group_block_read_us2 = ushort2(RO image2d_t, int2)
intel_sub_group_block_read_us4 = ushort4(RO image2d_t, int2)
intel_sub_group_block_read_us8 = ushort8(RO image2d_t, int2)
@ attr=conv ext=cl_intel_subgroups_short+__opencl_c_read_write_images
intel_sub_group_block_read_us = ushort(RW image2d_t, int2)
intel_sub_group_block_read_us2 = ushort2(RW image2d_t, int2)
intel_sub_group_block_read_us4 = ushort4(RW image2d_t, int2)
intel_sub_group_block_read_us8 = ushort8(RW image2d_t, int2)
@ attr=conv ext=cl_intel_subgroups_short
intel_sub_group_block_read_us = ushort(global const ushort * $p)
intel_sub_group_block_read_us2 = ushort2(global const ushort * $p)
intel_sub_group_block_read_us4 = ushort4(global const ushort * $p)
intel_sub_group_block_read_us8 = ushort8(global const ushort * $p)
@ attr=conv ext=cl_intel_subgroups_short+__opencl_c_images
intel_sub_group_block_write_us = void(WO image2d_t, int2, ushort)
intel_sub_group_block_write_us2 = void(WO image2d_t, int2, ushort2)
intel_sub_group_block_write_us4 = void(WO image2d_t, int2, ushort4)
intel_sub_group_block_write_us8 = void(WO image2d_t, int2, ushort8)
@ attr=conv ext=cl_intel_subgroups_short+__opencl_c_read_write_images
intel_sub_group_block_write_us = void(RW image2d_t, int2, ushort)
intel_sub_group_block_write_us2 = void(RW image2d_t, int2, ushort2)
intel_sub_group_block_write_us4 = void(RW image2d_t, int2, ushort4)
intel_sub_group_block_write_us8 = void(RW image2d_t, int2, ushort8)
@ attr=conv ext=cl_intel_subgroups_short
intel_sub_group_block_write_us = void(global ushort *, ushort)
intel_sub_group_block_write_us2 = void(global ushort *, ushort2)
intel_sub_group_block_write_us4 = void(global ushort *, ushort4)
intel_sub_group_block_write_us8 = void(global ushort *, ushort8)

@ ext=cl_amd_media_ops
amd_bitalign amd_bytealign amd_lerp = uintN(uintN, uintN, uintN)
amd_pack = uint(float4 $v)
amd_sad4 = uint(uint4, uint4, uint)
amd_sadhi amd_sad = uintN(uintN, uintN, uintN)
amd_unpack0 amd_unpack1 amd_unpack2 amd_unpack3 = floatN(uintN)
@ ext=cl_amd_media_ops2
amd_bfe = intN(intN, uintN, uintN)
amd_bfe = uintN(uintN, uintN, uintN)
amd_bfm = uintN(uintN, uintN)
amd_max3 amd_median3 amd_min3 = floatN(floatN, floatN, floatN)
amd_max3 amd_median3 amd_min3 = intN(intN, intN, intN)
amd_max3 amd_median3 amd_min3 = uintN(uintN, uintN, uintN)
amd_mqsad amd_qsad = ulongN(ulongN, uintN, ulongN)
amd_msad amd_sadd amd_sadw = uintN(uintN, uintN, uintN)

# ---- cl_intel_device_side_avc_motion_estimation, as clang-19's opencl-c.h declares it ----
@ ext=cl_intel_device_side_avc_motion_estimation
intel_sub_group_avc_mce_get_default_inter_base_multi_reference_penalty = uchar(uchar, uchar)
intel_sub_group_avc_mce_get_default_inter_shape_penalty = ulong(uchar, uchar)
intel_sub_group_avc_mce_get_default_inter_direction_penalty = uchar(uchar, uchar)
intel_sub_group_avc_mce_get_default_intra_luma_shape_penalty = uint(uchar, uchar)
intel_sub_group_avc_mce_get_default_inter_motion_vector_cost_table = uint2(uchar, uchar)
intel_sub_group_avc_mce_get_default_intra_luma_mode_penalty = uchar(uchar, uchar)
intel_sub_group_avc_mce_get_default_high_penalty_cost_table = uint2()
intel_sub_group_avc_mce_get_default_medium_penalty_cost_table = uint2()
intel_sub_group_avc_mce_get_default_low_penalty_cost_table = uint2()
intel_sub_group_avc_mce_get_default_non_dc_luma_intra_penalty = uint()
intel_sub_group_avc_mce_get_default_intra_chroma_mode_base_penalty = uchar()
intel_sub_group_avc_mce_set_inter_base_multi_reference_penalty = intel_sub_group_avc_mce_payload_t(uchar, intel_sub_group_avc_mce_payload_t)
intel_sub_group_avc_mce_set_inter_shape_penalty = intel_sub_group_avc_mce_payload_t(ulong, intel_sub_group_avc_mce_payload_t)
intel_sub_group_avc_mce_set_inter_direction_penalty = intel_sub_group_avc_mce_payload_t(uchar, intel_sub_group_avc_mce_payload_t)
intel_sub_group_avc_mce_set_motion_vector_cost_function = intel_sub_group_avc_mce_payload_t(ulong, uint2, uchar, intel_sub_group_avc_mce_payload_t)
intel_sub_group_avc_mce_set_ac_only_haar = intel_sub_group_avc_mce_payload_t(intel_sub_group_avc_mce_payload_t $payload)
intel_sub_group_avc_mce_set_source_interlaced_field_polarity = intel_sub_group_avc_mce_payload_t(uchar, intel_sub_group_avc_mce_payload_t)
intel_sub_group_avc_mce_set_single_reference_interlaced_field_polarity = intel_sub_group_avc_mce_payload_t(uchar, intel_sub_group_avc_mce_payload_t)
intel_sub_group_avc_mce_set_dual_reference_interlaced_field_polarities = intel_sub_group_avc_mce_payload_t(uchar, uchar, intel_sub_group_avc_mce_payload_t)
intel_sub_group_avc_mce_get_motion_vectors = ulong(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_mce_get_inter_distortions = ushort(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_mce_get_best_inter_distortion = ushort(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_mce_get_inter_major_shape = uchar(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_mce_get_inter_minor_shapes = uchar(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_mce_get_inter_directions = uchar(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_mce_get_inter_motion_vector_count = uchar(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_mce_get_inter_reference_ids = uint(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_mce_get_inter_reference_interlaced_field_polarities = uchar(uint, uint, intel_sub_group_avc_mce_result_t)
intel_sub_group_avc_ime_initialize = intel_sub_group_avc_ime_payload_t(ushort2, uchar, uchar)
intel_sub_group_avc_ime_set_single_reference = intel_sub_group_avc_ime_payload_t(short2, uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ime_set_dual_reference = intel_sub_group_avc_ime_payload_t(short2, short2, uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ime_set_max_motion_vector_count = intel_sub_group_avc_ime_payload_t(uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ime_set_unidirectional_mix_disable = intel_sub_group_avc_ime_payload_t(intel_sub_group_avc_ime_payload_t $payload)
intel_sub_group_avc_ime_set_early_search_termination_threshold = intel_sub_group_avc_ime_payload_t(uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ime_set_weighted_sad = intel_sub_group_avc_ime_payload_t(uint, intel_sub_group_avc_ime_payload_t)
intel_sub_group_ime_ref_window_size = ushort2(uchar, char)
intel_sub_group_avc_ime_ref_window_size = ushort2(uchar, char)
intel_sub_group_avc_ime_adjust_ref_offset = short2(short2, ushort2, ushort2, ushort2)
@ ext=cl_intel_device_side_avc_motion_estimation+__opencl_c_images
intel_sub_group_avc_ime_evaluate_with_single_reference = intel_sub_group_avc_ime_result_t(RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ime_evaluate_with_dual_reference = intel_sub_group_avc_ime_result_t(RO image2d_t, RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ime_evaluate_with_single_reference_streamout = intel_sub_group_avc_ime_result_single_reference_streamout_t(RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ime_evaluate_with_dual_reference_streamout = intel_sub_group_avc_ime_result_dual_reference_streamout_t(RO image2d_t, RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ime_evaluate_with_single_reference_streamin = intel_sub_group_avc_ime_result_t(RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ime_payload_t, intel_sub_group_avc_ime_single_reference_streamin_t)
intel_sub_group_avc_ime_evaluate_with_dual_reference_streamin = intel_sub_group_avc_ime_result_t(RO image2d_t, RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ime_payload_t, intel_sub_group_avc_ime_dual_reference_streamin_t)
intel_sub_group_avc_ime_evaluate_with_single_reference_streaminout = intel_sub_group_avc_ime_result_single_reference_streamout_t(RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ime_payload_t, intel_sub_group_avc_ime_single_reference_streamin_t)
intel_sub_group_avc_ime_evaluate_with_dual_reference_streaminout = intel_sub_group_avc_ime_result_dual_reference_streamout_t(RO image2d_t, RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ime_payload_t, intel_sub_group_avc_ime_dual_reference_streamin_t)
@ ext=cl_intel_device_side_avc_motion_estimation
intel_sub_group_avc_ime_get_single_reference_streamin = intel_sub_group_avc_ime_single_reference_streamin_t(intel_sub_group_avc_ime_result_single_reference_streamout_t $result)
intel_sub_group_avc_ime_get_dual_reference_streamin = intel_sub_group_avc_ime_dual_reference_streamin_t(intel_sub_group_avc_ime_result_dual_reference_streamout_t $result)
intel_sub_group_avc_ime_strip_single_reference_streamout = intel_sub_group_avc_ime_result_t(intel_sub_group_avc_ime_result_single_reference_streamout_t $result)
intel_sub_group_avc_ime_strip_dual_reference_streamout = intel_sub_group_avc_ime_result_t(intel_sub_group_avc_ime_result_dual_reference_streamout_t $result)
intel_sub_group_avc_ime_get_streamout_major_shape_motion_vectors = uint(intel_sub_group_avc_ime_result_single_reference_streamout_t, uchar)
intel_sub_group_avc_ime_get_streamout_major_shape_distortions = ushort(intel_sub_group_avc_ime_result_single_reference_streamout_t, uchar)
intel_sub_group_avc_ime_get_streamout_major_shape_reference_ids = uchar(intel_sub_group_avc_ime_result_single_reference_streamout_t, uchar)
intel_sub_group_avc_ime_get_streamout_major_shape_motion_vectors = uint(intel_sub_group_avc_ime_result_dual_reference_streamout_t, uchar, uchar)
intel_sub_group_avc_ime_get_streamout_major_shape_distortions = ushort(intel_sub_group_avc_ime_result_dual_reference_streamout_t, uchar, uchar)
intel_sub_group_avc_ime_get_streamout_major_shape_reference_ids = uchar(intel_sub_group_avc_ime_result_dual_reference_streamout_t, uchar, uchar)
intel_sub_group_avc_ime_get_border_reached = uchar(uchar, intel_sub_group_avc_ime_result_t)
intel_sub_group_avc_ime_get_truncated_search_indication = uchar(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ime_get_unidirectional_early_search_termination = uchar(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ime_get_weighting_pattern_minimum_motion_vector = uint(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ime_get_weighting_pattern_minimum_distortion = ushort(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_fme_initialize = intel_sub_group_avc_ref_payload_t(ushort2, ulong, uchar, uchar, uchar, uchar, uchar)
intel_sub_group_avc_bme_initialize = intel_sub_group_avc_ref_payload_t(ushort2, ulong, uchar, uchar, uchar, uchar, uchar, uchar)
intel_sub_group_avc_ref_set_bidirectional_mix_disable = intel_sub_group_avc_ref_payload_t(intel_sub_group_avc_ref_payload_t $payload)
intel_sub_group_avc_ref_set_bilinear_filter_enable = intel_sub_group_avc_ref_payload_t(intel_sub_group_avc_ref_payload_t $payload)
@ ext=cl_intel_device_side_avc_motion_estimation+__opencl_c_images
intel_sub_group_avc_ref_evaluate_with_single_reference = intel_sub_group_avc_ref_result_t(RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_ref_evaluate_with_dual_reference = intel_sub_group_avc_ref_result_t(RO image2d_t, RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_ref_evaluate_with_multi_reference = intel_sub_group_avc_ref_result_t(RO image2d_t, uint, sampler_t, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_ref_evaluate_with_multi_reference = intel_sub_group_avc_ref_result_t(RO image2d_t, uint, uchar, sampler_t, intel_sub_group_avc_ref_payload_t)
@ ext=cl_intel_device_side_avc_motion_estimation
intel_sub_group_avc_sic_initialize = intel_sub_group_avc_sic_payload_t(ushort2 $src_coord)
intel_sub_group_avc_sic_configure_skc = intel_sub_group_avc_sic_payload_t(uint, uint, ulong, uchar, uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_configure_ipe = intel_sub_group_avc_sic_payload_t(uchar, uchar, uchar, uchar, uchar, uchar, uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_configure_ipe = intel_sub_group_avc_sic_payload_t(uchar, uchar, uchar, uchar, uchar, uchar, ushort, ushort, ushort, uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_get_motion_vector_mask = uint(uint, uchar)
intel_sub_group_avc_sic_set_intra_luma_shape_penalty = intel_sub_group_avc_sic_payload_t(uint, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_set_intra_luma_mode_cost_function = intel_sub_group_avc_sic_payload_t(uchar, uint, uint, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_set_intra_chroma_mode_cost_function = intel_sub_group_avc_sic_payload_t(uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_set_skc_bilinear_filter_enable = intel_sub_group_avc_sic_payload_t(intel_sub_group_avc_sic_payload_t $payload)
intel_sub_group_avc_sic_set_skc_forward_transform_enable = intel_sub_group_avc_sic_payload_t(ulong, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_set_block_based_raw_skip_sad = intel_sub_group_avc_sic_payload_t(uchar, intel_sub_group_avc_sic_payload_t)
@ ext=cl_intel_device_side_avc_motion_estimation+__opencl_c_images
intel_sub_group_avc_sic_evaluate_ipe = intel_sub_group_avc_sic_result_t(RO image2d_t, sampler_t, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_evaluate_with_single_reference = intel_sub_group_avc_sic_result_t(RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_evaluate_with_dual_reference = intel_sub_group_avc_sic_result_t(RO image2d_t, RO image2d_t, RO image2d_t, sampler_t, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_evaluate_with_multi_reference = intel_sub_group_avc_sic_result_t(RO image2d_t, uint, sampler_t, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_sic_evaluate_with_multi_reference = intel_sub_group_avc_sic_result_t(RO image2d_t, uint, uchar, sampler_t, intel_sub_group_avc_sic_payload_t)
@ ext=cl_intel_device_side_avc_motion_estimation
intel_sub_group_avc_sic_get_ipe_luma_shape = uchar(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_sic_get_best_ipe_luma_distortion = ushort(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_sic_get_best_ipe_chroma_distortion = ushort(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_sic_get_packed_ipe_luma_modes = ulong(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_sic_get_ipe_chroma_mode = uchar(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_sic_get_packed_skc_luma_count_threshold = uint(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_sic_get_packed_skc_luma_sum_threshold = ulong(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_sic_get_inter_raw_sads = ushort(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_ime_set_inter_base_multi_reference_penalty = intel_sub_group_avc_ime_payload_t(uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ref_set_inter_base_multi_reference_penalty = intel_sub_group_avc_ref_payload_t(uchar, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_sic_set_inter_base_multi_reference_penalty = intel_sub_group_avc_sic_payload_t(uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_ime_set_inter_shape_penalty = intel_sub_group_avc_ime_payload_t(ulong, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ref_set_inter_shape_penalty = intel_sub_group_avc_ref_payload_t(ulong, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_sic_set_inter_shape_penalty = intel_sub_group_avc_sic_payload_t(ulong, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_ime_set_inter_direction_penalty = intel_sub_group_avc_ime_payload_t(uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ref_set_inter_direction_penalty = intel_sub_group_avc_ref_payload_t(uchar, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_sic_set_inter_direction_penalty = intel_sub_group_avc_sic_payload_t(uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_ime_set_motion_vector_cost_function = intel_sub_group_avc_ime_payload_t(ulong, uint2, uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ref_set_motion_vector_cost_function = intel_sub_group_avc_ref_payload_t(ulong, uint2, uchar, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_sic_set_motion_vector_cost_function = intel_sub_group_avc_sic_payload_t(ulong, uint2, uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_ime_set_source_interlaced_field_polarity = intel_sub_group_avc_ime_payload_t(uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ref_set_source_interlaced_field_polarity = intel_sub_group_avc_ref_payload_t(uchar, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_sic_set_source_interlaced_field_polarity = intel_sub_group_avc_sic_payload_t(uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_ime_set_single_reference_interlaced_field_polarity = intel_sub_group_avc_ime_payload_t(uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ref_set_single_reference_interlaced_field_polarity = intel_sub_group_avc_ref_payload_t(uchar, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_sic_set_single_reference_interlaced_field_polarity = intel_sub_group_avc_sic_payload_t(uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_ime_set_dual_reference_interlaced_field_polarities = intel_sub_group_avc_ime_payload_t(uchar, uchar, intel_sub_group_avc_ime_payload_t)
intel_sub_group_avc_ref_set_dual_reference_interlaced_field_polarities = intel_sub_group_avc_ref_payload_t(uchar, uchar, intel_sub_group_avc_ref_payload_t)
intel_sub_group_avc_sic_set_dual_reference_interlaced_field_polarities = intel_sub_group_avc_sic_payload_t(uchar, uchar, intel_sub_group_avc_sic_payload_t)
intel_sub_group_avc_ime_set_ac_only_haar = intel_sub_group_avc_ime_payload_t(intel_sub_group_avc_ime_payload_t $payload)
intel_sub_group_avc_ref_set_ac_only_haar = intel_sub_group_avc_ref_payload_t(intel_sub_group_avc_ref_payload_t $payload)
intel_sub_group_avc_sic_set_ac_only_haar = intel_sub_group_avc_sic_payload_t(intel_sub_group_avc_sic_payload_t $payload)
intel_sub_group_avc_ime_get_motion_vectors = ulong(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ref_get_motion_vectors = ulong(intel_sub_group_avc_ref_result_t $result)
intel_sub_group_avc_ime_get_inter_distortions = ushort(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ref_get_inter_distortions = ushort(intel_sub_group_avc_ref_result_t $result)
intel_sub_group_avc_sic_get_inter_distortions = ushort(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_ime_get_best_inter_distortion = ushort(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ref_get_best_inter_distortion = ushort(intel_sub_group_avc_ref_result_t $result)
intel_sub_group_avc_ime_get_inter_major_shape = uchar(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ref_get_inter_major_shape = uchar(intel_sub_group_avc_ref_result_t $result)
intel_sub_group_avc_ime_get_inter_minor_shapes = uchar(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ref_get_inter_minor_shapes = uchar(intel_sub_group_avc_ref_result_t $result)
intel_sub_group_avc_ime_get_inter_directions = uchar(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ref_get_inter_directions = uchar(intel_sub_group_avc_ref_result_t $result)
intel_sub_group_avc_ime_get_inter_motion_vector_count = uchar(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ref_get_inter_motion_vector_count = uchar(intel_sub_group_avc_ref_result_t $result)
intel_sub_group_avc_ime_get_inter_reference_ids = uint(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_ref_get_inter_reference_ids = uint(intel_sub_group_avc_ref_result_t $result)
intel_sub_group_avc_ime_get_inter_reference_interlaced_field_polarities = uchar(uint, uint, intel_sub_group_avc_ime_result_t)
intel_sub_group_avc_ref_get_inter_reference_interlaced_field_polarities = uchar(uint, uint, intel_sub_group_avc_ref_result_t)
intel_sub_group_avc_ime_convert_to_mce_payload = intel_sub_group_avc_mce_payload_t(intel_sub_group_avc_ime_payload_t $payload)
intel_sub_group_avc_mce_convert_to_ime_payload = intel_sub_group_avc_ime_payload_t(intel_sub_group_avc_mce_payload_t $payload)
intel_sub_group_avc_ref_convert_to_mce_payload = intel_sub_group_avc_mce_payload_t(intel_sub_group_avc_ref_payload_t $payload)
intel_sub_group_avc_mce_convert_to_ref_payload = intel_sub_group_avc_ref_payload_t(intel_sub_group_avc_mce_payload_t $payload)
intel_sub_group_avc_sic_convert_to_mce_payload = intel_sub_group_avc_mce_payload_t(intel_sub_group_avc_sic_payload_t $payload)
intel_sub_group_avc_mce_convert_to_sic_payload = intel_sub_group_avc_sic_payload_t(intel_sub_group_avc_mce_payload_t $payload)
intel_sub_group_avc_ime_convert_to_mce_result = intel_sub_group_avc_mce_result_t(intel_sub_group_avc_ime_result_t $result)
intel_sub_group_avc_mce_convert_to_ime_result = intel_sub_group_avc_ime_result_t(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_ref_convert_to_mce_result = intel_sub_group_avc_mce_result_t(intel_sub_group_avc_ref_result_t $result)
intel_sub_group_avc_mce_convert_to_ref_result = intel_sub_group_avc_ref_result_t(intel_sub_group_avc_mce_result_t $result)
intel_sub_group_avc_sic_convert_to_mce_result = intel_sub_group_avc_mce_result_t(intel_sub_group_avc_sic_result_t $result)
intel_sub_group_avc_mce_convert_to_sic_result = intel_sub_group_avc_sic_result_t(intel_sub_group_avc_mce_result_t $result)
"#;

/// The per-type gentypes (`floatN`, `intNS`, `half1234`, ...), parsed before the table.
pub(crate) fn generated_gentypes() -> String {
    let mut s = String::new();
    for t in ALL_TYPES {
        s.push_str(&format!(
            "gen {t}N = {t} : 1 2 3 4 8 16\ngen {t}NS = {t} : 2 3 4 8 16\n"
        ));
    }
    for t in ["float", "double", "half"] {
        s.push_str(&format!("gen {t}1234 = {t} : 1 2 3 4\n"));
    }
    s
}

/// Generates the repetitive parts of the table: per-type gentypes, `convert_*`, `as_*`,
/// `vloadN`/`vstoreN`, `vstore_half*`, the C11 atomics and `shuffle`/`shuffle2`.
pub(crate) fn generated() -> String {
    let mut s = String::with_capacity(256 * 1024);
    let mut line = |l: String| {
        s.push_str(&l);
        s.push('\n');
    };

    // Explicit conversions (6.4.3): the source type zips over ConvSrc, clang's IType order.
    line("@ attr=const".into());
    for r in [
        "float", "double", "half", "char", "uchar", "short", "ushort", "int", "uint", "long",
        "ulong",
    ] {
        let sats: &[&str] = if matches!(r, "float" | "double" | "half") {
            &[""]
        } else {
            &["", "_sat"]
        };
        for sat in sats {
            for rnd in ["", "_rte", "_rtn", "_rtp", "_rtz"] {
                line(format!("convert_{r}{sat}{rnd} = {r}(ConvSrc)"));
                for v in [2, 3, 4, 8, 16] {
                    line(format!("convert_{r}{v}{sat}{rnd} = {r}{v}(ConvSrc@{v})"));
                }
            }
        }
    }

    // as_T reinterpretations (opencl-c-base.h macros over __builtin_astype, so library
    // builtins: absent without the default header).
    for t in ALL_TYPES {
        let ext = match t {
            "double" => " ext=cl_khr_fp64",
            "half" => " ext=cl_khr_fp16",
            _ => "",
        };
        line(format!("@{ext}"));
        line(format!("as_{t} = special(as_type)"));
        for v in [2, 3, 4, 8, 16] {
            line(format!("as_{t}{v} = special(as_type)"));
        }
    }
    line("@".into());
    line("as_size_t as_ptrdiff_t as_intptr_t as_uintptr_t = special(as_type)".into());

    // vloadN / vstoreN.
    let named = "ext=__opencl_c_named_address_space_builtins as=global,local,private";
    let generic = "ext=__opencl_c_generic_address_space as=generic";
    line(format!(
        "@ attr=pure {named} | attr=pure {generic} | attr=pure as=constant"
    ));
    for v in [2, 3, 4, 8, 16] {
        line(format!("vload{v} = ShufT@{v}(size_t, AS const ShufT *)"));
    }
    line(format!("@ {named} | {generic}"));
    for v in [2, 3, 4, 8, 16] {
        line(format!("vstore{v} = void(ShufT@{v}, size_t, AS ShufT *)"));
    }
    for rnd in ["", "_rte", "_rtz", "_rtp", "_rtn"] {
        line(format!("vstore_half{rnd} = void(float, size_t, AS half *)"));
        line(format!(
            "vstore_half{rnd} = void(double, size_t, AS half *)"
        ));
        for v in [2, 3, 4, 8, 16] {
            line(format!(
                "vstore_half{v}{rnd} vstorea_half{v}{rnd} = void(float{v}, size_t, AS half *)"
            ));
            line(format!(
                "vstore_half{v}{rnd} vstorea_half{v}{rnd} = void(double{v}, size_t, AS half *)"
            ));
        }
    }

    // C11-style atomics (6.15.12), per address space: generic with the generic address space,
    // global and local otherwise. Each op has the plain form (needs seq_cst order and device
    // scope), `_explicit` with an order (needs device scope) and with order and scope.
    for (base, spaces, exp_spaces) in [
        (
            "__opencl_c_generic_address_space",
            &["generic"][..],
            &["generic"][..],
        ),
        (
            "__opencl_c_named_address_space_builtins",
            &["global", "local"][..],
            &["global", "local", "private"][..],
        ),
    ] {
        let plain =
            format!("{base}+__opencl_c_atomic_order_seq_cst+__opencl_c_atomic_scope_device");
        let with_order = format!("{base}+__opencl_c_atomic_scope_device");
        for space in spaces {
            let explicit3 = |line: &mut dyn FnMut(String), name: &str, ret: &str, args: &str| {
                line(format!("@ since=2.0 ext={plain}"));
                line(format!("{name} = {ret}({args})"));
                line(format!("@ since=2.0 ext={with_order}"));
                line(format!("{name}_explicit = {ret}({args}, memory_order)"));
                line(format!("@ since=2.0 ext={base}"));
                line(format!(
                    "{name}_explicit = {ret}({args}, memory_order, memory_scope)"
                ));
            };
            for (a, t) in [
                ("atomic_int", "int"),
                ("atomic_uint", "uint"),
                ("atomic_long", "long"),
                ("atomic_ulong", "ulong"),
                ("atomic_float", "float"),
                ("atomic_double", "double"),
            ] {
                let p = format!("{space} volatile {a} *");
                line(format!("@ since=2.0 ext={base}"));
                line(format!("atomic_init = void({p}, {t})"));
                explicit3(&mut line, "atomic_store", "void", &format!("{p}, {t}"));
                explicit3(&mut line, "atomic_load", t, &p);
                explicit3(&mut line, "atomic_exchange", t, &format!("{p}, {t}"));
                for variant in ["weak", "strong"] {
                    for e in exp_spaces {
                        let args = format!("{p}, {e} {t} *, {t}");
                        let name = format!("atomic_compare_exchange_{variant}");
                        line(format!("@ since=2.0 ext={plain}"));
                        line(format!("{name} = bool({args})"));
                        line(format!("@ since=2.0 ext={with_order}"));
                        line(format!(
                            "{name}_explicit = bool({args}, memory_order, memory_order)"
                        ));
                        line(format!("@ since=2.0 ext={base}"));
                        line(format!(
                            "{name}_explicit = bool({args}, memory_order, memory_order, memory_scope)"
                        ));
                    }
                }
            }
            for (a, t, d) in [
                ("atomic_int", "int", "int"),
                ("atomic_uint", "uint", "uint"),
                ("atomic_long", "long", "long"),
                ("atomic_ulong", "ulong", "ulong"),
                ("atomic_uintptr_t", "uintptr_t", "ptrdiff_t"),
            ] {
                for op in ["add", "sub"] {
                    let args = format!("{space} volatile {a} *, {d}");
                    explicit3(&mut line, &format!("atomic_fetch_{op}"), t, &args);
                }
            }
            for (a, t) in [
                ("atomic_int", "int"),
                ("atomic_uint", "uint"),
                ("atomic_long", "long"),
                ("atomic_ulong", "ulong"),
            ] {
                for op in ["or", "xor", "and", "min", "max"] {
                    let args = format!("{space} volatile {a} *, {t}");
                    explicit3(&mut line, &format!("atomic_fetch_{op}"), t, &args);
                }
            }
            let p = format!("{space} volatile atomic_flag *");
            explicit3(&mut line, "atomic_flag_clear", "void", &p);
            explicit3(&mut line, "atomic_flag_test_and_set", "bool", &p);
        }
    }

    // cl_ext_float_atomics.
    for space in ["global", "local", "generic"] {
        let ext = |what: &str| -> String {
            let feat = |w: &str| format!("__opencl_c_ext_{w}");
            let suffix = match (space, what) {
                ("generic", w) => {
                    let (prec, op) = w.split_once('_').unwrap_or((w, ""));
                    return format!(
                        "cl_ext_float_atomics+{}+{}",
                        feat(&format!("{prec}_local_atomic_{op}")),
                        feat(&format!("{prec}_global_atomic_{op}"))
                    );
                }
                (s, w) => {
                    let (prec, op) = w.split_once('_').unwrap_or((w, ""));
                    feat(&format!("{prec}_{s}_atomic_{op}"))
                }
            };
            format!("cl_ext_float_atomics+{suffix}")
        };
        let explicit3 = |line: &mut dyn FnMut(String),
                         ext: &str,
                         name: &str,
                         ret: &str,
                         args: &str| {
            line(format!(
                "@ since=2.0 ext={ext}+__opencl_c_atomic_order_seq_cst+__opencl_c_atomic_scope_device"
            ));
            line(format!("{name} = {ret}({args})"));
            line(format!(
                "@ since=2.0 ext={ext}+__opencl_c_atomic_scope_device"
            ));
            line(format!("{name}_explicit = {ret}({args}, memory_order)"));
            line(format!("@ since=2.0 ext={ext}"));
            line(format!(
                "{name}_explicit = {ret}({args}, memory_order, memory_scope)"
            ));
        };
        let ls = if space == "generic" {
            "cl_ext_float_atomics+__opencl_c_ext_fp16_global_atomic_load_store+__opencl_c_ext_fp16_local_atomic_load_store".to_string()
        } else {
            format!("cl_ext_float_atomics+__opencl_c_ext_fp16_{space}_atomic_load_store")
        };
        let p = format!("{space} volatile atomic_half *");
        explicit3(
            &mut line,
            &ls,
            "atomic_store",
            "void",
            &format!("{p}, atomic_half"),
        );
        explicit3(&mut line, &ls, "atomic_load", "half", &p);
        explicit3(
            &mut line,
            &ls,
            "atomic_exchange",
            "half",
            &format!("{p}, half"),
        );
        for (op, kind) in [
            ("add", "add"),
            ("sub", "add"),
            ("min", "min_max"),
            ("max", "min_max"),
        ] {
            let name = format!("atomic_fetch_{op}");
            // clang declares the half add/sub on atomic_float (sic) and min/max on atomic_half.
            let half_atomic = if kind == "add" {
                "atomic_float"
            } else {
                "atomic_half"
            };
            explicit3(
                &mut line,
                &ext(&format!("fp16_{kind}")),
                &name,
                "half",
                &format!("{space} volatile {half_atomic} *, half"),
            );
            explicit3(
                &mut line,
                &ext(&format!("fp32_{kind}")),
                &name,
                "float",
                &format!("{space} volatile atomic_float *, float"),
            );
            explicit3(
                &mut line,
                &ext(&format!("fp64_{kind}")),
                &name,
                "double",
                &format!("{space} volatile atomic_double *, double"),
            );
        }
    }

    // shuffle / shuffle2 (6.15.13): every pair of widths in {2, 4, 8, 16}.
    line("@ attr=const".into());
    for n in [2, 4, 8, 16] {
        for m in [2, 4, 8, 16] {
            line(format!("shuffle = ShufT@{n}(ShufT@{m}, ShufM@{n})"));
        }
    }
    for n in [2, 4, 8, 16] {
        for m in [2, 4, 8, 16] {
            line(format!(
                "shuffle2 = ShufT@{n}(ShufT@{m}, ShufT@{m}, ShufM@{n})"
            ));
        }
    }
    s
}
