#!/usr/bin/python3
"""Prints the Markdown tables of docs/bench/kfo.md from the JSON that `kbo bench kfo` wrote (docs/bench/kfo/*.json),
so every number in the document can be checked against the JSON: `/usr/bin/python3 docs/bench/kfo/tables.py`.

The paper's columns are copied from bench/kfo_bench.cpp (kPaperSvm, kPaperGp; docs/papers.md#kfo-reported-numbers)."""
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))

PAPER_SVM = {  # KFO, SVM-RBF, SVM-MKL (Table 1, test error %)
    "Ionosphere": ("3.06 ± 1.6", "6.1 ± 1.8", "9.31 ± 0.4"),
    "Glass": ("9.3 ± 0.19", "7.2 ± 2.7", "20.86 ± 0.7"),
    "Sonar": ("6.6 ± 1.2", "15.3 ± 4.1", "20.99 ± 4.4"),
    "Heart": ("11.47 ± 0.2", "23.2 ± 3.7", "15"),
    "Wine": ("0 ± 0.01", "0.01", "0"),
    "Credit": ("28.19 ± 3.57", "15.3 ± 2.0", "13.62 ± 1.8"),
    "Biodeg": ("12.12 ± 1.29", "26.39 ± 2.5", "12.33 ± 1.5"),
    "Hayes-Roth": ("14.18 ± 0.1", "35.81 ± 6.2", "18.69 ± 0.9"),
    "WDBC": ("0.68 ± 0.84", "5.2 ± 1.4", "2.05 ± 1.6"),
    "Contraceptive": ("30.1 ± 2.71", "35.49 ± 1.6", "32.86 ± 2.3"),
    "Car": ("0", "5.30 ± 0.5", "2.54 ± 0.4"),
    "Phoneme": ("22.74 ± 2.31", "22.85 ± 1.6", "20.12 ± 0.3"),
    "Seeds": ("1.2 ± 0.2", "8.74 ± 0.4", "3.96 ± 0.5"),
}
PAPER_GP = {  # KFO, RBF, ARD Matérn (Table 2, test NLL)
    "Fertility": ("5.15 ± 2.95", "3.90 ± 1.76", "4.40 ± 2.58"),
    "Slump": ("3.01 ± 1.7", "36.302 ± 7.93", "26.33 ± 7.48"),
    "Boston": ("24.7 ± 4.2", "139.61 ± 11.5", "130.8 ± 10.50"),
    "Auto": ("8.78 ± 1.2", "96.18 ± 8.02", "94.01 ± 5.03"),
    "Airfoil": ("204.1 ± 4.5", "358.93 ± 8.93", "305.88 ± 7.46"),
}
DATA = os.path.join(HERE, "..", "..", "..", "data")


def full_rows(d):
    """Rows of the data set's CSV in data/ (header line excluded): the table says "(of N)" when the bench subsampled."""
    with open(os.path.join(DATA, d["file"])) as f:
        return sum(1 for line in f if line.strip()) - 1


def rows(d):
    n = full_rows(d)
    return f"{d['n']} × {d['dim']}" + ("" if d["n"] == n else f" (of {n})")


def ms(v, p=2):
    if len(v) == 1:
        return f"{v[0]:.{p}f}"
    return f"{statistics.mean(v):.{p}f} ± {statistics.stdev(v):.{p}f}"  # sample std, as bench/report.hpp


def load(name):
    path = os.path.join(HERE, name)
    return json.load(open(path)) if os.path.exists(path) else None


def svm_table(J):
    print("| data set | n × D used | splits | KFO (kbo) | RBF-SVM (kbo) | MKL-SVM (kbo) | KFO (paper) | SVM-RBF (paper) | SVM-MKL (paper) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, paper in PAPER_SVM.items():
        if name not in J:
            continue
        d, e = J[name], J[name]["test_error_pct"]
        print(f"| {name} | {rows(d)} | {len(e['kfo'])} | {ms(e['kfo'])} | {ms(e['rbf_svm'])} | {ms(e['mkl'])} | "
              + " | ".join(paper) + " |")


def gp_table(J):
    print("| data set | n × D used | splits | KFO (kbo) | RBF (kbo) | ARD Matérn-3/2 (kbo) | MKL (kbo) | worst test point, max over splits "
          "(KFO / RBF / ARD / MKL) | KFO (paper) | RBF (paper) | ARD Matérn (paper) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, paper in PAPER_GP.items():
        if name not in J:
            continue
        d, t, w = J[name], J[name]["test_nll"], J[name]["worst_point_nll"]
        worst = " / ".join(f"{max(w[m]):.1f}" for m in ("kfo", "rbf", "matern32", "mkl"))
        print(f"| {name} | {rows(d)} | {len(t['kfo'])} | {ms(t['kfo'])} | {ms(t['rbf'])} | {ms(t['matern32'])} | {ms(t['mkl'])} | "
              f"{worst} | " + " | ".join(paper) + " |")


def flip_table(A, F):
    print("| data set | splits | KFO α-clip | KFO flip | flip − α-clip (mean ± std of the per-split difference) | flip better (splits) "
          "| worst test point α-clip / flip | RBF (same splits) | KFO (paper) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, paper in PAPER_GP.items():
        if name not in F or name not in A:
            continue
        a, f = A[name]["test_nll"]["kfo"], F[name]["test_nll"]["kfo"]
        if len(a) != len(f) or A[name]["test_nll"]["rbf"] != F[name]["test_nll"]["rbf"]:
            raise SystemExit(f"{name}: the α-clip and flip runs are not on the same splits")
        diff = [x - y for x, y in zip(f, a)]
        wins = sum(x < y for x, y in zip(f, a))
        wa, wf = max(A[name]["worst_point_nll"]["kfo"]), max(F[name]["worst_point_nll"]["kfo"])
        print(f"| {name} | {len(a)} | {ms(a)} | {ms(f)} | {ms(diff)} | {wins}/{len(a)} | {wa:.1f} / {wf:.1f} | "
              f"{ms(A[name]['test_nll']['rbf'])} | {paper[0]} |")


def synthetic_table(J):
    print("| function | SE | Matérn-3/2 | MKL | KFO | KFO ≥ best baseline (runs) |")
    print("|---|---|---|---|---|---|")
    for fn in ("triangular", "gmix", "sinc"):
        d = J[fn]
        best = [max(a, b, c) for a, b, c in zip(d["se"], d["matern32"], d["mkl"])]
        wins = sum(k >= b - 1e-9 for k, b in zip(d["kfo"], best))
        print(f"| {fn} | {ms(d['se'])} | {ms(d['matern32'])} | {ms(d['mkl'])} | {ms(d['kfo'])} | {wins}/{len(best)} |")


def runtime_table(J):
    paper = {"Sonar": "9.1 ± 0.3 | 90.87 ± 0.694 | 567.7 ± 4.64", "Heart": "4.7 ± 0.35 | 95.24 ± 0.567 | 1070.1 ± 24.1",
             "Glass": "9.35 ± 0.55 | 90.64 ± 0.441 | 554.7 ± 8.19", "Credit": "0.9 ± 0.13 | 98.8 ± 0.360 | 5191.3 ± 34.2"}
    print("| data set | splits | optimising % | evaluating % | total s | paper: optimising % | evaluating % | total s |")
    print("|---|---|---|---|---|---|---|---|")
    for name, p in paper.items():
        if name in J:
            d = J[name]
            print(f"| {name} | {len(d['total_s'])} | {ms(d['optimising_pct'])} | {ms(d['evaluating_pct'])} | {ms(d['total_s'])} | {p} |")


if __name__ == "__main__":
    for title, fn, files in [("SVM (svm.json)", svm_table, ["svm.json"]), ("GP, alpha-clip (gp.json)", gp_table, ["gp.json"]),
                             ("GP, spectrum flip (flip/gp.json)", gp_table, ["flip/gp.json"]),
                             ("alpha-clip vs flip (gp.json, flip/gp.json)", flip_table, ["gp.json", "flip/gp.json"]),
                             ("synthetic, K# = 0 (synthetic.json)", synthetic_table, ["synthetic.json"]),
                             ("synthetic, from the best baseline", synthetic_table, ["from_baseline/synthetic.json"]),
                             ("synthetic, MAP fits (map/synthetic.json)", synthetic_table, ["map/synthetic.json"]),
                             ("runtime (runtime.json)", runtime_table, ["runtime.json"])]:
        data = [load(f) for f in files]
        if all(d is not None for d in data):
            print(f"\n#### {title}\n")
            fn(*data)
