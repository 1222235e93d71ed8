#!/usr/bin/python3
"""torchvision's side of package augment's BenchmarkImages.

    /usr/bin/python3 torchvision_peer.py ROOT

ROOT is an ImageFolder (a folder per class of JPEGs named by their numbers,
such as 0042.jpg). The script loads torchvision, prints "ready N" (N images),
then for each line "epoch W LO HI" on its standard input runs one epoch of

    DataLoader(Subset(ImageFolder(ROOT, transform), the images numbered LO
               to HI-1), batch_size=64, shuffle=True, num_workers=W)
    transform = Compose([RandomResizedCrop(224), RandomHorizontalFlip(),
                         ToTensor(), Normalize(ImageNet's mean and std)])

touching every batch, and prints a JSON line: the images, the wall time and
the CPU time of this process and of its worker processes, in seconds. The
workers persist from one epoch to the next (persistent_workers=True): the
benchmark's epochs are parts of 500 images, where starting workers anew
would weigh as it never does on a real epoch of thousands of batches; their
CPU time is read from /proc. PyTorch uses one thread in every process, so
that CPU time is what the epoch costs. It exits at the end of its input.
"""
import json
import os
import resource
import sys
import time

import torch
import torchvision.transforms as T
from torch.utils.data import DataLoader, Subset
from torchvision.datasets import ImageFolder

torch.set_num_threads(1)
root = sys.argv[1]
transform = T.Compose([
    T.RandomResizedCrop(224),
    T.RandomHorizontalFlip(),
    T.ToTensor(),
    T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
])
dataset = ImageFolder(root, transform)
loaders = {}
print("ready", len(dataset), flush=True)


def cpu(loader):
    """The CPU seconds of this process, of its children that exited, and of
    the loader's live workers."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    total = s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
    it = getattr(loader, "_iterator", None)
    for w in getattr(it, "_workers", []):
        with open(f"/proc/{w.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


numbers = [int(os.path.basename(path)[:-4]) for path, _ in dataset.samples]
for line in sys.stdin:
    cmd, w, lo, hi = line.split()
    assert cmd == "epoch", line
    key = (int(w), int(lo), int(hi))
    if key not in loaders:
        part = Subset(dataset, [i for i, k in enumerate(numbers) if key[1] <= k < key[2]])
        loaders[key] = DataLoader(part, batch_size=64, shuffle=True, num_workers=key[0],
                                  persistent_workers=key[0] > 0)
    loader = loaders[key]
    n, check = 0, 0.0
    c0, t0 = cpu(loader), time.perf_counter()
    for x, y in loader:
        n += x.shape[0]
        check += float(x[0, 0, 0, 0])
    wall, used = time.perf_counter() - t0, cpu(loader) - c0
    print(json.dumps({"images": n, "wall": wall, "cpu": used}), flush=True)
