#!/usr/bin/python3
"""Makes the expected outputs of package mxnet's augmenter tests: MXNet's
ImageRecordIter augmenter with parameters that draw nothing, done as MXNet
does it (src/io/image_aug_default.cc) with OpenCV on an RGB image (Debian
bookworm: python3-opencv 4.6, python3-numpy).

Run from this directory with the system Python:

    /usr/bin/python3 make_expected.py

Its input is package augment's testdata/chelsea.png (made by augment's
make_expected.py). It writes cases.json (what each case does) and
expected.npz (the 8-bit HWC image before normalization, one array per case,
named as in cases.json).
"""
import json

import cv2
import numpy as np
from PIL import Image

photo = Image.open("../../augment/testdata/chelsea.png").convert("RGB")


# The augmenter's steps: resize of the shorter side, the affine warp for a
# fixed rotation, padding, a fixed crop size resized to the data shape, or
# the centred crop.
def mxnet_aug(img, shape, resize=-1, rotate=-1, pad=0, crop=-1, fill=255, inter=1):
    res = img
    h, w = res.shape[:2]
    if resize > 0:
        if h > w:
            size = (resize, resize * h // w)
        else:
            size = (resize * w // h, resize)
        res = cv2.resize(res, size, interpolation=inter)
    if rotate > 0:
        a, b = np.float32(np.cos(rotate / 180 * np.pi)), np.float32(np.sin(rotate / 180 * np.pi))
        hs = ws = np.float32(1)
        rows, cols = res.shape[:2]
        new_w, new_h = np.float32(cols), np.float32(rows)
        M = np.array([[hs * a, hs * b, 0], [-b * ws, a * ws, 0]], dtype=np.float32)
        M[0, 2] = (new_w - (M[0, 0] * cols + M[0, 1] * rows)) / 2
        M[1, 2] = (new_h - (M[1, 0] * cols + M[1, 1] * rows)) / 2
        res = cv2.warpAffine(res, M, (int(new_w), int(new_h)), flags=inter,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=(fill, fill, fill))
    if pad > 0:
        res = cv2.copyMakeBorder(res, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(fill, fill, fill))
    dh, dw = shape
    if crop > 0:
        rows, cols = res.shape[:2]
        y, x = (rows - crop) // 2, (cols - crop) // 2
        return cv2.resize(res[y:y + crop, x:x + crop], (dw, dh), interpolation=inter)
    rows, cols = res.shape[:2]
    if rows < dh:
        res = cv2.resize(res, (int(np.float32(dh) / np.float32(rows) * np.float32(cols)), dh), interpolation=inter)
    rows, cols = res.shape[:2]
    if cols < dw:
        res = cv2.resize(res, (dw, int(np.float32(dw) / np.float32(cols) * np.float32(rows))), interpolation=inter)
    rows, cols = res.shape[:2]
    y, x = (rows - dh) // 2, (cols - dw) // 2
    return res[y:y + dh, x:x + dw]


out = {}
cases = []
corner = (100, 60, 140, 90)  # a 40x30 part of the photo
for name, crop, params in [
    ("mxnet-crop", None, dict(shape=(64, 80))),
    ("mxnet-resize", None, dict(shape=(64, 80), resize=90)),
    ("mxnet-resize-cubic", None, dict(shape=(40, 40), resize=50, inter=cv2.INTER_CUBIC)),
    ("mxnet-cropsize", None, dict(shape=(48, 64), crop=90, inter=cv2.INTER_AREA)),
    ("mxnet-enlarge", corner, dict(shape=(50, 45))),
    ("mxnet-rotate", None, dict(shape=(60, 70), rotate=30)),
    ("mxnet-pad", corner, dict(shape=(50, 60), pad=12, fill=40)),
]:
    im = photo.crop(crop) if crop else photo
    out[name] = mxnet_aug(np.asarray(im), **params)
    cases.append(dict(name=name, src="chelsea.png", srccrop=crop, **params))

np.savez_compressed("expected.npz", **out)
with open("cases.json", "w") as f:
    json.dump(cases, f, indent=1)
    f.write("\n")
