#!/usr/bin/python3
"""Mean total-variation distance over all k-column marginals of a real and a synthetic CSV.

usage: tvd_reference.py REAL.csv SYNTH.csv --k K [--bins B] [--categorical a,b] [--per-subset] [--json]

Written from the normative definition in reference/README.md ("Common preprocessing" and "TVD"),
with the Python standard library only, so that every TVD fixture can be rebuilt from the
repository:
  reading   every cell is a string token; missing = "" or "NA" (nothing else);
  columns   the synthetic file's columns are reordered to the real file's order;
  type      numeric iff not forced categorical and every non-missing token of both files matches
            ^[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?$ ; parsed with float();
  bins      numeric, pooled lo = min and hi = max of the non-missing values of both files;
            bin = min(B - 1, floor(((x - lo) / (hi - lo)) * B)), every value in bin 0 when hi == lo;
            a missing value is the cell B. Categorical: the token is the cell, missing its own cell;
  TVD_S     for each k-subset S in itertools.combinations order, cells are tuples of the k cells;
            TVD_S = sum |c_r * n_s - c_s * n_r| / (2 * n_r * n_s) (integer numerator, one division);
  result    (TVD_S1 + TVD_S2 + ...) / C(m, k), summed left to right.
The JSON carries k, bins, n_real, n_synth, n_subsets, mean_tvd, the per-column type (and lo, hi
for numeric columns) and, with --per-subset, the list of {"cols": [...], "tvd": TVD_S} in order.
"""
import argparse
import csv
import itertools
import json
import math
import re
import sys

NUMERIC = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
MISSING = ("", "NA")


def read_tokens(path):
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    if not rows:
        sys.exit(f"{path}: empty file")
    header, body = rows[0], rows[1:]
    columns = {name: [row[i] if i < len(row) else "" for row in body] for i, name in enumerate(header)}
    return header, columns, len(body)


def numeric_column(real, synth):
    tokens = [t for t in real + synth if t not in MISSING]
    return all(NUMERIC.match(t) for t in tokens)


def cells_of(real, synth, numeric, bins):
    if not numeric:
        code = lambda t: ("missing",) if t in MISSING else ("level", t)  # noqa: E731
        return [code(t) for t in real], [code(t) for t in synth], {"type": "cat"}
    values = [float(t) for t in real + synth if t not in MISSING]
    lo, hi = (min(values), max(values)) if values else (0.0, 0.0)

    def code(token):
        if token in MISSING:
            return bins
        if hi == lo:
            return 0
        return min(bins - 1, math.floor(((float(token) - lo) / (hi - lo)) * bins))

    return [code(t) for t in real], [code(t) for t in synth], {"type": "num", "lo": lo, "hi": hi}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("real")
    parser.add_argument("synth")
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--bins", type=int, default=10)
    parser.add_argument("--categorical", default="")
    parser.add_argument("--per-subset", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    header, real, n_real = read_tokens(args.real)
    synth_header, synth, n_synth = read_tokens(args.synth)
    if sorted(header) != sorted(synth_header):
        sys.exit("the two files have different columns")
    forced = {name for name in args.categorical.split(",") if name}
    real_cells, synth_cells, columns = {}, {}, {}
    for name in header:
        numeric = name not in forced and numeric_column(real[name], synth[name])
        real_cells[name], synth_cells[name], columns[name] = cells_of(real[name], synth[name], numeric, args.bins)

    per_subset = []
    total = 0.0
    subsets = list(itertools.combinations(header, args.k))
    for subset in subsets:
        counts = {}
        for i in range(n_real):
            key = tuple(real_cells[name][i] for name in subset)
            counts.setdefault(key, [0, 0])[0] += 1
        for i in range(n_synth):
            key = tuple(synth_cells[name][i] for name in subset)
            counts.setdefault(key, [0, 0])[1] += 1
        numerator = sum(abs(c_r * n_synth - c_s * n_real) for c_r, c_s in counts.values())
        tvd = numerator / (2 * n_real * n_synth)
        per_subset.append({"cols": list(subset), "tvd": tvd})
        total += tvd
    result = {
        "k": args.k,
        "bins": args.bins,
        "n_real": n_real,
        "n_synth": n_synth,
        "n_subsets": len(subsets),
        "mean_tvd": total / len(subsets),
        "columns": columns,
    }
    if args.per_subset:
        result["per_subset"] = per_subset
    print(json.dumps(result, indent=1) if args.json else result["mean_tvd"])


if __name__ == "__main__":
    main()
