# docs/bench/structure.md update 14: where the BO steps of the set space (default) and of the flat GP go on
# k-means, from `kbo show --json` files of `kbo optimize` runs (commands in structure.md): per phase of the run,
# the mean set distance of a step from the incumbent before it (the least distance over the 3! orderings of
# its centres), the share of steps that improve the incumbent, and the mean value relative to it.
# usage: python3 steps.py DIR   (DIR holds set0.json … set9.json and flat0.json … flat9.json)
import itertools,json,math,os,statistics as st,sys
D=3; N_INIT=5
def set_distance(a,b):
    A=[a[i:i+D] for i in range(0,len(a),D)]; B=[b[i:i+D] for i in range(0,len(b),D)]
    return min(math.sqrt(sum(math.dist(A[i],B[p[i]])**2 for i in range(len(A)))) for p in itertools.permutations(range(len(B))))
phases=[('BO steps 1–10',N_INIT,N_INIT+10),('steps 11–26',N_INIT+10,N_INIT+26),('steps 27–40 (end-game)',N_INIT+26,N_INIT+40)]
print('| model | phase | distance from the incumbent | steps that improve it | value / incumbent (median) |')
print('|---|---|---|---|---|')
for kind,name in [('set','set space (default)'),('flat','flat GP')]:
    for label,a,b in phases:
        dist,imp,ratio=[],[],[]
        for s in range(10):
            tr=json.load(open(os.path.join(sys.argv[1],'%s%d.json'%(kind,s))))['trials']
            for t in range(a,b):
                inc=min(tr[:t],key=lambda r:r['value'])
                dist.append(set_distance(tr[t]['x'],inc['x'])); imp.append(tr[t]['value']<inc['value'])
                ratio.append(tr[t]['value']/inc['value'])
        print('| %s | %s | %.3f | %.0f %% | %.2f |'%(name,label,st.mean(dist),100*st.mean(imp),st.median(ratio)))
