// Attributes and address-space attributes in every position.
typedef float4 __attribute__((aligned(16))) aligned_f4;
struct __attribute__((packed)) Packed { char c; int i; } __attribute__((aligned(4)));

__kernel __attribute__((vec_type_hint(float4))) __attribute__((work_group_size_hint(8, 8, 1)))
void k(__attribute__((opencl_global)) int *g, __attribute__((opencl_local)) int *l,
       __attribute__((opencl_constant)) int *c, __attribute__((opencl_private)) int *p,
       __attribute__((address_space(1))) int *n1, [[clang::opencl_global]] int *x,
       __attribute__((opencl_global_device)) int *gd, __attribute__((opencl_global_host)) int *gh) {
  int v __attribute__((aligned(8))) = 0;
  int *__attribute__((opencl_private)) q = &v;
  __attribute__((nomerge)) *q = 1;
}

void f(void) __attribute__((overloadable));
void f(int) __attribute__((overloadable, always_inline));
int __attribute__((endian(host))) e;
