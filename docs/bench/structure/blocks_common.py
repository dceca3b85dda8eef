# Shared by the per-block table scripts of docs/bench/structure.md (update5/blocks.py, update6/blocks.py).
import json,os
def load(path,method,prob):
    """{seed: final best} of `method` on `prob` in the bench output directory `path`."""
    r=json.load(open(os.path.join(path,'results.json')))
    pj=r['problems'].get(prob,{}).get('methods',{})
    if method not in pj: return {}
    return dict(zip(r['options']['seeds'],pj[method]['final']))
def merge(*ds):
    out={}
    for d in ds: out.update(d)
    return out
