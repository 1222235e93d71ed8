#!/usr/bin/python3
"""Pillow's side of imagecodec/turbo's BenchmarkDecode: decodes the JPEGs of a
directory, held in memory, when asked, and says how long it took.

    pillow_decode.py DIR

reads every DIR/*.jpg, prints "ready N", then for each line MODE X0 Y0 X1 Y1
on stdin decodes all the files once and prints the seconds it took, by the
wall clock and in CPU time (time.process_time):

    full     Image.open(BytesIO(b)).load(): the whole image, RGB
    half     the same after im.draft("RGB", (w//2, h//2)): libjpeg's scale 1/2
    quarter  the same after im.draft("RGB", (w//4, h//4)): scale 1/4
    crop     the full decode, then im.crop((X0, Y0, X1, Y1)): Pillow cannot
             decode a region alone
"""
import io, os, sys, time

from PIL import Image

d = sys.argv[1]
files = [open(os.path.join(d, f), "rb").read() for f in sorted(os.listdir(d)) if f.endswith(".jpg")]
print("ready", len(files), flush=True)
for line in sys.stdin:
    mode, *box = line.split()
    box = tuple(int(v) for v in box)
    t, c = time.perf_counter(), time.process_time()
    for b in files:
        im = Image.open(io.BytesIO(b))
        if mode in ("half", "quarter"):
            k = 2 if mode == "half" else 4
            im.draft("RGB", (im.width // k, im.height // k))
        im.load()
        if mode == "crop":
            im.crop(box).load()
    print(time.perf_counter() - t, time.process_time() - c, flush=True)
