#!/usr/bin/python3
"""Regenerate regionprops16-bright.pgm and expected-regionprops16.ini:
scikit-image's intensity columns of 16-bit frames.

Usage (from the repository root):

    /tmp/skv/bin/python tests/data/make-regionprops16-data.py

Needs scikit-image 0.26 and numpy (a venv: python3 -m venv /tmp/skv &&
/tmp/skv/bin/pip install scikit-image numpy) and the otsu16-*.pgm images
of make-otsu16-data.py.  The output is deterministic.

Each frame is a 16-bit binary PGM (P5, maxval 65535, big-endian samples
as netpbm has them); its mask is what cudaotsu makes of it, the pixels
above skimage.filters.threshold_otsu.  For each frame and connectivity C,
group [regionprops16-NAME-C] holds the threshold, the region count and
regionprops_table (label (mask, connectivity), intensity_image=the uint16
frame) of label, area and the intensity columns, each value as repr of a
float64, separated by ';', in label order: intensity_mean the float64
mean of the uint16 values, intensity_min and intensity_max the uint16
values.
"""

import importlib.util
import os

import numpy as np
import skimage
import skimage.filters
import skimage.measure

HERE = os.path.dirname(os.path.abspath(__file__))

# current_orientation(): the tie branch of scikit-image 0.21+
spec = importlib.util.spec_from_file_location(
    "make_regionprops_data", os.path.join(HERE, "make-regionprops-data.py"))
regionprops_data = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regionprops_data)
REGEN_CMD = "/tmp/skv/bin/python tests/data/make-regionprops16-data.py"

PROPERTIES = ("label", "area", "intensity_mean", "intensity_min",
              "intensity_max")


def read_pgm16(name):
    with open(os.path.join(HERE, name), "rb") as f:
        data = f.read()
    magic, w, h, maxval, pixels = data.split(maxsplit=4)
    assert magic == b"P5" and maxval == b"65535"
    w, h = int(w), int(h)
    return np.frombuffer(pixels[:2 * w * h], ">u2").reshape(h, w) \
        .astype(np.uint16)


def write_pgm16(name, img):
    img = np.ascontiguousarray(img)
    assert img.dtype == np.uint16 and img.ndim == 2
    h, w = img.shape
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"P5\n%d %d\n65535\n" % (w, h))
        f.write(img.astype(">u2").tobytes())


def bright_case(w, h):
    """Nested square rings cut by diagonals (make-regionprops-data.py's
    nested_case), random values near the top of the range (60000 ..
    65535, and 65535 in the corners), over a dark noisy background with a
    0 in the centre: both ends of the range, and sums of the largest
    values."""
    rng = np.random.default_rng(20260517)
    y, x = np.mgrid[0:h, 0:w]
    ring = (np.maximum(abs(x - w // 2), abs(y - h // 2)) // 2) % 2 == 0
    cut = (x + 2 * y) % 11 == 0
    fg = ring != cut
    img = np.where(fg, rng.integers(60000, 65536, (h, w)),
                   rng.integers(0, 3000, (h, w)))
    img[0, 0] = img[0, -1] = img[-1, 0] = img[-1, -1] = 65535
    img[h // 2, w // 2] = 0
    return img.astype(np.uint16)


def group(lines, name, img, conn):
    t = int(skimage.filters.threshold_otsu(img))
    mask = img > t
    labels = skimage.measure.label(mask, connectivity=1 if conn == 4 else 2)
    table = skimage.measure.regionprops_table(labels, intensity_image=img,
                                              properties=PROPERTIES)
    regionprops_data.current_orientation(labels, table)
    # the definition cip_label follows: exact sums of the uint16 values
    for i, region in enumerate(skimage.measure.regionprops(labels)):
        values = img[labels == region.label].astype(np.uint64)
        mean = float(values.sum()) / float(values.size)
        assert mean == table["intensity_mean"][i], (name, region.label)
        assert values.min() == table["intensity_min"][i]
        assert values.max() == table["intensity_max"][i]
    lines.append(f"[regionprops16-{name}-{conn}]")
    lines.append(f"threshold={t}")
    lines.append(f"count={int(labels.max())}")
    for column, values in table.items():
        lines.append(f"{column}=" + ";".join(repr(float(v)) for v in values))
    lines.append("")
    print(name, conn, img.shape, t, int(labels.max()))


def main():
    bright = bright_case(83, 67)
    write_pgm16("regionprops16-bright.pgm", bright)
    frames = [
        ("camera", read_pgm16("otsu16-camera.pgm")),
        ("coins-12bit", read_pgm16("otsu16-coins-12bit.pgm")),
        ("full-range", read_pgm16("otsu16-full-range.pgm")),
        ("bright", read_pgm16("regionprops16-bright.pgm")),
    ]
    assert np.array_equal(frames[-1][1], bright)
    lines = [
        "# scikit-image regionprops_table of 16-bit frames; do not edit.",
        "# orientation on exact ties as scikit-image 0.21+ gives it (#6815).",
        f"# Regenerate with: {REGEN_CMD}",
        f"# scikit-image {skimage.__version__}, numpy {np.__version__}",
        "# [regionprops16-NAME-C]: the frame otsu16-NAME.pgm (bright:",
        "#   regionprops16-bright.pgm), its pixels above threshold_otsu",
        "#   (threshold) labelled at connectivity C, the uint16 frame as",
        "#   intensity_image.",
        "",
    ]
    for name, img in frames:
        for conn in (8, 4):
            group(lines, name, img, conn)
    with open(os.path.join(HERE, "expected-regionprops16.ini"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
