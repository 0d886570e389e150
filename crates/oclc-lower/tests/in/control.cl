int classify(int x) {
    switch (x) {
    case 0:
        return 10;
    case 1:
    case 2:
        x += 5;
    default:
        x *= 2;
        break;
    }
    return x > 4 && x < 100 ? x : -x;
}

kernel void k(global int *out, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0)
            continue;
        sum += classify(i);
    }
    out[get_global_id(0)] = sum;
}
