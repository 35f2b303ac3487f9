#!/usr/bin/python3
"""Regenerate expected-regionprops.ini: scikit-image's regionprops_table.

Usage (from the repository root):

    /usr/bin/python3 tests/data/make-regionprops-data.py

For the coins mask (label-coins-mask.pgm, intensity coins.pgm) at each
connectivity, for a random mask (make-label-data.py's random_case, as
0 and 255, its own intensity) and for nested rings (nested_case),
one group of every property cudalabel computes, each column as
regionprops_table names it, its values separated by ';' in label order.
"""

import importlib.util
import os

import numpy as np
import skimage
import skimage.measure

HERE = os.path.dirname(os.path.abspath(__file__))
REGEN_CMD = "/usr/bin/python3 tests/data/make-regionprops-data.py"

PROPERTIES = (
    "label", "area", "area_bbox", "axis_major_length", "axis_minor_length",
    "bbox", "centroid", "eccentricity", "equivalent_diameter_area", "extent",
    "intensity_max", "intensity_mean", "intensity_min", "orientation",
    "perimeter", "euler_number", "area_convex", "area_filled",
    "feret_diameter_max", "solidity",
)

spec = importlib.util.spec_from_file_location(
    "make_label_data", os.path.join(HERE, "make-label-data.py"))
label_data = importlib.util.module_from_spec(spec)
spec.loader.exec_module(label_data)


def current_orientation(labels, table):
    """Orientation as scikit-image 0.21 and later give it: on an exact tie
    of the inertia tensor (a == c) -pi/4 when b >= 0, else pi/4.  0.19
    (Debian 12's) had the signs the other way round, its issue #6815,
    fixed by PR #6836."""
    if "orientation" not in table:
        return
    for i, region in enumerate(skimage.measure.regionprops(labels)):
        a, b, _, c = region.inertia_tensor.flat
        if a - c == 0:
            table["orientation"][i] = np.pi / 4 if b < 0 else -np.pi / 4


def group(lines, name, mask, intensity, conn):
    labels = skimage.measure.label(mask != 0,
                                   connectivity=1 if conn == 4 else 2)
    table = skimage.measure.regionprops_table(labels, intensity_image=intensity,
                                              properties=PROPERTIES)
    current_orientation(labels, table)
    lines.append(f"[{name}]")
    lines.append(f"count={int(labels.max())}")
    for column, values in table.items():
        lines.append(f"{column}=" + ";".join(repr(float(v)) for v in values))
    lines.append("")


def nested_case(w, h):
    """Square rings two pixels wide around the centre, nested, cut by
    diagonals one pixel wide (holes in holes, 8-connected leaks), as 0 and
    255."""
    y, x = np.mgrid[0:h, 0:w]
    ring = (np.maximum(abs(x - w // 2), abs(y - h // 2)) // 2) % 2 == 0
    cut = (x + 2 * y) % 11 == 0
    return ((ring != cut) * 255).astype(np.uint8)


def main():
    coins = label_data.read_pgm("coins.pgm")
    mask = label_data.read_pgm("label-coins-mask.pgm")
    lines = [
        "# scikit-image regionprops_table figures; do not edit.",
        "# orientation on exact ties as scikit-image 0.21+ gives it (#6815).",
        f"# Regenerate with: {REGEN_CMD}",
        f"# scikit-image {skimage.__version__}, numpy {np.__version__}",
        "# [regionprops-coins-C]: label-coins-mask.pgm, connectivity C,",
        "#   intensity coins.pgm.  [regionprops-random-W-H-S-T-C]: the random",
        "#   mask of make-label-data.py, seed S, threshold T, as 0 and 255,",
        "#   its own intensity.  [regionprops-nested-W-H-C]: nested_case (W, H),",
        "#   its own intensity.",
        "",
    ]
    for conn in (8, 4):
        group(lines, f"regionprops-coins-{conn}", mask, coins, conn)
    m = label_data.random_case(97, 61, 7, 128)[0] * np.uint8(255)
    for conn in (8, 4):
        group(lines, f"regionprops-random-97-61-7-128-{conn}", m, m, conn)
    m = nested_case(83, 67)
    for conn in (8, 4):
        group(lines, f"regionprops-nested-83-67-{conn}", m, m, conn)
    with open(os.path.join(HERE, "expected-regionprops.ini"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
