#!/usr/bin/python3
"""Deterministic real/synthetic CSV pairs for the pMSE reference fixtures.

usage: make_pmse_data.py OUTDIR

Writes OUTDIR/<name>_real.csv and OUTDIR/<name>_synth.csv for each dataset below.
Missing cells are written empty.  numpy default_rng seeds are fixed, so the files are
reproducible; they are committed next to the JSON computed from them.

  mixed      : 400 + 400 rows; integer age (ties), rounded income, 3- and 6-level
               categoricals, a constant column, a numeric column with missing values and a
               categorical column with missing values (both files)
  ties       : 300 + 300 rows of small integers 0..5 and a binary label column "b"/"a"
  unbalanced : 500 real + 250 synthetic rows, c != 1/2; continuous + 4-level categorical
  continuous : 1000 + 1000 rows, 3 continuous columns, synthetic shifted/rescaled
  manylevels : 600 + 600 rows, a 40-level categorical (native subset splits beyond 32 levels)
  nullsplit  : one sample of 700 rows split at random into 350 + 350 (near-null case)
"""
import os
import sys

import numpy as np


def write(path, names, columns):
    n = len(columns[0])
    with open(path, "w") as fh:
        fh.write(",".join(names) + "\n")
        for i in range(n):
            fh.write(",".join("" if c[i] is None else c[i] for c in columns) + "\n")


def fmt_num(values, decimals):
    if decimals == 0:
        return [str(int(v)) for v in values]
    return ["%.*f" % (decimals, v) for v in values]


def with_missing(tokens, rng, rate):
    mask = rng.random(len(tokens)) < rate
    return [None if m else t for t, m in zip(tokens, mask)]


def mixed(rng, n, shift):
    age = np.clip(np.round(rng.normal(45 + 3 * shift, 12, n)), 18, 90)
    income = np.round(np.exp(rng.normal(10 + 0.2 * shift, 0.5, n)) / 1000, 2)
    region = rng.choice(["north", "south", "west"], n, p=[0.5 - 0.1 * shift, 0.3, 0.2 + 0.1 * shift])
    job = rng.choice(["a1", "b2", "c3", "d4", "e5", "f6"], n)
    const = ["7"] * n
    hours = np.round(rng.normal(38 + 2 * shift, 6, n))
    tenure = rng.choice(["own", "rent", "other"], n, p=[0.5, 0.4, 0.1])
    names = ["age", "income", "region", "job", "const", "hours", "tenure"]
    cols = [fmt_num(age, 0), fmt_num(income, 2), list(region), list(job), const,
            with_missing(fmt_num(hours, 0), rng, 0.1), with_missing(list(tenure), rng, 0.08)]
    return names, cols


def ties(rng, n, shift):
    x1 = rng.integers(0, 6, n)
    x2 = np.minimum(5, rng.poisson(1.5 + 0.4 * shift, n))
    x3 = rng.integers(0, 3, n)
    lab = rng.choice(["a", "b"], n, p=[0.5 + 0.1 * shift, 0.5 - 0.1 * shift])
    return ["x1", "x2", "x3", "lab"], [fmt_num(x1, 0), fmt_num(x2, 0), fmt_num(x3, 0), list(lab)]


def unbalanced(rng, n, shift):
    u = rng.normal(0.2 * shift, 1, n)
    v = rng.gamma(2 + shift, 1.0, n)
    g = rng.choice(["p", "q", "r", "s"], n, p=[0.4, 0.3, 0.2 - 0.05 * shift, 0.1 + 0.05 * shift])
    return ["u", "v", "g"], [fmt_num(u, 4), fmt_num(v, 3), list(g)]


def continuous(rng, n, shift):
    z = rng.standard_normal((n, 3))
    z[:, 0] += 0.25 * shift
    z[:, 1] *= 1 + 0.2 * shift
    z[:, 2] += 0.3 * shift * z[:, 0]
    return ["z1", "z2", "z3"], [[repr(float(v)) for v in z[:, j]] for j in range(3)]


def manylevels(rng, n, shift):
    levels = ["L%02d" % k for k in range(40)]
    p = np.linspace(1, 2 + shift, 40)
    p = p / p.sum()
    lev = rng.choice(levels, n, p=p)
    w = np.round(rng.normal(0, 1, n) + 0.2 * shift, 2)
    return ["lev", "w"], [list(lev), fmt_num(w, 2)]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20240611)
    for name, gen, n_real, n_synth in [("mixed", mixed, 400, 400), ("ties", ties, 300, 300),
                                       ("unbalanced", unbalanced, 500, 250),
                                       ("continuous", continuous, 1000, 1000),
                                       ("manylevels", manylevels, 600, 600)]:
        names, real = gen(rng, n_real, 0)
        _, synth = gen(rng, n_synth, 1)
        write(os.path.join(out, name + "_real.csv"), names, real)
        write(os.path.join(out, name + "_synth.csv"), names, synth)
    names, both = mixed(rng, 700, 0)
    perm = rng.permutation(700)
    half = [[c[i] for i in perm[:350]] for c in both]
    other = [[c[i] for i in perm[350:]] for c in both]
    write(os.path.join(out, "nullsplit_real.csv"), names, half)
    write(os.path.join(out, "nullsplit_synth.csv"), names, other)


if __name__ == "__main__":
    main()
