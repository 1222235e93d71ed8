#!/usr/bin/env python3
"""Makes the golden files of cmd/obskit's rec tests from im2rec's documented
behaviour (MXNet tools/im2rec.py), with Python's own os.walk and random, and
independently of the Go code. Run from this directory: python3 ref.py.

Lists (im2rec --list), for the folder tree.txt describes: a file is an image
when it is a regular file whose os.path.splitext extension, lower-cased, is one
of the extensions; without --recursive the images are the files of the root,
sorted, label 0; with it, os.walk(root, followlinks=True) with each folder's
subfolders and files sorted in place, and each folder that holds an image a
new label in the order found. The list is numbered in that order, then
shuffled by random.seed(100); random.shuffle(list) unless --no-shuffle, cut
into --chunks chunks of ceil(n / chunks), and each chunk into test, train and
val lists by int(chunk_size * ratio) (chunk_size, not the chunk's length).
Lines are "index\\tlabel\\tpath\\n".

Records (im2rec --pass-through): for each line of a list, the file's bytes
after MXNet's image header (struct "IfQQ": flag, label, id = the line's index,
0), with flag = the number of labels and the labels as float32 before the
image when --pack-label and the line has more than one label, and otherwise
flag 0 and the first label; RecordIO as dmlc-core writes it; the index
"index\\toffset\\n".
"""
import os
import random
import shutil
import struct
import tempfile

EXTS = [".jpeg", ".jpg", ".png"]


def list_images(root, recursive, exts):
    out = []
    if not recursive:
        for f in sorted(os.listdir(root)):
            p = os.path.join(root, f)
            if os.path.isfile(p) and os.path.splitext(f)[1].lower() in exts:
                out.append((len(out), f, 0))
        return out, []
    labels = {}
    for path, dirs, files in os.walk(root, followlinks=True):
        dirs.sort()
        files.sort()
        for f in files:
            p = os.path.join(path, f)
            if os.path.isfile(p) and os.path.splitext(f)[1].lower() in exts:
                labels.setdefault(path, len(labels))
                out.append((len(out), os.path.relpath(p, root), labels[path]))
    return out, [os.path.relpath(k, root) for k in labels]


def write_list(path, items):
    with open(path, "w") as f:
        for index, rel, label in items:
            f.write("%d\t%d\t%s\n" % (index, label, rel))


def make_lists(root, out, recursive=False, shuffle=True, chunks=1, train=1.0, test=0.0, exts=EXTS):
    os.makedirs(out, exist_ok=True)
    items, classes = list_images(root, recursive, exts)
    with open(os.path.join(out, "classes.txt"), "w") as f:
        for k, c in enumerate(classes):
            f.write("%s\t%d\n" % (c, k))
    if shuffle:
        random.seed(100)
        random.shuffle(items)
    size = (len(items) + chunks - 1) // chunks
    for i in range(chunks):
        chunk = items[i * size:(i + 1) * size]
        name = os.path.join(out, "x" + ("_%d" % i if chunks > 1 else ""))
        sep, sep_test = int(size * train), int(size * test)
        if train == 1.0:
            write_list(name + ".lst", chunk)
            continue
        if test:
            write_list(name + "_test.lst", chunk[:sep_test])
        if train + test < 1.0:
            write_list(name + "_val.lst", chunk[sep_test + sep:])
        write_list(name + "_train.lst", chunk[sep_test:sep_test + sep])


MAGIC = struct.pack("<I", 0xCED7230A)


def record(payload):
    cuts = [i for i in range(0, len(payload) - 3, 4) if payload[i:i + 4] == MAGIC]
    parts, start = [], 0
    for n, i in enumerate(cuts):
        parts.append((1 if n == 0 else 2, payload[start:i]))
        start = i + 4
    parts.append((3 if cuts else 0, payload[start:]))
    b = b"".join(MAGIC + struct.pack("<I", flag << 29 | len(d)) + d for flag, d in parts)
    return b + b"\0" * (-len(payload) % 4)


def pack(lst, root, out, pack_label):
    rec, idx = b"", ""
    with open(lst) as f:
        for line in f:
            fields = [x.strip() for x in line.strip().split("\t")]
            index, path, labels = int(fields[0]), fields[-1], [float(x) for x in fields[1:-1]]
            with open(os.path.join(root, path), "rb") as img:
                data = img.read()
            if pack_label and len(labels) > 1:
                head = struct.pack("<IfQQ", len(labels), 0.0, index, 0) + struct.pack("<%df" % len(labels), *labels)
            else:
                head = struct.pack("<IfQQ", 0, labels[0], index, 0)
            idx += "%d\t%d\n" % (index, len(rec))
            rec += record(head + data)
    with open(out + ".rec", "wb") as f:
        f.write(rec)
    with open(out + ".idx", "w") as f:
        f.write(idx)


tmp = tempfile.mkdtemp()
try:
    with open("tree.txt") as f:
        for rel in f.read().split():
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            with open(os.path.join(tmp, rel), "w") as g:
                g.write(rel)
    for name in os.listdir("."):
        if os.path.isdir(name):
            shutil.rmtree(name)
    make_lists(tmp, "flat")
    make_lists(tmp, "flat-jpg-noshuffle", shuffle=False, exts=[".jpg"])
    make_lists(tmp, "recursive", recursive=True)
    make_lists(tmp, "recursive-noshuffle", recursive=True, shuffle=False)
    make_lists(tmp, "recursive-train", recursive=True, train=0.8)
    make_lists(tmp, "recursive-chunks", recursive=True, chunks=3, train=0.6, test=0.2)
    make_lists(tmp, "recursive-chunks-notrain", recursive=True, chunks=4, train=0.0, test=0.5)
finally:
    shutil.rmtree(tmp)

os.makedirs("pack")
pack("photos.lst", "../../../../imagedata/testdata/photos", "pack/photos", False)
pack("photos.lst", "../../../../imagedata/testdata/photos", "pack/photos_labels", True)
