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
    """None -> "memory"; "memory" / "sqlite:PATH" unchanged; a path (str or os.PathLike) -> "sqlite:PATH"."""
    if storage is None:
        return "memory"
    if isinstance(storage, os.PathLike):
        return "sqlite:" + os.fspath(storage)
    if not isinstance(storage, str):
        raise ValueError(f"storage must be None, 'memory', 'sqlite:PATH' or a path (got {type(storage).__name__})")
    if storage == "memory" or ":" in storage.split(os.sep)[0]:
        return storage
    return "sqlite:" + storage


def _number(value: Any) -> str:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return repr(float(value))  # shortest round-trip form: the C++ side parses the same double


def bounds_text(bounds: Any) -> str:
    """(D, 2) array-like of [lower, upper] rows -> the CLI's "lo:hi,lo:hi" (exact doubles)."""
    b = np.asarray(bounds, dtype=float)
    if b.ndim != 2 or b.shape[1] != 2 or b.shape[0] < 1:
        raise ValueError(f"bounds must have shape (D, 2): one [lower, upper] row per coordinate (got shape {b.shape})")
    return ",".join(f"{_number(lo)}:{_number(hi)}" for lo, hi in b)


def option_args(options: Dict[str, Any]) -> List[str]:
    """Keyword options -> CLI flags of `kbo optimize` ("fit_restarts=3" -> "--fit-restarts=3")."""
    args: List[str] = []
    for key, value in options.items():
        if value is None:
            continue
        flag = "--" + key.replace("_", "-")
        if key == "ard":
            args.append("--ard" if value else "--no-ard")
        elif isinstance(value, (bool, np.bool_)):
            raise ValueError(f"option {key}={value!r}: expected a value, not a boolean")
        elif key == "options":
            if not isinstance(value, (dict, str)):
                raise ValueError("options must be a dict (module options, e.g. {'agpucb': {...}})")
            args.append(flag + "=" + (value if isinstance(value, str) else json.dumps(value, default=json_default)))
        elif isinstance(value, (int, float, np.integer, np.floating)):
            args.append(flag + "=" + _number(value))
        elif isinstance(value, (str, os.PathLike)):
            args.append(flag + "=" + os.fspath(value))
        else:
            raise ValueError(f"option {key}: unsupported value of type {type(value).__name__}")
    return args


def direction_args(direction: Optional[str]) -> List[str]:
    if direction is None:
        return []
    if direction not in ("minimize", "maximize"):
        raise ValueError(f"direction must be 'minimize' or 'maximize' (got {direction!r})")
    return ["--" + direction]
