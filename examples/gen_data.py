#!/usr/bin/env python3
"""Writes the data files of the examples and prints the histogram's expected counts.

matmul: A[i][k] = ((7i + 3k) mod 17 - 8) / 8 and B[k][j] = ((5k + 11j) mod 13 - 6) / 4 for
128x128 matrices; C = A B is computed exactly with fractions (every product is a multiple of
1/32 and every sum is below 2^8 in magnitude, so float holds each partial sum exactly and the
device's result must equal C bit for bit, whatever the order of the additions).

histogram: 65536 bytes, each the mean (rounded down) of two bytes from the C library's
classic LCG (state = state * 1103515245 + 12345 mod 2^31, byte = state >> 16 & 255, seed 1),
which gives a triangular distribution; the counts are printed as the TOML list in
histogram.toml.

Run from this directory: python3 gen_data.py
"""
import struct
from fractions import Fraction

N = 128


def matmul():
    a = [[Fraction((7 * i + 3 * k) % 17 - 8, 8) for k in range(N)] for i in range(N)]
    b = [[Fraction((5 * k + 11 * j) % 13 - 6, 4) for j in range(N)] for k in range(N)]
    c = [[sum(a[i][k] * b[k][j] for k in range(N)) for j in range(N)] for i in range(N)]
    for name, m in (("a", a), ("b", b), ("c", c)):
        flat = [float(x) for row in m for x in row]
        assert all(struct.unpack("<f", struct.pack("<f", x))[0] == x for x in flat)
        with open(f"matmul_{name}.bin", "wb") as f:
            f.write(struct.pack(f"<{len(flat)}f", *flat))


def histogram():
    state = 1

    def byte():
        nonlocal state
        state = (state * 1103515245 + 12345) % (1 << 31)
        return (state >> 16) & 255

    data = bytes((byte() + byte()) // 2 for _ in range(65536))
    with open("histogram_data.bin", "wb") as f:
        f.write(data)
    counts = [0] * 256
    for x in data:
        counts[x] += 1
    rows = [", ".join(str(c) for c in counts[i:i + 16]) for i in range(0, 256, 16)]
    print("hist = { equals = [\n    " + ",\n    ".join(rows) + ",\n] }")


if __name__ == "__main__":
    matmul()
    histogram()
