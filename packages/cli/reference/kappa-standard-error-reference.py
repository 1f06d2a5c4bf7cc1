"""Reference values for council eval's standard error of Cohen's κ, computed once and checked in.

Writes src/eval/__fixtures__/kappa-standard-error-reference.json, which src/eval/kappa-standard-error.test.ts reads:
statsmodels' `cohens_kappa` (Fleiss, Cohen & Everitt's 1969 non-null variance) on small 3×3 tables of preferences
(first answer, second answer, tie; rows the people, columns the judge). Run from packages/cli:

    python3 -m venv /tmp/kappa-venv
    /tmp/kappa-venv/bin/pip install statsmodels==0.15.0 numpy==2.4.6 scipy==1.17.1
    /tmp/kappa-venv/bin/python reference/kappa-standard-error-reference.py

Pinned versions (the checked-in JSON came from these): Python 3.11.7, NumPy 2.4.6, SciPy 1.17.1, statsmodels 0.15.0.
The tables are written out below, so a rerun gives the same file.
"""

import json
import sys

import numpy as np
import scipy
import statsmodels
from statsmodels.stats.inter_rater import cohens_kappa

tables = [
    ("balanced, moderate agreement", [[8, 2, 1], [3, 7, 1], [1, 1, 2]]),
    ("one category dominates", [[14, 2, 1], [2, 2, 0], [1, 0, 1]]),
    ("the raters' shares differ", [[6, 1, 4], [1, 5, 3], [0, 1, 2]]),
    ("near chance", [[4, 3, 2], [3, 4, 2], [1, 2, 1]]),
    ("one disagreement in twenty", [[9, 0, 0], [1, 8, 0], [0, 0, 2]]),
    ("a category nobody used", [[7, 3, 0], [2, 8, 0], [0, 0, 0]]),
]

cases = []
for name, table in tables:
    result = cohens_kappa(np.array(table, dtype=float))
    cases.append(
        {
            "name": name,
            "table": table,
            "kappa": float(result.kappa),
            "std_kappa": float(result.std_kappa),
            # statsmodels' 95% interval: κ̂ ± 1.959964·std_kappa.
            "kappa_low": float(result.kappa_low),
            "kappa_upp": float(result.kappa_upp),
        }
    )

json.dump(
    {
        "source": f"Python {sys.version.split()[0]}, NumPy {np.__version__}, SciPy {scipy.__version__}, "
        f"statsmodels {statsmodels.__version__}",
        "generator": "packages/cli/reference/kappa-standard-error-reference.py",
        "cases": cases,
    },
    open("src/eval/__fixtures__/kappa-standard-error-reference.json", "w"),
    indent=1,
)
