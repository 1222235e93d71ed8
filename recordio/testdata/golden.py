#!/usr/bin/env python3
"""Writes the golden RecordIO files of the recordio tests, from the format's
definition and independently of the Go code:

  raw.rec, raw.idx        records of bytes chosen to exercise every rule
  images.rec, images.idx  image records (MXNet's IRHeader + labels + image)
  golden.json             what each record holds and where it starts

The format (dmlc-core include/dmlc/recordio.h, src/recordio.cc): each part of a
record is the little-endian word 0xced7230a, a length word cflag << 29 | length,
the length bytes of data and zero bytes up to a multiple of 4. A record whose
payload holds the magic number at an offset that is a multiple of 4 is cut
there into parts (the magic left out) with cflag 1 (first), 2 (middle) and
3 (last); otherwise it is one part with cflag 0. Padding follows the record.
The index holds "key\\toffset\\n" per record. An image record's payload
(python/mxnet/recordio.py pack) starts with struct "IfQQ" (flag, label, id,
id2); a label array sets flag to its length and label to 0 and follows the
header as float32.

Run from this directory: python3 golden.py (the standard library only).
"""
import hashlib
import json
import random
import struct

MAGIC = 0xCED7230A
MAGIC_LE = struct.pack("<I", MAGIC)


def parts(payload):
    """The (cflag, data) parts of one record."""
    cuts = [i for i in range(0, len(payload) - 3, 4) if payload[i:i + 4] == MAGIC_LE]
    if not cuts:
        return [(0, payload)]
    out, start = [], 0
    for n, i in enumerate(cuts):
        out.append((1 if n == 0 else 2, payload[start:i]))
        start = i + 4
    out.append((3, payload[start:]))
    return out


def encode(payload):
    b = b""
    for flag, data in parts(payload):
        b += struct.pack("<II", MAGIC, flag << 29 | len(data)) + data
    return b + b"\0" * (-len(payload) % 4)


def write(name, records, with_hex):
    """Writes name.rec and name.idx; returns the manifest entries."""
    rec, idx, out = b"", "", []
    for key, payload, extra in records:
        out.append(dict(key=key, offset=len(rec), bytes=len(payload),
                        sha256=hashlib.sha256(payload).hexdigest(),
                        parts=[f for f, _ in parts(payload)], **extra))
        if with_hex:
            out[-1]["hex"] = payload.hex()
        idx += "%d\t%d\n" % (key, len(rec))
        rec += encode(payload)
    with open(name + ".rec", "wb") as f:
        f.write(rec)
    with open(name + ".idx", "w") as f:
        f.write(idx)
    return out


def pack(label, ident, id2, image):
    """An image record: a number label gives flag 0, a list gives flag len."""
    if isinstance(label, list):
        head = struct.pack("<IfQQ", len(label), 0.0, ident, id2)
        head += b"".join(struct.pack("<f", x) for x in label)
    else:
        head = struct.pack("<IfQQ", 0, label, ident, id2)
    return head + image


rng = random.Random(16)
noise = bytes(rng.randrange(256) for _ in range(3000))
noise = noise[:100] + MAGIC_LE + MAGIC_LE + noise[108:2996] + MAGIC_LE
raw = [
    # MXNet's own example: five records whose offsets its doc gives (16 apart).
    *[(i, b"record_%d" % i, {}) for i in range(5)],
    (5, b"", {}),                                   # empty
    (6, b"a", {}),                                  # 3 bytes of padding
    (7, b"abcdef", {}),                             # 2 bytes of padding
    (8, MAGIC_LE, {}),                              # the magic alone: two empty parts
    (9, MAGIC_LE + b"xyz", {}),                     # magic first
    (10, b"abcd" + MAGIC_LE + b"efgh" + MAGIC_LE, {}),  # first, middle, empty last
    (11, b"wxyz" + MAGIC_LE + MAGIC_LE + b"tail!", {}),  # an empty middle part
    (12, b"a" + MAGIC_LE + b"bcd", {}),             # unaligned magic: one part
    (13, b"abcde" + MAGIC_LE, {}),                  # unaligned at the end
    (14, struct.pack(">I", MAGIC) * 2, {}),         # big-endian magic: one part
    (20, noise, {}),                                # keys need not be consecutive
    (15, b"abcd" + MAGIC_LE[:3], {}),               # a magic cut by the end
]

with open("chelsea_exif_rot90.jpg", "rb") as f:
    jpeg = f.read()
with open("horse_palette.png", "rb") as f:
    png = f.read()
# An image whose magic number lands on an aligned offset of the payload.
tricky = b"\x89PNG" + b"\0" * 4 + MAGIC_LE + b"rest"
images = [
    (0, pack(3.0, 0, 0, jpeg), dict(image="chelsea_exif_rot90.jpg", flag=0, label=[3.0], id=0, id2=0)),
    (1, pack([1.0, 2.5, -3.0], 1, 0, png), dict(image="horse_palette.png", flag=3, label=[1.0, 2.5, -3.0], id=1, id2=0)),
    (2, pack(0.0, 2, 0, b""), dict(image="", flag=0, label=[0.0], id=2, id2=0)),
    (3, pack([7.0], 3, 0, b"tiny"), dict(image_hex=b"tiny".hex(), flag=1, label=[7.0], id=3, id2=0)),
    (9223372036854775807, pack(0.5, 2**64 - 1, 12345, b"x"), dict(image_hex=b"x".hex(), flag=0, label=[0.5], id=2**64 - 1, id2=12345)),
    (4, pack(1.0, 4, 0, tricky), dict(image_hex=tricky.hex(), flag=0, label=[1.0], id=4, id2=0)),
]
for _, payload, extra in images:
    extra["image_sha256"] = hashlib.sha256(payload[24 + 4 * extra["flag"]:]).hexdigest()

manifest = dict(raw=write("raw", raw, True), images=write("images", images, False))
with open("golden.json", "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")
