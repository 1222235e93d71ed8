#!/usr/bin/python3
"""Makes the conformance cases of package imagecodec, once, from the shared
photographs; the tests read what it wrote and never run it.

    /usr/bin/python3 imagecodec/testdata/gen.py ../shared/data/images

Needs Debian's python3-pil (Pillow 9.4 on libjpeg-turbo 2.1.5), imagemagick,
libjpeg-turbo-progs (cjpeg) and webp (cwebp). It writes, under the directory
of this script:

  images/    the cases: the shared photographs copied, and small files made
             here, each for one item of the decoding list of issue 16
  expected/  NAME.png for the JPEG, GIF and WebP cases: the pixels Pillow
             decodes, Image.open(f).convert("RGB"), for the tests' tolerances
  cases.json for each case: how it was made, its format, size, orientation,
             and either the error a decoder must return or the SHA-256 of the
             pixels Pillow decodes (HWC uint8 RGB; 16-bit gray: the high byte
             of each sample), the expected file, and, when the file has an EXIF
             orientation other than 1, the SHA-256 of the pixels after
             ImageOps.exif_transpose (oriented_sha256)
             ("format", "unsupported" or "too large"); "pure_go": "unsupported"
             marks the JPEGs Go's image/jpeg cannot read.

Last it runs gen_exif_le.py, which adds the one case with a little-endian
EXIF block.
"""
import hashlib, io, json, os, shutil, struct, subprocess, sys, zlib

from PIL import Image, ImageOps

here = os.path.dirname(os.path.abspath(__file__))
shared = sys.argv[1]
imgdir, expdir = os.path.join(here, "images"), os.path.join(here, "expected")
for d in (imgdir, expdir):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
cases = {}


def run(*args):
    subprocess.run(args, check=True)


def expect(name, how, error=None, pure_go=None):
    """Records a case: its expected pixels as Pillow decodes them, or the
    error every decoder must return."""
    path = os.path.join(imgdir, name)
    c = {"how": how, "bytes": os.path.getsize(path)}
    if pure_go:
        c["pure_go"] = pure_go
    if error:
        c["error"] = error
        cases[name] = c
        return
    im = Image.open(path)
    c.update(format=im.format, mode=im.mode, width=im.width, height=im.height)
    orientation = im.getexif().get(0x0112, 1)
    c["orientation"] = orientation
    if im.format == "JPEG":
        c["progressive"] = bool(im.info.get("progressive"))

    def rgb(im):
        if im.mode in ("I", "I;16", "I;16B"):  # 16-bit gray: the high byte
            return Image.eval(im.convert("I").point(lambda v: v / 256), lambda v: v).convert("L").convert("RGB")
        return im.convert("RGB")

    pixels = rgb(im)
    c["sha256"] = hashlib.sha256(pixels.tobytes()).hexdigest()
    if im.format != "PNG":  # a PNG's pixels are its own: the hash is enough
        pixels.save(os.path.join(expdir, name + ".png"), optimize=True)
        c["expected"] = "expected/" + name + ".png"
    if orientation != 1:
        oriented = ImageOps.exif_transpose(rgb(Image.open(path)))
        c["oriented_sha256"] = hashlib.sha256(oriented.tobytes()).hexdigest()
    cases[name] = c


# The shared photographs and their bad_* files, as they are.
for name in sorted(os.listdir(shared)):
    if name.endswith((".jpg", ".png")):
        shutil.copy(os.path.join(shared, name), os.path.join(imgdir, name))
        os.chmod(os.path.join(imgdir, name), 0o644)
        if name.startswith("bad_"):
            expect(name, "copied from the shared images", error="format")
        else:
            expect(name, "copied from the shared images")

# A small source with an odd size, so that every chroma plane has a ragged
# edge: 227x149 pixels of the astronaut.
src = os.path.join(here, "src.ppm")
Image.open(os.path.join(shared, "astronaut.png")).convert("RGB").crop((141, 61, 368, 210)).save(src)


def cjpeg(name, *flags, pure_go=None):
    out = os.path.join(imgdir, name)
    run("cjpeg", "-quality", "90", *flags, "-outfile", out, src)
    expect(name, "cjpeg -quality 90 " + " ".join(flags), pure_go=pure_go)


cjpeg("cj_444.jpg", "-sample", "1x1")
cjpeg("cj_422.jpg", "-sample", "2x1")
cjpeg("cj_420.jpg", "-sample", "2x2")
cjpeg("cj_440.jpg", "-sample", "1x2")
cjpeg("cj_411.jpg", "-sample", "4x1")
cjpeg("cj_410.jpg", "-sample", "4x2")
cjpeg("cj_gray.jpg", "-grayscale")
cjpeg("cj_restart.jpg", "-restart", "1")
cjpeg("cj_progressive.jpg", "-progressive")
cjpeg("cj_progressive_restart.jpg", "-progressive", "-restart", "1", pure_go="unsupported")
cjpeg("cj_arithmetic.jpg", "-arithmetic", pure_go="unsupported")
cjpeg("cj_arithmetic_progressive.jpg", "-arithmetic", "-progressive", pure_go="unsupported")

# CMYK (Adobe transform 0, written by Pillow) and YCCK (Adobe transform 2,
# written by ImageMagick from a CMYK image).
Image.open(src).convert("CMYK").save(os.path.join(imgdir, "pil_cmyk.jpg"), quality=90)
expect("pil_cmyk.jpg", "Pillow: convert('CMYK').save(quality=90)")
run("convert", src, "-colorspace", "CMYK", "-quality", "90", os.path.join(imgdir, "im_ycck.jpg"))
assert Image.open(os.path.join(imgdir, "im_ycck.jpg")).info.get("adobe_transform") == 2
expect("im_ycck.jpg", "ImageMagick: convert src.ppm -colorspace CMYK -quality 90 (YCCK)")

# Garbage after the end of a JPEG: decoded as libjpeg-turbo does.
data = open(os.path.join(imgdir, "cj_420.jpg"), "rb").read()
open(os.path.join(imgdir, "garbage_after_eoi.jpg"), "wb").write(data + b"\x00garbage\xff\xd8\xff\xe0 more garbage")
expect("garbage_after_eoi.jpg", "cj_420.jpg followed by 32 bytes of garbage")
# A JPEG missing its last 2 bytes (the end-of-image marker): Pillow says truncated.
open(os.path.join(imgdir, "bad_no_eoi.jpg"), "wb").write(data[:-2])
expect("bad_no_eoi.jpg", "cj_420.jpg without its last 2 bytes", error="format")
data = open(os.path.join(imgdir, "cj_progressive.jpg"), "rb").read()
open(os.path.join(imgdir, "bad_truncated_progressive.jpg"), "wb").write(data[: len(data) // 2])
expect("bad_truncated_progressive.jpg", "the first half of cj_progressive.jpg", error="format")

# EXIF orientations 1 to 8 on a 4:2:0 JPEG.
for o in range(1, 9):
    exif = Image.Exif()
    exif[0x0112] = o
    name = "exif_%d.jpg" % o
    Image.open(src).save(os.path.join(imgdir, name), quality=90, exif=exif.tobytes())
    expect(name, "Pillow: save(quality=90, exif=Orientation %d)" % o)
# and one on a PNG (eXIf chunk)
exif = Image.Exif()
exif[0x0112] = 6
Image.open(src).save(os.path.join(imgdir, "exif_6.png"), exif=exif.tobytes())
expect("exif_6.png", "Pillow: save(exif=Orientation 6), an eXIf chunk")

# PNGs of every kind the list names.
small = Image.open(src)
# (blurred in ImageMagick's 16 bits, so that the low bytes are not copies
# of the high ones)
run("convert", src, "-depth", "16", "-blur", "0x0.7", "PNG48:" + os.path.join(imgdir, "im_rgb16.png"))
expect("im_rgb16.png", "ImageMagick: -depth 16 -blur 0x0.7 PNG48: (16-bit RGB)")
run("convert", src, "-depth", "16", "-blur", "0x0.7", "-alpha", "set", "-channel", "A", "-evaluate", "set", "60%", "+channel", "PNG64:" + os.path.join(imgdir, "im_rgba16.png"))
expect("im_rgba16.png", "ImageMagick: -depth 16 -blur 0x0.7, alpha 60%, PNG64: (16-bit RGBA)")
small.convert("LA").save(os.path.join(imgdir, "pil_gray_alpha.png"))
expect("pil_gray_alpha.png", "Pillow: convert('LA') (gray+alpha)")
for bits in (1, 2, 4):
    name = "im_gray%d.png" % bits
    run("convert", src, "-colorspace", "Gray", "-depth", str(bits), "PNG8:" if False else "-define", "png:bit-depth=%d" % bits, "-define", "png:color-type=0", os.path.join(imgdir, name))
    expect(name, "ImageMagick: -colorspace Gray -depth %d, png:bit-depth=%d, color-type 0" % (bits, bits))
p = small.quantize(16)
p.save(os.path.join(imgdir, "pil_palette4_trns.png"), bits=4, transparency=3)
expect("pil_palette4_trns.png", "Pillow: quantize(16).save(bits=4, transparency=3) (4-bit palette with tRNS)")
small.quantize(200).save(os.path.join(imgdir, "pil_palette_trns.png"), transparency=bytes(range(0, 200)))
expect("pil_palette_trns.png", "Pillow: quantize(200).save(transparency=alpha per entry) (8-bit palette, tRNS)")
run("convert", src, "-interlace", "PNG", os.path.join(imgdir, "im_interlaced.png"))
expect("im_interlaced.png", "ImageMagick: -interlace PNG (Adam7)")
run("convert", src, "-alpha", "set", "-channel", "A", "-evaluate", "set", "50%", "+channel", os.path.join(imgdir, "im_rgba.png"))
expect("im_rgba.png", "ImageMagick: alpha 50% (8-bit RGBA)")

# Other formats under a JPEG's name: found by content.
small.quantize(64).save(os.path.join(imgdir, "gif_named.jpg"), format="GIF")
expect("gif_named.jpg", "Pillow: quantize(64).save(format='GIF'), named .jpg")
run("cwebp", "-quiet", "-lossless", src, "-o", os.path.join(imgdir, "webp_lossless_named.jpg"))
expect("webp_lossless_named.jpg", "cwebp -lossless, named .jpg")
run("cwebp", "-quiet", "-q", "90", src, "-o", os.path.join(imgdir, "webp_lossy_named.jpg"))
expect("webp_lossy_named.jpg", "cwebp -q 90, named .jpg (lossy: libwebp's chroma upsampling differs from x/image/webp's)")
small.save(os.path.join(imgdir, "bmp_named.jpg"), format="BMP")
expect("bmp_named.jpg", "Pillow: save(format='BMP'), named .jpg: refused, naming BMP", error="unsupported")
small.save(os.path.join(imgdir, "tiff_named.jpg"), format="TIFF")
expect("tiff_named.jpg", "Pillow: save(format='TIFF'), named .jpg: refused, naming TIFF", error="unsupported")


# A PNG whose header claims 50000x50000 pixels (2.5e9, over Pillow's limit)
# with a few bytes of data: refused from its header.
def chunk(typ, body):
    return struct.pack(">I", len(body)) + typ + body + struct.pack(">I", zlib.crc32(typ + body))


png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 50000, 50000, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")
open(os.path.join(imgdir, "bad_huge_header.png"), "wb").write(png)
expect("bad_huge_header.png", "hand-made: IHDR 50000x50000 RGB, 64 bytes of data", error="too large")

os.remove(src)
with open(os.path.join(here, "cases.json"), "w") as f:
    json.dump(cases, f, indent=1, sort_keys=True)
    f.write("\n")
print(len(cases), "cases")
run(sys.executable, os.path.join(here, "gen_exif_le.py"), shared)
