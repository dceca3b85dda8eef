# Merges the clustering runs of docs/bench/sets/run_bo.sh (blobs: one process for both tasks, digits: one
# process; each writes partial.json after every BO run) into results.json / results.md here.
# Usage: /usr/bin/python3 docs/bench/sets/clustering/merge.py <run root, e.g. /tmp/setsbo>
import json, os, shutil, statistics as st, sys

src = sys.argv[1]
dst = os.path.dirname(os.path.abspath(__file__))
methods = ['set', 'approx-1', 'approx-2', 'approx-5']


def ms(v, p=3):
    m = st.mean(v)
    s = st.stdev(v) if len(v) > 1 else 0.0  # report.hpp's mean_std: sample std
    return f'{m:.{p}f} ± {s:.{p}f}'


def load(path):
    # results.json of a finished process, else the partial.json written after every BO run
    for name in ('results.json', 'partial.json'):
        f = os.path.join(path, name)
        if os.path.exists(f):
            j = json.load(open(f))
            return j.get('clustering', j), name == 'results.json'
    return None, False


parts = {}  # task key -> {method or baseline: entry}
status = {}
for sub in ('blobs', 'digits'):
    cj, done = load(f'{src}/{sub}')
    for key, tj in (cj or {}).items():
        parts[key] = dict(tj)
        status[key] = {m: ('finished' if done else 'partial') for m in tj if m in methods}

out = {'clustering': parts, 'status': status}
md = ''
titles = {'blobs_kmeans': 'k-means on blobs', 'blobs_gmm': 'GMM on blobs', 'digits_kmeans': 'k-means on digits'}
for key in ['blobs_gmm', 'blobs_kmeans', 'digits_kmeans']:
    if key not in parts:
        continue
    tj = parts[key]
    md += f'##### {titles[key]}\n\n| method | 1 − ARI (single run) | 1 − ARI (best of 30) | time per run (s) |\n|---|---|---|---|\n'
    for b, v in tj.items():
        if 'single' in v:
            md += f"| {b} | {ms(v['single'])} | {ms(v['best_of_budget'])} | {v['seconds_per_run']:.2e} wall |\n"
    for m in methods:
        if m not in tj:
            continue
        v = tj[m]
        n = len(v['final_best'])
        cpu = f", {ms(v['cpu_seconds'], 1)} CPU" if 'cpu_seconds' in v else ''
        md += f"| BO {m} ({n} seeds) | — | {ms(v['final_best'])} | {ms(v['seconds'], 1)} wall{cpu} |\n"
    md += '\n'
json.dump(out, open(f'{dst}/results.json', 'w'), indent=1)
open(f'{dst}/results.md', 'w').write(md)
for f in ['blobs/blobs_kmeans.svg', 'blobs/blobs_gmm.svg', 'digits/digits_kmeans.svg']:
    if os.path.exists(f'{src}/{f}'):
        shutil.copy(f'{src}/{f}', dst)
print(md)
