"""The noise-free test functions of `kbo bench noisy`, every one minimised, vectorised over rows of X.

  branin          d = 2  on [-5, 10] x [0, 15]    minimum 0.397887            (three minimisers)
  hartmann6       d = 6  on [0, 1]^6              minimum -3.32237
  ackley6-shifted d = 6  on [0, 1]^6              minimum 0 at u* = 0.5 + shift: Ackley's [-32.768, 32.768]^6
                                                  on the unit cube with its optimum moved off the centre
                                                  (kbo's problem "ackley-shifted", same shift)
  levy8           d = 8  on [-10, 10]^8           minimum 0 at (1, ..., 1)
  shekel10        d = 4  on [0, 10]^4             minimum -10.5364 at about (4, 4, 4, 4) (Shekel with m = 10)

The range of a function, which scales its noise, is (largest value on 2^16 scrambled Sobol points of its box,
seed 0) minus its known minimum: the spread of values an optimiser can meet, from the worst region to the
optimum, however narrow the optimum's basin (Shekel's is too narrow for a sample to find).
"""
import math

import numpy as np

ACKLEY_SHIFT = np.array([0.137, -0.213, 0.071, -0.319, 0.241, -0.089])


def branin(X):
    u, v = X[:, 0], X[:, 1]
    return ((v - 5.1 / (4 * math.pi ** 2) * u ** 2 + 5.0 / math.pi * u - 6.0) ** 2 +
            10.0 * (1.0 - 1.0 / (8.0 * math.pi)) * np.cos(u) + 10.0)


_H6_A = np.array([[10, 3, 17, 3.5, 1.7, 8], [0.05, 10, 17, 0.1, 8, 14], [3, 3.5, 1.7, 10, 17, 8],
                  [17, 8, 0.05, 10, 0.1, 14]])
_H6_P = 1e-4 * np.array([[1312, 1696, 5569, 124, 8283, 5886], [2329, 4135, 8307, 3736, 1004, 9991],
                         [2348, 1451, 3522, 2883, 3047, 6650], [4047, 8828, 8732, 5743, 1091, 381]])
_H6_ALPHA = np.array([1.0, 1.2, 3.0, 3.2])


def hartmann6(X):
    inner = ((X[:, None, :] - _H6_P[None]) ** 2 * _H6_A[None]).sum(axis=2)
    return -(np.exp(-inner) * _H6_ALPHA).sum(axis=1)


def ackley6_shifted(X):
    z = 65.536 * (X - (0.5 + ACKLEY_SHIFT))
    d = X.shape[1]
    return (-20.0 * np.exp(-0.2 * np.sqrt((z * z).sum(axis=1) / d)) - np.exp(np.cos(2 * math.pi * z).sum(axis=1) / d)
            + 20.0 + math.e)


def levy(X):
    w = 1.0 + (X - 1.0) / 4.0
    head = np.sin(math.pi * w[:, 0]) ** 2
    mid = ((w[:, :-1] - 1.0) ** 2 * (1.0 + 10.0 * np.sin(math.pi * w[:, :-1] + 1.0) ** 2)).sum(axis=1)
    tail = (w[:, -1] - 1.0) ** 2 * (1.0 + np.sin(2 * math.pi * w[:, -1]) ** 2)
    return head + mid + tail


_SHEKEL_BETA = 0.1 * np.array([1, 2, 2, 4, 4, 6, 3, 7, 5, 5], dtype=float)
_SHEKEL_C = np.array([[4, 1, 8, 6, 3, 2, 5, 8, 6, 7], [4, 1, 8, 6, 7, 9, 3, 1, 2, 3.6],
                      [4, 1, 8, 6, 3, 2, 5, 8, 6, 7], [4, 1, 8, 6, 7, 9, 3, 1, 2, 3.6]], dtype=float)


def shekel10(X):
    sq = ((X[:, None, :] - _SHEKEL_C.T[None]) ** 2).sum(axis=2)
    return -(1.0 / (sq + _SHEKEL_BETA[None])).sum(axis=1)


class Function:
    """One test function: name, bounds [(lo, hi)] * d, vectorised f, known minimum and one minimiser."""

    def __init__(self, name, f, bounds, minimum, minimiser):
        self.name, self.f, self.bounds, self.minimum = name, f, bounds, minimum
        self.minimiser = np.array(minimiser, dtype=float)
        self.dim = len(bounds)
        self._range = None

    def __call__(self, x):
        return float(self.f(np.asarray(x, dtype=float).reshape(1, -1))[0])

    @property
    def range(self):
        """max over 2^16 scrambled Sobol points (seed 0) minus the known minimum (computed once)."""
        if self._range is None:
            from scipy.stats import qmc
            lo, hi = np.array(self.bounds).T
            U = qmc.Sobol(self.dim, scramble=True, seed=0).random_base2(16)
            self._range = float(self.f(lo + U * (hi - lo)).max() - self.minimum)
        return self._range


FUNCTIONS = {fn.name: fn for fn in [
    Function("branin", branin, [(-5.0, 10.0), (0.0, 15.0)], 0.397887357729739, [math.pi, 2.275]),
    Function("hartmann6", hartmann6, [(0.0, 1.0)] * 6, -3.3223680114155147,
             [0.20168952, 0.15001069, 0.47687398, 0.27533243, 0.31165162, 0.65730054]),
    Function("ackley6-shifted", ackley6_shifted, [(0.0, 1.0)] * 6, 0.0, 0.5 + ACKLEY_SHIFT),
    Function("levy8", levy, [(-10.0, 10.0)] * 8, 0.0, [1.0] * 8),
    Function("shekel10", shekel10, [(0.0, 10.0)] * 4, -10.536443153483505,
             [4.000746860776147, 3.9995094722305615, 4.000746860776147, 3.9995094722305615]),
]}

NOISE_LEVELS = [0.01, 0.05, 0.20]  # noise standard deviation as a fraction of the function's range


def noise_sd(name, level):
    return level * FUNCTIONS[name].range
