# The kmeans-seeds objective of `kbo bench structure` (bench/structure_bench.cpp) for `kbo optimize --objective`:
# reads {"trial": id, "x": [9 numbers]} on stdin (3 centres in [0,1]^3), prints the mean squared distance of the
# min-max scaled seeds data (area, asymmetry, groove length) to the nearest centre.
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
rows = list(csv.reader(open(os.path.join(HERE, '..', '..', '..', '..', 'data', 'seeds.csv'))))[1:]
values = [[float(r[c]) for c in (0, 5, 6)] for r in rows]
lo = [min(v[k] for v in values) for k in range(3)]
hi = [max(v[k] for v in values) for k in range(3)]
data = [[(v[k] - lo[k]) / (hi[k] - lo[k]) for k in range(3)] for v in values]
x = json.loads(sys.stdin.read())['x']
centres = [x[0:3], x[3:6], x[6:9]]
print(sum(min(sum((p[k] - c[k]) ** 2 for k in range(3)) for c in centres) for p in data) / len(data))
