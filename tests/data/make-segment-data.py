#!/usr/bin/python3
"""Regenerate expected-segment-coins.csv, the regions the segment example
prints for examples/data/coins.png with its defaults.

Usage (from the repository root):

    /usr/bin/python3 tests/data/make-segment-data.py

The chain, by independent tools: OpenCV's GaussianBlur (sigma 2, a kernel
of 2 * ceil(4 sigma) + 1 taps, borders mirrored as BORDER_REFLECT_101) and
Otsu threshold (THRESH_OTSU), then scikit-image's binary_erosion with
disk(2), label (8-connectivity) and regionprops, the intensity being the
blurred image.  Rows as the example prints them: label, area, bounding box
(x, y, width, height), centroid (x, y) and mean intensity to three
decimals; then the perimeter, which examples/regionprops.py prints too.
"""

import math
import os

import cv2
import skimage.measure
import skimage.morphology

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "examples", "data", "coins.png")
SIGMA = 2.0
RADIUS = 2


def main():
    gray = cv2.imread(SOURCE, cv2.IMREAD_GRAYSCALE)
    taps = 2 * math.ceil(4 * SIGMA) + 1
    blurred = cv2.GaussianBlur(gray, (taps, taps), SIGMA,
                               borderType=cv2.BORDER_REFLECT_101)
    _, mask = cv2.threshold(blurred, 0, 255,
                            cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    eroded = skimage.morphology.binary_erosion(
        mask > 0, skimage.morphology.disk(RADIUS))
    labels = skimage.measure.label(eroded, connectivity=2)
    rows = ["label,area,x,y,width,height,centroid_x,centroid_y,"
            "mean_intensity,perimeter"]
    for region in skimage.measure.regionprops(labels,
                                              intensity_image=blurred):
        top, left, bottom, right = region.bbox
        cy, cx = region.centroid
        rows.append("%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f" % (
            region.label, region.area, left, top, right - left,
            bottom - top, cx, cy, region.mean_intensity, region.perimeter))
    with open(os.path.join(HERE, "expected-segment-coins.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
