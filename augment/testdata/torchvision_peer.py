#!/usr/bin/python3
"""torchvision's side of package augment's BenchmarkImages.

    /usr/bin/python3 torchvision_peer.py ROOT

ROOT is an ImageFolder (a folder per class of JPEGs). The script loads
torchvision, prints "ready N" (N images), then for each line "epoch W" on its
standard input runs one epoch of

    DataLoader(ImageFolder(ROOT, transform), batch_size=64, shuffle=True,
               num_workers=W)
    transform = Compose([RandomResizedCrop(224), RandomHorizontalFlip(),
                         ToTensor(), Normalize(ImageNet's mean and std)])

touching every batch, and prints a JSON line: the images, the wall time and
the CPU time of this process and of the worker processes (which exit, and are
counted, at the end of each epoch), in seconds. PyTorch uses one thread in
every process, so that CPU time is what the epoch costs. It exits at the end
of its input.
"""
import json
import resource
import sys
import time

import torch
import torchvision.transforms as T
from torch.utils.data import DataLoader
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


def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


for line in sys.stdin:
    cmd, workers = line.split()
    assert cmd == "epoch", line
    w = int(workers)
    if w not in loaders:
        loaders[w] = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=w)
    n, check = 0, 0.0
    c0, t0 = cpu(), time.perf_counter()
    for x, y in loaders[w]:
        n += x.shape[0]
        check += float(x[0, 0, 0, 0])
    wall, used = time.perf_counter() - t0, cpu() - c0
    print(json.dumps({"images": n, "wall": wall, "cpu": used}), flush=True)
