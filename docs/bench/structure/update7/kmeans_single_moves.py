# Is k-means seed 5's stalled incumbent (structure.md, update 6) a local optimum for moves of one centre?
# For each centre, the best position on a 21^3 grid with the other two fixed, against the optimum (scikit-learn's
# k-means, 50 starts). Run: /usr/bin/python3 docs/bench/structure/update7/kmeans_single_moves.py
import itertools
import os

import numpy as np
from sklearn.cluster import KMeans

HERE = os.path.dirname(os.path.abspath(__file__))
data = np.genfromtxt(os.path.join(HERE, '..', '..', '..', '..', 'data', 'seeds.csv'), delimiter=',', skip_header=1)[:, [0, 5, 6]]
data = (data - data.min(0)) / (data.max(0) - data.min(0))  # as bench/structure_bench.cpp scales them


def objective(centres):
    c = np.asarray(centres)
    return np.mean(np.min(((data[:, None, :] - c[None]) ** 2).sum(-1), 1))


incumbent = [(0.2, 0.38, 0.22), (0.61, 0.34, 0.57), (0.79, 0.37, 0.89)]  # seed 5's stall, update 6
print('stalled incumbent: %.4f' % objective(incumbent))
grid = np.array(list(itertools.product(np.linspace(0, 1, 21), repeat=3)))
for k in range(3):
    values = []
    for p in grid:
        moved = list(incumbent)
        moved[k] = p
        values.append(objective(moved))
    i = int(np.argmin(values))
    print('centre %d moved to its best grid position %s: %.4f' % (k, np.round(grid[i], 2), values[i]))
km = KMeans(3, n_init=50, random_state=0).fit(data)
print('optimum (k-means, 50 starts): %.5f at %s' % (objective(km.cluster_centers_), np.round(km.cluster_centers_, 2).tolist()))
