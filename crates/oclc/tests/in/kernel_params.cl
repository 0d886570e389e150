// FLAGS: -cl-std=CL2.0
kernel void a(int *p) {}
kernel void b(private int *p) {}
kernel int c(global int *p) { return 0; }
