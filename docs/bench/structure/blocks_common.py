# Shared by the per-block table scripts of docs/bench/structure.md (update5/, update6/, update7/blocks.py).
import json,os,statistics as st
def load(path,method,prob):
    """{seed: final best} of `method` on `prob` in the bench output directory `path`."""
    r=json.load(open(os.path.join(path,'results.json')))
    pj=r['problems'].get(prob,{}).get('methods',{})
    if method not in pj: return {}
    return dict(zip(r['options']['seeds'],pj[method]['final']))
def curves(path,method,prob):
    """{seed: incumbent after each evaluation} of `method` on `prob` in the bench output directory `path`."""
    r=json.load(open(os.path.join(path,'results.json')))
    return dict(zip(r['options']['seeds'],r['problems'][prob]['methods'][method]['curves']))
def merge(*ds):
    out={}
    for d in ds: out.update(d)
    return out
def print_blocks(rows):
    """The Markdown table of (problem, method, {seed: best}) rows: the mean per 10-seed block and per 30."""
    fmt=lambda x: '%.4f'%x if abs(x)>=0.01 else '%.2e'%x
    blocks=[(0,10),(10,20),(20,30),(30,40),(40,50),(50,60),(0,30),(30,60)]
    print('| problem | method | '+' | '.join('%d–%d'%(a,b-1) for a,b in blocks)+' |')
    print('|---|---|'+'---|'*len(blocks))
    for p,m,d in rows:
        cells=[]
        for a,b in blocks:
            v=[d[s] for s in range(a,b) if s in d]
            cells.append(fmt(st.mean(v)) if len(v)==b-a else '—')
        print('| %s | %s | %s |'%(p,m,' | '.join(cells)))
