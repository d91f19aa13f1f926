#!/usr/bin/python3
"""Reference values for src/core/stats/normal-cdf.ts and src/core/privacy/{gdp,zcdp}.ts.

Every value is computed with mpmath at 60 significant digits, from the defining formulas, and
printed as the nearest double. Run from the repository root:

    /usr/bin/python3 tests/reference/privacy_golden.py > tests/fixtures/privacy-golden.json

Formulas:
- Phi(x) = erfc(-x/sqrt 2)/2; Mills ratio R(t) = Phi(-t)/phi(t).
- mu-GDP to (eps, delta)-DP: delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
  (Dong, Roth & Su 2022, Corollary 2.13). epsilon_for_delta inverts it in eps (decreasing),
  mu_for_budget inverts it in mu (increasing), both by bisection to 1e-40.
- rho-zCDP to (eps, delta)-DP: eps = min over alpha > 1 of
  rho*alpha + (log(1/delta) - log(alpha))/(alpha - 1) + log(1 - 1/alpha)
  (Canonne, Kamath & Steinke 2020, Corollary 13). The minimiser is found here by mpmath.findroot
  on the derivative rho - (log(1/delta) - log alpha)/(alpha - 1)^2 and checked against scipy's
  bounded scalar minimiser on the function itself. rho_for_budget inverts eps(rho) by bisection.
"""

import json
import math
import sys

import mpmath as mp
from scipy.optimize import minimize_scalar

mp.mp.dps = 60


def phi_cdf(x):
    return mp.erfc(-mp.mpf(x) / mp.sqrt(2)) / 2


def log_phi_cdf(x):
    # log1p keeps the upper tail, where Phi(x) = 1 - (something below 1e-60), from rounding to log 1 = 0
    return mp.log1p(-phi_cdf(-x)) if x > 0 else mp.log(phi_cdf(x))


def mills_ratio(t):
    t = mp.mpf(t)
    return phi_cdf(-t) / mp.npdf(t)


def gdp_delta(eps, mu):
    eps, mu = mp.mpf(eps), mp.mpf(mu)
    return phi_cdf(-eps / mu + mu / 2) - mp.exp(eps) * phi_cdf(-eps / mu - mu / 2)


def bisect(predicate, lo, hi, iterations=200):
    """Smallest x in [lo, hi] with predicate(x) true, for a predicate false then true."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    for _ in range(iterations):
        mid = (lo + hi) / 2
        if predicate(mid):
            hi = mid
        else:
            lo = mid
    return hi


def gdp_epsilon_for_delta(mu, delta):
    if gdp_delta(0, mu) <= delta:
        return mp.mpf(0)
    hi = mp.mpf(1)
    while gdp_delta(hi, mu) > delta:
        hi *= 2
    return bisect(lambda e: gdp_delta(e, mu) <= delta, 0, hi)


def gdp_mu_for_budget(eps, delta):
    hi = mp.mpf(1)
    while gdp_delta(eps, hi) <= delta:
        hi *= 2
    # largest mu with delta(eps, mu) <= delta: boundary of an increasing function
    return bisect(lambda m: gdp_delta(eps, m) > delta, 0, hi)


def zcdp_objective(alpha, rho, delta):
    alpha, rho, delta = mp.mpf(alpha), mp.mpf(rho), mp.mpf(delta)
    return rho * alpha + (mp.log(1 / delta) - mp.log(alpha)) / (alpha - 1) + mp.log(1 - 1 / alpha)


def zcdp_to_approx_dp(rho, delta):
    rho, delta = mp.mpf(rho), mp.mpf(delta)
    big_l = mp.log(1 / delta)
    derivative = lambda a: rho - (big_l - mp.log(a)) / (a - 1) ** 2  # noqa: E731
    hi = 1 + mp.sqrt(big_l / rho) + 1
    alpha = mp.findroot(derivative, (mp.mpf(1) + mp.mpf('1e-30'), hi), solver='bisect', tol=mp.mpf('1e-50'))
    tight = zcdp_objective(alpha, rho, delta)
    # independent check of the minimum on the function itself (double precision is enough here)
    rough = minimize_scalar(
        lambda log_am1: float(zcdp_objective(1 + math.exp(log_am1), rho, delta)),
        bounds=(-30.0, 30.0),
        method='bounded',
        options={'xatol': 1e-12},
    )
    assert abs(rough.fun - float(tight)) <= 1e-9 * max(1.0, abs(float(tight))), (rho, delta, rough.fun, tight)
    bun_steinke = rho + 2 * mp.sqrt(rho * big_l)
    return max(mp.mpf(0), min(tight, bun_steinke)), alpha, bun_steinke


def zcdp_rho_for_budget(eps, delta):
    hi = mp.mpf(1)
    while zcdp_to_approx_dp(hi, delta)[0] <= eps:
        hi *= 2
    return bisect(lambda r: zcdp_to_approx_dp(r, delta)[0] > eps, 0, hi, iterations=120)


def f(x):
    return float(x)


def main():
    phi_points = [-38, -37.5, -37, -30, -20, -12, -10, -8, -6, -5, -4, -3, -2.5, -2, -1.5, -1, -0.8, -0.67,
                  -0.66, -0.5, -0.25, -1e-3, 0, 1e-8, 0.3, 0.66, 0.67, 1, 2, 3, 4, 5, 6, 8, 8.3, 9, 10, 20, 40]
    log_phi_points = [-1e5, -1000, -100, -50, -40, -38, -20, -5, -1, -0.5, 0, 0.5, 2, 5, 10, 30]
    mills_points = [0, 0.1, 0.5, 0.66, 0.7, 1, 2, 5, 5.7, 6, 10, 30, 100, 1e4, 1e8]
    gdp_delta_points = [(0, 1), (0.1, 0.5), (0.5, 2), (1, 0.5), (1, 1), (2, 1), (3, 3), (5, 1), (10, 1),
                        (20, 1), (30, 1), (50, 2), (100, 4), (10, 0.5), (1, 10), (100, 10), (700, 20), (1000, 30),
                        (2000, 60), (0.01, 0.01)]
    gdp_eps_points = [(0.01, 1e-10), (0.1, 1e-6), (0.5, 1e-5), (1, 1e-5), (1, 1e-6), (2, 1e-9), (3, 1e-3),
                      (1, 0.5), (5, 1e-5), (0.3, 0.2)]
    gdp_mu_points = [(0.1, 1e-6), (1, 1e-5), (1, 1e-9), (3, 1e-6), (10, 1e-9)]
    zcdp_points = [(1e-4, 1e-10), (1e-3, 1e-5), (0.01, 1e-6), (0.1, 1e-5), (0.5, 1e-6), (1, 1e-9), (5, 1e-5),
                   (10, 1e-3), (0.005, 0.1), (50, 1e-12)]
    zcdp_rho_points = [(0.1, 1e-6), (1, 1e-5), (1, 1e-9), (5, 1e-6), (10, 1e-10)]

    zcdp = []
    for rho, delta in zcdp_points:
        eps, alpha, bs = zcdp_to_approx_dp(rho, delta)
        zcdp.append({'rho': rho, 'delta': delta, 'epsilon': f(eps), 'alpha': f(alpha), 'bunSteinke': f(bs)})

    out = {
        'generatedBy': 'tests/reference/privacy_golden.py (mpmath %s, 60 digits)' % mp.__version__,
        'normalCdf': [{'x': x, 'value': f(phi_cdf(x))} for x in phi_points],
        'normalLogCdf': [{'x': x, 'value': f(log_phi_cdf(x))} for x in log_phi_points],
        'normalMillsRatio': [{'t': t, 'value': f(mills_ratio(t))} for t in mills_points],
        'gdpDelta': [{'epsilon': e, 'mu': m, 'value': f(gdp_delta(e, m))} for e, m in gdp_delta_points],
        'gdpEpsilonForDelta': [{'mu': m, 'delta': d, 'value': f(gdp_epsilon_for_delta(m, d))} for m, d in gdp_eps_points],
        'gdpMuForBudget': [{'epsilon': e, 'delta': d, 'value': f(gdp_mu_for_budget(e, d))} for e, d in gdp_mu_points],
        'zcdpToApproxDp': zcdp,
        'zcdpRhoForBudget': [{'epsilon': e, 'delta': d, 'value': f(zcdp_rho_for_budget(e, d))} for e, d in zcdp_rho_points],
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
