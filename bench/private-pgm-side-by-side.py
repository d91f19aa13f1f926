"""Runs private-pgm's numpy release (MST and AIM from its `mechanisms/` folder) on kernlab's `income`
with the same domain as dpsynth (the declared categories plus one missing level per column), and prints
ONE JSON object: seconds and the mean L1/n error (and TVD, half of it) over all 1-, 2- and 3-way
marginals, as bench/pgm-bench-data.ts computes them.

Usage: python3 bench/private-pgm-side-by-side.py PRIVATE_PGM_DIR income.csv income.schema.json
Env: PPGM_EPSILON (1), PPGM_DELTA (1e-9), PPGM_MECHANISMS (mst,aim), PPGM_AIM_MODEL_MB (20),
PPGM_SEED (2022).
PRIVATE_PGM_DIR is a checkout of github.com/ryan112358/private-pgm at its last numpy commit (84d2f1e,
before the JAX rewrite). Needs python3-numpy, -scipy, -pandas and -networkx (Debian). Its `hdmm`
import is only for an identity matrix (a stand-in from scipy.sparse is put on the path) and its
`autodp` import is unused by MST and AIM (an empty stand-in).
private-pgm assumes add/remove neighbours: at the same ρ its σ² is half of ours, its selections twice
as sharp.
"""

import contextlib
import itertools
import json
import os
import sys
import tempfile
import time

import numpy as np
import pandas as pd

ppgm, csv_path, schema_path = sys.argv[1:4]
shim = tempfile.mkdtemp()
os.makedirs(os.path.join(shim, "hdmm"))
open(os.path.join(shim, "hdmm", "__init__.py"), "w").close()
with open(os.path.join(shim, "hdmm", "matrix.py"), "w") as f:
    f.write("from scipy.sparse import eye as Identity\n")
# Its `mechanism.py` imports autodp for a Gaussian calibration that MST and AIM never call.
os.makedirs(os.path.join(shim, "autodp"))
with open(os.path.join(shim, "autodp", "__init__.py"), "w") as f:
    f.write("privacy_calibrator = None\n")
sys.path[:0] = [shim, os.path.join(ppgm, "src"), os.path.join(ppgm, "mechanisms"), ppgm]

from mbi import Dataset, Domain  # noqa: E402

EPSILON = float(os.environ.get("PPGM_EPSILON", "1"))
DELTA = float(os.environ.get("PPGM_DELTA", "1e-9"))
MECHANISMS = os.environ.get("PPGM_MECHANISMS", "mst,aim").split(",")
AIM_MODEL_MB = float(os.environ.get("PPGM_AIM_MODEL_MB", "20"))
np.random.seed(int(os.environ.get("PPGM_SEED", "2022")))

schema = json.load(open(schema_path))
raw = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
codes = {}
sizes = {}
for column in schema["columns"]:
    categories = column["categories"]
    index = {c: i for i, c in enumerate(categories)}
    # The missing level is the last one, as in dpsynth's coding; values outside the categories count as missing.
    codes[column["name"]] = raw[column["name"]].map(lambda v: index.get(v, len(categories))).astype(int)
    sizes[column["name"]] = len(categories) + 1
names = [c["name"] for c in schema["columns"]]
df = pd.DataFrame(codes)[names]
data = Dataset(df, Domain(names, [sizes[a] for a in names]))
n = len(df)


def errors(synth):
    out = {}
    for k in (1, 2, 3):
        total, count = 0.0, 0
        for q in itertools.combinations(names, k):
            x = data.project(q).datavector() / n
            y = synth.project(q).datavector() / synth.df.shape[0]
            total += np.abs(x - y).sum()
            count += 1
        out[str(k)] = round(total / count / 2, 4)
    return out


result = {"bench": "private-pgm-side-by-side", "epsilon": EPSILON, "delta": DELTA, "rows": n, "columns": len(names)}
if "mst" in MECHANISMS:
    from mst import MST

    start = time.time()
    with contextlib.redirect_stdout(sys.stderr):  # its progress lines; stdout holds the JSON only
        synth = MST(data, EPSILON, DELTA)
    result["mst"] = {"seconds": round(time.time() - start, 1), "meanTvd": errors(synth)}
    print(json.dumps(result["mst"]), file=sys.stderr)
if "aim" in MECHANISMS:
    from aim import AIM

    workload = [(q, 1.0) for q in itertools.combinations(names, 3)]
    start = time.time()
    with contextlib.redirect_stdout(sys.stderr):
        synth = AIM(EPSILON, DELTA, max_model_size=AIM_MODEL_MB).run(data, workload)
    if isinstance(synth, tuple):  # this release returns (model, synthetic data)
        synth = synth[-1]
    result["aim"] = {"seconds": round(time.time() - start, 1), "maxModelSizeMb": AIM_MODEL_MB, "meanTvd": errors(synth)}
print(json.dumps(result))
