#!/usr/bin/python3
"""Regenerate the 16-bit Otsu test data (otsu16-*.pgm, expected-otsu16.ini).

Usage (from the repository root):

    /tmp/skv/bin/python tests/data/make-otsu16-data.py

Needs scikit-image 0.26 and numpy (a venv: python3 -m venv /tmp/skv &&
/tmp/skv/bin/pip install scikit-image numpy; Debian 12 ships 0.19, whose
threshold_otsu weighs the classes in int64 rather than float32: the script
says where the two differ) and the images make-data.py writes.  The output
is deterministic.

Each image is a 16-bit binary PGM (P5, maxval 65535, big-endian samples as
netpbm has them).  For each, the .ini holds skimage.filters.threshold_otsu
of the uint16 array (for an integer image its histogram has a bin per
level from the minimum to the maximum; nbins is ignored) and the number of
pixels above it, the mask cudaotsu writes as 255.  The script also checks
the definition of docs/design.md (cip_otsu16_threshold) against it.
"""

import os

import numpy as np
import skimage
import skimage.filters

HERE = os.path.dirname(os.path.abspath(__file__))
REGEN_CMD = "/tmp/skv/bin/python tests/data/make-otsu16-data.py"


def read_pgm(name):
    with open(os.path.join(HERE, name), "rb") as f:
        data = f.read()
    magic, w, h, maxval, pixels = data.split(maxsplit=4)
    assert magic == b"P5" and maxval == b"255"
    return np.frombuffer(pixels, np.uint8).reshape(int(h), int(w)).copy()


def write_pgm16(name, img):
    img = np.ascontiguousarray(img)
    assert img.dtype == np.uint16 and img.ndim == 2
    h, w = img.shape
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"P5\n%d %d\n65535\n" % (w, h))
        f.write(img.astype(">u2").tobytes())


def definition(img):
    """cip_otsu16_threshold, as docs/design.md states it."""
    hist = np.bincount(img.ravel(), minlength=65536)
    occupied = np.flatnonzero(hist)
    lo, hi = int(occupied[0]), int(occupied[-1])
    if lo == hi:
        return lo
    c = hist[lo:hi + 1].astype(np.float32)
    levels = np.arange(lo, hi + 1)
    w1 = np.cumsum(c)  # float32, left to right
    w2 = np.cumsum(c[::-1])[::-1]  # float32, right to left
    cs = c.astype(np.int64) * levels
    s1 = np.cumsum(cs)
    s2 = int(cs.sum()) - s1
    best, t = -1.0, lo
    for i in range(hi - lo):
        m1 = float(s1[i]) / float(w1[i])
        m2 = float(s2[i]) / float(w2[i + 1])
        d = m1 - m2
        v = float(np.float32(w1[i] * w2[i + 1])) * (d * d)
        if v > best:
            best, t = v, lo + i
    return t


def skimage_019(img):
    """threshold_otsu of scikit-image 0.19: int64 class weights."""
    hist = np.bincount(img.ravel(), minlength=65536)
    occupied = np.flatnonzero(hist)
    lo, hi = int(occupied[0]), int(occupied[-1])
    if lo == hi:
        return lo
    counts = hist[lo:hi + 1]
    centers = np.arange(lo, hi + 1)
    w1 = np.cumsum(counts)
    w2 = np.cumsum(counts[::-1])[::-1]
    m1 = np.cumsum(counts * centers) / w1
    m2 = (np.cumsum((counts * centers)[::-1]) / w2[::-1])[::-1]
    v = w1[:-1] * w2[1:] * (m1[:-1] - m2[1:]) ** 2
    return lo + int(np.argmax(v))


def images():
    rng = np.random.default_rng(20260516)
    camera = read_pgm("camera.pgm")[::4, ::4].astype(np.uint32)
    noise = rng.integers(0, 257, camera.shape, dtype=np.uint32)
    yield "otsu16-camera", (camera * 257 + noise).clip(0, 65535)

    coins = read_pgm("coins.pgm")[::4, ::4].astype(np.uint32)
    noise = rng.integers(0, 16, coins.shape, dtype=np.uint32)
    yield "otsu16-coins-12bit", (coins * 16 + noise) << 4

    shape = (64, 96)
    dark = rng.normal(12000, 3000, shape)
    bright = rng.normal(40000, 5000, shape)
    pick = rng.random(shape) < 0.35
    yield "otsu16-bimodal", np.where(pick, bright, dark).round().clip(0, 65535)

    full = rng.integers(0, 65536, (48, 64), dtype=np.uint32)
    full[0, 0], full[-1, -1] = 0, 65535
    yield "otsu16-full-range", full

    yield "otsu16-three-levels", rng.choice([100, 200, 60000], (30, 41))
    yield "otsu16-two-levels", rng.choice([1000, 50000], (17, 23))
    yield "otsu16-flat", np.full((5, 7), 777)


def main():
    lines = [
        "# Otsu thresholds of 16-bit images: skimage.filters.threshold_otsu",
        "# of the uint16 array (scikit-image %s, numpy %s); foreground"
        % (skimage.__version__, np.__version__),
        "# pixels are those above it.  Regenerate with:",
        "#   " + REGEN_CMD,
        "",
    ]
    for name, img in images():
        img = np.asarray(img).astype(np.uint16)
        write_pgm16(name + ".pgm", img)
        t = int(skimage.filters.threshold_otsu(img))
        assert definition(img) == t, name
        old = skimage_019(img)
        if old != t:
            print("%s: scikit-image 0.19 would give %d, not %d" % (name, old, t))
        lines += [
            "[%s]" % name,
            "otsu-threshold=%d" % t,
            "otsu-foreground-pixels=%d" % int(np.count_nonzero(img > t)),
            "",
        ]
        print(name, img.shape, t)
    with open(os.path.join(HERE, "expected-otsu16.ini"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
