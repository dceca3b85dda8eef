# docs/bench/structure.md update 14: per `kbo show --json` file (one seed's study), how many BO suggestions
# (trials after the initial design) have two elements within 1e-3 of each other, and the best value.
# usage: python3 coincident.py ELEMENT_DIM N_INIT FILE...
import json,math,sys
d,n_init=int(sys.argv[1]),int(sys.argv[2])
for path in sys.argv[3:]:
    trials=json.load(open(path))['trials']
    n=0
    for t in trials[n_init:]:
        e=[t['x'][i:i+d] for i in range(0,len(t['x']),d)]
        n+=any(math.dist(e[i],e[j])<1e-3 for i in range(len(e)) for j in range(i+1,len(e)))
    print('%s: %d of %d BO suggestions with a coincident pair; best %.4f'%(path,n,len(trials)-n_init,min(t['value'] for t in trials)))
