# Posterior sd of the normalised orbit-average set kernel along the split of a coincident pair,
# at the data and theta of facility seed 12 (trace), trial 21 (the suggestion with elements 2,3 equal).
import json, itertools, sys, numpy as np
rows = []
for line in open(sys.argv[1]):
    if line.startswith('TRACE'):
        p = line.split(' ', 6); rows.append((int(p[3]), np.array([float(v) for v in p[5][2:].split(',')]), json.loads(p[6])))
T = int(sys.argv[2])
X = np.array([r[1] for r in rows[:T]]); info = rows[T][2]; xs = rows[T][1]
ll, lv, ln = info['theta']; l, s2, noise = np.exp(ll), np.exp(lv), np.exp(ln)
perms = list(itertools.permutations(range(4)))
def m52(r):
    a = np.sqrt(5) * r / l; return (1 + a + a * a / 3) * np.exp(-a)
def kbar(A, B):
    A = A.reshape(-1, 4, 2); B = B.reshape(-1, 4, 2)
    out = np.zeros((len(A), len(B)))
    for p in perms:
        d = np.sqrt(((A[:, None, :, :] - B[None, :, list(p), :]) ** 2).sum(axis=(2, 3)))
        out += m52(d)
    return out / len(perms)
def knorm(A, B):
    return s2 * kbar(A, B) / np.sqrt(np.outer(np.diag(kbar(A, A)), np.diag(kbar(B, B))))
K = knorm(X, X) + noise * np.eye(len(X))
Ki = np.linalg.inv(K)
el = xs.reshape(4, 2)
# find the coincident pair
pair = min(itertools.combinations(range(4), 2), key=lambda ij: np.abs(el[ij[0]] - el[ij[1]]).max())
print('trial', T, 'theta l=%.3f s2=%.3f noise=%.2e' % (l, s2, noise), 'pair', pair, el[pair[0]])
rng = np.random.default_rng(0)
for v in [np.array([1.0, 0.0]), np.array([0.0, 1.0]), np.array([0.7071, 0.7071])]:
    line = []
    for t in [0, 0.01, 0.02, 0.05, 0.1, 0.2]:
        e = el.copy(); e[pair[0]] = el[pair[0]] + t * v; e[pair[1]] = el[pair[1]] - t * v
        x = e.reshape(1, -1); k = knorm(x, X)
        var = s2 - (k @ Ki @ k.T)[0, 0]
        line.append('t=%.2f sd=%.4f' % (t, np.sqrt(max(var, 0)) / np.sqrt(s2)))
    print('split dir', v, ' | '.join(line))
