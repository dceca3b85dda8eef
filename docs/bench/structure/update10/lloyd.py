# docs/bench/structure.md update 10: what the k-means "stalls" are.
#   python3 docs/bench/structure/update10/lloyd.py                 local optima of the kmeans-seeds objective
#                                                                  (Lloyd's algorithm from 300 random starts)
#   build/kbo optimize --space set --set-size 3 --bounds 0:1,0:1,0:1 --seed 5 --init 5 --iters 40 --json \
#       --storage memory --objective 'python3 docs/bench/structure/update7/kmeans_objective.py' > run.json
#   python3 docs/bench/structure/update10/lloyd.py run.json        where Lloyd's algorithm takes the run's final
#       set, and the incumbent's set distance from that optimum every third trial
import csv, itertools, json, math, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
rows = list(csv.reader(open(os.path.join(HERE, '..', '..', '..', '..', 'data', 'seeds.csv'))))[1:]
values = [[float(r[c]) for c in (0, 5, 6)] for r in rows]
lo = [min(v[k] for v in values) for k in range(3)]
hi = [max(v[k] for v in values) for k in range(3)]
data = [[(v[k] - lo[k]) / (hi[k] - lo[k]) for k in range(3)] for v in values]


def objective(C):  # as bench/structure_bench.cpp: mean squared distance to the nearest centre
    return sum(min(sum((p[k] - c[k]) ** 2 for k in range(3)) for c in C) for p in data) / len(data)


def lloyd(C):
    for _ in range(200):
        groups = [[] for _ in C]
        for p in data:
            groups[min(range(len(C)), key=lambda j: sum((p[k] - C[j][k]) ** 2 for k in range(3)))].append(p)
        new = [[sum(p[k] for p in g) / len(g) for k in range(3)] if g else C[j] for j, g in enumerate(groups)]
        if new == C:
            break
        C = new
    return C


def centres(x):
    return [x[0:3], x[3:6], x[6:9]]


def set_distance(A, B):  # the nearest ordering's Euclidean distance in the 9 coordinates
    return min(math.sqrt(sum(sum((a - b) ** 2 for a, b in zip(A[i], B[p[i]])) for i in range(3)))
               for p in itertools.permutations(range(3)))


if len(sys.argv) == 1:
    random.seed(1)
    found = {}
    for _ in range(300):
        v = round(objective(lloyd([[random.random() for _ in range(3)] for _ in range(3)])), 4)
        found[v] = found.get(v, 0) + 1
    print('local optimum: starts', sorted(found.items()))
else:
    run = json.load(open(sys.argv[1]))
    optimum = lloyd(centres(run['best_x']))
    print('final %.4f -> Lloyd %.4f' % (run['best_value'], objective(optimum)))
    best, trace = None, []
    for t in run['trials']:
        if best is None or t['value'] < best[0]:
            best = (t['value'], t['x'])
        trace.append('t%d %.3f@%.2f' % (t['id'], best[0], set_distance(centres(best[1]), optimum)))
    print('  '.join(trace[4::3]))
