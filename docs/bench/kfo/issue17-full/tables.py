"""Full SVM table with today's default KFO (ARD-scaled functional) beside the old isotropic default and RBF-SVM.
Run from the repository root: /usr/bin/python3 docs/bench/kfo/issue17-full/tables.py
Reads docs/bench/kfo/issue17-full/<set>/svm.json (one data set per process, see run.sh) and the old table
docs/bench/kfo/svm.json (isotropic KFO, commit 255daa0) and its re-run rerun-e0b4fb1/svm.json (same code up to
rounding: the old-vs-old noise floor). All three use the same seeded splits; RBF-SVM must be identical (checked)."""
import json
import math
import pathlib
import statistics as st

HERE = pathlib.Path(__file__).resolve().parent
OLD = json.loads((HERE.parent / "svm.json").read_text())
OLD2 = json.loads((HERE.parent / "rerun-e0b4fb1" / "svm.json").read_text())
ORDER = ["Ionosphere", "Glass", "Sonar", "Heart", "Wine", "Credit", "Biodeg", "Hayes-Roth", "WDBC", "Contraceptive",
         "Car", "Phoneme", "Seeds"]


def ms(v, p=2):
    return f"{st.mean(v):.{p}f} ± {st.stdev(v):.{p}f}" if len(v) > 1 else f"{v[0]:.{p}f}"


def bew(a, b):
    """Paired counts: a better (lower error) / equal / worse than b."""
    return [sum(x < y - 1e-9 for x, y in zip(a, b)), sum(abs(x - y) <= 1e-9 for x, y in zip(a, b)),
            sum(x > y + 1e-9 for x, y in zip(a, b))]


def sign_p(better, worse):
    """Two-sided exact sign test on the non-tied splits."""
    n, k = better + worse, min(better, worse)
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def load_new():
    new = {}
    for f in sorted(HERE.glob("*/svm.json")):
        for k, v in json.loads(f.read_text()).items():
            if isinstance(v, dict) and "test_error_pct" in v:
                new[k] = v
    return new


def main():
    new = load_new()
    print("| data set | n × D | splits | KFO new default (ARD-scaled) | KFO old default (isotropic, svm.json) | RBF-SVM | "
          "new vs old: better/equal/worse | new vs RBF-SVM: better/equal/worse | old vs RBF-SVM | old vs its re-run (noise) | "
          "time s per search: new KFO / RBF-SVM (this run) | old run: KFO / RBF-SVM |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    tot = {"no": [0] * 3, "nr": [0] * 3, "or": [0] * 3, "oo": [0] * 3}
    means = {"new": [], "old": [], "rbf": []}
    for name in ORDER:
        if name not in new:
            continue
        d = new[name]
        e = d["test_error_pct"]
        k, r = e["kfo"], e["rbf_svm"]
        s = len(k)
        o = OLD[name]["test_error_pct"]["kfo"][:s]
        o2 = OLD2[name]["test_error_pct"]["kfo"][:s]
        ro = OLD[name]["test_error_pct"]["rbf_svm"][:s]
        assert all(abs(a - b) < 1e-9 for a, b in zip(r, ro)), f"{name}: RBF-SVM differs: splits not paired"
        c = {"no": bew(k, o), "nr": bew(k, r), "or": bew(o, r), "oo": bew(o2, o)}
        for key in tot:
            tot[key] = [a + b for a, b in zip(tot[key], c[key])]
        means["new"].append(st.mean(k))
        means["old"].append(st.mean(o))
        means["rbf"].append(st.mean(r))
        t = d["time_s"]
        print(f"| {name} | {d['n']} × {d['dim']} | {s} | {ms(k)} | {ms(o)} | {ms(r)} | {'/'.join(map(str, c['no']))} | "
              f"{'/'.join(map(str, c['nr']))} | {'/'.join(map(str, c['or']))} | {'/'.join(map(str, c['oo']))} | "
              f"{ms(t['kfo'], 1)} / {ms(t['rbf_svm'])} | {ms(OLD[name]['time_s']['kfo'][:s], 1)} / "
              f"{ms(OLD[name]['time_s']['rbf_svm'][:s])} |")
    n = len(means["new"])
    print(f"\nData sets: {n}. Mean over data sets of the mean test error: new KFO {st.mean(means['new']):.2f} %, "
          f"old KFO {st.mean(means['old']):.2f} %, RBF-SVM {st.mean(means['rbf']):.2f} %.")
    for key, label in [("no", "new vs old KFO"), ("nr", "new KFO vs RBF-SVM"), ("or", "old KFO vs RBF-SVM"),
                       ("oo", "old KFO re-run vs old KFO")]:
        b, q, w = tot[key]
        print(f"All splits, {label}: {b}/{q}/{w} (better/equal/worse), two-sided sign test p = {sign_p(b, w):.3f}")
    lower = lambda a, b: sum(x < y - 1e-9 for x, y in zip(a, b))
    print(f"Data sets with a lower mean: new < old KFO on {lower(means['new'], means['old'])} of {n}, "
          f"new < RBF-SVM on {lower(means['new'], means['rbf'])}, old < RBF-SVM on {lower(means['old'], means['rbf'])}.")



def attribution():
    """Sets re-run with --input-scaling none on today's code (isotropic/<set>/svm.json): separates the ARD scaling
    from the other changes since the old table (per-fold spectrum clip, distinct-distance basis, rounding)."""
    new = load_new()
    iso = {}
    for f in sorted((HERE / "isotropic").glob("*/svm.json")):
        for k, v in json.loads(f.read_text()).items():
            if isinstance(v, dict) and "test_error_pct" in v:
                iso[k] = v
    if not iso:
        return
    print("\n| data set | splits | KFO new default (ARD-scaled) | KFO isotropic, today's code | KFO old default (svm.json) | "
          "RBF-SVM | ARD vs isotropic today: better/equal/worse | isotropic today vs old: better/equal/worse |")
    print("|---|---|---|---|---|---|---|---|")
    for name in ORDER:
        if name not in iso or name not in new:
            continue
        i = iso[name]["test_error_pct"]["kfo"]
        s = len(i)
        k = new[name]["test_error_pct"]["kfo"][:s]
        o = OLD[name]["test_error_pct"]["kfo"][:s]
        r = iso[name]["test_error_pct"]["rbf_svm"]
        assert all(abs(a - b) < 1e-9 for a, b in zip(r, OLD[name]["test_error_pct"]["rbf_svm"][:s]))
        print(f"| {name} | {s} | {ms(k)} | {ms(i)} | {ms(o)} | {ms(r)} | {'/'.join(map(str, bew(k, i)))} | "
              f"{'/'.join(map(str, bew(i, o)))} |")


main()
attribution()
