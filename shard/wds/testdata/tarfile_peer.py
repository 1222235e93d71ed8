"""The Python side of package wds's interop tests, with the standard library only.

    tarfile_peer.py write DIR   writes WebDataset tar shards with tarfile, in every
                                format tarfile writes, into DIR, one name a line
    tarfile_peer.py read FILE.. reads tar shards with tarfile as webdataset does
                                (tariterators.py's rules, restated here) and prints
                                one JSON object per sample, each shard after a
                                line "== FILE"

The grouping rules are webdataset's: regular files only; names that start and end
with "__" (no slash), or whose first element is __...__, are metadata; the key is
the name up to the first dot of its last element (base_plus_ext's pattern), the
field the rest, lower-cased; consecutive members with one key are a sample; a
field twice in a sample is an error.
"""
import hashlib
import io
import json
import os
import re
import sys
import tarfile

KEY_EXT = re.compile(r"^((?:.*/|)[^.]+)[.]([^/]*)$")
META = re.compile(r"__[^/]*__($|/)")


def members(path):
    """The (name, data) pairs webdataset keeps from a tar stream."""
    with tarfile.open(path, mode="r|*") as tf:
        for info in tf:
            if not info.isreg():
                continue
            name = info.name
            if "/" not in name and name.startswith("__") and name.endswith("__"):
                continue
            if META.match(name):
                continue
            yield name, tf.extractfile(info).read()


def samples(path):
    cur = None
    for name, data in members(path):
        m = KEY_EXT.match(name)
        if not m:
            continue
        key, field = m.group(1), m.group(2).lower()
        if cur is None or key != cur["key"]:
            if cur is not None:
                yield cur
            cur = {"key": key, "fields": {}}
        if field in cur["fields"]:
            raise ValueError("%s: field %s twice in sample %s" % (path, field, key))
        cur["fields"][field] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    if cur is not None:
        yield cur


def add(tf, name, data=None, kind=tarfile.REGTYPE):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mtime = 1700000000
    if kind == tarfile.SYMTYPE:
        info.linkname = "target"
    if data is not None:
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    else:
        tf.addfile(info)


def content(tf, prefix):
    """The members of a test shard: samples of several fields, with what
    webdataset skips between them."""
    add(tf, prefix + "dir", kind=tarfile.DIRTYPE)
    add(tf, "__meta__", b"metadata")
    for i in range(4):
        key = "%s%06d" % (prefix, i)
        add(tf, key + ".jpg", bytes([i]) * (100 * i + 1))
        add(tf, key + ".CLS", str(i % 2).encode() + b"\n")
        if i % 2:
            add(tf, key + ".seg.png", b"segmentation %d" % i)
        add(tf, key + ".lnk", kind=tarfile.SYMTYPE)
    add(tf, prefix + "README", b"no extension")
    add(tf, prefix + "000009.txt", b"")


def write(out):
    long_dir = "d" * 150 + "/"
    shards = [
        ("ustar.tar", "w", tarfile.USTAR_FORMAT, "", {}),
        ("gnu.tar", "w", tarfile.GNU_FORMAT, long_dir, {}),
        ("pax.tar", "w", tarfile.PAX_FORMAT, long_dir + "caf\u00e9/", {"comment": "a global header"}),
        ("gz.tar.gz", "w:gz", tarfile.PAX_FORMAT, "sample/", {}),
        ("bz2.tar.bz2", "w:bz2", tarfile.GNU_FORMAT, "sample/", {}),
    ]
    for name, mode, fmt, prefix, pax in shards:
        path = os.path.join(out, name)
        with tarfile.open(path, mode, format=fmt, pax_headers=pax) as tf:
            content(tf, prefix)
        print(name)


def main():
    if sys.argv[1] == "write":
        write(sys.argv[2])
    elif sys.argv[1] == "read":
        for path in sys.argv[2:]:
            print("==", path)
            for s in samples(path):
                print(json.dumps(s, sort_keys=True))
    else:
        sys.exit("usage: tarfile_peer.py write DIR | read FILE...")


if __name__ == "__main__":
    main()
