#!/usr/bin/python3
"""The workloads of obskit's benchmark suite measured with what a Python user would pick.

cmd/obskit-bench (make compare) runs this script with the sizes of the Go suite
(bench/sizes.go) and reads its JSON; run it alone for a readable table:

    /usr/bin/python3 bench/peers.py [--runs 5] [--only REGEX] [--json]

Workloads (the keys are those of the Go side) and the peers measured on each:

  gather/<dtype>/first  batches of 128 rows of a C-order (obs, width) array
                        (float32, float64, uint8): NumPy X[idx],
                        np.take(X, idx, axis=0, out=buf), torch.index_select(out=)
  gather/<dtype>/last   the same values stored (width, obs), a batch of 128
                        columns: X[:, idx], np.take(axis=1, out=), index_select(dim 1)
  tuple                 (X, y) batches, float32 features and int64 labels
  epoch                 one shuffled epoch of (X, y) in batches of 128: NumPy
                        fancy indexing, np.take(out=), PyTorch
                        DataLoader(TensorDataset(X, y), batch_size=128, shuffle=True)
  mapped                one shuffled epoch of X from a .npy file opened with
                        np.load(mmap_mode="r"), pages cached
  split                 scikit-learn train_test_split of arange(n), test_size=0.2
  kfold                 every (train, test) of scikit-learn KFold(10, shuffle=True)

Each gather and loop also measures np.copyto of the same bytes, and the splits
np.random permutation of the same size: Python's own limits, reported with kind
"limit" so that a reader can check that this process saw the same machine as
the Go side. Every figure is the mean time of one operation over a pass (all
batches of an epoch, or one epoch, or one split), one figure per run.

A missing package is reported in "skipped" with the reason and its peers are not
measured; nothing in the Go tests needs Python.
"""
import argparse
import json
import os
import re
import sys
import tempfile
import time


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Suite:
    def __init__(self, args):
        self.args = args
        self.only = re.compile(args.only) if args.only else None
        self.results = []
        self.skipped = []
        self.versions = {"python": sys.version.split()[0]}

    def wants(self, key):
        return self.only is None or self.only.search(key) is not None

    def skip(self, peers, reason):
        self.skipped.append({"peers": peers, "reason": reason})

    def measure(self, key, peer, kind, amount, per, op, nops):
        """Times nops calls op(0..nops-1) per run, after one warm-up pass; records
        the mean seconds per call of each run."""
        log(f"  {key}: {peer}")
        for k in range(nops):
            op(k)
        secs = []
        for _ in range(self.args.runs):
            t0 = time.perf_counter()
            for k in range(nops):
                op(k)
            secs.append((time.perf_counter() - t0) / nops)
        self.results.append({"workload": key, "peer": peer, "kind": kind,
                             "amount": amount, "per": per, "seconds": secs})


def batches_of(perm, batch, full_only):
    n = len(perm)
    stop = n - batch + 1 if full_only else n
    return [perm[lo:lo + batch] for lo in range(0, stop, batch)]


def gathers(s, np, torch):
    a = s.args
    n, w, bs = a.obs, a.width, a.batch
    rng = np.random.default_rng(42)
    batches = batches_of(rng.permutation(n), bs, True)
    tidx = [torch.from_numpy(b) for b in batches] if torch else None
    for name, dtype in (("float32", np.float32), ("float64", np.float64), ("uint8", np.uint8)):
        keys = [f"gather/{name}/first", f"gather/{name}/last"]
        if not any(s.wants(k) for k in keys):
            continue
        X = (np.arange(n * w) % 251).astype(dtype).reshape(n, w)
        nbytes = bs * w * X.itemsize
        key = keys[0]
        if s.wants(key):
            limit_copy(s, np, key, X, nbytes, len(batches))
            buf = np.empty((bs, w), dtype)
            s.measure(key, "NumPy X[idx]", "numpy", nbytes, "bytes",
                      lambda k: X[batches[k]], len(batches))
            s.measure(key, "NumPy take(out=)", "numpy", nbytes, "bytes",
                      lambda k: np.take(X, batches[k], axis=0, out=buf), len(batches))
            if torch:
                Xt, tbuf = torch.from_numpy(X), torch.from_numpy(buf)
                s.measure(key, "PyTorch index_select(out=)", "torch", nbytes, "bytes",
                          lambda k: torch.index_select(Xt, 0, tidx[k], out=tbuf), len(batches))
        key = keys[1]
        if s.wants(key):
            L = np.ascontiguousarray(X.T)
            limit_copy(s, np, key, L, nbytes, len(batches))
            buf = np.empty((w, bs), dtype)
            s.measure(key, "NumPy X[:, idx]", "numpy", nbytes, "bytes",
                      lambda k: L[:, batches[k]], len(batches))
            s.measure(key, "NumPy take(axis=1, out=)", "numpy", nbytes, "bytes",
                      lambda k: np.take(L, batches[k], axis=1, out=buf), len(batches))
            if torch:
                Lt, tbuf = torch.from_numpy(L), torch.from_numpy(buf)
                s.measure(key, "PyTorch index_select(dim=1, out=)", "torch", nbytes, "bytes",
                          lambda k: torch.index_select(Lt, 1, tidx[k], out=tbuf), len(batches))
            del L
        del X


def limit_copy(s, np, key, X, nbytes, nops):
    """np.copyto of nbytes from successive positions of X, the array the peers of
    key gather from."""
    flat = X.reshape(-1)
    m = nbytes // X.itemsize
    dst = np.empty(m, X.dtype)
    starts = [(k * m) % (len(flat) - m + 1) for k in range(nops)]
    s.measure(key, "NumPy copyto (limit)", "limit", nbytes, "bytes",
              lambda k: np.copyto(dst, flat[starts[k]:starts[k] + m]), nops)


def labelled(a, np):
    rng = np.random.default_rng(1)
    X = rng.random((a.obs, a.width), dtype=np.float32)
    y = rng.integers(0, 10, a.obs, dtype=np.int64)
    return X, y


def tuples(s, np, torch):
    if not s.wants("tuple"):
        return
    a = s.args
    X, y = labelled(a, np)
    batches = batches_of(np.random.default_rng(42).permutation(a.obs), a.batch, True)
    nbytes = a.batch * (a.width * 4 + 8)
    bx, by = np.empty((a.batch, a.width), np.float32), np.empty(a.batch, np.int64)
    xs, ys = X.reshape(-1), y
    mx = a.batch * a.width
    def copy_op(k):
        lo = (k * a.batch) % (a.obs - a.batch + 1)
        np.copyto(bx.reshape(-1), xs[lo * a.width:lo * a.width + mx])
        np.copyto(by, ys[lo:lo + a.batch])
    s.measure("tuple", "NumPy copyto (limit)", "limit", nbytes, "bytes", copy_op, len(batches))
    s.measure("tuple", "NumPy X[idx], y[idx]", "numpy", nbytes, "bytes",
              lambda k: (X[batches[k]], y[batches[k]]), len(batches))
    def take(k):
        np.take(X, batches[k], axis=0, out=bx)
        np.take(y, batches[k], out=by)
    s.measure("tuple", "NumPy take(out=)", "numpy", nbytes, "bytes", take, len(batches))
    if torch:
        Xt, yt, tbx, tby = torch.from_numpy(X), torch.from_numpy(y), torch.from_numpy(bx), torch.from_numpy(by)
        tidx = [torch.from_numpy(b) for b in batches]
        def ts(k):
            torch.index_select(Xt, 0, tidx[k], out=tbx)
            torch.index_select(yt, 0, tidx[k], out=tby)
        s.measure("tuple", "PyTorch index_select(out=)", "torch", nbytes, "bytes", ts, len(batches))


def epochs(s, np, torch):
    if not (s.wants("epoch") or s.wants("mapped")):
        return
    a = s.args
    n, w, bs = a.obs, a.width, a.batch
    X, y = labelled(a, np)
    rng = np.random.default_rng(2)
    bx, by = np.empty((bs, w), np.float32), np.empty(bs, np.int64)
    if s.wants("epoch"):
        nbytes = n * (w * 4 + 8)
        def copy_epoch(_):
            for lo in range(0, n, bs):
                hi = min(n, lo + bs)
                np.copyto(bx[:hi - lo], X[lo:hi])
                np.copyto(by[:hi - lo], y[lo:hi])
        def fancy_epoch(_):
            perm = rng.permutation(n)
            for lo in range(0, n, bs):
                idx = perm[lo:lo + bs]
                X[idx], y[idx]
        def take_epoch(_):
            perm = rng.permutation(n)
            for lo in range(0, n, bs):
                idx = perm[lo:lo + bs]
                k = len(idx)
                np.take(X, idx, axis=0, out=bx[:k])
                np.take(y, idx, out=by[:k])
        s.measure("epoch", "NumPy copyto (limit)", "limit", nbytes, "bytes", copy_epoch, 1)
        s.measure("epoch", "NumPy X[idx], y[idx]", "numpy", nbytes, "bytes", fancy_epoch, 1)
        s.measure("epoch", "NumPy take(out=)", "numpy", nbytes, "bytes", take_epoch, 1)
        if torch:
            from torch.utils.data import DataLoader, TensorDataset
            torch.manual_seed(1)
            loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)),
                                batch_size=bs, shuffle=True)
            def torch_epoch(_):
                for _ in loader:
                    pass
            s.measure("epoch", "PyTorch DataLoader(TensorDataset)", "torch", nbytes, "bytes", torch_epoch, 1)
    if s.wants("mapped"):
        nbytes = n * w * 4
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.npy")
            np.save(path, X)
            M = np.load(path, mmap_mode="r")
            def copy_epoch(_):
                for lo in range(0, n, bs):
                    hi = min(n, lo + bs)
                    np.copyto(bx[:hi - lo], M[lo:hi])
            def mapped_epoch(_):
                perm = rng.permutation(n)
                for lo in range(0, n, bs):
                    M[perm[lo:lo + bs]]
            s.measure("mapped", "NumPy copyto (limit)", "limit", nbytes, "bytes", copy_epoch, 1)
            s.measure("mapped", "NumPy memmap X[idx]", "numpy", nbytes, "bytes", mapped_epoch, 1)
            del M


def splits(s, np):
    keys = [k for k in ("split", "kfold") if s.wants(k)]
    if not keys:
        return
    a = s.args
    n = a.split_obs
    idx = np.arange(n)
    rng = np.random.default_rng(3)
    for key in keys:
        s.measure(key, "NumPy permutation (limit)", "limit", n, "obs", lambda _: rng.permutation(n), 1)
    try:
        import sklearn
        from sklearn.model_selection import KFold, train_test_split
    except ImportError as e:
        s.skip("scikit-learn", f"not importable ({e}); on Debian: apt-get install python3-sklearn")
        return
    s.versions["sklearn"] = sklearn.__version__
    seed = iter(range(1 << 30))
    if "split" in keys:
        s.measure("split", "scikit-learn train_test_split", "sklearn", n, "obs",
                  lambda _: train_test_split(idx, test_size=a.test_fraction, shuffle=True,
                                             random_state=next(seed)), 1)
    if "kfold" in keys:
        def folds(_):
            for train, test in KFold(n_splits=a.folds, shuffle=True, random_state=next(seed)).split(idx):
                pass
        s.measure("kfold", "scikit-learn KFold", "sklearn", n, "obs", folds, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--obs", type=int, default=60000)
    ap.add_argument("--width", type=int, default=784)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--split-obs", type=int, default=10_000_000)
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--test-fraction", type=float, default=0.2)
    ap.add_argument("--runs", type=int, default=5, help="timed passes per measurement")
    ap.add_argument("--only", default="", help="measure only workloads whose key matches this regex")
    ap.add_argument("--json", action="store_true", help="print JSON for cmd/obskit-bench")
    s = Suite(ap.parse_args())
    try:
        import numpy as np
    except ImportError as e:
        s.skip("NumPy, PyTorch, scikit-learn", f"numpy not importable ({e}); on Debian: apt-get install python3-numpy")
        np = None
    if np is not None:
        s.versions["numpy"] = np.__version__
        try:
            import torch
            # The peers run on one thread, as obskit's gather does: PyTorch
            # would otherwise use every core for index_select on some builds.
            torch.set_num_threads(1)
            s.versions["torch"] = torch.__version__
            s.versions["torch_threads"] = str(torch.get_num_threads())
        except ImportError as e:
            s.skip("PyTorch", f"not importable ({e}); on Debian: apt-get install python3-torch")
            torch = None
        gathers(s, np, torch)
        tuples(s, np, torch)
        epochs(s, np, torch)
        splits(s, np)
    out = {"versions": s.versions, "skipped": s.skipped, "results": s.results}
    if s.args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return
    for k, v in s.versions.items():
        print(f"{k} {v}")
    for sk in s.skipped:
        print(f"skipped {sk['peers']}: {sk['reason']}")
    for r in s.results:
        best = sorted(r["seconds"])[len(r["seconds"]) // 2]
        rate = r["amount"] / best / 1e9 if r["per"] == "bytes" else r["amount"] / best / 1e6
        unit = "GB/s" if r["per"] == "bytes" else "Mobs/s"
        print(f"{r['workload']:<22} {r['peer']:<36} {rate:8.2f} {unit:<6} {best * 1e3:10.3f} ms/op")


if __name__ == "__main__":
    main()
