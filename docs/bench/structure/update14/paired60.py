# docs/bench/structure.md update 14: the default against the flat GP seed by seed over the 60 seeds of update 9
# (one machine, one binary; the default has not changed since): mean of the paired differences with its
# standard error, seeds better / worse, stalls, and how many of the six 10-seed blocks each side wins.
import os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, merge
U=lambda n: os.path.join(HERE,'..','update9',n)
flat={'kmeans-seeds':['flat09','flat1029','flat3059'],'facility':['fc_flat09','flat1029','flat3059'],
      'covering':['fc_flat09','flat1029','flat3059']}
default={'kmeans-seeds':['km_chart09','km1029_chart','chart3059'],'facility':['fc_chart09','fc1029_chart','chart3059'],
         'covering':['fc_chart09','fc1029_chart','chart3059']}
print('| problem | flat GP | default | default − flat GP (± se) | seeds better / worse | 10-seed blocks won / lost |')
print('|---|---|---|---|---|---|')
for p in ['kmeans-seeds','facility','covering']:
    f=merge(*[load(U(n),'flat',p) for n in flat[p]])
    d=merge(*[load(U(n),'set-auto',p) for n in default[p]])
    S=[s for s in range(60) if s in f and s in d]
    assert len(S)==60,(p,len(S))
    diff=[d[s]-f[s] for s in S]
    blocks=[st.mean(d[s] for s in range(a,a+10))-st.mean(f[s] for s in range(a,a+10)) for a in range(0,60,10)]
    print('| %s | %.4f | %.4f | %+.4f ± %.4f | %d / %d | %d / %d |'%(p,st.mean(f[s] for s in S),st.mean(d[s] for s in S),
          st.mean(diff),st.stdev(diff)/len(diff)**.5,sum(x<0 for x in diff),sum(x>0 for x in diff),
          sum(b<=0 for b in blocks),sum(b>0 for b in blocks)))
