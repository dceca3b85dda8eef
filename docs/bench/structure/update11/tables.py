# docs/bench/structure.md update 11: the relocation experiment's finals (raw/, run with
# relocation_experiment.patch applied) beside update 10's default and flat GP, and the mean incumbent per
# evaluation of the default and the flat GP on k-means (update 10's runs).
import os,statistics as st,sys
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'..'))
from blocks_common import load, merge, curves as run_curves
U10=os.path.join(HERE,'..','update10','raw')
def finals(path,method,P):
    d=load(path,method,P); return [d[s] for s in range(10)]
rows=[('default (update 10)','set-auto',[os.path.join(U10,'base09'),os.path.join(U10,'base_fc09')]),
      ('flat GP (update 10)','flat',[os.path.join(U10,'flat029')]),
      ('relocation_after 5','set-auto',[os.path.join(HERE,'raw','reloc_km09_s5')]),
      ('relocation_after 8','set-auto',[os.path.join(HERE,'raw','reloc_km09_s8'),os.path.join(HERE,'raw','reloc_fc09_s8')])]
print('| method | k-means 0–9 | stalls (> 0.05) | facility 0–9 | covering 0–9 |\n|---|---|---|---|---|')
for name,m,paths in rows:
    cell=[]
    for P in ['kmeans-seeds','facility','covering']:
        d=merge(*[load(p,m,P) for p in paths])
        v=[d[s] for s in range(10) if s in d]
        cell.append('%.4f'%st.mean(v) if len(v)==10 else '—')
        if P=='kmeans-seeds': cell.append(str(sum(x>0.05 for x in v)))
    print('| %s | %s |'%(name,' | '.join(cell)))

def curves(d,m,P='kmeans-seeds'): return run_curves(os.path.join(U10,d),m,P)
default=merge(curves('base09','set-auto'),curves('chart1029','set-auto')); flat=curves('flat029','flat')
T=[10,15,20,25,30,35,40,45]
print('\n| seeds | method | '+' | '.join('%d'%t for t in T)+' |\n|---|---|'+'---|'*len(T))
for a,b in [(0,10),(10,20),(20,30),(0,30)]:
    for name,c in [('default',default),('flat GP',flat)]:
        print('| %d–%d | %s | %s |'%(a,b-1,name,' | '.join('%.4f'%st.mean(c[s][t-1] for s in range(a,b)) for t in T)))
