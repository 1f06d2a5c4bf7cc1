"""Reference values for @council/bias-audit's distribution and correlation tests.

Run from this directory:  python3 generate-scipy-fixtures.py > scipy-reference.json
The tests read the JSON; they never run Python. SciPy's special functions (Cephes/Boost)
are the independent reference: nothing here calls the package under test.
"""
import json
import sys

import numpy as np
import scipy
from scipy import stats

out = {
    "source": f"SciPy {scipy.__version__}, NumPy {np.__version__}, Python {sys.version.split()[0]}",
    "generator": "packages/bias-audit/__fixtures__/generate-scipy-fixtures.py",
}

xs = [-37.5, -30.0, -20.0, -10.0, -8.0, -5.0, -3.0, -1.96, -1.0, -0.5, -1e-8, 0.0, 1e-8, 0.3, 1.0, 1.6448536269514722, 2.5, 5.0, 8.0]
out["normalCdf"] = [{"x": x, "p": float(stats.norm.cdf(x))} for x in xs]

ps = [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.01, 0.02425, 0.025, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.975, 0.995, 0.999999]
out["normalQuantile"] = [{"p": p, "x": float(stats.norm.ppf(p))} for p in ps]

dfs = [0.5, 1.0, 2.0, 3.0, 4.5, 5.0, 10.0, 30.0, 100.0, 1000.0, 1e5, 1e6]
ts = [-50.0, -8.0, -3.0, -2.0, -1.0, -0.1, 0.0, 0.5, 1.5, 2.3094010767585, 4.0, 12.0, 1e3]
out["studentTCdf"] = [{"t": t, "df": df, "p": float(stats.t.cdf(t, df))} for df in dfs for t in ts]

tps = [1e-12, 1e-6, 0.001, 0.005, 0.025, 0.05, 0.2, 0.5, 0.6, 0.9, 0.975, 0.995, 0.9999]
out["studentTQuantile"] = [{"p": p, "df": df, "t": float(stats.t.ppf(p, df))} for df in dfs for p in tps]

cdfs = [0.5, 1.0, 2.0, 3.0, 7.5, 10.0, 50.0, 200.0, 1e4, 1e5]
cxs = [1e-6, 0.01, 0.5, 1.0, 3.841458820694124, 6.0, 10.0, 25.0, 100.0, 1000.0, 11000.0, 100500.0]
out["chiSquared"] = [
    {"x": x, "df": df, "cdf": float(stats.chi2.cdf(x, df)), "sf": float(stats.chi2.sf(x, df))} for df in cdfs for x in cxs
]

fpairs = [(1.0, 1.0), (2.0, 3.0), (4.0, 20.0), (5.0, 100.0), (10.0, 10.0), (30.0, 2.5), (100.0, 1000.0), (2000.0, 3000.0)]
fxs = [0.001, 0.2, 0.8, 1.0, 1.5, 3.0, 10.0, 100.0]
out["f"] = [
    {"x": x, "d1": d1, "d2": d2, "cdf": float(stats.f.cdf(x, d1, d2)), "sf": float(stats.f.sf(x, d1, d2))}
    for d1, d2 in fpairs
    for x in fxs
]

rng = np.random.default_rng(20261122)
pearson_cases = []
for n in [3, 4, 5, 8, 12, 30, 200]:
    x = rng.normal(size=n)
    y = 0.5 * x + rng.normal(size=n)
    res = stats.pearsonr(x, y)
    ci = res.confidence_interval(0.95) if n >= 4 else None
    pearson_cases.append({
        "x": x.tolist(),
        "y": y.tolist(),
        "r": float(res.statistic),
        "pValue": float(res.pvalue),
        "ci95": None if ci is None else [float(ci.low), float(ci.high)],
    })
out["pearson"] = pearson_cases

spearman_cases = []
for n in [5, 9, 25]:
    x = np.round(rng.normal(size=n) * 3)  # ties on purpose
    y = np.round(x + rng.normal(size=n) * 3)
    res = stats.spearmanr(x, y)
    spearman_cases.append({"x": x.tolist(), "y": y.tolist(), "rho": float(res.statistic), "pValue": float(res.pvalue)})
out["spearman"] = spearman_cases

json.dump(out, sys.stdout, indent=1)
sys.stdout.write("\n")
