#!/usr/bin/python3
"""Regenerate the test images and the OpenCV reference outputs in this folder.

Usage (from the repository root):

    /usr/bin/python3 tests/data/make-data.py

Needs Debian's python3-skimage (0.19) and python3-opencv (4.6) and numpy.
Everything is written next to this script; the output is deterministic, so
rerunning it must leave `git status` clean.
"""

import os
import sys

import cv2
import numpy as np
import skimage
import skimage.data
import skimage.util

HERE = os.path.dirname(os.path.abspath(__file__))
REGEN_CMD = "/usr/bin/python3 tests/data/make-data.py"


def write_pnm(name, img):
    """Write a binary P5 (gray) or P6 (RGB) netpbm file, maxval 255, no comments."""
    img = np.ascontiguousarray(img)
    if img.dtype != np.uint8:
        raise TypeError(f"{name}: expected uint8, got {img.dtype}")
    if img.ndim == 2:
        magic = b"P5"
    elif img.ndim == 3 and img.shape[2] == 3:
        magic = b"P6"
    else:
        raise ValueError(f"{name}: unsupported shape {img.shape}")
    h, w = img.shape[:2]
    header = magic + b"\n%d %d\n255\n" % (w, h)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(header)
        f.write(img.tobytes())


def main():
    gray = {}  # name -> uint8 HxW, in the order the .ini lists them
    gray["coins"] = skimage.data.coins()
    gray["camera"] = skimage.data.camera()
    gray["moon"] = skimage.data.moon()
    gray["phantom"] = skimage.util.img_as_ubyte(skimage.data.shepp_logan_phantom())
    rgb = skimage.data.chelsea()

    for name, img in gray.items():
        assert img.dtype == np.uint8 and img.ndim == 2, name
        write_pnm(f"{name}.pgm", img)
    assert rgb.dtype == np.uint8 and rgb.shape[2] == 3
    write_pnm("chelsea.ppm", rgb)

    gray["chelsea-gray-bt601"] = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    write_pnm("chelsea-gray-bt601.pgm", gray["chelsea-gray-bt601"])

    lines = [
        "# Expected results computed with OpenCV; do not edit by hand.",
        f"# Regenerate everything in tests/data with: {REGEN_CMD}",
        f"# OpenCV {cv2.__version__}, scikit-image {skimage.__version__}, "
        f"numpy {np.__version__}",
        "# otsu-threshold: threshold returned by cv2.threshold(gray, 0, 255,",
        "#   cv2.THRESH_BINARY + cv2.THRESH_OTSU); output is 255 where pixel > threshold.",
        "# otsu-foreground-pixels: number of 255 pixels in that output.",
        "",
    ]
    for name, img in gray.items():
        write_pnm(f"{name}-equalize.pgm", cv2.equalizeHist(img))
        t, binary = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        assert float(t) == int(t), (name, t)
        lines += [
            f"[{name}]",
            f"otsu-threshold={int(t)}",
            f"otsu-foreground-pixels={int(np.count_nonzero(binary == 255))}",
            "",
        ]
    with open(os.path.join(HERE, "expected.ini"), "w", encoding="ascii",
              newline="\n") as f:
        f.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
