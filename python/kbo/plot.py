"""Plots of a study on matplotlib: the views of `kbo report` / `kbo dashboard` for notebooks and scripts.

    import kbo, kbo.plot
    res = kbo.minimize(kbo.problem("branin"), iters=20, seed=0)
    kbo.plot.convergence(res).savefig("convergence.png")
    kbo.plot.slices(res)                 # GP mean ± 2 std per parameter through the best trial
    kbo.plot.importances(res)            # fANOVA main effects (and ARD relevance)
    kbo.plot.parallel_coordinates(res)
    kbo.plot.contour(res, "C", "gamma")  # GP mean over two parameters (default: the two most important)
    kbo.plot.model_fit(res)              # leave-one-out predicted vs observed, ± 2 std

Parameters are the user's (kbo/analysis/param_axes.hpp): a log parameter on a log axis in its own units, an
int at its integers, a categorical as its choices (box plots of the observed values in the slices, a
category axis in parallel coordinates, one importance bar).

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


def _axes(view: Dict[str, Any]) -> list:
    """The study's parameters (analysis.parameters), else one plain axis per coordinate."""
    ps = (view.get("analysis") or {}).get("parameters") or []
    if ps:
        return ps
    dim = len(view["trials"][0]["x"]) if view["trials"] else 0
    return [{"name": f"x{j}", "type": "float", "log": False, "lower": None, "upper": None, "coordinates": [j]}
            for j in range(dim)]


def _names(view: Dict[str, Any]) -> list:
    return [p["name"] for p in _axes(view)]


def _value(trial: Dict[str, Any], axis: Dict[str, Any]) -> Any:
    """A trial's value of one parameter: its typed value for named spaces, else its coordinate."""
    params = trial.get("params")
    if params is not None and axis["name"] in params:
        return params[axis["name"]]
    return trial["x"][axis["coordinates"][0]]


def _choice_index(axis: Dict[str, Any], value: Any) -> int:
    return [str(c) for c in axis["choices"]].index(str(value))


def _complete(view: Dict[str, Any]) -> list:
    return [t for t in view["trials"] if t["state"] == "complete"]


def _clip_edge(values: np.ndarray, maximize: bool, force: bool) -> Optional[float]:
    """Where a clipped value axis ends: twice the distance from the best value to the upper (lower, maximising)
    quartile. Without force, only when the worst value is more than five times as far (the report's 'auto')."""
    if len(values) < (2 if force else 4):
        return None
    best = values.max() if maximize else values.min()
    worst = values.min() if maximize else values.max()
    typical = np.quantile(values, 0.25 if maximize else 0.75)
    if typical == best or (not force and abs(worst - best) <= 5 * abs(typical - best)):
        return None
    return float(best + 2 * (typical - best))


def convergence(study_or_result: Any, ax: Any = None, yscale: str = "auto"):
    """Every complete trial's value (dots) and the best so far (a step line) by trial id; failed trials as red
    crosses and pending ones as grey circles on the worst edge of the observed values. yscale: "linear", "log"
    (values must be positive), "clipped" (the worst values, which flatten the rest, drawn on the edge as
    triangles) or "auto" (clipped when the worst value is more than five times as far from the best as the
    upper quartile, else linear; as the report). Returns the Figure."""
    if yscale not in ("auto", "linear", "log", "clipped"):
        raise InputError(f"yscale must be 'auto', 'linear', 'log' or 'clipped' (got {yscale!r})")
    view = _view(study_or_result, analysis=False)
    fig, ax = _figure(ax)
    maximize = view["direction"] == "maximize"
    trials = sorted(view["trials"], key=lambda t: t["id"])
    done = [t for t in trials if t["state"] == "complete"]
    ids = np.array([t["id"] for t in done], dtype=float)
    values = np.array([t["value"] for t in done], dtype=float)
    best = np.maximum.accumulate(values) if maximize else np.minimum.accumulate(values)
    if yscale == "log" and not (len(values) and values.min() > 0):
        raise InputError("a log value axis needs positive values (use yscale='clipped' or 'linear')")
    clip = _clip_edge(values, maximize, force=yscale == "clipped") if yscale in ("auto", "clipped") else None
    shown = values if clip is None else (np.maximum(values, clip) if maximize else np.minimum(values, clip))
    beyond = shown != values
    ax.scatter(ids[~beyond], values[~beyond], s=18, color="#60a5fa", label="value", zorder=2)
    if beyond.any():
        ax.scatter(ids[beyond], shown[beyond], s=30, marker="v" if maximize else "^", color="#60a5fa",
                   label=f"beyond {clip:.3g} ({int(beyond.sum())})", zorder=2)
    # Clipped, the best-so-far line starts on the edge too (its first values are the clipped ones).
    best_shown = best if clip is None else (np.maximum(best, clip) if maximize else np.minimum(best, clip))
    ax.step(ids, best_shown, where="post", color="#1d4ed8", linewidth=2, label="best so far", zorder=3)
    edge = (shown.min() if maximize else shown.max()) if len(values) else 0.0
    failed = [t["id"] for t in trials if t["state"] == "failed"]
    pending = [t["id"] for t in trials if t["state"] == "pending"]
    if failed:
        ax.scatter(failed, [edge] * len(failed), marker="x", color="#dc2626", s=36, label="failed", zorder=4)
    if pending:
        ax.scatter(pending, [edge] * len(pending), marker="o", facecolors="white", edgecolors="#9ca3af", s=28,
                   label="pending", zorder=4)
    ax.set_xlabel("trial")
    ax.set_ylabel("value")
    if yscale == "log":
        ax.set_yscale("log")
    ax.set_title(f"{view['study']}: convergence ({view['direction']})")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    return fig


def slices(study_or_result: Any, cols: int = 3):
    """One panel per parameter: the GP mean ± 2 std along it with the other parameters at the best trial, the
    partial dependence (dashed), every complete trial's value against it (grey) and the best trial (diamond).
    A log parameter is drawn on a log axis; a categorical as a box plot of the observed values per choice with
    the GP mean ± 2 std (error bar) and the partial dependence (triangle). Without a model (fewer than 2
    complete trials) only the trials are drawn and the title says why. Returns the Figure."""
    import matplotlib.pyplot as plt

    view = _view(study_or_result, analysis=True)
    a = view["analysis"]
    axes_info = _axes(view)
    dim = len(axes_info)
    cols = max(1, min(int(cols), dim))
    rows = (dim + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.8 * rows), squeeze=False)
    done = _complete(view)
    model_ok = a["model"]["ok"]
    best = a.get("best") or {}
    for j, info in enumerate(axes_info):
        ax = axes[j // cols][j % cols]
        s = a["slices"][j] if model_ok else None
        if info["type"] == "categorical":
            pos = np.arange(len(info["choices"]))
            groups = [[t["value"] for t in done if str(_value(t, info)) == str(c)] for c in info["choices"]]
            ax.boxplot([g if g else [np.nan] for g in groups], positions=pos, widths=0.5, showfliers=False,
                       medianprops={"color": "#64748b"})
            ax.scatter([_choice_index(info, _value(t, info)) for t in done], [t["value"] for t in done], s=10,
                       color="#94a3b8", label="trials", zorder=3)
            if s is not None:
                ax.errorbar(pos, s["mean"], yerr=2 * np.array(s["std"]), fmt="o", color="#1d4ed8", capsize=4,
                            label="mean ± 2 std", zorder=4)
                ax.scatter(pos, s["partial_dependence"], marker="^", color="#7c3aed", label="partial dependence",
                           zorder=4)
            if best.get("values") is not None:
                ax.scatter([_choice_index(info, best["values"][j])], [view["best_value"]], marker="D", s=40,
                           color="#f59e0b", label="best", zorder=5)
            ax.set_xticks(pos)
            ax.set_xticklabels([str(c) for c in info["choices"]])
        else:
            if s is not None:
                x, mean, std = np.array(s["x"], dtype=float), np.array(s["mean"]), np.array(s["std"])
                ax.fill_between(x, mean - 2 * std, mean + 2 * std, color="#2563eb", alpha=0.15, label="± 2 std")
                ax.plot(x, mean, color="#1d4ed8", linewidth=2, label="mean",
                        marker="o" if info["type"] == "int" else None, markersize=3)
                ax.plot(x, s["partial_dependence"], color="#7c3aed", linestyle="--", linewidth=1.3,
                        label="partial dependence")
            ax.scatter([_value(t, info) for t in done], [t["value"] for t in done], s=10, color="#94a3b8",
                       label="trials", zorder=3)
            if best.get("values") is not None:
                ax.scatter([best["values"][j]], [view["best_value"]], marker="D", s=40, color="#f59e0b",
                           label="best", zorder=4)
            if info.get("log"):
                ax.set_xscale("log")
            if info["type"] == "int":
                from matplotlib.ticker import MaxNLocator
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(info["name"], fontsize="medium")
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
    """One line per complete trial through its parameters and its value (last axis, scaled to the observed
    range), coloured by value: the lowest value takes the colour map's start, the highest its end (with the
    default viridis_r, low values are yellow and high values dark purple, so a minimisation's best trials are the
    bright lines). Each parameter's axis spans its bounds in its own units (a log parameter on a log scale, its
    ends labelled in the parameter's units); a categorical's axis has one tick per choice. Returns the Figure."""
    import matplotlib as mpl

    view = _view(study_or_result, analysis=True)
    infos = _axes(view)
    names = [p["name"] for p in infos]
    done = _complete(view)
    fig, ax = _figure(ax, figsize=(max(6.0, 1.1 * (len(names) + 1)), 4.0))
    v = np.array([t["value"] for t in done], dtype=float)

    def scaled(info: Dict[str, Any], values: list) -> np.ndarray:
        if info["type"] == "categorical":
            k = len(info["choices"])
            return np.array([_choice_index(info, x) for x in values], dtype=float) / max(1, k - 1)
        x = np.array(values, dtype=float)
        lo = info["lower"] if info.get("lower") is not None else (x.min() if len(x) else 0.0)
        hi = info["upper"] if info.get("upper") is not None else (x.max() if len(x) else 1.0)
        if info.get("log"):
            x, lo, hi = np.log(x), np.log(lo), np.log(hi)
        return (x - lo) / (hi - lo if hi > lo else 1.0)

    cols = [scaled(info, [_value(t, info) for t in done]) for info in infos]
    vlo, vhi = (v.min(), v.max()) if len(v) else (0.0, 1.0)
    vspan = vhi - vlo if vhi > vlo else 1.0
    Z = np.column_stack(cols + [(v - vlo) / vspan]) if len(v) else np.zeros((0, len(names) + 1))
    colors = mpl.colormaps[cmap]
    axes_x = np.arange(len(names) + 1)
    for z, value in zip(Z, v):
        ax.plot(axes_x, z, color=colors((value - vlo) / vspan), alpha=0.75, linewidth=1.2)
    for k in axes_x:
        ax.axvline(k, color="#475569", linewidth=0.8)
    for k, info in enumerate(infos):
        if info["type"] == "categorical":
            n = len(info["choices"])
            for i, c in enumerate(info["choices"]):
                ax.text(k + 0.04, i / max(1, n - 1), str(c), ha="left", va="center", fontsize="x-small")
        else:
            lo = info.get("lower") if info.get("lower") is not None else min((_value(t, info) for t in done), default=0)
            hi = info.get("upper") if info.get("upper") is not None else max((_value(t, info) for t in done), default=1)
            ax.text(k, -0.04, f"{lo:.3g}", ha="center", va="top", fontsize="x-small")
            ax.text(k, 1.04, f"{hi:.3g}", ha="center", va="bottom", fontsize="x-small")
    ax.text(len(names), -0.04, f"{vlo:.3g}", ha="center", va="top", fontsize="x-small")
    ax.text(len(names), 1.04, f"{vhi:.3g}", ha="center", va="bottom", fontsize="x-small")
    ax.set_xticks(axes_x)
    ax.set_xticklabels([n + (" (log)" if info.get("log") else "") for n, info in zip(names, infos)] + ["value"])
    ax.tick_params(axis="x", pad=14)
    ax.set_yticks([])
    ax.set_ylim(-0.12, 1.12)
    ax.set_xlim(-0.3, len(names) + 0.3)
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    ax.set_title(f"{view['study']}: parallel coordinates ({len(done)} complete trials)", fontsize="medium")
    fig.tight_layout()
    return fig


def contour(study_or_result: Any, x: Optional[str] = None, y: Optional[str] = None, ax: Any = None):
    """The GP mean over parameters x and y (names; default: the two most important) with the others at the best
    trial, as filled contours (numeric axes; a log parameter on a log axis) or a heat map (a categorical axis);
    the best trial is the diamond. Only pairs of the most important parameters are computed (six at most:
    every pair when there are at most six); another pair is a kbo.InputError. Returns the Figure."""
    view = _view(study_or_result, analysis=True)
    a = view["analysis"]
    if not a["model"]["ok"]:
        raise InputError(f"no contour for study '{view['study']}': {a['model']['reason']}")
    if not a["contours"]:
        raise InputError(f"no contour for study '{view['study']}': it needs two parameters")
    c = a["contours"][0]
    x = c["names"][0] if x is None else x
    y = c["names"][1] if y is None else y
    found = [(k, False) for k in a["contours"] if k["names"] == [x, y]] + \
        [(k, True) for k in a["contours"] if k["names"] == [y, x]]
    if not found:
        available = sorted({n for k in a["contours"] for n in k["names"]})
        raise InputError(f"no contour of ({x}, {y}): contours are computed for pairs of {', '.join(available)}")
    c, swap = found[0]
    infos = {p["name"]: p for p in _axes(view)}
    xs, ys = (c["y"], c["x"]) if swap else (c["x"], c["y"])
    Z = np.array(c["mean"], dtype=float)
    if swap:
        Z = Z.T
    fig, ax = _figure(ax, figsize=(6.0, 4.6))
    cat = infos[x]["type"] == "categorical" or infos[y]["type"] == "categorical"

    def coords(info: Dict[str, Any], levels: list) -> np.ndarray:
        return np.arange(len(levels), dtype=float) if info["type"] == "categorical" else np.array(levels, dtype=float)

    X, Y = coords(infos[x], xs), coords(infos[y], ys)
    if cat:
        mesh = ax.pcolormesh(X, Y, Z, shading="nearest", cmap="viridis_r" if view["direction"] == "minimize" else "viridis")
    else:
        mesh = ax.contourf(X, Y, Z, levels=14, cmap="viridis_r" if view["direction"] == "minimize" else "viridis")
    fig.colorbar(mesh, ax=ax, label="GP mean")
    best = a.get("best") or {}
    names = [p["name"] for p in _axes(view)]
    if best.get("values") is not None:
        bx, by = best["values"][names.index(x)], best["values"][names.index(y)]
        bx = _choice_index(infos[x], bx) if infos[x]["type"] == "categorical" else bx
        by = _choice_index(infos[y], by) if infos[y]["type"] == "categorical" else by
        ax.scatter([bx], [by], marker="D", s=60, color="white", edgecolors="black", zorder=3, label="best")
    for info, levels, set_scale, set_ticks, set_labels in (
            (infos[x], xs, ax.set_xscale, ax.set_xticks, ax.set_xticklabels),
            (infos[y], ys, ax.set_yscale, ax.set_yticks, ax.set_yticklabels)):
        if info["type"] == "categorical":
            set_ticks(np.arange(len(levels)))
            set_labels([str(v) for v in levels])
        elif info.get("log"):
            set_scale("log")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(f"{view['study']}: GP mean over {x} and {y}", fontsize="medium")
    fig.tight_layout()
    return fig


def model_fit(study_or_result: Any, ax: Any = None):
    """Leave-one-out predictions of the GP (at its fitted hyperparameters) against the observed values, with
    ± 2 std error bars (noise included) and the diagonal of perfect prediction. Returns the Figure."""
    view = _view(study_or_result, analysis=True)
    a = view["analysis"]
    if not a["model"]["ok"]:
        raise InputError(f"no model fit for study '{view['study']}': {a['model']['reason']}")
    f = a["model_fit"]
    obs, pred, std = (np.array(f[k], dtype=float) for k in ("observed", "predicted", "std"))
    fig, ax = _figure(ax, figsize=(5.0, 4.6))
    lo = min(obs.min(), (pred - 2 * std).min())
    hi = max(obs.max(), (pred + 2 * std).max())
    ax.plot([lo, hi], [lo, hi], color="#9ca3af", linestyle="--", linewidth=1)
    ax.errorbar(obs, pred, yerr=2 * std, fmt="o", markersize=4, color="#1d4ed8", ecolor="#93c5fd", capsize=2)
    inside = int(np.sum(np.abs(pred - obs) <= 2 * std))
    rmse = float(np.sqrt(np.mean((pred - obs) ** 2)))
    ax.set_xlabel("observed")
    ax.set_ylabel("predicted (leave-one-out)")
    ax.set_title(f"{view['study']}: model fit (RMSE {rmse:.3g}, {inside}/{len(obs)} within ± 2 std)",
                 fontsize="medium")
    fig.tight_layout()
    return fig


__all__ = ["convergence", "slices", "importances", "parallel_coordinates", "contour", "model_fit"]
