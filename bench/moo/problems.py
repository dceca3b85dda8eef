"""The multi-objective test problems of `kbo bench moo`, as BoTorch defines them
(botorch.test_functions.multi_objective), every objective MINIMISED, with BoTorch's reference points.

  branincurrin  d = 2, 2 objectives, ref (18, 6)          (Belakaria et al. 2019)
  zdt1/2/3      d = 6, 2 objectives, ref (11, 11)         (Zitzler, Deb & Thiele 2000)
  dtlz2         d = 6, 2 or 3 objectives, ref 1.1 each    (Deb et al. 2002)
  vehiclesafety d = 5, 3 objectives, ref (1864.72022, 11.81993945, 0.2903999384) (Tanabe & Ishibuchi 2020)

Held out (HELD_OUT: fixed before any tuning on the problems above, reported apart and never tuned on):
  zdt1-10       ZDT1 at d = 10, ref (11, 11)
  dtlz1-2       DTLZ1, d = 6, 2 objectives, ref 400 each (BoTorch's)
  dtlz7-2       DTLZ7, d = 6, 2 objectives, ref 15 each (BoTorch's)
"""
import math


def branin_currin(x):
    u, v = 15.0 * x[0] - 5.0, 15.0 * x[1]
    branin = (v - 5.1 / (4 * math.pi ** 2) * u ** 2 + 5.0 / math.pi * u - 6.0) ** 2 + \
        10.0 * (1.0 - 1.0 / (8.0 * math.pi)) * math.cos(u) + 10.0
    a, b = x[0], x[1]
    factor = 1.0 - math.exp(-1.0 / (2.0 * b)) if b > 0 else 1.0
    currin = factor * (2300 * a ** 3 + 1900 * a ** 2 + 2092 * a + 60) / (100 * a ** 3 + 500 * a ** 2 + 4 * a + 20)
    return [branin, currin]


def _zdt_g(x):
    return 1.0 + 9.0 / (len(x) - 1) * sum(x[1:])


def zdt1(x):
    g = _zdt_g(x)
    return [x[0], g * (1.0 - math.sqrt(x[0] / g))]


def zdt2(x):
    g = _zdt_g(x)
    return [x[0], g * (1.0 - (x[0] / g) ** 2)]


def zdt3(x):
    g = _zdt_g(x)
    r = x[0] / g
    return [x[0], g * (1.0 - math.sqrt(r) - r * math.sin(10.0 * math.pi * x[0]))]


def dtlz2(m):
    def f(x):
        g = sum((xi - 0.5) ** 2 for xi in x[m - 1:])
        out = []
        for i in range(m):
            idx = m - 1 - i
            v = 1.0 + g
            for xj in x[:idx]:
                v *= math.cos(xj * math.pi / 2)
            if i > 0:
                v *= math.sin(x[idx] * math.pi / 2)
            out.append(v)
        return out
    return f


def dtlz1(m):
    def f(x):
        k = len(x) - m + 1
        g = 100.0 * (k + sum((xi - 0.5) ** 2 - math.cos(20.0 * math.pi * (xi - 0.5)) for xi in x[m - 1:]))
        out = []
        for i in range(m):
            idx = m - 1 - i
            v = 0.5 * (1.0 + g)
            for xj in x[:idx]:
                v *= xj
            if i > 0:
                v *= 1.0 - x[idx]
            out.append(v)
        return out
    return f


def dtlz7(m):
    def f(x):
        k = len(x) - m + 1
        g = 1.0 + 9.0 / k * sum(x[m - 1:])
        head = list(x[:m - 1])
        h = m - sum(fi / (1.0 + g) * (1.0 + math.sin(3.0 * math.pi * fi)) for fi in head)
        return head + [(1.0 + g) * h]
    return f


def vehicle_safety(x):
    x1, x2, x3, x4, x5 = x
    f1 = 1640.2823 + 2.3573285 * x1 + 2.3220035 * x2 + 4.5688768 * x3 + 7.7213633 * x4 + 4.4559504 * x5
    f2 = (6.5856 + 1.15 * x1 - 1.0427 * x2 + 0.9738 * x3 + 0.8364 * x4 - 0.3695 * x1 * x4 + 0.0861 * x1 * x5 +
          0.3628 * x2 * x4 - 0.1106 * x1 ** 2 - 0.3437 * x3 ** 2 + 0.1764 * x4 ** 2)
    f3 = (-0.0551 + 0.0181 * x1 + 0.1024 * x2 + 0.0421 * x3 - 0.0073 * x1 * x2 + 0.024 * x2 * x3 -
          0.0118 * x2 * x4 - 0.0204 * x3 * x4 - 0.008 * x3 * x5 - 0.0241 * x2 ** 2 + 0.0109 * x4 ** 2)
    return [f1, f2, f3]


# name -> (function, bounds per coordinate, reference point (minimised))
PROBLEMS = {
    "branincurrin": (branin_currin, [(0.0, 1.0)] * 2, [18.0, 6.0]),
    "zdt1": (zdt1, [(0.0, 1.0)] * 6, [11.0, 11.0]),
    "zdt2": (zdt2, [(0.0, 1.0)] * 6, [11.0, 11.0]),
    "zdt3": (zdt3, [(0.0, 1.0)] * 6, [11.0, 11.0]),
    "dtlz2-2": (dtlz2(2), [(0.0, 1.0)] * 6, [1.1, 1.1]),
    "dtlz2-3": (dtlz2(3), [(0.0, 1.0)] * 6, [1.1, 1.1, 1.1]),
    "vehiclesafety": (vehicle_safety, [(1.0, 3.0)] * 5, [1864.72022, 11.81993945, 0.2903999384]),
}

# Held-out problems (same layout as PROBLEMS).
HELD_OUT = {
    "zdt1-10": (zdt1, [(0.0, 1.0)] * 10, [11.0, 11.0]),
    "dtlz1-2": (dtlz1(2), [(0.0, 1.0)] * 6, [400.0, 400.0]),
    "dtlz7-2": (dtlz7(2), [(0.0, 1.0)] * 6, [15.0, 15.0]),
}
ALL_PROBLEMS = {**PROBLEMS, **HELD_OUT}


def hypervolume(points, ref):
    """Exact hypervolume of minimised points w.r.t. ref (2-D sweep; 3-D by slicing), independent of kbo's C++."""
    pts = [p for p in points if all(pi < ri for pi, ri in zip(p, ref))]
    if not pts:
        return 0.0
    m = len(ref)
    if m == 2:
        pts.sort(key=lambda p: p[0])
        hv, best2 = 0.0, ref[1]
        for p in pts:
            if p[1] < best2:
                hv += (ref[0] - p[0]) * (best2 - p[1])
                best2 = p[1]
        return hv
    pts.sort(key=lambda p: p[-1])
    hv = 0.0
    for i, p in enumerate(pts):
        nxt = pts[i + 1][-1] if i + 1 < len(pts) else ref[-1]
        if nxt > p[-1]:
            hv += (nxt - p[-1]) * hypervolume([q[:-1] for q in pts[:i + 1]], ref[:-1])
    return hv
