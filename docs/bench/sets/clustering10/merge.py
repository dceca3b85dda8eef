# Merge the per-method clustering runs (10 seeds) into one results.json / results.md.
import json, os, shutil, statistics as st, sys
src = '/tmp/clust10'
dst = '/work/main/docs/bench/sets/clustering10'
os.makedirs(dst, exist_ok=True)
methods = [m for m in ['set', 'approx-1', 'approx-2', 'approx-5'] if os.path.exists(f'{src}/{m}/results.json')]
runs = {m: json.load(open(f'{src}/{m}/results.json')) for m in methods}
def ms(v):
    m = st.mean(v); s = st.stdev(v) if len(v) > 1 else 0.0  # report.hpp's mean_std: sample std
    return f'{m:.3f} ± {s:.3f}'
out = {'clustering': {}, 'methods_run': methods, 'options': runs[methods[0]]['options']}
md = ''
for key, tj in runs[methods[0]]['clustering'].items():
    algo = 'kmeans' if key.endswith('kmeans') else 'gmm'
    merged = {b: v for b, v in tj.items() if 'single' in v}
    md += f'#### {key}\n\n| method | 1 − ARI (single run) | 1 − ARI (best of 30) | time (s) |\n|---|---|---|---|\n'
    for b, v in merged.items():
        md += f"| {b} | {ms(v['single'])} | {ms(v['best_of_budget'])} | {v['seconds_per_run']:.2e} per run |\n"
    for m in methods:
        v = runs[m]['clustering'][key][m]
        merged[m] = v
        md += f"| BO {m} | — | {ms(v['final_best'])} | {st.mean(v['seconds']):.1f} ± {st.stdev(v['seconds']):.1f} per run |\n"
        shutil.copy(f'{src}/{m}/{key}.svg', f'{dst}/{key}_{m}.svg')
    md += '\n'
    out['clustering'][key] = merged
json.dump(out, open(f'{dst}/results.json', 'w'), indent=1)
open(f'{dst}/results.md', 'w').write(md)
print(md)
