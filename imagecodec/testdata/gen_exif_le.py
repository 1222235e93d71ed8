#!/usr/bin/python3
"""Adds to the conformance cases of package imagecodec a JPEG whose EXIF block
is little-endian ("II"): Pillow writes big-endian EXIF ("MM") unless told
otherwise, so every orientation case gen.py makes is big-endian, and a
decoder that read one byte order only would pass them all (issue 27).

    /usr/bin/python3 imagecodec/testdata/gen_exif_le.py ../shared/data/images

gen.py runs it last, after writing cases.json; run alone, it needs what gen.py
wrote and Debian's python3-pil (Pillow 9.4). It writes images/exif_le_6.jpg
(the 227x149 crop of the astronaut gen.py uses, quality 90, with IFD0 entries
Make, Orientation 6 and Software, so that the orientation is not the first
entry), its expected/ PNG, and its entry in cases.json, made as gen.py makes
the others.
"""
import hashlib, json, os, sys

from PIL import Image, ImageOps

here = os.path.dirname(os.path.abspath(__file__))
shared = sys.argv[1]
name = "exif_le_6.jpg"
path = os.path.join(here, "images", name)

src = Image.open(os.path.join(shared, "astronaut.png")).convert("RGB").crop((141, 61, 368, 210))
exif = Image.Exif()
exif.endian = "<"
exif[0x010F] = "obskit"  # Make
exif[0x0112] = 6  # Orientation
exif[0x0131] = "gen_exif_le.py"  # Software
src.save(path, quality=90, exif=exif.tobytes())
data = open(path, "rb").read()
assert b"Exif\x00\x00II*\x00" in data and b"Exif\x00\x00MM" not in data

im = Image.open(path)
assert im.getexif().get(0x0112) == 6
pixels = im.convert("RGB")
pixels.save(os.path.join(here, "expected", name + ".png"), optimize=True)
oriented = ImageOps.exif_transpose(Image.open(path).convert("RGB"))
case = {
    "how": "Pillow: save(quality=90, exif=Make, Orientation 6, Software) with Exif.endian '<' (little-endian, II)",
    "bytes": len(data),
    "format": im.format,
    "mode": im.mode,
    "width": im.width,
    "height": im.height,
    "orientation": 6,
    "progressive": bool(im.info.get("progressive")),
    "sha256": hashlib.sha256(pixels.tobytes()).hexdigest(),
    "expected": "expected/" + name + ".png",
    "oriented_sha256": hashlib.sha256(oriented.tobytes()).hexdigest(),
}

cases_path = os.path.join(here, "cases.json")
with open(cases_path) as f:
    cases = json.load(f)
cases[name] = case
with open(cases_path, "w") as f:
    json.dump(cases, f, indent=1, sort_keys=True)
    f.write("\n")
print(name, "added:", len(cases), "cases")
