"""Same seed, same numbers across a code change: digest every simulator's outputs (iterates,
metrics, trajectories, series, noise, privacy report) on 60 small runs, bit for bit.
Not a test: run it before a performance change and after it.

    python benchmarks/same_numbers.py --save before.json     # on the old code
    python benchmarks/same_numbers.py --compare before.json  # on the new code: exit 1 on a difference

The runs cover every registered algorithm family with several settings (replicate batches
and offsets, records, averaging, depth caps, sigma = 0, tight calibration, shuffling
variants). Digests are platform-dependent (BLAS kernels), so compare on one machine.
"""
import hashlib, json, os, sys
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np
from dptheory_simulations.algorithms import get as ga
from dptheory_simulations.objectives import get as go

def digest(x) -> str:
    """SHA-256 of every array (shape and bytes) and value in x, timings excluded."""
    h = hashlib.sha256()
    def walk(v, key=""):
        if isinstance(v, dict):
            for k in sorted(v):
                if k in ("time", "cpu_time"):
                    continue
                walk(v[k], key + "/" + k)
        elif isinstance(v, np.ndarray):
            h.update(key.encode()); h.update(str(v.shape).encode()); h.update(np.ascontiguousarray(v).tobytes())
        elif v is None:
            h.update((key + "None").encode())
        else:
            h.update((key + repr(v)).encode())
    walk(x)
    return h.hexdigest()

def cases() -> list:
    """(algorithm id, objective, data, keyword arguments) of every run."""
    rob = go("robust-regression", d=4); rd = rob.make_data(12, 1)
    rob5 = go("robust-regression", d=5); rd5 = rob5.make_data(37, 2)
    lr = go("logistic-ridge", d=5, mu=0.1); ld = lr.make_data(60, 0)
    cosh = go("cosh-generalized-smooth", d=4); cd = cosh.make_data(50, 0)
    wl = go("logistic-nonconvex-reg", d=3); wd = wl.make_data(40, 0)
    pl = go("pl-nonconvex", d=10); pd = pl.make_data(5, 0)
    base = dict(eps=1.0, delta=1e-5)
    C = []
    for reps, first in ((5, 0), (3, 2), (1, 4)):
        b = dict(base, reps=reps, first_replicate=first, seed=7)
        C += [
          ("tran2022.alg1", rob, rd, dict(b, T=50, eta=0.05, alpha=0.2, sigma=1.0)),
          ("tran2022.alg1", rob5, rd5, dict(b, T=200, eta=0.01, alpha=0.05, sigma=0.3, record=7, average=True)),
          ("tran2022.alg1", rob5, rd5, dict(b, T=130, depth=3, sigma=0.5, eta=0.02, alpha=0.1)),
          ("tran2022.alg1", rob5, rd5, dict(b, T=64, sigma=0.0, eta=0.02, alpha=0.1)),
          ("tran2022.alg1", rob, rd, dict(b, calibration="tight")),
          ("tran2022.alg2", rob, rd, dict(b, T=40, eta=0.02, alpha=0.2)),
          ("tran2022.alg2", rob, rd, dict(b, T=40, eta=0.02, alpha=0.2, shuffle="once", delta_r="corrected", record=5)),
          ("zhang2021.dpsgd-const", lr, ld, dict(b, T=60, B=7, eta=0.1, pi=0.05)),
          ("zhang2021.dpsgdem-const", lr, ld, dict(b, T=60, B=20, eta=0.1, pi=0.05, varrho=0.5, record=3)),
          ("zhang2021.dpsgd-c-t", lr, ld, dict(b, T=30, B=5, eta=0.1, pi=0.05)),
          ("zhang2021.alg1", pl, pd, dict(b)),
          ("zhang2021.dpages", pl, pd, dict(b)),
          ("yang2022.dpsgd", cosh, cd, dict(b, T=30, B=8, eta=0.5, sigma=2.0, C=1.0, c2=1.0)),
          ("yang2022.alg1", cosh, cd, dict(b, T=30, B=20, eta=0.5, sigma=2.0, r=1.0, c2=1.0, record=4)),
          ("zhang2017.alg1", lr, ld, dict(b, T=20, eta=1.0, noise_scale=0.05)),
          ("zhang2017.alg2", lr, ld, dict(b, rounds=100, eta=0.5, noise_scale=0.05, fixed_size_check=False)),
          ("zhang2017.bst14", lr, ld, dict(b, m=9, T=80, noise_scale=0.05, fixed_size_check=False)),
          ("wang2020.dpgd", wl, wd, dict(b, T=20, eta=0.5, sigma=0.01, sigma_H=0.01, alpha=0.05)),
          ("wang2020.alg1", wl, wd, dict(b)),
          ("wang2020.alg2", wl, wd, dict(b)),
        ]
    return C

def run() -> dict:
    """Digest of each run (or its error), keyed by index, algorithm and arguments."""
    out = {}
    for i, (aid, obj, data, kw) in enumerate(cases()):
        key = f"{i:03d} {aid} {sorted((k, str(v)) for k, v in kw.items())}"
        try:
            r = ga(aid)(obj, data, **kw)
            out[key] = digest({"w": r.w, "metrics": r.metrics, "traj": r.trajectory, "series": r.series,
                               "noise": r.noise, "grad_evals": r.grad_evals,
                               "privacy": json.loads(json.dumps(r.privacy, default=str))})
        except Exception as e:  # noqa: BLE001 - an error is a result to compare too
            out[key] = "ERROR " + type(e).__name__ + ": " + str(e)[:200]
    return out

def main(argv: list[str]) -> int:
    """--save FILE writes the digests; --compare FILE exits 1 if any differs."""
    if len(argv) != 2 or argv[0] not in ("--save", "--compare"):
        print("same_numbers: usage: same_numbers.py --save|--compare FILE", file=sys.stderr)
        return 2
    mode, path = argv
    res = run()
    if mode == "--save":
        with open(path, "w") as f:
            json.dump(res, f, indent=1)
        errors = [k for k, v in res.items() if v.startswith("ERROR")]
        print(len(res), "saved;", len(errors), "errors")
        for k in errors:
            print(k, res[k])
        return 0
    with open(path) as f:
        old = json.load(f)
    bad = [k for k in old if old[k] != res.get(k)]
    print(len(old), "cases,", len(bad), "differ")
    for k in bad:
        print("DIFF", k)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
