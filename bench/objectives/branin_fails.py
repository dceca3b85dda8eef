#!/usr/bin/env python3
"""Branin, as an external objective that crashes (exit 1) inside a disk of radius 1.5 around the minimum
(pi, 2.275) and beyond x0 > 7 (where the minimum (9.42, 2.475) lies): the failed-trial benchmark of
docs/bench/bo.md. Reads {"trial": id, "x": [x0, x1]} on stdin, prints the value."""
import json
import math
import sys

x0, x1 = json.load(sys.stdin)["x"]
if x0 > 7 or math.hypot(x0 - math.pi, x1 - 2.275) < 1.5:
    sys.exit(1)
b, c, t = 5.1 / (4 * math.pi ** 2), 5 / math.pi, 1 / (8 * math.pi)
print((x1 - b * x0 ** 2 + c * x0 - 6) ** 2 + 10 * (1 - t) * math.cos(x0) + 10)
