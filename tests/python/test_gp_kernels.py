"""kbo.GP and kbo.kernels against closed forms, brute force and the `kbo gp` CLI."""
import os
import subprocess
import sys

import numpy as np
import pytest

import kbo
from kbo import kernels as K


def matern52(r):
    s = np.sqrt(5.0) * r
    return (1 + s + s * s / 3) * np.exp(-s)


def dist(A, B, ell=1.0):
    return np.sqrt(np.maximum(((A[:, None, :] - B[None, :, :]) / ell) ** 2, 0).sum(-1))


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 1, (25, 3))
    y = np.sin(6 * X[:, 0]) + X[:, 1] ** 2 - X[:, 2] + 0.05 * rng.standard_normal(25)
    Xs = rng.uniform(0, 1, (7, 3))
    return X, y, Xs


def test_stationary_kernel_closed_form(data):
    X, _, Xs = data
    k = K.Matern52(3, ard=True, lengthscale=0.7, variance=2.0)
    assert k.dim == 3 and k.param_names == ["lengthscale[0]", "lengthscale[1]", "lengthscale[2]", "variance"]
    np.testing.assert_allclose(k(X, Xs), 2.0 * matern52(dist(X, Xs, 0.7)), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(k(X), 2.0 * matern52(dist(X, X, 0.7)), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(k.diag(X), np.full(25, 2.0))
    k.log_params = np.log([0.5, 1.0, 2.0, 3.0])
    np.testing.assert_allclose(k.lengthscales, [0.5, 1.0, 2.0])
    rbf = K.RBF(3, lengthscale=0.4)
    np.testing.assert_allclose(rbf(X, Xs), np.exp(-0.5 * dist(X, Xs, 0.4) ** 2), rtol=1e-12)


def test_kernel_algebra(data):
    X, _, Xs = data
    a, b = K.RBF(3, lengthscale=0.5), K.Matern32(3)
    np.testing.assert_allclose((a + b)(X, Xs), a(X, Xs) + b(X, Xs), rtol=1e-12)
    np.testing.assert_allclose((a * b)(X, Xs), a(X, Xs) * b(X, Xs), rtol=1e-12)
    np.testing.assert_allclose((3.0 * a)(X, Xs), 3.0 * a(X, Xs), rtol=1e-12)
    with pytest.raises(ValueError, match="2 and 3"):
        K.RBF(2) + a


def test_set_kernel_is_the_mean_over_element_pairs():
    rng = np.random.default_rng(1)
    m, d = 3, 2
    S = rng.uniform(0, 1, (4, m * d))
    k = K.Set("matern52", m, d)
    base = K.Matern52(d)
    want = np.array([[base(a.reshape(m, d), b.reshape(m, d)).mean() for b in S] for a in S])
    np.testing.assert_allclose(k(S), want, rtol=1e-12)
    # permutation invariant: reorder the elements of one set
    S2 = S.copy()
    S2[0] = S[0].reshape(m, d)[[2, 0, 1]].ravel()
    np.testing.assert_allclose(k(S2), k(S), rtol=1e-12)


def test_invariant_kernels_brute_force():
    rng = np.random.default_rng(2)
    X, Y = rng.uniform(0, 1, (5, 2)), rng.uniform(0, 1, (4, 2))
    base = K.RBF(2, lengthscale=0.3)
    swap = Y[:, ::-1]
    avg = K.Invariant(base, "permutation", "average")
    np.testing.assert_allclose(avg(X, Y), 0.5 * (base(X, Y) + base(X, swap)), rtol=1e-12)
    mx = K.Invariant(base, "permutation", "max", options={"projection": "never"})
    np.testing.assert_allclose(mx(X, Y), np.maximum(base(X, Y), base(X, swap)), rtol=1e-12)
    assert isinstance(avg, K.Invariant) and avg.dim == 2
    with pytest.raises(ValueError, match="allowed"):
        K.Invariant(base, "no-such-group")


def test_functional_kernel_round_trip():
    k = K.Functional([0.0, 0.5, 1.0], [0.2, 0.0, 0.7], lambda_h=0.5, lengthscale=0.3, variance=2.0)
    again = K.functional_from_json({"distances": k.distances.tolist(), "weights": k.weights.tolist(),
                                    "lambda_h": k.lambda_h, "lengthscale": k.lengthscale, "variance": k.variance})
    X = np.random.default_rng(3).uniform(0, 1, (6, 4))
    np.testing.assert_array_equal(k(X), again(X))
    assert k.dim is None and np.linalg.eigvalsh(k(X)).min() > -1e-10
    # depends on distances only: the diagonal is variance * profile(0)
    np.testing.assert_allclose(k.diag(X), 2.0 * k.profile(np.zeros(1))[0], rtol=1e-12)


def test_gp_closed_form_with_fixed_hyperparameters(data):
    X, y, Xs = data
    gp = kbo.GP(K.Matern52(3, lengthscale=0.6, variance=1.5), noise=0.01, normalize=False)
    gp.set_data(X, y)
    k = K.Matern52(3, lengthscale=0.6, variance=1.5)
    A = k(X) + 0.01 * np.eye(25)
    Ks = k(Xs, X)
    mean = Ks @ np.linalg.solve(A, y)
    cov = k(Xs) - Ks @ np.linalg.solve(A, Ks.T)
    m, sd = gp.predict(Xs, return_std=True)
    np.testing.assert_allclose(m, mean, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(sd, np.sqrt(np.diag(cov)), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(gp.predict(Xs, return_cov=True)[1], cov, rtol=1e-8, atol=1e-10)
    sign, logdet = np.linalg.slogdet(A)
    lml = -0.5 * y @ np.linalg.solve(A, y) - 0.5 * logdet - 12.5 * np.log(2 * np.pi)
    assert gp.log_marginal_likelihood() == pytest.approx(lml, rel=1e-10)
    value, grad = gp.log_marginal_likelihood(gp.theta, eval_gradient=True)
    assert value == pytest.approx(lml, rel=1e-10) and grad.shape == (3,)


def test_gp_predictions_equal_the_cli(tmp_path, data, run_cli):
    X, y, Xs = data
    np.savetxt(tmp_path / "train.csv", np.column_stack([X, y]), delimiter=",", fmt="%.17g")
    np.savetxt(tmp_path / "test.csv", Xs, delimiter=",", fmt="%.17g")
    out = run_cli("gp", "--train", tmp_path / "train.csv", "--test", tmp_path / "test.csv", "--ard", "--seed", 3,
                  "--json")
    gp = kbo.GP(K.Stationary("matern52", 3, ard=True), noise=1e-2)
    gp.fit(X, y, restarts=5, seed=3)
    mean, std = gp.predict(Xs, return_std=True)
    np.testing.assert_allclose(mean, out["mean"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(std, out["std"], rtol=0, atol=1e-12)
    assert gp.log_marginal_likelihood() == pytest.approx(out["log_marginal_likelihood"], abs=1e-12)
    names = gp.theta_names
    np.testing.assert_allclose(np.exp(gp.theta), [out["hyperparameters"][n] for n in names], rtol=1e-12)


def test_wrong_shapes_raise_value_error_naming_the_shape(data):
    X, y, Xs = data
    gp = kbo.GP(K.Matern52(3))
    with pytest.raises(ValueError, match=r"X must have shape \(n, 3\) \(got \(25, 2\)\)"):
        gp.fit(X[:, :2], y)
    with pytest.raises(ValueError, match=r"y must have shape \(25,\) \(got \(24,\)\)"):
        gp.fit(X, y[:-1])
    with pytest.raises(ValueError, match=r"X must have shape \(n, 3\) \(got \(3,\)\)"):
        K.Matern52(3)(X[0])
    with pytest.raises(ValueError, match=r"array of numbers"):
        K.Matern52(3)("abc")
    with pytest.raises(ValueError, match="needs data"):
        gp.predict(Xs)
    with pytest.raises(ValueError, match=r"x must have shape \(2,\)"):
        kbo.problem("branin")(np.zeros(3))
    with pytest.raises(ValueError, match=r"bounds must have shape \(D, 2\)"):
        kbo.minimize(lambda x: 0.0, [0, 1])
    # integer arrays are converted, not rejected
    gp.fit(np.round(X * 10).astype(int), y, restarts=0)


def test_library_errors_map_to_python_exceptions():
    with pytest.raises(kbo.InputError, match="matern52") as e:
        K.Stationary("matern99", 2)
    assert isinstance(e.value, ValueError)
    with pytest.raises(ValueError, match=r"unknown acquisition 'foo' \(allowed: ucb, ei, pi\)"):
        kbo.minimize(lambda x: 0.0, [(0, 1)], acq="foo")
    with pytest.raises(TypeError, match="unexpected keyword 'no_such_option'"):
        kbo.minimize(lambda x: 0.0, [(0, 1)], no_such_option=3)
    with pytest.raises(ValueError, match="unknown problem"):
        kbo.problem("nope")
    assert issubclass(kbo.NumericalError, RuntimeError)


def test_blas_runs_on_one_thread_whatever_the_environment():
    # kbo/core/blas_threads.hpp: importing kbo sets the OpenBLAS it uses to one thread, even when
    # OPENBLAS_NUM_THREADS asks for more (kbo's own threads do the parallel work).
    code = (
        "import ctypes, kbo; "
        "lib = ctypes.CDLL('libopenblas.so.0'); "
        "print(lib.openblas_get_num_threads())"
    )
    env = dict(os.environ, OPENBLAS_NUM_THREADS="2")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "1"
