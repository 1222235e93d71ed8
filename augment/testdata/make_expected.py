#!/usr/bin/python3
"""Makes the expected outputs of package augment's tests with Pillow,
torchvision and OpenCV (Debian bookworm: python3-pil 9.4,
python3-torchvision 0.14, python3-opencv 4.6).

Run from this directory with the system Python:

    /usr/bin/python3 make_expected.py /path/to/shared/data/images

It writes noise.png and chelsea.png (inputs whose pixels are exact in any PNG
decoder), cases.json (what each case does) and expected.npz (Pillow's and
torchvision's outputs, one array per case, named as in cases.json).
"""
import io
import json
import sys

import cv2
import numpy as np
import torch
import torchvision.transforms as T
import torchvision.transforms.functional as F
from PIL import Image

shared = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/images"
out = {}
cases = {"resize": [], "eval": [], "color": [], "jpeg": [], "cv": [], "hls": [], "rrc": []}

# Inputs: a noise image (every rounding and clipping path of the kernels) and a
# photo, as Pillow decodes chelsea_q95_444.jpg, cropped.
rng = np.random.default_rng(0)
noise = Image.fromarray(rng.integers(0, 256, size=(48, 64, 3), dtype=np.uint8), "RGB")
noise.save("noise.png")
photo = Image.open(f"{shared}/chelsea_q95_444.jpg").convert("RGB").crop((150, 60, 310, 180))
photo.save("chelsea.png")
inputs = {"noise.png": noise, "chelsea.png": photo}

filters = {
    "nearest": Image.NEAREST, "bilinear": Image.BILINEAR, "bicubic": Image.BICUBIC,
    "lanczos": Image.LANCZOS, "box": Image.BOX, "hamming": Image.HAMMING,
}

def add(kind, name, arr, **params):
    out[name] = arr
    cases[kind].append(dict(name=name, **params))

# Image.resize, with and without a box, and crop() then resize(), as
# RandomResizedCrop does.
for fname, f in filters.items():
    for src, size, box, crop in [
        ("chelsea.png", (57, 43), None, None),     # shrink by 2.8
        ("chelsea.png", (140, 14), None, None),    # nearly 1 across, 9 down
        ("noise.png", (51, 37), None, (0, 0, 32, 24)),  # enlarge by 1.6
        ("noise.png", (32, 24), (3.5, 2.25, 50.75, 41.5), None),  # a fractional box
        ("chelsea.png", (40, 40), None, (17, 9, 140, 99)),        # crop, then resize
    ]:
        im = inputs[src]
        if crop:
            im = im.crop(crop)
        got = im.resize(size, f, box=box)
        name = f"{src[:-4]}-{fname}-{size[0]}x{size[1]}" + ("-box" if box else "") + ("-crop" if crop else "")
        add("resize", name, np.asarray(got), src=src, filter=fname, size=size, box=box, crop=crop)

# The evaluation transform, torchvision's PIL path: float32 CHW.
mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
for src, resize, crop, norm in [
    ("chelsea.png", 50, (44, 44), True),
    ("chelsea.png", 37, (40, 60), True),   # the crop is larger than the resized image: padded
    ("noise.png", 47, (31, 31), False),    # ToTensor only
]:
    ts = [T.Resize(resize), T.CenterCrop(crop), T.ToTensor()]
    if norm:
        ts.append(T.Normalize(mean, std))
    got = T.Compose(ts)(inputs[src]).numpy()
    name = f"eval-{src[:-4]}-{resize}-{crop[0]}x{crop[1]}"
    add("eval", name, got, src=src, resize=resize, crop=crop,
        mean=mean if norm else None, std=std if norm else None)

# The colour adjustments of ColorJitter, each with a fixed factor, on a corner
# of the photo.
small = photo.crop((60, 30, 100, 60))
small.save("small.png")
for fn, factors in [
    ("brightness", [0.0, 0.6, 1.0, 1.7]),
    ("contrast", [0.0, 0.5, 1.6]),
    ("saturation", [0.0, 0.3, 2.2]),
    ("hue", [-0.5, -0.13, 0.0, 0.21, 0.5]),
]:
    for fac in factors:
        got = getattr(F, "adjust_" + fn)(small, fac)
        add("color", f"{fn}-{fac}", np.asarray(got), src="small.png", fn=fn, factor=fac)

# The evaluation transform on whole JPEGs, torchvision decoding with Pillow
# (libjpeg-turbo): uint8 HWC before ToTensor, to compare within levels with any
# decoder.
for src in ["astronaut_q90_420.jpg", "chelsea_q95_444.jpg", "coffee_q85_422.jpg"]:
    im = Image.open(src).convert("RGB")
    got = T.Compose([T.Resize(64), T.CenterCrop(56)])(im)
    add("jpeg", f"jpeg-{src[:-4]}-64-56", np.asarray(got), src=src, resize=64, crop=(56, 56))

# OpenCV's cv2.resize, the kernels of MXNet's inter_method, which the tests
# hold within a few levels (OpenCV's fixed point is not Pillow's).
cvfilters = {
    "cv-nearest": cv2.INTER_NEAREST, "cv-bilinear": cv2.INTER_LINEAR, "cv-bicubic": cv2.INTER_CUBIC,
    "cv-area": cv2.INTER_AREA, "cv-lanczos4": cv2.INTER_LANCZOS4,
}
for fname, f in cvfilters.items():
    for src, size, crop in [
        ("chelsea.png", (57, 43), None),      # shrink
        ("chelsea.png", (140, 14), None),     # nearly 1 across, 9 down
        ("noise.png", (51, 37), (0, 0, 32, 24)),  # enlarge by 1.6
        ("noise.png", (13, 40), (0, 0, 32, 24)),  # shrink across, enlarge down
    ]:
        im = inputs[src]
        if crop:
            im = im.crop(crop)
        got = cv2.resize(np.asarray(im), size, interpolation=f)
        name = f"cv-{src[:-4]}-{fname[3:]}-{size[0]}x{size[1]}"
        add("cv", name, got, src=src, filter=fname, size=size, crop=crop)

# MXNet's random_h, random_s and random_l: OpenCV's 8-bit HLS, the deltas
# added and clamped (H to [0, 180], L and S to [0, 255]), and back.
px = np.asarray(noise)
for d in [(0, 0, 0), (17, -30, 45), (-90, 200, -255)]:
    hls = cv2.cvtColor(px, cv2.COLOR_RGB2HLS).astype(np.int32)
    hls += np.array(d, dtype=np.int32)
    hls = np.clip(hls, 0, [180, 255, 255]).astype(np.uint8)
    got = cv2.cvtColor(hls, cv2.COLOR_HLS2RGB)
    add("hls", f"hls-{d[0]}-{d[1]}-{d[2]}", got, src="noise.png", delta=d)

# The distribution of RandomResizedCrop's boxes: means and standard deviations
# of the area fraction, the log aspect ratio and the relative position, over
# 20000 draws of torchvision's get_params, for the tests to compare with the
# kit's draws.
torch.manual_seed(0)
for (w, h), scale, ratio in [
    ((500, 375), (0.08, 1.0), (3 / 4, 4 / 3)),
    ((100, 400), (0.08, 1.0), (3 / 4, 4 / 3)),   # tall: many draws do not fit
    ((640, 480), (0.5, 0.9), (0.5, 2.0)),
]:
    img = torch.empty(3, h, w)
    boxes = np.array([T.RandomResizedCrop.get_params(img, list(scale), list(ratio)) for _ in range(20000)], dtype=np.float64)
    i, j, bh, bw = boxes.T
    stats = {
        "area": (bw * bh) / (w * h),
        "logratio": np.log(bw / bh),
        "x": np.where(w > bw, j / np.maximum(w - bw, 1), 0.5),
        "y": np.where(h > bh, i / np.maximum(h - bh, 1), 0.5),
    }
    cases["rrc"].append(dict(
        size=(w, h), scale=scale, ratio=ratio, n=len(boxes),
        mean={k: float(v.mean()) for k, v in stats.items()},
        std={k: float(v.std()) for k, v in stats.items()},
    ))

np.savez_compressed("expected.npz", **out)
with open("cases.json", "w") as f:
    json.dump(cases, f, indent=1)
    f.write("\n")
