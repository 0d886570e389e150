typedef struct { int a; float4 v; char c; } S;
union U { int i; float f; };

S make(int a) {
    S s = { a, (float4)(1.0f, 2.0f, 3.0f, 4.0f), 'x' };
    return s;
}

kernel void k(global float *out) {
    S s = make(3);
    union U u;
    u.f = s.v.y + s.v.hi.x;
    s.v.xz = (float2)(u.f, 7.0f);
    out[0] = s.v.x + s.v.z + (float)s.a + (float)u.i * 0.0f;
}
