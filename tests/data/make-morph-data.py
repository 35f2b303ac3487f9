#!/usr/bin/python3
"""Regenerate the morphology test data (morph-*, expected-morph.ini).

Usage (from the repository root):

    /usr/bin/python3 tests/data/make-morph-data.py

Needs Debian's python3-opencv (4.6), python3-skimage (0.19) and numpy, and
the images make-data.py writes.  The output is deterministic.

For every image, operation, shape and radius the .ini holds the MD5 of
OpenCV's output rows (cv2.erode, cv2.dilate, cv2.morphologyEx with
MORPH_OPEN / MORPH_CLOSE, the element of cip_morph_element as the kernel,
OpenCV's default border).  A four-byte image is a 4-channel array.  The
GRAY16 images (morph16-*.pgm: 16-bit binary PGM, maxval 65535, big-endian
samples as netpbm has them) are CV_16U arrays; their MD5s are of the
little-endian rows GRAY16 holds.
"""

import hashlib
import os

import cv2
import numpy as np
import skimage
import skimage.morphology

HERE = os.path.dirname(os.path.abspath(__file__))
REGEN_CMD = "/usr/bin/python3 tests/data/make-morph-data.py"

OPERATIONS = ["erode", "dilate", "open", "close"]
SHAPES = ["disk", "square", "cross"]
RADII = [1, 2, 3, 5, 8, 17, 32]
# The large colour image only at a few radii, to keep the CPU test short.
RADII_SHORT = [1, 3, 17]


def read_pgm(name):
    with open(os.path.join(HERE, name), "rb") as f:
        data = f.read()
    magic, w, h, maxval, pixels = data.split(maxsplit=4)
    assert magic == b"P5" and maxval == b"255"
    return np.frombuffer(pixels, np.uint8).reshape(int(h), int(w)).copy()


def read_ppm(name):
    with open(os.path.join(HERE, name), "rb") as f:
        data = f.read()
    magic, w, h, maxval, pixels = data.split(maxsplit=4)
    assert magic == b"P6" and maxval == b"255"
    return np.frombuffer(pixels, np.uint8).reshape(int(h), int(w), 3).copy()


def write_pgm(name, img):
    img = np.ascontiguousarray(img)
    assert img.dtype == np.uint8 and img.ndim == 2
    h, w = img.shape
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (w, h))
        f.write(img.tobytes())


def write_pgm16(name, img):
    img = np.ascontiguousarray(img)
    assert img.dtype == np.uint16 and img.ndim == 2
    h, w = img.shape
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"P5\n%d %d\n65535\n" % (w, h))
        f.write(img.astype(">u2").tobytes())


def element(shape, r):
    """cip_morph_element: one centred run per row."""
    n = 2 * r + 1
    if shape == "disk":
        e = skimage.morphology.disk(r)
    elif shape == "square":
        e = np.ones((n, n), np.uint8)
    else:
        e = cv2.getStructuringElement(cv2.MORPH_CROSS, (n, n))
    return np.ascontiguousarray(e, dtype=np.uint8)


def morph(img, op, shape, r):
    k = element(shape, r)
    if op == "erode":
        return cv2.erode(img, k)
    if op == "dilate":
        return cv2.dilate(img, k)
    if op == "open":
        return cv2.morphologyEx(img, cv2.MORPH_OPEN, k)
    return cv2.morphologyEx(img, cv2.MORPH_CLOSE, k)


def naive(img, op, shape, r):
    """Min / max over the element, pixels outside left out: the definition,
    for checking OpenCV itself on small images."""
    if op in ("open", "close"):
        first, second = ("erode", "dilate") if op == "open" else ("dilate", "erode")
        return naive(naive(img, first, shape, r), second, shape, r)
    k = element(shape, r)
    fill = np.iinfo(img.dtype).max if op == "erode" else 0
    h, w = img.shape[:2]
    pad = np.full((h + 2 * r, w + 2 * r) + img.shape[2:], fill, img.dtype)
    pad[r:r + h, r:r + w] = img
    out = np.full_like(img, fill)
    f = np.minimum if op == "erode" else np.maximum
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            if k[dy + r, dx + r]:
                out = f(out, pad[r + dy:r + dy + h, r + dx:r + dx + w])
    return out


def md5(img):
    """Of the rows as the project holds them: GRAY16 little-endian."""
    if img.dtype == np.uint16:
        img = img.astype("<u2")
    return hashlib.md5(np.ascontiguousarray(img).tobytes()).hexdigest()


def main():
    rng = np.random.default_rng(20260)
    coins = read_pgm("coins.pgm")
    camera = read_pgm("camera.pgm")
    _, coins_mask = cv2.threshold(coins, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    random_gray = rng.integers(0, 256, (61, 97), np.uint8)
    random_rgba = rng.integers(0, 256, (47, 61, 4), np.uint8)
    # Sparse bright dots on dark: dilation draws the element itself.
    dots = np.zeros((71, 83), np.uint8)
    dots[rng.integers(0, 71, 12), rng.integers(0, 83, 12)] = 255
    dots[0, 0] = dots[70, 82] = dots[35, 0] = 200
    chelsea = read_ppm("chelsea.ppm")
    chelsea_rgba = np.dstack([chelsea, np.full(chelsea.shape[:2], 0x5a, np.uint8)])

    write_pgm("morph-random.pgm", random_gray)
    # Four-byte pixels as a GRAY8 image four times as wide.
    write_pgm("morph-random-rgba.pgm", random_rgba.reshape(47, 61 * 4))
    write_pgm("morph-dots.pgm", dots)

    # GRAY16: full-range noise, where samples often share a high byte and
    # differ in the low one (a byte-wise min or max gets those wrong), and
    # a crop of camera widened to 16 bits with noise in the low byte, as a
    # thermal or depth camera gives.
    rng16 = np.random.default_rng(20261)
    random16 = rng16.integers(0, 65536, (53, 67), np.uint16)
    random16[0, 0], random16[52, 66] = 0, 65535
    random16[10, 10:20] = 0x1200 + np.arange(10, dtype=np.uint16)
    camera16 = (camera[200:296, 160:288].astype(np.uint16) * 256 +
                rng16.integers(0, 256, (96, 128), np.uint16))
    write_pgm16("morph16-random.pgm", random16)
    write_pgm16("morph16-camera.pgm", camera16)

    images = [
        ("coins", coins, RADII),
        ("camera", camera, RADII),
        ("coins-mask", coins_mask, RADII),
        ("random", random_gray, RADII),
        ("random-rgba", random_rgba, RADII),
        ("dots", dots, RADII),
        ("chelsea-rgba", chelsea_rgba, RADII_SHORT),
        ("random16", random16, RADII),
        ("camera16", camera16, RADII),
    ]

    # OpenCV against the definition, where the naive loop is quick.
    for name in ("random", "random-rgba", "dots", "random16"):
        img = dict((n, i) for n, i, _ in images)[name]
        for op in OPERATIONS:
            for shape in SHAPES:
                for r in RADII:
                    assert np.array_equal(morph(img, op, shape, r),
                                          naive(img, op, shape, r)), (name, op, shape, r)

    # On a binary mask, erosion with disk(2) is scikit-image's
    # binary_erosion (border_value True: outside pixels do not count).
    mask_bool = coins_mask > 0
    sk = skimage.morphology.binary_erosion(mask_bool, skimage.morphology.disk(2))
    cv_erode = morph(coins_mask, "erode", "disk", 2)
    assert np.array_equal(sk.astype(np.uint8) * 255, cv_erode)
    write_pgm("morph-coins-mask-erode-disk-2.pgm", cv_erode)
    # scikit-image's grayscale erosion and dilation agree as well, borders
    # included, with disks and squares.
    for img in (coins, random_gray):
        for r in (2, 5, 17):
            for fp, shape in ((skimage.morphology.disk(r), "disk"),
                              (skimage.morphology.square(2 * r + 1), "square")):
                assert np.array_equal(skimage.morphology.erosion(img, fp),
                                      morph(img, "erode", shape, r))
                assert np.array_equal(skimage.morphology.dilation(img, fp),
                                      morph(img, "dilate", shape, r))

    lines = [
        "# MD5 of OpenCV's morphology outputs (rows packed, no padding); do not",
        "# edit by hand.",
        f"# Regenerate with: {REGEN_CMD}",
        f"# OpenCV {cv2.__version__}, scikit-image {skimage.__version__}, "
        f"numpy {np.__version__}",
        "# Keys: <operation>-<shape>-<radius>.  coins-mask is coins at its Otsu",
        "# threshold (0/255), chelsea-rgba chelsea.ppm with alpha 0x5a.",
        "# random16 and camera16 are GRAY16 (morph16-*.pgm): CV_16U in OpenCV,",
        "# the MD5 of little-endian rows.",
        "# scikit-image's binary_erosion with disk(2) equals OpenCV on coins-mask, and",
        "# its erosion and dilation equal OpenCV's on coins and random (disk, square).",
        "",
    ]
    for name, img, radii in images:
        lines.append(f"[{name}]")
        for op in OPERATIONS:
            for shape in SHAPES:
                for r in radii:
                    lines.append(f"{op}-{shape}-{r}={md5(morph(img, op, shape, r))}")
        lines.append("")
    with open(os.path.join(HERE, "expected-morph.ini"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
