"""kbo.kfo.learn: a learned KFO kernel is PSD, reproducible, and the one `kbo kfo --save-kernel` writes."""
import json

import numpy as np
import pytest

import kbo


def test_learned_regression_kernel_matches_the_cli(tmp_path, run_cli):
    rng = np.random.default_rng(5)
    X = rng.uniform(-2, 2, (40, 2))
    y = np.sin(2 * X[:, 0]) * np.cos(X[:, 1]) + 0.05 * rng.standard_normal(40)
    np.savetxt(tmp_path / "d.csv", np.column_stack([X, y]), delimiter=",", fmt="%.17g")
    opts = dict(subspaces=2, iterations=3, tune=False, seed=4)
    run_cli("kfo", "--data", tmp_path / "d.csv", "--task", "regression", "--subspaces", 2, "--iterations", 3,
            "--no-tune", "--seed", 4, "--save-kernel", tmp_path / "k.json", parse=False)
    saved = json.loads((tmp_path / "k.json").read_text())
    # the CLI's split and scaling, then the same learner
    train, test = kbo.kfo.random_split(40, 0.2, 4)
    Xtr, Xte = kbo.kfo.minmax_scale(X[train], X[test])
    ytr, _ = kbo.kfo.minmax_scale(y[train, None], y[test, None])
    learned = kbo.kfo.learn(Xtr, ytr[:, 0], "regression", **opts)
    k = learned.kernel
    assert isinstance(k, kbo.kernels.Functional) and k.lambda_h == saved["lambda_h"]
    np.testing.assert_allclose(k.distances, saved["distances"], rtol=1e-12)
    # the default ARD input scales (||s|| = sqrt(D)), the same in the CLI's file and in Python
    assert learned.input_scales.shape == (2,)
    np.testing.assert_allclose(np.linalg.norm(learned.input_scales), np.sqrt(2), rtol=1e-12)
    np.testing.assert_allclose(k.input_scales, saved["functional_input_scales"], rtol=1e-10)
    rebuilt = kbo.kernels.functional_from_json(saved)
    np.testing.assert_allclose(rebuilt.input_scales, k.input_scales, rtol=1e-10)
    # The same functional: equal weights up to the overall scale (the saved kernel carries its fitted
    # variance in its own convention, which the GP refits anyway).
    w, ws = np.asarray(k.weights), np.asarray(saved["weights"])
    np.testing.assert_allclose(w / w.sum(), ws / ws.sum(), rtol=1e-12, atol=1e-15)
    G = k(Xtr)
    assert np.linalg.eigvalsh(G).min() > -1e-9 * np.abs(G).max()
    assert len(learned.search_values) == 2 * (4 + 3)
    # reproducible with the same seed, usable by a GP
    again = kbo.kfo.learn(Xtr, ytr[:, 0], "regression", **opts)
    np.testing.assert_array_equal(again.kernel.weights, k.weights)
    gp = kbo.GP(k)
    gp.fit(Xtr, ytr[:, 0], restarts=1)
    assert gp.predict(Xte).shape == (len(test),)


def test_isotropic_option_gives_the_papers_kernel():
    rng = np.random.default_rng(2)
    X = rng.uniform(0, 1, (30, 2))
    y = np.sin(4 * X[:, 0])
    iso = kbo.kfo.learn(X, y, "regression", subspaces=1, iterations=1, tune=False, input_scaling="none")
    assert iso.input_scales.shape == (0,) and iso.kernel.input_scales.shape == (0,)
    with pytest.raises(ValueError, match="allowed: ard, none"):
        kbo.kfo.learn(X, y, "regression", input_scaling="relevance")


def test_learn_checks_its_input():
    X = np.random.default_rng(0).uniform(0, 1, (20, 2))
    with pytest.raises(ValueError, match=r"scaled to \[0, 1\]"):
        kbo.kfo.learn(X * 3, X[:, 0], "regression")
    with pytest.raises(ValueError, match="classification|regression"):
        kbo.kfo.learn(X, X[:, 0], "clustering")
    with pytest.raises(ValueError, match=r"y must have shape \(20,\)"):
        kbo.kfo.learn(X, X[:5, 0], "regression")
