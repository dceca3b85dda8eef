# The per-block table of docs/bench/structure.md update 5, from the result files beside this script.
import os,sys,statistics as st
HERE=os.path.dirname(os.path.abspath(__file__))
D=os.path.join(HERE,'..')+'/'
sys.path.insert(0,os.path.join(HERE,'..'))
import blocks_common
def load(path,method,prob): return blocks_common.load(os.path.join(HERE,path),method,prob)
merge=blocks_common.merge
probs=['facility','covering','kmeans-seeds']
data={}
for p in probs:
    data[('flat',p)]=merge(load('flat030','flat',p),load('conf_fa','flat',p))
    data[('auto',p)]=merge(load('auto3','set-auto',p),load('conf_fa','set-auto',p))
    avg={}
    if p=='facility': avg.update(load(D+'update4/select-facility','set-average',p))
    else: avg.update(load('avgsl09','set-average',p)); avg.update(load(D+'confirm2','default',p))
    avg.update(load(D+'update4/average-20-29','set-average',p)); avg.update(load('conf_avg','set-average',p))
    data[('average',p)]=avg
for p in ['perm-offcentre','signflip-offcentre','control-hartmann6']:
    data[('flat',p)]=merge(load('flat030','flat',p),load('conf_gflat','flat',p))
    data[('auto',p)]=merge(load(D+'select-lml','auto',p),load(D+'confirm2','default',p),load(D+'update4/confirm-20-29','default',p),load('conf_gdef','default',p))
blocks=[(0,'0–9'),(10,'10–19'),(20,'20–29'),(30,'30–39'),(40,'40–49'),(50,'50–59')]
print('| problem | method | '+' | '.join(b for _,b in blocks)+' | 0–29 | 30–59 |')
print('|---|---|'+'---|'*(len(blocks)+2))
for p in probs+['perm-offcentre','signflip-offcentre','control-hartmann6']:
    for m in ['flat','average','auto']:
        d=data.get((m,p))
        if not d: continue
        cells=[]
        for a,_ in blocks:
            v=[d[s] for s in range(a,a+10) if s in d]
            cells.append('%.4f'%st.mean(v) if len(v)==10 else '—')
        for a,b in ((0,30),(30,60)):
            v=[d[s] for s in range(a,b) if s in d]
            cells.append('%.4f'%st.mean(v) if len(v)==30 else '—')
        print('| %s | %s | %s |'%(p,m,' | '.join(cells)))
