# docs/bench/structure.md update 14: β 16 for the first 10 BO steps (early_beta_experiment.patch) on the fresh
# seeds 30-59 or 60-89, beside this machine's default (before update 14) and flat GP: mean best per 10-seed
# block and over the 30, the paired difference to the flat GP and the bad seeds (final best above 0.05 on
# k-means, 0.135 on facility, 0.45 on covering).   usage: python3 fresh.py 30   (or 60)
import os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load
A=int(sys.argv[1]) if len(sys.argv)>1 else 30
R=lambda d: os.path.join(HERE,'raw','%s%d%d'%(d,A,A+29))
rows=[('flat GP','flat','base'),('default (before update 14)','set-auto','base'),
      ('β 16 for the first 10 BO steps','set-auto','e16s10_')]
bad={'kmeans-seeds':0.05,'facility':0.135,'covering':0.45}
print('| problem | method | %d–%d | %d–%d | %d–%d | %d–%d | method − flat GP (± se) | bad seeds |'%(A,A+9,A+10,A+19,A+20,A+29,A,A+29))
print('|---|---|---|---|---|---|---|---|')
for p in ['kmeans-seeds','facility','covering']:
    flat=load(R('base'),'flat',p)
    for name,m,run in rows:
        d=load(R(run),m,p)
        S=range(A,A+30)
        cells=['%.4f'%st.mean(d[s] for s in range(a,a+10)) for a in (A,A+10,A+20)]+['%.4f'%st.mean(d[s] for s in S)]
        diff=[d[s]-flat[s] for s in S]
        pd='' if m=='flat' else '%+.4f ± %.4f'%(st.mean(diff),st.stdev(diff)/30**.5)
        print('| %s | %s | %s | %s | %d |'%(p,name,' | '.join(cells),pd,sum(d[s]>bad[p] for s in S)))
