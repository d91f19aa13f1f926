#!/usr/bin/python3
"""Writes the deterministic real/synthetic CSV pairs used by the metric tests.

usage: make_fixture_data.py OUTDIR

Every table is drawn from numpy's default_rng with a fixed seed, so rerunning
rewrites identical files.  The "synthetic" tables are draws from slightly
different generators, not the output of any mechanism: they only need to
differ from the real table in known ways (missing levels, extra levels,
missing values only on one side, ties, a constant column, bin-edge values).

Missing cells are written empty.  No token is "NA"-like other than the empty
string, and no category is integer-coded, so column types are the same under
every reader (reference/README.md "Common preprocessing").
"""
import os
import sys

import numpy as np
import pandas as pd

EDUCATION = ["primary", "secondary", "bachelor", "master"]
REGIONS = ["north", "south", "east", "west", "central", "islands"]


def mixed_table(seed, n, regions, region_p, income_missing, edu_missing, shift):
    """Survey-like table: integer ages, tied hours, a multi-level region with gaps,
    income with missing values, a binary target and two constant columns."""
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 91, size=n)
    hours = rng.choice([20, 30, 35, 40, 40, 40, 45, 50, 60], size=n)
    sex = rng.choice(["F", "M"], size=n)
    edu_idx = rng.choice(4, size=n, p=[0.2, 0.4, 0.3, 0.1])
    education = np.array(EDUCATION, dtype=object)[edu_idx]
    region = rng.choice(np.array(regions, dtype=object), size=n, p=region_p)
    region_effect = {r: i * 1.5 for i, r in enumerate(REGIONS + ["overseas"])}
    income = (12 + 0.35 * age + 0.25 * hours + (6 + shift) * edu_idx + 4 * (sex == "M")
              + np.array([region_effect[r] for r in region]) + rng.normal(0, 7, size=n))
    score = np.round(rng.uniform(0, 1, size=n), 2)
    lin = -4.0 + 0.04 * age + 0.03 * hours + 0.5 * edu_idx + 0.4 * (sex == "M") + shift * 0.3
    high = np.where(rng.uniform(size=n) < 1 / (1 + np.exp(-lin)), "yes", "no")
    df = pd.DataFrame({
        "age": age.astype(str),
        "hours": hours.astype(str),
        "income": ["%.2f" % v for v in income],
        "score": ["%.2f" % v for v in score],
        "sex": sex,
        "education": education,
        "region": region,
        "high_income": high,
        "country": "US",
        "version": "1",
    })
    df.loc[rng.uniform(size=n) < income_missing, "income"] = ""
    df.loc[rng.uniform(size=n) < 0.05, "region"] = ""
    if edu_missing > 0:
        df.loc[rng.uniform(size=n) < edu_missing, "education"] = ""
    return df


def small_ties_tables():
    """Tiny tables with heavy ties, missing values only in the synthetic table,
    a level missing from the synthetic table and a constant numeric column."""
    rng = np.random.default_rng(11)
    real = pd.DataFrame({
        "x": rng.integers(1, 5, size=30).astype(str),
        "y": ["%.1f" % v for v in np.round(rng.normal(2, 1, size=30), 1)],
        "c": rng.choice(["a", "b", "c"], size=30),
        "const": "7",
    })
    synth = pd.DataFrame({
        "x": rng.integers(1, 6, size=24).astype(str),
        "y": ["%.1f" % v for v in np.round(rng.normal(2.3, 1.2, size=24), 1)],
        "c": rng.choice(["a", "b"], size=24),
        "const": "7",
    })
    synth.loc[[3, 17], "x"] = ""
    synth.loc[[5], "y"] = ""
    return real, synth


def edges_tables():
    """Values at and next to equal-width bin edges (0.3 lands in bin 2 because
    0.3 * 10 = 2.9999999999999996 in double arithmetic) and non-ASCII tokens."""
    real = pd.DataFrame({
        "v": ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"],
        "w": ["-5", "-4.5", "-1", "0", "0", "2.5", "3", "3", "4.999", "5", "5"],
        "t": ["é", "Z", "a", "é", "a", "a", "Z", "zz", "é", "a", "Z"],
    })
    synth = pd.DataFrame({
        "v": ["0.3", "0.3", "0.7", "0.6", "0.29999", "0.1", "1", "0.05", "0.95", "0.5", "0.5", "0.2", "0.8"],
        "w": ["-5", "5", "0", "1e0", "2.5", "-2.5", "", "4.5", "-4.5", "3", "0.5", "", "5"],
        "t": ["a", "a", "é", "Ä", "Z", "Z", "a", "", "é", "a", "zz", "a", "Z"],
    })
    return real, synth


def wide_tables():
    """2,000 x 9 real and 1,800 x 9 synthetic rows: 84 three-way subsets, so the
    order of the mean's summation matters for bit-exactness."""
    def draw(seed, n, rho):
        rng = np.random.default_rng(seed)
        z = rng.normal(size=(n, 3))
        a = z[:, 0]
        b = rho * z[:, 0] + np.sqrt(1 - rho ** 2) * z[:, 1]
        df = pd.DataFrame({
            "a": ["%.4f" % v for v in a],
            "b": ["%.3f" % v for v in b],
            "c": ["%.6g" % v for v in np.exp(z[:, 2])],
            "d": rng.integers(0, 1000, size=n).astype(str),
            "e": rng.choice(["p", "q", "r", "s", "t"], size=n),
            "f": rng.choice(["u", "v"], size=n, p=[0.7, 0.3]),
            "g": rng.choice(["L%02d" % i for i in range(25)], size=n),
            "h": ["%.2f" % v for v in rng.gamma(2.0, 3.0, size=n)],
            "i": np.where(a + rng.normal(size=n) > 0, "hi", "lo"),
        })
        df.loc[rng.uniform(size=n) < 0.03, "h"] = ""
        df.loc[rng.uniform(size=n) < 0.02, "e"] = ""
        return df
    return draw(21, 2000, 0.6), draw(22, 1800, 0.4)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write = lambda df, name: df.to_csv(os.path.join(out, name), index=False)  # noqa: E731
    p_real = [0.2, 0.2, 0.15, 0.15, 0.2, 0.1]
    write(mixed_table(1, 400, REGIONS, p_real, 0.08, 0.0, 0.0), "mixed_real.csv")
    write(mixed_table(101, 350, ["north", "south", "east", "west", "central", "overseas"],
                      [0.25, 0.2, 0.15, 0.15, 0.2, 0.05], 0.05, 0.0, 0.4), "mixed_synth.1.csv")
    write(mixed_table(102, 350, REGIONS, p_real, 0.0, 0.04, -0.3), "mixed_synth.2.csv")
    write(mixed_table(103, 350, REGIONS, [0.1, 0.3, 0.15, 0.15, 0.2, 0.1], 0.12, 0.0, 0.2),
          "mixed_synth.3.csv")
    real, synth = small_ties_tables()
    write(real, "small_ties_real.csv")
    write(synth, "small_ties_synth.csv")
    real, synth = edges_tables()
    write(real, "edges_real.csv")
    write(synth, "edges_synth.csv")
    real, synth = wide_tables()
    write(real, "wide_real.csv")
    write(synth, "wide_synth.csv")


if __name__ == "__main__":
    main()
