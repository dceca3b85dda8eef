#!/usr/bin/python3
"""Writes the held-out KFO data sets shipped by scikit-learn (not in data/) as CSV files beside this script:
numeric columns, a header, the target last (named `target`), as data/README.md describes."""
import csv
import os

from sklearn.datasets import load_diabetes, load_iris

here = os.path.dirname(os.path.abspath(__file__))
for name, loader in (("diabetes", load_diabetes), ("iris", load_iris)):
    d = loader()
    with open(os.path.join(here, name + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([c.replace(" ", "_") for c in d.feature_names] + ["target"])
        for x, t in zip(d.data, d.target):
            w.writerow([repr(float(v)) for v in x] + [t if name == "iris" else repr(float(t))])
