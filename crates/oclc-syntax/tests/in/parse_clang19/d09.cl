typedef float4 F;
F f(F a) { return (F)(a.x, a.y, a.z, a.w); }
kernel void k(global F *p) { *p = f(*p); }
