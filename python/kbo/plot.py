"""Plots of a study on matplotlib: the views of `kbo report` / `kbo dashboard` for notebooks and scripts.

    import kbo, kbo.plot
    res = kbo.minimize(kbo.problem("branin"), iters=20, seed=0)
    kbo.plot.convergence(res).savefig("convergence.png")
    kbo.plot.slices(res)                 # GP mean ± 2 std per parameter through the best trial
    kbo.plot.importances(res)            # fANOVA main effects (and ARD relevance)
    kbo.plot.parallel_coordinates(res)

Each function takes a kbo.Study, a kbo.Result (kbo.minimize/maximize, Study.optimize) or the view dict of
Study.view() and returns the matplotlib Figure (pass ax=... to draw into an existing Axes where there is one
plot). The GP behind slices and importances is fitted in C++ (kbo/analysis/study_analysis.hpp), the same
analysis the report shows: slices are the GP mean and std along one parameter with the others at the best
trial; partial dependence averages the mean over the other parameters; importance_j is the share of the
mean's variance over the box explained by parameter j alone (fANOVA first-order index).
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from ._kbo import InputError


def _figure(ax: Any = None, figsize=(7.0, 4.0)):
    import matplotlib.pyplot as plt  # imported here: `import kbo` must not need matplotlib

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=figsize)
    return fig, ax


def _view(obj: Any, analysis: bool) -> Dict[str, Any]:
    """The view dict of a Study / Result / view dict; with analysis=True it has the GP analysis."""
    if isinstance(obj, dict):
        if analysis and "analysis" not in obj:
            raise InputError("this dict has no 'analysis': pass the kbo.Study (or Study.view()) instead")
        return obj
    study = getattr(obj, "study", None) if not hasattr(obj, "_s") else obj  # Result -> its Study
    if study is None or not hasattr(study, "_s"):
        raise InputError(f"expected a kbo.Study, kbo.Result or a Study.view() dict (got {type(obj).__name__})")
    if analysis:
        return study._s.view()
    out = study._s.to_json()
    out["config"] = study.config
    return out


def _names(view: Dict[str, Any]) -> list:
    ps = (view.get("analysis") or {}).get("parameters") or []
    dim = len(view["trials"][0]["x"]) if view["trials"] else len(ps)
    return [p["name"] for p in ps] if len(ps) == dim else [f"x{j}" for j in range(dim)]


def _complete(view: Dict[str, Any]) -> list:
    return [t for t in view["trials"] if t["state"] == "complete"]


def convergence(study_or_result: Any, ax: Any = None):
    """Every complete trial's value (dots) and the best so far (a step line) by trial id; failed trials as red
    crosses and pending ones as grey circles on the worst edge of the observed values. Returns the Figure."""
    view = _view(study_or_result, analysis=False)
    fig, ax = _figure(ax)
    maximize = view["direction"] == "maximize"
    trials = sorted(view["trials"], key=lambda t: t["id"])
    done = [t for t in trials if t["state"] == "complete"]
    ids = np.array([t["id"] for t in done], dtype=float)
    values = np.array([t["value"] for t in done], dtype=float)
    best = np.maximum.accumulate(values) if maximize else np.minimum.accumulate(values)
    ax.scatter(ids, values, s=18, color="#60a5fa", label="value", zorder=2)
    ax.step(ids, best, where="post", color="#1d4ed8", linewidth=2, label="best so far", zorder=3)
    edge = (values.min() if maximize else values.max()) if len(values) else 0.0
    failed = [t["id"] for t in trials if t["state"] == "failed"]
    pending = [t["id"] for t in trials if t["state"] == "pending"]
    if failed:
        ax.scatter(failed, [edge] * len(failed), marker="x", color="#dc2626", s=36, label="failed", zorder=4)
    if pending:
        ax.scatter(pending, [edge] * len(pending), marker="o", facecolors="white", edgecolors="#9ca3af", s=28,
                   label="pending", zorder=4)
    ax.set_xlabel("trial")
    ax.set_ylabel("value")
    ax.set_title(f"{view['study']}: convergence ({view['direction']})")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    return fig


def slices(study_or_result: Any, cols: int = 3):
    """One panel per parameter: the GP mean ± 2 std along it with the other parameters at the best trial, the
    partial dependence (dashed), every complete trial's value against it (grey) and the best trial (diamond).
    Without a model (fewer than 2 complete trials) only the trials are drawn and the title says why.
    Returns the Figure."""
    import matplotlib.pyplot as plt

    view = _view(study_or_result, analysis=True)
    a = view["analysis"]
    names = _names(view)
    dim = len(names)
    cols = max(1, min(int(cols), dim))
    rows = (dim + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.8 * rows), squeeze=False)
    done = _complete(view)
    model_ok = a["model"]["ok"]
    for j, name in enumerate(names):
        ax = axes[j // cols][j % cols]
        if model_ok:
            s = a["slices"][j]
            x, mean, std = np.array(s["x"]), np.array(s["mean"]), np.array(s["std"])
            ax.fill_between(x, mean - 2 * std, mean + 2 * std, color="#2563eb", alpha=0.15, label="± 2 std")
            ax.plot(x, mean, color="#1d4ed8", linewidth=2, label="mean")
            ax.plot(x, s["partial_dependence"], color="#7c3aed", linestyle="--", linewidth=1.3,
                    label="partial dependence")
        ax.scatter([t["x"][j] for t in done], [t["value"] for t in done], s=10, color="#94a3b8", label="trials",
                   zorder=3)
        if view.get("best_x") is not None:
            ax.scatter([view["best_x"][j]], [view["best_value"]], marker="D", s=40, color="#f59e0b", label="best",
                       zorder=4)
        ax.set_title(name, fontsize="medium")
    for k in range(dim, rows * cols):
        axes[k // cols][k % cols].set_visible(False)
    axes[0][0].legend(fontsize="x-small", loc="best")
    title = f"{view['study']}: GP slices through trial {a['best']['trial']}" if model_ok else \
        f"{view['study']}: no model ({a['model']['reason']})"
    fig.suptitle(title, fontsize="medium")
    fig.tight_layout()
    return fig


def importances(study_or_result: Any, ax: Any = None):
    """Horizontal bars per parameter: the fANOVA main effect of the GP mean (share of its variance over the box
    explained by the parameter alone) and, for ARD kernels, the relevance 1/lengthscale normalised to sum 1.
    kbo.InputError if the study has no model yet (fewer than 2 complete trials). Returns the Figure."""
    view = _view(study_or_result, analysis=True)
    a = view["analysis"]
    if not a["model"]["ok"]:
        raise InputError(f"no importances for study '{view['study']}': {a['model']['reason']}")
    imp = sorted(a["importance"], key=lambda p: p["fanova"] or 0.0)
    has_ls = all(p["lengthscale"] is not None for p in imp)
    fig, ax = _figure(ax, figsize=(6.5, 1.2 + 0.45 * len(imp) * (1.5 if has_ls else 1.0)))
    pos = np.arange(len(imp))
    h = 0.4 if has_ls else 0.7
    ax.barh(pos + (h / 2 if has_ls else 0), [p["fanova"] or 0.0 for p in imp], height=h, color="#2563eb",
            label="fANOVA main effect")
    if has_ls:
        ax.barh(pos - h / 2, [p["lengthscale"] for p in imp], height=h, color="#a78bfa", label="ARD relevance")
    ax.set_yticks(pos)
    ax.set_yticklabels([p["name"] for p in imp])
    ax.set_xlim(0, 1)
    inter = a.get("interactions")
    ax.set_title(f"{view['study']}: parameter importance" +
                 (f" ({100 * inter:.0f} % interactions)" if inter is not None else ""), fontsize="medium")
    ax.legend(fontsize="small", loc="lower right")
    fig.tight_layout()
    return fig


def parallel_coordinates(study_or_result: Any, ax: Any = None, cmap: str = "viridis_r"):
    """One line per complete trial through its parameters (each axis scaled to the parameter's bounds) and its
    value (last axis, scaled to the observed range), coloured by value: the lowest value takes the colour map's
    start, the highest its end (with the default viridis_r, low values are yellow and high values dark purple, so
    a minimisation's best trials are the bright lines). Returns the Figure."""
    import matplotlib as mpl

    view = _view(study_or_result, analysis=True)
    names = _names(view)
    params = view["analysis"]["parameters"]
    done = _complete(view)
    fig, ax = _figure(ax, figsize=(max(6.0, 1.1 * (len(names) + 1)), 4.0))
    X = np.array([t["x"] for t in done], dtype=float).reshape(len(done), len(names))
    v = np.array([t["value"] for t in done], dtype=float)
    lo = np.array([p["lower"] for p in params], dtype=float) if len(params) == len(names) else X.min(axis=0)
    hi = np.array([p["upper"] for p in params], dtype=float) if len(params) == len(names) else X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    vlo, vhi = (v.min(), v.max()) if len(v) else (0.0, 1.0)
    vspan = vhi - vlo if vhi > vlo else 1.0
    Z = np.column_stack([(X - lo) / span, (v - vlo) / vspan]) if len(v) else np.zeros((0, len(names) + 1))
    colors = mpl.colormaps[cmap]
    axes_x = np.arange(len(names) + 1)
    for z, value in zip(Z, v):
        ax.plot(axes_x, z, color=colors((value - vlo) / vspan), alpha=0.75, linewidth=1.2)
    for k in axes_x:
        ax.axvline(k, color="#475569", linewidth=0.8)
    labels = names + ["value"]
    lows = list(lo) + [vlo]
    highs = list(hi) + [vhi]
    for k in axes_x:
        ax.text(k, -0.04, f"{lows[k]:.3g}", ha="center", va="top", fontsize="x-small")
        ax.text(k, 1.04, f"{highs[k]:.3g}", ha="center", va="bottom", fontsize="x-small")
    ax.set_xticks(axes_x)
    ax.set_xticklabels(labels)
    ax.tick_params(axis="x", pad=14)
    ax.set_yticks([])
    ax.set_ylim(-0.12, 1.12)
    ax.set_xlim(-0.3, len(names) + 0.3)
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    ax.set_title(f"{view['study']}: parallel coordinates ({len(done)} complete trials)", fontsize="medium")
    fig.tight_layout()
    return fig


__all__ = ["convergence", "slices", "importances", "parallel_coordinates"]
