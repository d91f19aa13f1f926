#!/usr/bin/python3
"""Times scikit-learn's CART on the CSVs written by bench/cart.bench.ts; one JSON line per shape.

usage: time_cart_sklearn.py DIR N1,N2,... Q1,Q2,...
full: DecisionTreeClassifier(criterion="gini", min_samples_leaf=5, random_state=0).fit(X, y)
      + predict_proba(X) (sklearn's full tree has no depth cap and no cp rule).
Median of 15 / 7 / 5 repeats for N <= 2000 / <= 10000 / larger (time.perf_counter).
"""
import json
import statistics
import sys
import time

import numpy as np
from sklearn.tree import DecisionTreeClassifier


def main():
    folder, sizes, qs = sys.argv[1], sys.argv[2], sys.argv[3]
    for n in [int(s) for s in sizes.split(",")]:
        for q in [int(s) for s in qs.split(",")]:
            real = np.loadtxt("%s/real_%d_%d.csv" % (folder, n, q), delimiter=",", skiprows=1, ndmin=2)
            synth = np.loadtxt("%s/synth_%d_%d.csv" % (folder, n, q), delimiter=",", skiprows=1, ndmin=2)
            x = np.vstack([real, synth])
            y = np.concatenate([np.zeros(len(real)), np.ones(len(synth))])
            reps = 15 if n <= 2000 else 7 if n <= 10000 else 5
            times = []
            for _ in range(reps):
                t0 = time.perf_counter()
                clf = DecisionTreeClassifier(criterion="gini", min_samples_leaf=5, random_state=0).fit(x, y)
                clf.predict_proba(x)
                times.append(time.perf_counter() - t0)
            print(json.dumps({"N": n, "q": q, "full_s": statistics.median(times),
                              "full_leaves": int(clf.get_n_leaves())}), flush=True)


if __name__ == "__main__":
    main()
