__constant int table[] = { 0, 1, 2, 3, 4, 5, 6, 7 };

kernel void copy(global uint *results) {
    uint tid = get_global_id(0);
    local int data[8];
    for (int i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        data[i] = table[i];
    const int *ptr = data;
    int2 a = vload2(2, ptr);
    int2 b = vload2(2, data);
    results[tid] = all(a == b);
}
