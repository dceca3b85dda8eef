#!/usr/bin/python3
"""Reference for `kbo bench gp`: scikit-learn GaussianProcessRegressor (Debian python3-sklearn) on the
same data as kbo. Usage: sklearn_gp.py TRAIN.csv TEST.csv RESTARTS SEED. Prints one JSON object with
time_s (fit + predict mean/std, excluding file reading), cpu_s (CPU time of the process over the same span,
all threads: robust to other jobs' load), rmse and the fitted kernel."""
import json
import sys
import time

import numpy as np
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, Matern, WhiteKernel

train = np.loadtxt(sys.argv[1], delimiter=",")
test = np.loadtxt(sys.argv[2], delimiter=",")
restarts, seed = int(sys.argv[3]), int(sys.argv[4])
X, y = train[:, :-1], train[:, -1]
Xs, ys = test[:, :-1], test[:, -1]
d = X.shape[1]
kernel = ConstantKernel(1.0, (1e-4, 1e4)) * Matern(np.ones(d), (1e-3, 1e3), nu=2.5) + WhiteKernel(1e-2, (1e-8, 1.0))
t0, c0 = time.perf_counter(), time.process_time()
gp = GaussianProcessRegressor(kernel, normalize_y=True, n_restarts_optimizer=restarts, random_state=seed)
gp.fit(X, y)
mean, std = gp.predict(Xs, return_std=True)
elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"time_s": elapsed, "cpu_s": cpu, "rmse": float(np.sqrt(np.mean((mean - ys) ** 2))),
                  "kernel": str(gp.kernel_), "log_marginal_likelihood": float(gp.log_marginal_likelihood_value_)}))
