"""Internal helpers of the kbo package (not public API)."""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional

import numpy as np


def json_default(obj: Any) -> Any:
    """json.dumps hook used by the C++ side: numpy arrays and scalars as lists/numbers."""
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


def storage_url(storage: Any) -> str:
    """None -> "memory"; an os.PathLike -> "sqlite:PATH"; a str as the CLI's --storage takes it (the library
    normalises it: "memory", URLs, and plain file paths such as "study.db" or "runs/s1" -> sqlite)."""
    if storage is None:
        return "memory"
    if isinstance(storage, os.PathLike):
        return "sqlite:" + os.fspath(storage)
    if not isinstance(storage, str):
        raise ValueError(f"storage must be None, 'memory', 'sqlite:PATH' or a path (got {type(storage).__name__})")
    return storage


def bounds_pairs(bounds: Any) -> List[List[float]]:
    """(D, 2) array-like of [lower, upper] rows -> a list of [lo, hi] pairs (exact doubles)."""
    b = np.asarray(bounds, dtype=float)
    if b.ndim != 2 or b.shape[1] != 2 or b.shape[0] < 1:
        raise ValueError(f"bounds must have shape (D, 2): one [lower, upper] row per coordinate (got shape {b.shape})")
    return [[float(lo), float(hi)] for lo, hi in b]
