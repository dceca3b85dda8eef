"""Bridges from other optimisation libraries to kbo (kbo.integrations.optuna: KboSampler)."""
