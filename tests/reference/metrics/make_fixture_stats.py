#!/usr/bin/python3
"""Expected per-column statistics, correlation matrices and TVDs for one
real/synthetic CSV pair, as JSON on stdout.

usage: make_fixture_stats.py REAL.csv SYNTH.csv TVD_REF_SCRIPT

Definitions (the TypeScript metrics must agree to the stated tolerances):
  reading/typing: reference/README.md "Common preprocessing" (refcommon.py rules:
      missing = "" or "NA"; numeric iff every non-missing token in both files
      matches the numeric regex).
  per column, numeric (non-missing values only):
      ks          = scipy.stats.ks_2samp(real, synth).statistic
      wasserstein = scipy.stats.wasserstein_distance(real, synth)
      mean, sd    = numpy mean and sample SD (ddof = 1)
  every column: missing_rate = share of missing cells; tvd = one-way TVD from
      the reference TVD script (numeric columns in 10 equal-width bins).
  correlation, pairwise complete observations (rows where both are present):
      numeric-numeric         Pearson r (scipy.stats.pearsonr)
      categorical-categorical Cramer's V without continuity correction
                              (scipy.stats.contingency.association, method="cramer")
                              over the observed levels
      numeric-categorical     correlation ratio eta = sqrt(SS_between / SS_total)
      undefined (constant column, fewer than 2 observed levels or rows): null
      diagonal: 1 when the column is defined with itself, else null.
  tvd: output of TVD_REF_SCRIPT --k K --per-subset --json for K = 1, 2, 3 with the
      exact command recorded.
"""
import json
import math
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import scipy
from scipy import stats
from scipy.stats import contingency

NUMERIC_RE = r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$"


def read(path):
    df = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=["", "NA"])
    return df.astype(object).where(df.notna(), None)


def column_types(real, synth):
    types = {}
    for c in real.columns:
        toks = pd.Series([t for t in list(real[c]) + list(synth[c]) if t is not None], dtype=object)
        types[c] = "numeric" if len(toks) > 0 and toks.str.match(NUMERIC_RE).all() else "categorical"
    return types


def as_numeric(series):
    return np.array([np.nan if t is None else float(t) for t in series], dtype=np.float64)


def finite_or_none(x):
    return None if x is None or not math.isfinite(x) else float(x)


def per_column(real, synth, types):
    out = {}
    for c in real.columns:
        entry = {
            "missing_rate_real": sum(t is None for t in real[c]) / len(real),
            "missing_rate_synth": sum(t is None for t in synth[c]) / len(synth),
        }
        if types[c] == "numeric":
            r = as_numeric(real[c]); r = r[~np.isnan(r)]
            s = as_numeric(synth[c]); s = s[~np.isnan(s)]
            entry["ks"] = float(stats.ks_2samp(r, s).statistic) if len(r) and len(s) else None
            entry["wasserstein"] = float(stats.wasserstein_distance(r, s)) if len(r) and len(s) else None
            entry["mean_real"] = float(np.mean(r)) if len(r) else None
            entry["mean_synth"] = float(np.mean(s)) if len(s) else None
            entry["sd_real"] = float(np.std(r, ddof=1)) if len(r) > 1 else None
            entry["sd_synth"] = float(np.std(s, ddof=1)) if len(s) > 1 else None
        out[c] = entry
    return out


def pearson(x, y):
    ok = ~np.isnan(x) & ~np.isnan(y)
    x, y = x[ok], y[ok]
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return None
    return finite_or_none(stats.pearsonr(x, y)[0])


def cramers_v(a, b):
    pairs = [(u, v) for u, v in zip(a, b) if u is not None and v is not None]
    if not pairs:
        return None
    tab = pd.crosstab(pd.Series([u for u, _ in pairs]), pd.Series([v for _, v in pairs])).values
    if min(tab.shape) < 2:
        return None
    return finite_or_none(contingency.association(tab, method="cramer", correction=False))


def eta(y, groups):
    ok = [i for i in range(len(y)) if not np.isnan(y[i]) and groups[i] is not None]
    if len(ok) < 2:
        return None
    yy = y[ok]
    gg = np.array([groups[i] for i in ok], dtype=object)
    total = float(np.sum((yy - yy.mean()) ** 2))
    if total == 0:
        return None
    between = sum(len(yy[gg == g]) * (yy[gg == g].mean() - yy.mean()) ** 2 for g in sorted(set(gg.tolist())))
    return math.sqrt(between / total)


def correlation_matrix(df, types):
    cols = list(df.columns)
    num = {c: as_numeric(df[c]) for c in cols if types[c] == "numeric"}
    cat = {c: list(df[c]) for c in cols if types[c] == "categorical"}
    m = [[None] * len(cols) for _ in cols]
    for i, a in enumerate(cols):
        for j, b in enumerate(cols):
            if types[a] == "numeric" and types[b] == "numeric":
                v = pearson(num[a], num[b])
            elif types[a] == "categorical" and types[b] == "categorical":
                v = cramers_v(cat[a], cat[b])
            elif types[a] == "numeric":
                v = eta(num[a], cat[b])
            else:
                v = eta(num[b], cat[a])
            if i == j and v is not None:
                v = 1.0
            m[i][j] = v
    return m


def tvd_results(real_path, synth_path, script):
    out = {}
    for k in (1, 2, 3):
        cmd = ["/usr/bin/python3", script, real_path, synth_path, "--k", str(k), "--per-subset", "--json"]
        res = json.loads(subprocess.check_output(cmd, text=True))
        out[str(k)] = {
            "command": " ".join(cmd),
            "mean_tvd": res["mean_tvd"],
            "per_subset": res["per_subset"],
        }
    return out


def main():
    real_path, synth_path, script = sys.argv[1:4]
    real, synth = read(real_path), read(synth_path)
    synth = synth[list(real.columns)]
    types = column_types(real, synth)
    out = {
        "generated_by": "tests/reference/metrics/make_fixture_stats.py %s %s %s" % (real_path, synth_path, script),
        "versions": {"numpy": np.__version__, "pandas": pd.__version__, "scipy": scipy.__version__},
        "real": os.path.basename(real_path),
        "synth": os.path.basename(synth_path),
        "column_types": types,
        "columns": list(real.columns),
        "per_column": per_column(real, synth, types),
        "correlation_real": correlation_matrix(real, types),
        "correlation_synth": correlation_matrix(synth, types),
        "tvd": tvd_results(real_path, synth_path, script),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
