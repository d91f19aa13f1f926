"""The xoshiro128** state that SeededRng derives from a seed string, and its first outputs.

Written from the description in src/core/rng/seeded-rng.ts, not from its code: the seed string's
UTF-16 code units are absorbed one by one into a 64-bit SplitMix64 state that starts at the string's
length (state <- mix64(state + GOLDEN_GAMMA + unit)); then two SplitMix64 steps (state += GOLDEN_GAMMA,
output mix64(state)) give the four 32-bit words, high half first; xoshiro128** 1.1 (Blackman & Vigna,
reference code at prng.di.unimi.it) then runs from them. mix64 is Stafford's variant 13 as in
SplitMix64 (Steele, Lea & Flood 2014). Run: python3 tests/reference/rng/seed_words.py >
tests/fixtures/rng/seed-words.json
"""
import json

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15

SEEDS = ["", "a", "42", "-7.5", "dpsynth", "\u0000", "h\u00e9llo \u2713", "\U0001F600 seed"]


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def utf16_units(text):
    data = text.encode("utf-16-le")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def state_words(seed):
    units = utf16_units(seed)
    state = len(units)
    for unit in units:
        state = mix64((state + GOLDEN_GAMMA + unit) & MASK64)
    words = []
    for _ in range(2):
        state = (state + GOLDEN_GAMMA) & MASK64
        out = mix64(state)
        words += [out >> 32, out & MASK32]
    if not any(words):
        words[0] = 1
    return words


def rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & MASK32


def xoshiro128starstar(s, count):
    s = list(s)
    out = []
    for _ in range(count):
        out.append((rotl((s[1] * 5) & MASK32, 7) * 9) & MASK32)
        t = (s[1] << 9) & MASK32
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 11)
    return out


rows = [{"seed": seed, "state": state_words(seed), "first": xoshiro128starstar(state_words(seed), 4)} for seed in SEEDS]
print(json.dumps({"generator": "tests/reference/rng/seed_words.py", "rows": rows}, indent=1, ensure_ascii=True))
