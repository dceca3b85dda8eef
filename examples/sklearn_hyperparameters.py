"""Tuning a scikit-learn model's hyperparameters with kbo.minimize (notebook-style: run it cell by cell in
an editor that understands `# %%`, or as a script).

    PYTHONPATH=build/python /usr/bin/python3 examples/sklearn_hyperparameters.py [--out convergence.png]

An RBF support-vector classifier on the Wisconsin breast-cancer data set (bundled with scikit-learn): we
minimise the 5-fold cross-validated error over (log10 C, log10 gamma) with BO, compare with random search
(kbo's "random" strategy, same budget), and plot both convergence curves."""
# %% Imports and the objective
import argparse

import matplotlib

matplotlib.use("Agg")  # write a file; no display needed
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

import kbo

parser = argparse.ArgumentParser()
parser.add_argument("--out", default="sklearn_convergence.png")
parser.add_argument("--iters", type=int, default=25)
parser.add_argument("--seeds", type=int, default=3)
args = parser.parse_args()

X, y = load_breast_cancer(return_X_y=True)
folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)


def cv_error(params: np.ndarray) -> float:
    """params = (log10 C, log10 gamma) -> 5-fold CV misclassification rate."""
    C, gamma = 10.0 ** params[0], 10.0 ** params[1]
    model = make_pipeline(StandardScaler(), SVC(C=C, gamma=gamma))
    return 1.0 - cross_val_score(model, X, y, cv=folds).mean()


bounds = [(-2.0, 4.0),   # log10 C
          (-5.0, 1.0)]   # log10 gamma

# %% BO (kbo defaults: Matern-5/2 ARD GP, UCB) and random search with the same budget, a few seeds
curves = {"kbo BO (gpucb)": [], "random search": []}
for seed in range(args.seeds):
    bo = kbo.minimize(cv_error, bounds, init=5, iters=args.iters, seed=seed)
    rs = kbo.minimize(cv_error, bounds, init=5, iters=args.iters, seed=seed, strategy="random")
    curves["kbo BO (gpucb)"].append(bo.best_so_far())
    curves["random search"].append(rs.best_so_far())
    C, gamma = 10.0 ** bo.best_x
    print(f"seed {seed}: BO best CV error {bo.best_value:.4f} at C={C:.3g}, gamma={gamma:.3g} "
          f"(random search: {rs.best_value:.4f})")

# %% Convergence plot: best CV error so far, mean and range over seeds
fig, ax = plt.subplots(figsize=(6, 4))
for name, runs in curves.items():
    runs = np.array(runs)
    n = np.arange(1, runs.shape[1] + 1)
    ax.plot(n, runs.mean(axis=0), label=name)
    ax.fill_between(n, runs.min(axis=0), runs.max(axis=0), alpha=0.2)
ax.axvline(5.5, color="grey", linestyle=":", linewidth=1)
ax.set_xlabel("evaluations (5 initial Sobol points, then BO)")
ax.set_ylabel("best 5-fold CV error so far")
ax.set_title("RBF-SVM on breast cancer: (log10 C, log10 gamma)")
ax.legend()
fig.tight_layout()
fig.savefig(args.out, dpi=120)
print("wrote", args.out)
