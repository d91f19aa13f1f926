"""Exact leading binary words of r^k for the ratios the sparse noise sampler uses.

r is either e^(-s/t) (kind "expNeg") or 1/(1 + e^(-s/t)) (kind "inverseOnePlus"). For each
(kind, s, t, k) the script prints floor(r^k * 2^128) as four 32-bit words, computed with mpmath at
400 decimal digits (far beyond the 128 bits kept). Run: python3 tests/reference/rng/ratio_words.py
> tests/fixtures/rng/ratio-words.json
"""
import json

import mpmath

mpmath.mp.dps = 400

CASES = [
    ("inverseOnePlus", 1, 2, [1, 2, 3, 10, 33, 47]),
    ("inverseOnePlus", 5, 1, [1, 7, 100, 4096]),
    ("inverseOnePlus", 1, 1000, [1, 2, 31]),
    ("inverseOnePlus", 40, 1, [1, 4096, 123456789]),
    ("expNeg", 3, 4, [1, 2, 5, 40]),
    ("expNeg", 1, 3, [1, 17, 99]),
]


def ratio(kind, s, t):
    q = mpmath.e ** (-mpmath.mpf(s) / t)
    return q if kind == "expNeg" else 1 / (1 + q)


def words(value):
    scaled = int(mpmath.floor(value * mpmath.mpf(2) ** 128))
    return [(scaled >> (32 * (3 - i))) & 0xFFFFFFFF for i in range(4)]


rows = []
for kind, s, t, ks in CASES:
    r = ratio(kind, s, t)
    for k in ks:
        rows.append({"kind": kind, "s": s, "t": t, "k": k, "words": words(r**k)})
print(json.dumps({"source": "tests/reference/rng/ratio_words.py (mpmath, 400 digits)", "rows": rows}, indent=1))
