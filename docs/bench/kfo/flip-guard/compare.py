import json, statistics as st, sys
base = 'docs/bench/kfo/'
old = json.load(open(base + 'rerun-e0b4fb1/flip/gp.json'))
new = json.load(open(base + 'flip-guard/gp.json'))
clip = json.load(open(base + 'rerun-e0b4fb1/gp.json'))
print('| data set | KFO α-clip | KFO flip (before the guard) | KFO flip with the guard | guard − α-clip: mean ± std of per-split differences | splits where the guarded flip beats α-clip | worst test point: flip before / with the guard | RBF | baselines identical |')
print('|---|---|---|---|---|---|---|---|---|')
for ds in ['Fertility', 'Slump', 'Auto', 'Boston', 'Airfoil']:
    if ds not in new: continue
    a = clip[ds]['test_nll']['kfo']; o = old[ds]['test_nll']['kfo']; n = new[ds]['test_nll']['kfo']
    diff = [x - y for x, y in zip(n, a)]
    same = all(new[ds]['test_nll'][m] == old[ds]['test_nll'][m] for m in ('rbf', 'matern32', 'mkl'))
    fmt = lambda v: f"{st.mean(v):.2f} ± {st.stdev(v):.2f}"
    print(f"| {ds} | {fmt(a)} | {fmt(o)} | {fmt(n)} | {fmt(diff)} | {sum(d < 0 for d in diff)}/10 | "
          f"{max(old[ds]['worst_point_nll']['kfo']):.1f} / {max(new[ds]['worst_point_nll']['kfo']):.1f} | {fmt(new[ds]['test_nll']['rbf'])} | {'yes' if same else 'NO'} |")
