__attribute__((aligned(4)) int a;
__attribute__(aligned) int b;
int c __attribute__((aligned(4);
