#!/usr/bin/python3
"""Regenerate the connected-component labelling figures in this folder.

Usage (from the repository root):

    /usr/bin/python3 tests/data/make-label-data.py

Writes label-coins-mask.pgm and expected-label.ini.  Labels come from
scikit-image's label() and are checked here against OpenCV's
connectedComponentsWithStats; statistics from OpenCV (areas, boxes,
centroids) and scikit-image (regionprops mean_intensity); colours from
skimage.color.label2rgb through img_as_ubyte.

OpenCV numbers regions in raster order of their first pixels only with the
Wu (SAUF) algorithm: its default for 8-connectivity (Bolelli's Spaghetti)
scans 2x2 blocks, so the same regions can come in another order.  The
script uses CCL_WU and checks that the default finds the same regions.

The random masks are cip_test_fill_bytes() (tests/common/test-gpu.c,
splitmix64) of a seed: a pixel is foreground when its byte is below a
threshold; the intensity image is the bytes of seed + 1000.
"""

import os
import warnings

import cv2
import numpy as np
import skimage
import skimage.color
import skimage.measure
import skimage.morphology
import skimage.util

HERE = os.path.dirname(os.path.abspath(__file__))
REGEN_CMD = "/usr/bin/python3 tests/data/make-label-data.py"
M64 = (1 << 64) - 1


def read_pgm(name):
    with open(os.path.join(HERE, name), "rb") as f:
        data = f.read()
    magic, w, h, maxval, rest = data.split(maxsplit=4)
    assert magic == b"P5" and maxval == b"255"
    w, h = int(w), int(h)
    return np.frombuffer(rest[: w * h], np.uint8).reshape(h, w)


def write_pgm(name, img):
    img = np.ascontiguousarray(img, dtype=np.uint8)
    h, w = img.shape
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (w, h))
        f.write(img.tobytes())


def fill_bytes(n, seed):
    """cip_test_fill_bytes(): splitmix64, eight little-endian bytes a step."""
    with np.errstate(over="ignore"):
        x = np.uint64((seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & M64)
        k = np.arange(1, (n + 7) // 8 + 1, dtype=np.uint64)
        z = x + k * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return z.astype("<u8").view(np.uint8)[:n]


def random_case(w, h, seed, threshold):
    mask = (fill_bytes(w * h, seed) < threshold).astype(np.uint8).reshape(h, w)
    intensity = fill_bytes(w * h, seed + 1000).reshape(h, w)
    return mask, intensity


def weighted_sum(values):
    """sum of values[i] * (i + 1) modulo 2^64."""
    v = np.asarray(values, dtype=np.uint64).ravel()
    with np.errstate(over="ignore"):
        return int(np.sum(v * np.arange(1, v.size + 1, dtype=np.uint64),
                          dtype=np.uint64))


def bits(doubles):
    return np.asarray(doubles, dtype=np.float64).view(np.uint64)


def label_image(mask, conn, min_area):
    labels = skimage.measure.label(mask != 0, connectivity=1 if conn == 4 else 2)
    if min_area > 1:
        kept = skimage.morphology.remove_small_objects(labels, min_size=min_area)
        labels = skimage.measure.label(kept != 0,
                                       connectivity=1 if conn == 4 else 2)
    return labels


def figures(mask, intensity, conn, min_area):
    """Labels and statistics, each checked against the other library."""
    labels = label_image(mask, conn, min_area)
    n = int(labels.max())
    kept = (labels != 0).astype(np.uint8)
    cv_n, cv_labels, stats, centroids = \
        cv2.connectedComponentsWithStatsWithAlgorithm(kept, conn, cv2.CV_32S,
                                                      cv2.CCL_WU)
    assert cv_n - 1 == n and (cv_labels == labels).all()
    _, _, stats_default, cent_default = cv2.connectedComponentsWithStats(
        kept, connectivity=conn, ltype=cv2.CV_32S)
    rows = lambda s, c: sorted(map(tuple, np.hstack([s[1:], c[1:]]).tolist()))
    assert rows(stats, centroids) == rows(stats_default, cent_default)

    ys, xs = np.nonzero(labels)
    ids = labels[ys, xs]
    sum_x = np.bincount(ids, xs.astype(np.int64), n + 1)[1:]
    sum_y = np.bincount(ids, ys.astype(np.int64), n + 1)[1:]
    src = intensity if intensity is not None else mask
    sum_i = np.bincount(ids, src[ys, xs].astype(np.int64), n + 1)[1:]
    area = stats[1:, cv2.CC_STAT_AREA]
    # Every sum is an exact integer below 2^53; the division is the one
    # cip_label's users make.
    assert (sum_x / area == centroids[1:, 0]).all()
    assert (sum_y / area == centroids[1:, 1]).all()
    means = np.array([p.mean_intensity for p in skimage.measure.regionprops(
        labels, intensity_image=src)])
    assert (sum_i / area == means).all() if n else True

    boxes = stats[1:, :4].astype(np.uint64)
    with np.errstate(over="ignore"):
        box_hash = (area.astype(np.uint64) +
                    boxes[:, 0] * np.uint64(0x10001) +
                    boxes[:, 1] * np.uint64(0x100000001) +
                    boxes[:, 2] * np.uint64(0x1000000000001) +
                    boxes[:, 3] * np.uint64(0x9E3779B97F4A7C15))
    rgb = skimage.util.img_as_ubyte(skimage.color.label2rgb(labels, bg_label=0))
    packed = (rgb[..., 0].astype(np.uint64) << np.uint64(16)) | \
        (rgb[..., 1].astype(np.uint64) << np.uint64(8)) | rgb[..., 2]
    return {
        "count": n,
        "labels-sum": weighted_sum(labels),
        "boxes-sum": weighted_sum(box_hash),
        "centroids-x-sum": weighted_sum(bits(centroids[1:, 0])),
        "centroids-y-sum": weighted_sum(bits(centroids[1:, 1])),
        "means-sum": weighted_sum(bits(means)) if n else 0,
        "color-sum": weighted_sum(packed),
    }, stats, centroids, means


def main():
    coins = read_pgm("coins.pgm")
    _, otsu = cv2.threshold(coins, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    disk = skimage.morphology.disk(2).astype(np.uint8)
    mask = cv2.erode(otsu, disk)
    write_pgm("label-coins-mask.pgm", mask)

    lines = [
        "# Connected-component figures from scikit-image and OpenCV; do not edit.",
        f"# Regenerate with: {REGEN_CMD}",
        f"# OpenCV {cv2.__version__}, scikit-image {skimage.__version__}, "
        f"numpy {np.__version__}",
        "# *-sum: sum over i of v[i] * (i + 1) modulo 2^64, i from 0: labels",
        "#   over the pixels in raster order; boxes-sum over regions of",
        "#   area + left 0x10001 + top 0x100000001 + width 0x1000000000001 +",
        "#   height 0x9e3779b97f4a7c15; centroids-x/y-sum and means-sum over",
        "#   the IEEE bits of OpenCV's centroids and skimage's mean_intensity;",
        "#   color-sum over the pixels of img_as_ubyte(label2rgb(labels,",
        "#   bg_label=0)) as R << 16 | G << 8 | B.",
        "# [label-coins-C-M]: label-coins-mask.pgm (Otsu threshold of coins,",
        "#   eroded by disk(2)), connectivity C, min_area M, intensity coins.pgm",
        "#   (and *-mask-means-sum with the mask itself as intensity).",
        "# [label-random-W-H-S-T-C-M]: random mask W x H, seed S, threshold T.",
        "",
    ]

    def group(name, figs):
        lines.append(f"[{name}]")
        lines.extend(f"{k}={v}" for k, v in figs.items())

    for conn in (8, 4):
        for min_area in (0, 50, 500):
            figs, stats, cents, means = figures(mask, coins, conn, min_area)
            mask_figs = figures(mask, None, conn, min_area)[0]
            figs["mask-means-sum"] = mask_figs["means-sum"]
            group(f"label-coins-{conn}-{min_area}", figs)
            if min_area == 0:
                fmt = lambda v: ";".join(repr(float(x)) for x in v)
                for key, col in (("areas", cv2.CC_STAT_AREA),
                                 ("lefts", cv2.CC_STAT_LEFT),
                                 ("tops", cv2.CC_STAT_TOP),
                                 ("widths", cv2.CC_STAT_WIDTH),
                                 ("heights", cv2.CC_STAT_HEIGHT)):
                    lines.append(f"{key}=" + ";".join(
                        str(int(v)) for v in stats[1:, col]))
                lines.append("centroids-x=" + fmt(cents[1:, 0]))
                lines.append("centroids-y=" + fmt(cents[1:, 1]))
                lines.append("means=" + fmt(means))
            lines.append("")

    sizes = [(97, 61), (256, 192), (1, 257), (257, 1), (333, 111)]
    thresholds = [26, 77, 128, 154, 230]
    seed = 1
    for w, h in sizes:
        for t in thresholds:
            for conn in (8, 4):
                m, inten = random_case(w, h, seed, t)
                for min_area in ((0, 3) if (w, h) == (256, 192) else (0,)):
                    figs = figures(m, inten, conn, min_area)[0]
                    group(f"label-random-{w}-{h}-{seed}-{t}-{conn}-{min_area}",
                          figs)
                    lines.append("")
                seed += 1

    with open(os.path.join(HERE, "expected-label.ini"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    # remove_small_objects warns when a mask holds a single region.
    warnings.filterwarnings("ignore", "Only one label was provided")
    main()
