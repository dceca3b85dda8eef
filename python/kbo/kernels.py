"""Kernels as objects (see kbo.kernels.Kernel). Stationary, Set, Invariant and Functional (KFO) wrap the
library's kernel classes; RBF/Matern12/Matern32/Matern52 are shorthands for Stationary."""
from __future__ import annotations

from ._kbo.kernels import Functional, Invariant, Kernel, Set, Stationary  # noqa: F401


def RBF(dim: int, *, ard: bool = False, lengthscale: float = 1.0, variance: float = 1.0) -> Stationary:
    """Squared-exponential kernel variance * exp(-r^2 / 2)."""
    return Stationary("rbf", dim, ard=ard, lengthscale=lengthscale, variance=variance)


def Matern12(dim: int, *, ard: bool = False, lengthscale: float = 1.0, variance: float = 1.0) -> Stationary:
    """Matern-1/2 (exponential) kernel."""
    return Stationary("matern12", dim, ard=ard, lengthscale=lengthscale, variance=variance)


def Matern32(dim: int, *, ard: bool = False, lengthscale: float = 1.0, variance: float = 1.0) -> Stationary:
    """Matern-3/2 kernel."""
    return Stationary("matern32", dim, ard=ard, lengthscale=lengthscale, variance=variance)


def Matern52(dim: int, *, ard: bool = False, lengthscale: float = 1.0, variance: float = 1.0) -> Stationary:
    """Matern-5/2 kernel (kbo's default)."""
    return Stationary("matern52", dim, ard=ard, lengthscale=lengthscale, variance=variance)


def functional_from_json(obj) -> Functional:
    """The kernel `kbo kfo --save-kernel FILE` wrote: a dict (the file's JSON object) or a path."""
    import json
    import os

    if isinstance(obj, (str, os.PathLike)):
        with open(obj) as f:
            obj = json.load(f)
    if obj.get("base"):
        raise ValueError("kernels learned on top of a baseline kernel (base != null) cannot be rebuilt from JSON")
    return Functional(obj["distances"], obj["weights"], lambda_h=obj["lambda_h"], lengthscale=obj["lengthscale"],
                      psd=obj.get("psd", "alpha-clip"), variance=obj.get("variance", 1.0),
                      input_scales=obj.get("functional_input_scales"))


__all__ = ["Kernel", "Stationary", "Set", "Invariant", "Functional", "RBF", "Matern12", "Matern32", "Matern52",
           "functional_from_json"]
