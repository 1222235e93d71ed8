#!/usr/bin/env python3
"""Prints, as JSON, the images a folder holds by the rules the tests check:

  walk_ref.py folder ROOT EXT...       torchvision ImageFolder: [[path, label], ...]
  walk_ref.py list ROOT EXT...         im2rec --list, images in ROOT only
  walk_ref.py list-recursive ROOT EXT... im2rec --list --recursive

Paths are relative to ROOT. For "folder" it uses torchvision's own functions
when torchvision is installed, and otherwise the rules of its documentation:
classes are the sorted names of the folders in ROOT; a class's images are the
files under its folder (os.walk following links), ordered by sorted(os.walk())
and sorted(file names), whose lower-cased path ends with an extension. For the
lists: a file is an image when it is a regular file whose os.path.splitext
extension, lower-cased, is one of the extensions; without recursion the files
of ROOT sorted by name, label 0; with it, os.walk(followlinks=True) with
folders and files sorted in place, each folder that holds an image a new label
in the order found.
"""
import json
import os
import sys


def folder(root, exts):
    try:
        from torchvision.datasets.folder import find_classes, make_dataset
    except ImportError:
        classes = sorted(e.name for e in os.scandir(root) if e.is_dir())
        out = []
        for k, c in enumerate(classes):
            for path, _, files in sorted(os.walk(os.path.join(root, c), followlinks=True)):
                for f in sorted(files):
                    p = os.path.join(path, f)
                    if p.lower().endswith(tuple(exts)):
                        out.append((p, k))
    else:
        _, class_to_idx = find_classes(root)
        out = make_dataset(root, class_to_idx, extensions=tuple(exts), allow_empty=True)
    return [[os.path.relpath(p, root), k] for p, k in out]


def listing(root, exts, recursive):
    out = []
    if not recursive:
        for f in sorted(os.listdir(root)):
            p = os.path.join(root, f)
            if os.path.isfile(p) and os.path.splitext(f)[1].lower() in exts:
                out.append([f, 0])
        return out
    labels = {}
    for path, dirs, files in os.walk(root, followlinks=True):
        dirs.sort()
        files.sort()
        for f in files:
            p = os.path.join(path, f)
            if os.path.isfile(p) and os.path.splitext(f)[1].lower() in exts:
                labels.setdefault(path, len(labels))
                out.append([os.path.relpath(p, root), labels[path]])
    return out


mode, root, exts = sys.argv[1], sys.argv[2], sys.argv[3:]
if mode == "folder":
    print(json.dumps(folder(root, exts)))
else:
    print(json.dumps(listing(root, exts, mode == "list-recursive")))
