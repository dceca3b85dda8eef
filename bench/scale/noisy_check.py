"""Noisy objectives as a user runs them (kbo.minimize, 5 + 50): Branin and Hartmann-6 plus Gaussian noise.
Reports the TRUE value at the point the run would recommend (best observed), mean over seeds."""
import sys, json, numpy as np, kbo
def branin(x):
    a,b,c,r,s,t=1,5.1/(4*np.pi**2),5/np.pi,6,10,1/(8*np.pi)
    return a*(x[1]-b*x[0]**2+c*x[0]-r)**2+s*(1-t)*np.cos(x[0])+s
A=np.array([[10,3,17,3.5,1.7,8],[.05,10,17,.1,8,14],[3,3.5,1.7,10,17,8],[17,8,.05,10,.1,14]])
P=1e-4*np.array([[1312,1696,5569,124,8283,5886],[2329,4135,8307,3736,1004,9991],[2348,1451,3522,2883,3047,6650],[4047,8828,8732,5743,1091,381]])
al=np.array([1,1.2,3,3.2])
def hart(x): return -float(al@np.exp(-(A*(x-P)**2).sum(1)))
probs={"branin":(branin,[(-5,10),(0,15)],float(sys.argv[2]) if len(sys.argv)>2 else 10.0),"hartmann6":(hart,[(0,1)]*6,float(sys.argv[3]) if len(sys.argv)>3 else 0.2)}
opts=json.loads(sys.argv[1])
for name,(f,b,sd) in probs.items():
    res=[]
    for seed in range(10):
        rng=np.random.default_rng(1000+seed)
        r=kbo.minimize(lambda x: f(np.asarray(x))+sd*rng.standard_normal(), b, seed=seed, options=opts)
        res.append(f(np.asarray(r.best_x)))
    print(name, "noise sd", sd, "true value at best observed: mean %.4f sd %.4f" % (np.mean(res), np.std(res)), [round(v,3) for v in res], flush=True)
