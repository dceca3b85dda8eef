# Ackley-2d on [-32.768, 32.768]^2 with its minimum moved to c = (13.1, -19.7), observed with Gaussian noise of
# sd 0.2 (about 1 % of the function's variance over the box, as in kbo bench invariance's tasks), for
# `kbo optimize --objective 'python3 objective.py SEED'`: the noise of trial t is drawn from seed SEED·100000 + t.
import json
import math
import random
import sys

C = [13.1, -19.7]


def ackley(x):
    z = [a - b for a, b in zip(x, C)]
    return (-20 * math.exp(-0.2 * math.sqrt(sum(v * v for v in z) / 2))
            - math.exp(sum(math.cos(2 * math.pi * v) for v in z) / 2) + 20 + math.e)


if __name__ == '__main__':
    trial = json.loads(sys.stdin.read())
    print(ackley(trial['x']) + 0.2 * random.Random(int(sys.argv[1]) * 100000 + trial['trial']).gauss(0, 1))
