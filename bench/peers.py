#!/usr/bin/python3
"""The peers of obskit's benchmark suite: what a Python user would pick for the
same workloads, run as sides of the Go benchmarks.

The Go benchmarks of bench/ start this script once per process (when the
environment variable OBSKIT_PYTHON names the interpreter; make compare sets it)
and talk to it in JSON lines on stdin and stdout, so that each peer runs in
turn with obskit, its limit and the C reference, pass by pass, in one run:

  {"cmd": "versions"}           -> {"versions": {...}, "skipped": [...]}
  {"cmd": "setup", "workload": W, "obs": N, "width": 784, "batch": 128,
   "dtype": "float32", "passes": P}
                                -> {"sides": [the sides it can run]}
  {"cmd": "run", "side": S, "turn": T}
                                -> {"seconds": the thread's CPU time of a pass}

A pass is what the Go side times for the same workload: P shuffled batches
(gather/first: every full batch of a permutation, an epoch; gather/last: the
first P), one epoch (epoch, mapped), one split (split, kfold); with a turn
of T seconds (cache-resident data), passes run until their times add up to T
and the answer is the fastest. Workloads and sides:

  gather/first  X of (obs, width), C order: numpy X[idx], numpy-take
                np.take(X, idx, axis=0, out=buf), torch index_select(out=)
  gather/last   the same values stored (width, obs): numpy X[:, idx],
                numpy-take np.take(axis=1, out=), torch index_select(dim=1, out=)
  tuple         (X, y), float32 features, int64 labels: numpy X[idx], y[idx];
                numpy-take; torch index_select(out=) of both
  epoch         one shuffled epoch of (X, y): numpy fancy indexing, numpy-take,
                torch DataLoader(TensorDataset(X, y), batch_size, shuffle=True)
  mapped        one shuffled epoch of X from np.load(mmap_mode="r"): numpy
  split, kfold  sklearn train_test_split(test_size=0.2) / every fold of
                KFold(10, shuffle=True) of arange(obs)

The peers run on one thread (torch.set_num_threads(1)), as obskit's gather does.
A missing package is reported in "skipped" and its sides are not offered.
"""
import json
import os
import sys
import tempfile
import time

np = torch = None
skipped = []
try:
    import numpy as np
except ImportError as e:
    skipped.append({"peers": "NumPy, PyTorch, scikit-learn", "reason": f"numpy not importable ({e}); on Debian: apt-get install python3-numpy"})
if np is not None:
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError as e:
        skipped.append({"peers": "PyTorch", "reason": f"not importable ({e}); on Debian: apt-get install python3-torch"})
try:
    import sklearn
    from sklearn.model_selection import KFold, train_test_split
except ImportError as e:
    sklearn = None
    skipped.append({"peers": "scikit-learn", "reason": f"not importable ({e}); on Debian: apt-get install python3-sklearn"})


def versions():
    v = {"python": sys.version.split()[0]}
    for name, mod in (("numpy", np), ("torch", torch), ("sklearn", sklearn)):
        if mod is not None:
            v[name] = mod.__version__
    if torch is not None:
        v["torch_threads"] = str(torch.get_num_threads())
    return {"versions": v, "skipped": skipped}


def batches(rng, n, bs, count):
    perm = rng.permutation(n)
    return [perm[lo:lo + bs] for lo in range(0, n - bs + 1, bs)][:count]


def labelled(n, w):
    rng = np.random.default_rng(1)
    return rng.random((n, w), dtype=np.float32), rng.integers(0, 10, n, dtype=np.int64)


def setup(c):
    """Returns {side: one pass} for workload c, with its data."""
    if np is None:
        return {}
    kind, n, w, bs = c["workload"], c["obs"], c["width"], c["batch"]
    rng = np.random.default_rng(42)
    sides = {}
    if kind.startswith("gather/"):
        X = (np.arange(n * w) % 251).astype(c["dtype"]).reshape(n, w)
        bl = batches(rng, n, bs, c["passes"])
        if kind == "gather/last":
            X, buf = np.ascontiguousarray(X.T), np.empty((w, bs), X.dtype)
            sides["numpy"] = lambda: [X[:, i] for i in bl]
            sides["numpy-take"] = lambda: [np.take(X, i, axis=1, out=buf) for i in bl]
            axis = 1
        else:
            buf = np.empty((bs, w), X.dtype)
            sides["numpy"] = lambda: [X[i] for i in bl]
            sides["numpy-take"] = lambda: [np.take(X, i, axis=0, out=buf) for i in bl]
            axis = 0
        if torch is not None:
            Xt, tb, ti = torch.from_numpy(X), torch.from_numpy(buf), [torch.from_numpy(i) for i in bl]
            sides["torch"] = lambda: [torch.index_select(Xt, axis, i, out=tb) for i in ti]
    elif kind == "tuple":
        X, y = labelled(n, w)
        bl = batches(rng, n, bs, c["passes"])
        bx, by = np.empty((bs, w), np.float32), np.empty(bs, np.int64)
        sides["numpy"] = lambda: [(X[i], y[i]) for i in bl]
        sides["numpy-take"] = lambda: [(np.take(X, i, axis=0, out=bx), np.take(y, i, out=by)) for i in bl]
        if torch is not None:
            Xt, yt, tx, ty = torch.from_numpy(X), torch.from_numpy(y), torch.from_numpy(bx), torch.from_numpy(by)
            ti = [torch.from_numpy(i) for i in bl]
            sides["torch"] = lambda: [(torch.index_select(Xt, 0, i, out=tx), torch.index_select(yt, 0, i, out=ty)) for i in ti]
    elif kind == "epoch":
        X, y = labelled(n, w)
        bx, by = np.empty((bs, w), np.float32), np.empty(bs, np.int64)

        def fancy():
            p = rng.permutation(n)
            for lo in range(0, n, bs):
                X[p[lo:lo + bs]], y[p[lo:lo + bs]]

        def take():
            p = rng.permutation(n)
            for lo in range(0, n, bs):
                i = p[lo:lo + bs]
                np.take(X, i, axis=0, out=bx[:len(i)]), np.take(y, i, out=by[:len(i)])
        sides["numpy"], sides["numpy-take"] = fancy, take
        if torch is not None:
            from torch.utils.data import DataLoader, TensorDataset
            torch.manual_seed(1)
            loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=bs, shuffle=True)
            sides["torch"] = lambda: [None for _ in loader]
    elif kind == "mapped":
        X, _ = labelled(n, w)
        d = tempfile.mkdtemp()
        path = os.path.join(d, "x.npy")
        np.save(path, X)
        M = np.load(path, mmap_mode="r")
        os.remove(path)
        os.rmdir(d)

        def mapped():
            p = rng.permutation(n)
            for lo in range(0, n, bs):
                M[p[lo:lo + bs]]
        sides["numpy"] = mapped
    elif kind in ("split", "kfold") and sklearn is not None:
        idx = np.arange(n)
        seed = iter(range(1 << 30))
        if kind == "split":
            sides["sklearn"] = lambda: train_test_split(idx, test_size=0.2, shuffle=True, random_state=next(seed))
        else:
            sides["sklearn"] = lambda: [None for _ in KFold(n_splits=10, shuffle=True, random_state=next(seed)).split(idx)]
    for f in sides.values():  # fault in the pages and warm the code
        f()
    return sides


def main():
    if "--versions" in sys.argv:
        print(json.dumps(versions()))
        return
    if "--serve" not in sys.argv:
        print(__doc__)
        return
    sides = {}
    for line in sys.stdin:
        c = json.loads(line)
        if c["cmd"] == "versions":
            out = versions()
        elif c["cmd"] == "setup":
            sides = {}
            sides = setup(c)
            out = {"sides": sorted(sides)}
        else:
            f = sides[c["side"]]
            best, spent = float("inf"), 0.0
            while True:  # the Go side's turn (harness_test.go)
                t0 = time.thread_time()
                f()
                t = time.thread_time() - t0
                best, spent = min(best, t), spent + t
                if spent >= c.get("turn", 0):
                    break
            out = {"seconds": best}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
