"""Issue-17 tables from the bench JSON (run from the repository root):
/usr/bin/python3 docs/bench/kfo/issue17/tables.py
GP: the default KFO (ARD-scaled functional) against ARD RBF and ARD Matérn-5/2 on the same splits, with the
isotropic KFO of the earlier table (rerun-e0b4fb1/gp.json, same splits) beside it.
SVM: the default KFO against the earlier isotropic KFO and RBF-SVM, paired on the splits run here."""
import json
import pathlib
import statistics as st

HERE = pathlib.Path(__file__).resolve().parent
OLD = HERE.parent / "rerun-e0b4fb1"


def ms(v, p=2):
    return f"{st.mean(v):.{p}f} ± {st.stdev(v):.{p}f}" if len(v) > 1 else f"{v[0]:.{p}f}"


def gp():
    new = json.loads((HERE / "gp.json").read_text())
    old = json.loads((OLD / "gp.json").read_text())
    print("| data set | splits | KFO default (ARD-scaled) | ARD RBF | ARD Matérn-5/2 | KFO ≤ best ARD (splits) | "
          "KFO mean ≤ best ARD mean | KFO isotropic (earlier, same splits) | time s: KFO / ARD RBF / ARD Matérn-5/2 |")
    print("|---|---|---|---|---|---|---|---|---|")
    held = 0
    new = {k: v for k, v in new.items() if isinstance(v, dict) and "test_nll" in v}
    for name, d in new.items():
        n = d["test_nll"]
        k, r, m = n["kfo"], n["rbf_ard"], n["matern52_ard"]
        s = len(k)
        wins = sum(k[i] <= min(r[i], m[i]) for i in range(s))
        mean_ok = st.mean(k) <= min(st.mean(r), st.mean(m))
        held += mean_ok
        iso = old[name]["test_nll"]["kfo"][:s] if name in old else None
        t = d["time_s"]
        print(f"| {name} | {s} | {ms(k)} | {ms(r)} | {ms(m)} | {wins}/{s} | {'yes' if mean_ok else 'no'} | "
              f"{ms(iso) if iso else '–'} | {ms(t['kfo'], 1)} / {ms(t['rbf_ard'])} / {ms(t['matern52_ard'])} |")
    print(f"\nKFO's mean at least as good as the best ARD baseline's on {held} of {len(new)} sets.\n")


def svm():
    path = HERE / "svm.json"
    if not path.exists():
        return
    new = json.loads(path.read_text())
    old = json.loads((OLD / "svm.json").read_text())
    print("| data set | splits | KFO default (ARD-scaled) | KFO isotropic (earlier, same splits) | RBF-SVM | "
          "new vs earlier KFO (better/equal/worse) | new KFO vs RBF-SVM (better/equal/worse) | time s: KFO |")
    print("|---|---|---|---|---|---|---|---|")
    tot_o = [0, 0, 0]
    tot_r = [0, 0, 0]
    new = {k: v for k, v in new.items() if isinstance(v, dict) and "test_error_pct" in v}
    for name, d in new.items():
        e = d["test_error_pct"]
        k, r = e["kfo"], e["rbf_svm"]
        s = len(k)
        o = old[name]["test_error_pct"]["kfo"][:s]
        ro = old[name]["test_error_pct"]["rbf_svm"][:s]
        assert all(abs(a - b) < 1e-9 for a, b in zip(r, ro)), f"{name}: RBF-SVM differs from the earlier run"

        def cmp(a, b, tot):
            c = [sum(x < y - 1e-9 for x, y in zip(a, b)), sum(abs(x - y) <= 1e-9 for x, y in zip(a, b)),
                 sum(x > y + 1e-9 for x, y in zip(a, b))]
            for i in range(3):
                tot[i] += c[i]
            return "/".join(map(str, c))

        print(f"| {name} | {s} | {ms(k)} | {ms(o)} | {ms(r)} | {cmp(k, o, tot_o)} | {cmp(k, r, tot_r)} | "
              f"{ms(d['time_s']['kfo'], 1)} |")
    print(f"\nAll splits: new vs earlier KFO {'/'.join(map(str, tot_o))}, new KFO vs RBF-SVM "
          f"{'/'.join(map(str, tot_r))} (better/equal/worse test error).")


gp()
svm()
