"""The PyTorch side of obskit-train -bench: the demo's CNN trained on the same
digits with a DataLoader and the usual loop, timed as obskit-train times its
own training loop. Prints one JSON line on stdout.

Usage: python3 torch_train.py --x X.npy --y Y.npy --batch 32 --epochs 5 ...
"""

import argparse
import json
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--x", required=True, help="uint8 images [n 8 8] (.npy)")
    p.add_argument("--y", required=True, help="int labels [n] (.npy)")
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--epochs", type=int, default=5, help="timed epochs, after one untimed")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--filters", type=int, default=16)
    p.add_argument("--rate", type=float, default=0.01)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    x = torch.from_numpy(np.load(a.x))
    y = torch.from_numpy(np.load(a.y).astype(np.int64))
    loader = DataLoader(TensorDataset(x, y), batch_size=a.batch, shuffle=True, drop_last=True,
                        generator=torch.Generator().manual_seed(a.seed))
    f = a.filters
    model = nn.Sequential(  # cnn in model.go: same padding, channels last there, first here
        nn.Conv2d(1, f, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(f, 2 * f, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(2 * f * 2 * 2, a.hidden), nn.ReLU(), nn.Linear(a.hidden, 10))
    opt = torch.optim.Adam(model.parameters(), lr=a.rate)
    loss_fn = nn.CrossEntropyLoss()

    def epoch():
        steps, wait = 0, 0.0
        it = iter(loader)
        while True:
            t = time.perf_counter()
            try:
                xb, yb = next(it)
            except StopIteration:
                break
            wait += time.perf_counter() - t
            logits = model(xb.float().unsqueeze(1) / 16)  # pixel counts 0..16 to [0, 1], as the Go model does
            loss = loss_fn(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            steps += 1
        return steps, wait

    epoch()  # warm-up, untimed
    steps, wait = 0, 0.0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(a.epochs):
        s, w = epoch()
        steps += s
        wait += w
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu  # every thread of the process
    print(json.dumps({
        "steps": steps,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "samples_per_s": steps * a.batch / seconds,
        "wait_s": wait,
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
    }))


if __name__ == "__main__":
    main()
