"""Reference values for @council/scoring's agreement statistics, computed once and checked in.

Writes src/__fixtures__/agreement-reference.json, which cohen-kappa.test.ts, spearman-rho.test.ts and
ordinal-alpha's reference test read. Run from packages/scoring:

    python3 -m venv /tmp/agreement-venv
    /tmp/agreement-venv/bin/pip install scipy==1.17.1 scikit-learn==1.9.1 krippendorff==0.9.0 numpy==2.4.6
    /tmp/agreement-venv/bin/python reference/agreement-reference.py

Pinned versions (the checked-in JSON came from these): Python 3.11.7, NumPy 2.4.6, SciPy 1.17.1,
scikit-learn 1.9.1, krippendorff 0.9.0. The cases are drawn from a fixed NumPy seed, so a rerun gives the same file.
"""

import json
import math
import sys
from importlib.metadata import version

import krippendorff
import numpy as np
import scipy
import sklearn
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score

rng = np.random.default_rng(20260731)


def kappa_case(name, a, b, weights=None):
    value = cohen_kappa_score(a, b, weights=weights)
    return {
        "name": name,
        "a": list(a),
        "b": list(b),
        "weights": weights or "none",
        "kappa": None if math.isnan(value) else float(value),
    }


kappa = [
    kappa_case("preferences with ties, nominal", ["A", "B", "tie", "A", "A", "B", "B", "tie", "A", "B"],
               ["A", "B", "A", "A", "B", "B", "tie", "tie", "A", "A"]),
    kappa_case("perfect agreement", [0, 1, 1, 0, 1], [0, 1, 1, 0, 1]),
    kappa_case("systematic disagreement", [0, 1, 0, 1, 0, 1], [1, 0, 1, 0, 1, 0]),
]
for size, k in [(12, 2), (30, 3), (80, 5), (200, 4)]:
    a = rng.integers(1, k + 1, size)
    # The second rater agrees with the first most of the time, else draws at random.
    b = np.where(rng.random(size) < 0.6, a, rng.integers(1, k + 1, size))
    a, b = [int(v) for v in a], [int(v) for v in b]
    kappa.append(kappa_case(f"random n={size} k={k}, nominal", a, b))
    kappa.append(kappa_case(f"random n={size} k={k}, linear", a, b, "linear"))
    kappa.append(kappa_case(f"random n={size} k={k}, quadratic", a, b, "quadratic"))

spearman = []


def rho_case(name, x, y):
    value = spearmanr(x, y).statistic
    spearman.append({"name": name, "x": list(x), "y": list(y), "rho": None if math.isnan(value) else float(value)})


rho_case("no ties", [1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 1.0, 4.0, 3.0, 5.0])
rho_case("ties on both sides", [7.0, 7.0, 8.0, 3.0, 9.0, 9.0, 9.0, 2.0], [5.0, 6.0, 6.0, 2.0, 8.0, 9.0, 8.0, 2.0])
rho_case("perfectly reversed", [1.0, 2.0, 3.0, 4.0], [10.0, 8.0, 5.0, 1.0])
for size in [6, 25, 120]:
    x = rng.integers(1, 11, size)
    y = np.clip(x + rng.integers(-3, 4, size), 1, 10)
    rho_case(f"random scores n={size}", [float(v) for v in x], [float(v) for v in y])

alpha = []
for size in [8, 40, 150]:
    human = rng.integers(1, 11, size)
    judge = np.clip(human + rng.integers(-2, 3, size), 1, 10)
    data = np.array([human, judge], dtype=float)
    alpha.append({
        "name": f"human vs judge scores n={size}",
        "human": [int(v) for v in human],
        "judge": [int(v) for v in judge],
        "ordinal": float(krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal")),
    })

json.dump(
    {
        "source": f"Python {sys.version.split()[0]}, NumPy {np.__version__}, SciPy {scipy.__version__}, "
        f"scikit-learn {sklearn.__version__}, krippendorff {version('krippendorff')}",
        "generator": "packages/scoring/reference/agreement-reference.py",
        "cohenKappa": kappa,
        "spearmanRho": spearman,
        "ordinalAlpha": alpha,
    },
    open("src/__fixtures__/agreement-reference.json", "w"),
    indent=1,
)
