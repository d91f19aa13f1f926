#!/usr/bin/python3
"""Writes a deterministic noisy counterpart of a CSV, an input for metric tests (not a synthesizer).

usage: make_noisy_counterpart.py real.csv out.csv [--seed S]

A column is numeric when every non-missing token parses as a number ("" and "NA" are missing).
Numeric cells get Normal(0, (sd/4)^2) noise, sd the column's population standard deviation, and are
written with the column's largest number of decimals; a categorical cell is replaced, with
probability 0.2, by the value of a uniformly chosen row of the same column. Missing cells stay empty.
Needs Python 3 and numpy only.
"""
import argparse
import csv

import numpy as np

MISSING = {"", "NA"}


def is_number(token):
    try:
        float(token)
        return True
    except ValueError:
        return False


def decimals(token):
    if "e" in token.lower() or "." not in token:
        return 0
    return len(token.split(".")[1])


def noisy_numeric(tokens, rng):
    present = [t not in MISSING for t in tokens]
    values = np.array([float(t) if p else np.nan for t, p in zip(tokens, present)])
    sd = np.nanstd(values)
    places = max(decimals(t) for t, p in zip(tokens, present) if p)
    noisy = np.round(values + rng.normal(0.0, 0.25 * sd, size=len(tokens)), places)
    return [("%.*f" % (places, x) if places > 0 else str(int(x))) if p else "" for x, p in zip(noisy, present)]


def noisy_categorical(tokens, rng):
    replace = rng.random(len(tokens)) < 0.2
    donors = rng.integers(0, len(tokens), size=len(tokens))
    kept = ["" if t in MISSING else t for t in tokens]
    return [kept[d] if r else t for t, r, d in zip(kept, replace, donors)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("real")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    with open(args.real, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    columns = []
    for j in range(len(header)):
        tokens = [row[j] for row in body]
        numeric = all(is_number(t) for t in tokens if t not in MISSING)
        columns.append(noisy_numeric(tokens, rng) if numeric else noisy_categorical(tokens, rng))
    with open(args.out, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(zip(*columns))


if __name__ == "__main__":
    main()
