#!/usr/bin/python3
"""Regenerate the Gaussian blur test data (blur-*) from OpenCV.

Usage (from the repository root):

    /usr/bin/python3 tests/data/make-blur-data.py

Needs Debian's python3-opencv (4.6), python3-skimage and numpy, like
make-data.py.  Every expected image is cv2.GaussianBlur with ksize 2r+1,
r = ceil(4 sigma), and BORDER_REFLECT_101.  The script also checks that the
fixed-point definition of cip_blur (gpu/cip-blur.h), written out again in
numpy below, gives OpenCV's result byte for byte on every case.  The output
is deterministic.

GRAY16 (blur16-*): the same on CV_16U arrays, whose GaussianBlur in OpenCV
4.6 is fixed point too: the weights made to sum to 2^16, 32-bit horizontal
sums, (v + 2^31) >> 32.  The script checks our definition against it on
every case (|ours - OpenCV| <= 1 is the promise; it finds 0) and prints how
far both are from the exact Gaussian.  16-bit images are binary PGMs with
maxval 65535 and big-endian samples, as netpbm has them; hashes are of the
little-endian rows GRAY16 holds.
"""

import math
import os

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REGEN_CMD = "/usr/bin/python3 tests/data/make-blur-data.py"
SLACK = 1e-9


def radius(sigma):
    return max(1, math.ceil(4 * sigma - SLACK))


def cv_blur(img, sigma):
    k = 2 * radius(sigma) + 1
    return cv2.GaussianBlur(img, (k, k), sigmaX=sigma, sigmaY=sigma,
                            borderType=cv2.BORDER_REFLECT_101)


def kernel(sigma, bits=8):
    """The half-kernel of cip-blur.h, centre first, summing to 2^bits."""
    r = radius(sigma)
    n = 2 * r + 1
    scale = -0.125 / (sigma * sigma)
    values = [math.exp(float((1 - n + 2 * i) ** 2) * scale) for i in range(n)]
    inv = 1.0 / sum_in_order(values)
    w = [0] * (r + 1)
    err = 0.0
    side = 0
    for i in range(r):
        adjusted = values[i] * inv * (1 << bits) + err
        rounded = round(adjusted)       # ties to even, as nearbyint
        err = adjusted - rounded
        w[r - i] = rounded
        side += rounded
    w[0] = (1 << bits) - 2 * side
    return w


def sum_in_order(values):
    total = 0.0
    for v in values:
        total += v
    return total


def reflect(p, n):
    if 0 <= p < n:
        return p
    if n == 1:
        return 0
    period = 2 * (n - 1)
    p = abs(p) % period
    return p if p < n else period - p


def our_blur(img, sigma):
    """cip-blur.h's definition, for one channel."""
    w = kernel(sigma)
    r = len(w) - 1
    full = np.array(w[:0:-1] + w, dtype=np.int64)
    h, wd = img.shape
    xs = [reflect(x, wd) for x in range(-r, wd + r)]
    ys = [reflect(y, h) for y in range(-r, h + r)]
    a = img.astype(np.int64)[:, xs]
    mid = sum(full[k] * a[:, k:k + wd] for k in range(2 * r + 1))
    assert mid.max() <= 65280
    b = mid[ys, :]
    v = sum(full[k] * b[k:k + h, :] for k in range(2 * r + 1))
    return ((v + (1 << 15)) >> 16).astype(np.uint8)


def our_blur16(img, sigma):
    """cip-blur.h's definition for GRAY16."""
    w = kernel(sigma, 16)
    r = len(w) - 1
    full = np.array(w[:0:-1] + w, dtype=np.uint64)
    h, wd = img.shape
    xs = [reflect(x, wd) for x in range(-r, wd + r)]
    ys = [reflect(y, h) for y in range(-r, h + r)]
    a = img.astype(np.uint64)[:, xs]
    mid = sum(full[k] * a[:, k:k + wd] for k in range(2 * r + 1))
    assert int(mid.max()) < 1 << 32
    b = mid[ys, :]
    v = sum(full[k] * b[k:k + h, :] for k in range(2 * r + 1))
    return ((v + np.uint64(1 << 31)) >> np.uint64(32)).astype(np.uint16)


def exact_blur(img, sigma):
    """The Gaussian in double precision, unrounded."""
    k = cv2.getGaussianKernel(2 * radius(sigma) + 1, sigma, cv2.CV_64F)
    return cv2.sepFilter2D(img.astype(np.float64), cv2.CV_64F, k, k,
                           borderType=cv2.BORDER_REFLECT_101)


# The largest |OpenCV - exact Gaussian| seen on 16-bit images.
exact16_distance = [0.0]


def checked_blur16(img, sigma):
    out = cv_blur(img, sigma)
    ours = our_blur16(img, sigma)
    assert out.dtype == np.uint16
    diff = np.abs(out.astype(np.int64) - ours.astype(np.int64)).max()
    assert diff <= 1, ("definition too far from OpenCV", img.shape, sigma)
    assert diff == 0, ("definition differs from OpenCV", img.shape, sigma)
    exact16_distance[0] = max(exact16_distance[0],
                              float(np.abs(exact_blur(img, sigma) - out).max()))
    return out


def checked_blur(img, sigma):
    out = cv_blur(img, sigma)
    ours = (our_blur(img, sigma) if img.ndim == 2 else
            np.dstack([our_blur(img[:, :, c], sigma)
                       for c in range(img.shape[2])]))
    assert np.array_equal(out, ours), ("definition differs from OpenCV",
                                      img.shape, sigma)
    return out


def read_pnm(name):
    with open(os.path.join(HERE, name), "rb") as f:
        data = f.read()
    magic, w, h, maxval = data.split(maxsplit=4)[:4]
    header = b"%s\n%d %d\n%d\n" % (magic, int(w), int(h), int(maxval))
    assert data.startswith(header), name
    channels = 1 if magic == b"P5" else 3
    pixels = np.frombuffer(data[len(header):], dtype=np.uint8)
    return pixels.reshape((int(h), int(w)) if channels == 1 else
                          (int(h), int(w), 3))


def write_pnm(name, img):
    img = np.ascontiguousarray(img)
    assert img.dtype == np.uint8
    magic = b"P5" if img.ndim == 2 else b"P6"
    h, w = img.shape[:2]
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(magic + b"\n%d %d\n255\n" % (w, h))
        f.write(img.tobytes())


def write_pgm16(name, img):
    img = np.ascontiguousarray(img)
    assert img.dtype == np.uint16 and img.ndim == 2
    h, w = img.shape
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"P5\n%d %d\n65535\n" % (w, h))
        f.write(img.astype(">u2").tobytes())


def fnv1a(img):
    if img.dtype == np.uint16:
        img = img.astype("<u2")
    h = 0x811c9dc5
    for byte in np.ascontiguousarray(img).tobytes():
        h = ((h ^ byte) * 0x01000193) & 0xffffffff
    return h


def tiny_pixels(w, h):
    return np.array([[(x * 37 + y * 91 + 11) & 255 for x in range(w)]
                     for y in range(h)], dtype=np.uint8)


def fmt(sigma):
    return repr(float(sigma))


def main():
    lines = [
        "# Gaussian blur results computed with OpenCV; do not edit by hand.",
        f"# Regenerate with: {REGEN_CMD}",
        f"# OpenCV {cv2.__version__}, numpy {np.__version__}",
        "# Every result is cv2.GaussianBlur(img, (2r+1, 2r+1), sigma, sigma,",
        "#   borderType=cv2.BORDER_REFLECT_101), r = ceil(4 sigma).",
        "",
    ]

    # Crops of the real images: [crop NAME] says where from, the result is
    # blur-NAME.pgm (or .ppm).
    crops = [
        ("camera-0.5", "camera.pgm", 100, 80, 160, 120, 0.5),
        ("camera-1.5", "camera.pgm", 100, 80, 160, 120, 1.5),
        ("camera-5", "camera.pgm", 100, 80, 160, 120, 5.0),
        ("coins-0.8", "coins.pgm", 0, 0, 97, 83, 0.8),
        ("coins-2.7", "coins.pgm", 0, 0, 97, 83, 2.7),
        ("moon-10", "moon.pgm", 300, 300, 64, 64, 10.0),
        ("moon-32", "moon.pgm", 300, 300, 64, 64, 32.0),
        ("chelsea-1", "chelsea.ppm", 150, 80, 120, 90, 1.0),
        ("chelsea-10", "chelsea.ppm", 150, 80, 120, 90, 10.0),
    ]
    for name, source, x, y, w, h, sigma in crops:
        img = read_pnm(source)[y:y + h, x:x + w]
        ext = "pgm" if img.ndim == 2 else "ppm"
        write_pnm(f"blur-{name}.{ext}", checked_blur(img, sigma))
        lines += [f"[crop {name}]", f"source={source}", f"x={x}", f"y={y}",
                  f"width={w}", f"height={h}", f"sigma={fmt(sigma)}",
                  f"result=blur-{name}.{ext}", ""]

    # A noise image and its blurs at the ends of the range.
    noise = np.random.default_rng(20260).integers(0, 256, (47, 61),
                                                  dtype=np.uint8)
    write_pnm("blur-noise.pgm", noise)
    for sigma in (0.1, 0.3, 1.0, 32.0):
        write_pnm(f"blur-noise-{sigma:g}.pgm", checked_blur(noise, sigma))

    # A sweep of sigmas over the range, on the noise image: the FNV-1a hash
    # of each result's bytes, row after row.
    rng = np.random.default_rng(7)
    sweep = sorted(set([0.1, 0.25, 0.3, 0.5, 0.8, 1.0, 1.5, 2.7, 5.0, 10.0,
                        32.0] + [round(float(s), 4) for s in
                                 np.exp(rng.uniform(math.log(0.1),
                                                    math.log(32.0), 29))]))
    lines += ["[sweep]", "image=blur-noise.pgm",
              "sigmas=" + ";".join(fmt(s) for s in sweep),
              "hashes=" + ";".join("%u" % fnv1a(checked_blur(noise, s))
                                   for s in sweep), ""]

    # The weights (centre first) of cip-blur.h for the same sigmas.
    lines += ["# Not OpenCV's figures: the weights of the definition in",
              "# cip-blur.h, which give the results above bit for bit.",
              "[kernels]", "sigmas=" + ";".join(fmt(s) for s in sweep)]
    for i, s in enumerate(sweep):
        lines.append(f"weights{i}=" + ";".join(str(v) for v in kernel(s)))
    lines.append("")

    # Images smaller than the kernel: pixels (37 x + 91 y + 11) & 255.
    for w, h in [(1, 1), (1, 7), (7, 1), (2, 3), (3, 2), (5, 5), (9, 4)]:
        img = tiny_pixels(w, h)
        lines.append(f"[tiny {w}x{h}]")
        for s in (0.5, 2.7, 32.0):
            out = checked_blur(img, s)
            lines.append(f"sigma{s:g}=" + ";".join(str(v) for v in
                                                   out.flatten()))
        lines.append("")

    # GRAY16: a crop of camera widened to 16 bits with noise in the low
    # byte, and full-range noise (the largest rounding errors), with the
    # extremes in its corners.
    rng16 = np.random.default_rng(20262)
    camera = read_pnm("camera.pgm")
    camera16 = (camera[150:222, 200:296].astype(np.uint16) * 256 +
                rng16.integers(0, 256, (72, 96), dtype=np.uint16))
    noise16 = rng16.integers(0, 65536, (47, 61), dtype=np.uint16)
    noise16[0, 0] = noise16[46, 60] = 65535
    noise16[0, 60] = noise16[46, 0] = 0
    write_pgm16("blur16-camera.pgm", camera16)
    write_pgm16("blur16-noise.pgm", noise16)
    for sigma in (1.5, 5.0):
        write_pgm16(f"blur16-camera-{sigma:g}.pgm",
                    checked_blur16(camera16, sigma))
    lines += ["# GRAY16 (CV_16U): OpenCV's results of blur16-camera.pgm are",
              "# blur16-camera-<sigma>.pgm; here the hashes (of little-endian",
              "# rows) of the same sweep on both, the weights summing to 2^16,",
              "# and tiny images."]
    for name, img in (("camera16", camera16), ("noise16", noise16)):
        lines += [f"[sweep16 {name}]", f"image=blur16-{name[:-2]}.pgm",
                  "sigmas=" + ";".join(fmt(s) for s in sweep),
                  "hashes=" + ";".join("%u" % fnv1a(checked_blur16(img, s))
                                       for s in sweep), ""]
    lines += ["[kernels16]", "sigmas=" + ";".join(fmt(s) for s in sweep)]
    for i, s in enumerate(sweep):
        lines.append(f"weights{i}=" + ";".join(str(v) for v in kernel(s, 16)))
    lines.append("")
    for w, h in [(1, 1), (1, 7), (7, 1), (2, 3), (5, 5), (9, 4)]:
        img = (tiny_pixels(w, h).astype(np.uint16) * 257) ^ 0x5a3c
        lines.append(f"[tiny16 {w}x{h}]")
        lines.append("pixels=" + ";".join(str(v) for v in img.flatten()))
        for s in (0.5, 2.7, 32.0):
            out = checked_blur16(img, s)
            lines.append(f"sigma{s:g}=" + ";".join(str(v) for v in
                                                   out.flatten()))
        lines.append("")
    lines += [f"# 16-bit: OpenCV and the definition agree on every case; both",
              f"# are within {exact16_distance[0]:.2f} of the exact Gaussian.", ""]

    with open(os.path.join(HERE, "expected-blur.ini"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
