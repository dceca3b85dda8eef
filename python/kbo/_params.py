"""Named, typed parameters: kbo.Float, kbo.Int, kbo.Categorical, kbo.Fixed.

A dict {name: parameter} goes where bounds go (kbo.minimize(f, {"lr": kbo.Float(1e-5, 1e-1, log=True)}));
the objective then receives a dict {name: value} with values in their types (float, int, the choice).
The checks (low < high, log needs low > 0, a non-empty list of distinct choices) are the library's, so the
messages match the CLI's `--param` and raise kbo.InputError.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Sequence

import numpy as np


def _scalar(v: Any) -> Any:
    if isinstance(v, np.generic):
        return v.item()
    return v


class Param:
    """Base class of the parameter types (use Float, Int, Categorical or Fixed)."""

    def spec(self) -> Dict[str, Any]:
        raise NotImplementedError


class Float(Param):
    """A real parameter in [low, high]; log=True searches it on a log scale (needs low > 0)."""

    def __init__(self, low: float, high: float, log: bool = False):
        self.low, self.high, self.log = _scalar(low), _scalar(high), bool(log)

    def spec(self) -> Dict[str, Any]:
        return {"type": "float", "low": self.low, "high": self.high, "log": self.log}

    def __repr__(self) -> str:
        return f"Float({self.low!r}, {self.high!r}{', log=True' if self.log else ''})"


class Int(Param):
    """An integer parameter in [low, high] (both included); log=True for a log scale (needs low >= 1)."""

    def __init__(self, low: int, high: int, log: bool = False):
        self.low, self.high, self.log = _scalar(low), _scalar(high), bool(log)

    def spec(self) -> Dict[str, Any]:
        return {"type": "int", "low": self.low, "high": self.high, "log": self.log}

    def __repr__(self) -> str:
        return f"Int({self.low!r}, {self.high!r}{', log=True' if self.log else ''})"


class Categorical(Param):
    """One of a list of choices (strings, numbers or booleans)."""

    def __init__(self, choices: Sequence[Any]):
        if isinstance(choices, (str, bytes)) or not hasattr(choices, "__iter__"):
            raise ValueError(f"Categorical takes a list of choices (got {choices!r})")
        self.choices = [_scalar(c) for c in choices]

    def spec(self) -> Dict[str, Any]:
        return {"type": "categorical", "choices": list(self.choices)}

    def __repr__(self) -> str:
        return f"Categorical({self.choices!r})"


class Fixed(Param):
    """A constant: passed to the objective, never searched."""

    def __init__(self, value: Any):
        self.value = _scalar(value)

    def spec(self) -> Dict[str, Any]:
        return {"type": "fixed", "value": self.value}

    def __repr__(self) -> str:
        return f"Fixed({self.value!r})"


def params_spec(space: Mapping[str, Any]) -> List[Any]:
    """{name: Param | spec dict | "float:0:1" text | [choices] | scalar} -> the library's list of parameter
    objects, in the dict's order (a JSON object would be sorted by name; the list keeps the user's order)."""
    out: List[Any] = []
    for name, p in space.items():
        if not isinstance(name, str):
            raise ValueError(f"parameter names must be strings (got {name!r})")
        if isinstance(p, Param):
            spec = p.spec()
        elif isinstance(p, Mapping):
            spec = {str(k): _scalar(v) for k, v in p.items()}
        elif isinstance(p, (list, tuple)):
            spec = {"type": "categorical", "choices": [_scalar(c) for c in p]}
        elif isinstance(p, str):  # the compact text form, parsed by the library (the CLI's messages)
            if "=" in p and p.split("=", 1)[0].strip() != name:
                raise ValueError(f"param '{name}': its text names another parameter ('{p.split('=', 1)[0].strip()}')")
            out.append(p if "=" in p else f"{name}={p}")
            continue
        else:
            spec = {"type": "fixed", "value": _scalar(p)}
        if "name" in spec and spec["name"] != name:
            raise ValueError(f"parameter {name!r}: its spec names another parameter ({spec['name']!r})")
        out.append({"name": name, **{k: v for k, v in spec.items() if k != "name"}})
    return out

