# The covering objective of `kbo bench structure` (bench/structure_bench.cpp) for `kbo optimize --objective`:
# reads {"trial": id, "x": [8 numbers]} on stdin (4 points in [0,1]^2), prints the covering radius on a 21x21
# grid: the largest distance from a grid point to its nearest point.
import json
import math
import sys

x = json.loads(sys.stdin.read())['x']
points = [x[i:i + 2] for i in range(0, len(x), 2)]
grid = [(i / 20, j / 20) for i in range(21) for j in range(21)]
print(max(min(math.dist(g, p) for p in points) for g in grid))
