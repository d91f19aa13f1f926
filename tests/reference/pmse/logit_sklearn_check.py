#!/usr/bin/python3
"""Independent scikit-learn check of the main-effects logit pMSE fixtures.

usage (from anywhere): /usr/bin/python3 tests/reference/pmse/logit_sklearn_check.py

For every tests/fixtures/pmse/logit-*-main.json written by pmse_fixture.R (R glm) whose
"n_extreme_p" is 0 (no fitted probability within 1e-8 of 0 or 1, i.e. no separation, so the MLE
exists and is unique), reads the fixture's real/synthetic CSV pair (the two file arguments of its
"command"), builds the main-effects design with the normative preprocessing of
shared/reference/README.md "Common preprocessing", fits an unpenalised logistic regression with
scikit-learn and writes tests/fixtures/pmse/logit-sklearn-check.json with sklearn's and R's pMSE,
k and S_pMSE side by side.

Preprocessing (normative):
  * every cell is a string token; "" and "NA" are missing; synthetic columns in the real order;
  * a column is numeric iff every non-missing token in both files matches NUMERIC_RE;
  * categorical levels = pooled tokens (missing = "<NA>") sorted by code point; treatment coding
    with the first level as reference (0/1 column for each later level);
  * pooled-constant columns (missing counting as a value) are dropped;
  * a numeric missing value becomes 0 and an indicator "<name>_NA" is appended after all columns;
  * rows = real (label 0) then synthetic (label 1); N = n_real + n_synth, c = n_synth / N.
Design = intercept, numeric columns and dummies in column order, then the NA indicators.
Aliased columns: scanning left to right, a column is dropped when it does not raise the numpy
rank (np.linalg.matrix_rank) of the columns kept so far (R's glm also drops the later of two
dependent columns); k = number of kept columns = rank of the design.
pMSE = mean((p - c)^2), E[pMSE] = (k - 1)(1 - c)^2 c / N, S_pMSE = pMSE / E[pMSE].

Uses only the standard library, numpy and scikit-learn (Debian's /usr/bin/python3: sklearn 1.2).
"""
import csv
import glob
import json
import os
import re
import shlex
import sys
import warnings

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
FIXTURE_DIR = os.path.join(ROOT, "tests", "fixtures", "pmse")
OUT = os.path.join(FIXTURE_DIR, "logit-sklearn-check.json")
COMMAND = "/usr/bin/python3 tests/reference/pmse/logit_sklearn_check.py"

NA_TOKENS = ("", "NA")
NUMERIC_RE = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
NA_LEVEL = "<NA>"


def read_tokens(path):
    """Header and rows of a CSV, each cell a string token or None (missing)."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    for i, row in enumerate(body):
        if len(row) != len(header):
            sys.exit("%s: row %d has %d cells, header has %d"
                     % (path, i + 2, len(row), len(header)))
    return header, [[None if t in NA_TOKENS else t for t in row] for row in body]


def main_effects_design(real_path, synth_path):
    """Return (X with intercept, column names, labels y)."""
    real_header, real_rows = read_tokens(real_path)
    synth_header, synth_rows = read_tokens(synth_path)
    if set(real_header) != set(synth_header):
        sys.exit("column sets differ: %s vs %s" % (real_header, synth_header))
    n_real, n_synth = len(real_rows), len(synth_rows)
    N = n_real + n_synth
    mats, names, na_mats, na_names = [np.ones((N, 1))], ["(Intercept)"], [], []
    for name in real_header:
        j_real, j_synth = real_header.index(name), synth_header.index(name)
        pooled = [row[j_real] for row in real_rows] + [row[j_synth] for row in synth_rows]
        present = [t for t in pooled if t is not None]
        if present and all(NUMERIC_RE.match(t) for t in present):
            missing = np.array([t is None for t in pooled])
            x = np.array([0.0 if t is None else float(t) for t in pooled])
            distinct = len(set(x[~missing].tolist())) + (1 if missing.any() else 0)
            if distinct <= 1:
                continue  # constant column
            mats.append(x[:, None])
            names.append(name)
            if missing.any():
                na_mats.append(missing.astype(np.float64)[:, None])
                na_names.append(name + "_NA")
        else:
            tokens = [NA_LEVEL if t is None else t for t in pooled]
            levels = sorted(set(tokens))  # Python str order = Unicode code point order
            if len(levels) <= 1:
                continue  # constant column
            for level in levels[1:]:  # treatment coding, first sorted level is the reference
                mats.append(np.array([1.0 if t == level else 0.0 for t in tokens])[:, None])
                names.append(name + level)  # R's naming: column name followed by the level
    X = np.hstack(mats + na_mats)
    y = np.concatenate([np.zeros(n_real), np.ones(n_synth)])
    return X, names + na_names, y


def independent_columns(X):
    """Left-to-right maximal linearly independent column subset (numpy rank)."""
    keep = []
    for j in range(X.shape[1]):
        if np.linalg.matrix_rank(X[:, keep + [j]]) == len(keep) + 1:
            keep.append(j)
    return keep


def fit_propensities(X, y):
    """In-sample P(label = 1) of an unpenalised logistic regression on X (intercept in column 0).

    sklearn fits the intercept itself (fit_intercept=True on X without its column of ones: with an
    explicit column, newton-cg's line search stalls earlier on some fixtures).  tol = 1e-12 bounds
    max |gradient| of the summed log-loss; in double precision the line search cannot always get
    that far (the loss changes by less than its rounding), and newton-cg then warns and returns the
    last iterate.  Such warnings are recorded, and the largest |score| X'(y - p) at the returned
    coefficients is reported so that the closeness to the MLE can be judged.
    """
    model = LogisticRegression(penalty=None, solver="newton-cg", tol=1e-12, max_iter=10000,
                               fit_intercept=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(X[:, 1:], y)
    p = model.predict_proba(X[:, 1:])[:, list(model.classes_).index(1.0)]
    messages = sorted(set(str(w.message).split("\n")[0] for w in caught))
    return p, {"iterations": int(model.n_iter_[0]), "warnings": messages,
               "max_abs_score": float(np.max(np.abs(X.T @ (y - p))))}


def check(fixture_path):
    with open(fixture_path, encoding="utf-8") as f:
        fixture = json.load(f)
    args = shlex.split(fixture["command"])
    files = []
    i = args.index("tests/reference/pmse/pmse_fixture.R") + 1
    while i < len(args):
        if args[i].startswith("--"):
            i += 2
        else:
            files.append(args[i])
            i += 1
    real_path, synth_path = (os.path.join(ROOT, p) for p in files)
    X, names, y = main_effects_design(real_path, synth_path)
    keep = independent_columns(X)
    if keep[0] != 0:
        sys.exit("%s: the intercept column is not kept" % fixture["name"])
    p, fit = fit_propensities(X[:, keep], y)
    N = len(y)
    c = float(y.sum()) / N
    pmse = float(np.mean((p - c) ** 2))
    k = len(keep)
    expected = (k - 1) * (1 - c) ** 2 * c / N
    # pmse_fixture.R names the model columns v001, v002, ... (position in "columns")
    r_names = [re.sub(r"v(\d{3})", lambda m: fixture["columns"][int(m.group(1)) - 1], n)
               for n in fixture["coefficient_names"]]
    entry = {
        "name": fixture["name"],
        "real": files[0],
        "synth": files[1],
        "pMSE_sklearn": pmse,
        "pMSE_R": fixture["pMSE"],
        "relative_difference": abs(pmse - fixture["pMSE"]) / abs(fixture["pMSE"]),
        "k_sklearn": k,
        "k_R": fixture["k"],
        "design_columns_as_R": names == r_names,
        "S_pMSE_sklearn": pmse / expected,
        "S_pMSE_R": fixture["S_pMSE"],
        "aliased_sklearn": [names[j] for j in range(len(names)) if j not in keep],
        "n_extreme_p_sklearn": int(np.sum((p < 1e-8) | (p > 1 - 1e-8))),
        "newton_cg_iterations": fit["iterations"],
        "newton_cg_warnings": fit["warnings"],
        "max_abs_score": fit["max_abs_score"],
    }
    return entry


def main():
    results = []
    for path in sorted(glob.glob(os.path.join(FIXTURE_DIR, "logit-*-main.json"))):
        with open(path, encoding="utf-8") as f:
            fixture = json.load(f)
        if fixture.get("model") != "logit" or fixture.get("maxorder") != 0:
            continue
        if fixture["n_extreme_p"] != 0:
            continue  # separation: the MLE does not exist, nothing to compare
        entry = check(path)
        results.append(entry)
        print("%-24s pMSE sklearn %.17g R %.17g rel diff %.3g k %d/%d" % (
            entry["name"], entry["pMSE_sklearn"], entry["pMSE_R"], entry["relative_difference"],
            entry["k_sklearn"], entry["k_R"]))
    out = {"command": COMMAND, "sklearn_version": sklearn.__version__,
           "numpy_version": np.__version__,
           "solver": "LogisticRegression(penalty=None, solver='newton-cg', tol=1e-12, "
                     "max_iter=10000, fit_intercept=True) on the kept design columns without "
                     "the intercept column",
           "fixtures": results}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    print("wrote %s (%d fixtures)" % (os.path.relpath(OUT, ROOT), len(results)))


if __name__ == "__main__":
    main()
