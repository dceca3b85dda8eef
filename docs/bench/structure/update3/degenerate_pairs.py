import sys, json, itertools, collections
# count BO suggestions (trial >= 5) with two elements within tol (element dim d, set size m)
m, d, tol = int(sys.argv[1]), int(sys.argv[2]), 1e-3
cnt = collections.Counter(); tot = collections.Counter()
for fn in sys.argv[3:]:
    for line in open(fn):
        if not line.startswith('TRACE'): continue
        p = line.split(' ', 6)
        meth, seed, i = p[1], p[2], int(p[3])
        if i < 5: continue
        x = [float(v) for v in p[5][2:].split(',')]
        if len(x) != m * d: continue
        el = [x[e*d:(e+1)*d] for e in range(m)]
        deg = any(max(abs(a-b) for a, b in zip(el[i1], el[i2])) < tol for i1, i2 in itertools.combinations(range(m), 2))
        tot[meth] += 1; cnt[meth] += deg
for k in tot: print(k, cnt[k], '/', tot[k])
