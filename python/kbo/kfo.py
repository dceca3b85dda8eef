"""Kernel Functional Optimisation (Kumar A V et al., NeurIPS 2021): kbo.kfo.learn(X, y, task=...)."""
from ._kbo.kfo import LearnedKernel, learn, minmax_scale, random_split  # noqa: F401

__all__ = ["learn", "LearnedKernel", "random_split", "minmax_scale"]
