"""Reference values for @council/scoring's styleControlledBradleyTerry, computed once and checked in.

Writes src/__fixtures__/style-controlled-bt-reference.json, which style-controlled-bradley-terry.test.ts reads.
Run from packages/scoring:

    python3 -m venv /tmp/hg-venv
    /tmp/hg-venv/bin/pip install numpy scipy statsmodels
    /tmp/hg-venv/bin/python reference/style-controlled-bt-reference.py

The councils are drawn from a fixed NumPy seed, so a rerun gives the same file (the versions used are recorded in
it). Each reviewer's ranking gives one row per pair of answers it ranked (its own left out): the outcome is 1 when
the first answer of the pair (alternately the winner and the loser, so both outcomes occur) won; the design is the
two candidates' indicator difference (the last candidate fixed at 0) and, for the style fit, the answers' feature
difference. statsmodels' Logit fits the plain maximum likelihood (prior 0); GLM Binomial with frequency weights
adds bradleyTerry's prior (a virtual tie of weight 1 between every two candidates: half a win each way).
"""

import json
import platform
from importlib.metadata import version

import numpy as np
import statsmodels.api as sm

rng = np.random.default_rng(20261128)
CANDIDATES = ["m/a", "m/b", "m/c", "m/d"]
QUALITY = np.array([0.6, 0.2, 0.0, -0.4])
LENGTH_TASTE = 0.5  # log-odds per unit of log length
LIST_TASTE = -0.3


def council(n_sessions):
    sessions = []
    for s in range(n_sessions):
        log_len = rng.normal(7.2, 0.4, size=4) + np.array([0.3, 0.0, -0.2, 0.1])
        lists = rng.uniform(0, 0.6, size=4)
        answers = {c: [round(float(log_len[i]), 6), round(float(lists[i]), 6)] for i, c in enumerate(CANDIDATES)}
        ballots = []
        for r, reviewer in enumerate(CANDIDATES):
            utility = QUALITY + LENGTH_TASTE * log_len + LIST_TASTE * lists + rng.gumbel(size=4)
            order = [CANDIDATES[i] for i in np.argsort(-utility)]
            ballots.append({"reviewer": reviewer, "ranking": order})
        sessions.append({"id": f"s{s}", "answers": answers, "ballots": ballots})
    return sessions


def rows(sessions, with_features):
    X, y = [], []
    flip = 0
    n = len(CANDIDATES)
    for session in sessions:
        for ballot in session["ballots"]:
            ranked = [c for c in ballot["ranking"] if c != ballot["reviewer"]]
            for a in range(len(ranked)):
                for b in range(a + 1, len(ranked)):
                    w, l = ranked[a], ranked[b]
                    first, second, outcome = (w, l, 1) if flip % 2 == 0 else (l, w, 0)
                    flip += 1
                    x = np.zeros(n - 1 + (2 if with_features else 0))
                    i, j = CANDIDATES.index(first), CANDIDATES.index(second)
                    if i < n - 1:
                        x[i] += 1
                    if j < n - 1:
                        x[j] -= 1
                    if with_features:
                        fa, fb = session["answers"][first], session["answers"][second]
                        x[n - 1] = fa[0] - fb[0]
                        x[n] = fa[1] - fb[1]
                    X.append(x)
                    y.append(outcome)
    return np.array(X), np.array(y, dtype=float)


def prior_rows(width):
    n = len(CANDIDATES)
    X, y, w = [], [], []
    for i in range(n):
        for j in range(i + 1, n):
            x = np.zeros(width)
            if i < n - 1:
                x[i] += 1
            if j < n - 1:
                x[j] -= 1
            for outcome in (1.0, 0.0):
                X.append(x)
                y.append(outcome)
                w.append(0.5)
    return np.array(X), np.array(y), np.array(w)


def centred(params):
    beta = np.append(params[: len(CANDIDATES) - 1], 0.0)
    beta = beta - beta.mean()
    return [float(v) for v in beta], [float(v) for v in params[len(CANDIDATES) - 1 :]]


def fits(sessions):
    out = {}
    for name, with_features in (("plain", False), ("style", True)):
        X, y = rows(sessions, with_features)
        mle = sm.Logit(y, X).fit(method="newton", tol=1e-14, maxiter=200, disp=0)
        PX, Py, Pw = prior_rows(X.shape[1])
        glm = sm.GLM(
            np.concatenate([y, Py]),
            np.vstack([X, PX]),
            family=sm.families.Binomial(),
            freq_weights=np.concatenate([np.ones(len(y)), Pw]),
        ).fit(tol=1e-14, maxiter=200)
        beta, gamma = centred(mle.params)
        beta_prior, gamma_prior = centred(glm.params)
        out[name] = {"beta": beta, "gamma": gamma, "betaPrior1": beta_prior, "gammaPrior1": gamma_prior}
    return out


sessions = council(60)
result = {
    "generator": "reference/style-controlled-bt-reference.py",
    "versions": {
        "python": platform.python_version(),
        "numpy": version("numpy"),
        "statsmodels": version("statsmodels"),
    },
    "candidates": CANDIDATES,
    "featureNames": ["log_length", "list_share"],
    "sessions": sessions,
    "fits": fits(sessions),
}
with open("src/__fixtures__/style-controlled-bt-reference.json", "w") as f:
    json.dump(result, f, indent=1)
    f.write("\n")
print(json.dumps(result["fits"], indent=1))
