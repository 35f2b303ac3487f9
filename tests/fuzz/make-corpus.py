#!/usr/bin/env python3
# gst-cuda-imgproc
# Copyright (C) 2026 The gst-cuda-imgproc authors
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2 of the License, or (at your option) any later version.

"""Writes the seed corpus of fuzz-elements (tests/fuzz/corpus/): every
element on every format it takes, in GStreamer's layout and in a padded
one, and malformed frames: short and tiny buffers, spoiled strides and
offsets, split buffers, formats refused, the largest sizes.  The layout of
an input is described at the top of fuzz-elements.c.  Deterministic: run
it again after changing that layout.

    tests/fuzz/make-corpus.py [OUTPUT_DIR]
"""

import os
import struct
import sys

# The elements in fuzz-elements.c's order, with the formats they take (in
# its order) and their writable properties, sorted by name.
ELEMENTS = [
    ("cudagray", ["RGBA", "BGRA", "RGBx", "BGRx", "ARGB", "ABGR", "RGB",
                  "BGR", "NV12", "I420", "GRAY8"], ["method"]),
    ("cudamask", ["GRAY8"], ["foreground", "invert", "threshold"]),
    ("cudaequalize", ["GRAY8", "NV12", "I420"], []),
    ("cudaotsu", ["GRAY8"], ["invert", "post-messages"]),
    ("cudablur", ["GRAY8", "RGBA", "BGRA", "RGBx", "BGRx", "ARGB", "ABGR"],
     ["sigma"]),
    ("cudamorph", ["GRAY8", "RGBA", "BGRA", "RGBx", "BGRx", "ARGB", "ABGR"],
     ["operation", "radius", "shape"]),
    ("cudalabel", ["GRAY8"], ["analytics-meta", "connectivity",
                              "max-region-metas", "max-regions", "min-area",
                              "mode", "post-messages", "properties",
                              "roi-meta", "track"]),
]
ALL_FORMATS = ["GRAY8", "RGBA", "BGRA", "RGBx", "BGRx", "ARGB", "ABGR", "RGB",
               "BGR", "NV12", "I420", "GRAY16_LE", "YUY2", "NV21"]
PLANES = {"NV12": 2, "I420": 3, "NV21": 2}

LENGTH = {"exact": 0, "long": 1, "short": 2, "tiny": 3}
SPOIL = {"none": 0, "stride": 8, "overlap": 9, "offset": 10, "same": 11}


def sigma(value):
    """The raw value that gives about this blur sigma (0.1 to 32)."""
    return round((value - 0.1) / 31.9 * 65535)


def entry(element, fmt, width, height, props=None, meta=None,
          length="exact", adjust=0, split=None, at_start=False,
          foreign=False, largest=None, meta_size=0, pixels=b""):
    """One input.  @meta: None, or (first offset, [(pad, gap, spoil,
    stride, offset)] per plane), @meta_size its size byte (0xf0-0xf3: a
    pixel less or more across or down than the caps).  @largest: (wide, one more): the largest
    side the caps allow (or one more) across or down, the other side
    tiny; @width and @height are then ignored."""
    index = [e[0] for e in ELEMENTS].index(element)
    names = ELEMENTS[index][2]
    props = props or {}
    formats = ALL_FORMATS if foreign else ELEMENTS[index][1]
    mode = (1 if meta else 0) | LENGTH[length] << 2
    mode |= (3 << 4) if largest else 0
    mode |= 0x40 if foreign else 0
    mode |= 0x80 if at_start else 0
    if largest:
        # fuzz-elements.c: the bottom bit of the height picks the wide
        # frame, that of the width one pixel more.
        width = 2 if largest[1] else 1
        height = 2 if largest[0] else 1
    out = bytes([index, mode, formats.index(fmt)])
    out += struct.pack("<HH", (width - 1) % 65536, (height - 1) % 65536)
    for name in names:
        if name == "properties":
            # a mask of region properties, four bytes (cip.h's order)
            out += struct.pack("<I", props.get(name, 0))
        else:
            out += struct.pack("<H", props.get(name, 0))
    if meta:
        first, planes = meta
        out += bytes([first, meta_size])
        for pad, gap, spoil, stride, offset in planes:
            out += bytes([pad, gap, SPOIL[spoil]])
            out += struct.pack("<hH", stride, offset)
    if split is not None:
        adjust = 0x8000 | split
    out += struct.pack("<H", adjust)
    return out + pixels


def ramp(n, seed):
    return bytes((i * 37 + seed * 11 + (i * i) % 7) % 256 for i in range(n))


def corpus():
    seeds = {}
    # Every element on every format it takes, GStreamer's layout, odd
    # sizes, default properties and then others.
    for index, (element, formats, _) in enumerate(ELEMENTS):
        for i, fmt in enumerate(formats):
            seeds[f"{element}-{fmt}-plain"] = entry(
                element, fmt, 17 + i, 9 + index, pixels=ramp(97, i))
        # A padded, offset layout with a video meta.
        fmt = formats[-1]
        planes = [(5 + p, 3, "none", 0, 0) for p in range(PLANES.get(fmt, 1))]
        seeds[f"{element}-{fmt}-padded"] = entry(
            element, fmt, 31, 7, meta=(64, planes), length="long", adjust=9,
            pixels=ramp(61, index))

    # Properties across their ranges.
    seeds["cudagray-method-average"] = entry(
        "cudagray", "BGRx", 13, 5, props={"method": 3}, pixels=ramp(50, 1))
    seeds["cudamask-invert"] = entry(
        "cudamask", "GRAY8", 40, 3, props={"foreground": 77, "invert": 1,
                                          "threshold": 128},
        pixels=ramp(40, 2))
    seeds["cudaotsu-messages"] = entry(
        "cudaotsu", "GRAY8", 64, 64, props={"invert": 1, "post-messages": 1},
        pixels=bytes([0, 0, 200, 255, 30]))
    seeds["cudablur-sigma-0.1"] = entry(
        "cudablur", "RGBA", 9, 9, props={"sigma": sigma(0.1)})
    seeds["cudablur-sigma-32"] = entry(
        "cudablur", "GRAY8", 40, 30, props={"sigma": 65535})
    seeds["cudablur-sigma-2.5"] = entry(
        "cudablur", "ABGR", 7, 31, props={"sigma": sigma(2.5)},
        pixels=ramp(33, 5))
    seeds["cudamorph-close-cross-32"] = entry(
        "cudamorph", "GRAY8", 70, 70,
        props={"operation": 3, "radius": 31, "shape": 2}, pixels=ramp(90, 3))
    seeds["cudamorph-open-square-3"] = entry(
        "cudamorph", "BGRA", 11, 13,
        props={"operation": 2, "radius": 2, "shape": 1}, pixels=ramp(71, 4))
    seeds["cudalabel-labels-4"] = entry(
        "cudalabel", "GRAY8", 50, 20,
        props={"connectivity": 0, "mode": 1, "post-messages": 1},
        pixels=bytes([0, 255, 255, 0, 0, 9, 0]))
    seeds["cudalabel-passthrough-min-area"] = entry(
        "cudalabel", "GRAY8", 33, 33, props={"min-area": 5, "mode": 2},
        pixels=bytes([255, 0, 0, 255, 255, 0, 0, 0, 0, 255, 0]))
    seeds["cudalabel-track-min-area"] = entry(
        "cudalabel", "GRAY8", 45, 17, props={"min-area": 3, "track": 1},
        pixels=bytes([255, 255, 0, 255, 0, 0, 0, 255, 255, 255]))
    seeds["cudalabel-min-area-max"] = entry(
        "cudalabel", "GRAY8", 8, 8, props={"min-area": 0xffff},
        pixels=bytes([255, 0]))
    # Every region property, on rings and single pixels, then on one row
    # and one column.
    every = (1 << 20) - 1
    seeds["cudalabel-every-property"] = entry(
        "cudalabel", "GRAY8", 37, 29,
        props={"properties": every, "max-regions": 0xffff,
               "max-region-metas": 3, "mode": 1, "post-messages": 1,
               "track": 1},
        pixels=bytes([255, 255, 0, 255, 0, 0, 255, 255, 255, 0, 255]))
    seeds["cudalabel-hull-row"] = entry(
        "cudalabel", "GRAY8", 301, 1,
        props={"properties": (1 << 16) | (1 << 18) | (1 << 19),
               "connectivity": 0, "max-regions": 0xffff},
        pixels=ramp(40, 9))
    seeds["cudalabel-holes-column"] = entry(
        "cudalabel", "GRAY8", 1, 97,
        props={"properties": (1 << 17) | (1 << 15), "max-regions": 0xffff},
        pixels=ramp(33, 10))

    # 1x1 frames, and one side of one pixel.
    seeds["cudamorph-1x1"] = entry("cudamorph", "RGBx", 1, 1,
                                   props={"radius": 31}, pixels=b"\x10\x20")
    seeds["cudaequalize-I420-1x1"] = entry("cudaequalize", "I420", 1, 1)
    seeds["cudagray-NV12-1xN"] = entry("cudagray", "NV12", 1, 45,
                                       pixels=ramp(20, 8))
    seeds["cudablur-Nx1"] = entry("cudablur", "GRAY8", 299, 1,
                                  props={"sigma": sigma(8)})

    # Short and tiny buffers.
    seeds["cudagray-RGB-short"] = entry("cudagray", "RGB", 21, 4,
                                        length="short", adjust=0)
    seeds["cudaequalize-NV12-short-chroma"] = entry(
        "cudaequalize", "NV12", 16, 16, length="short", adjust=3)
    seeds["cudalabel-tiny"] = entry("cudalabel", "GRAY8", 100, 100,
                                    length="tiny", adjust=7)
    seeds["cudamorph-empty"] = entry("cudamorph", "ARGB", 5, 5,
                                     length="tiny", adjust=0)

    # Buffers of two memories.
    seeds["cudaotsu-split"] = entry("cudaotsu", "GRAY8", 20, 20, split=150,
                                    pixels=ramp(50, 6))
    seeds["cudaequalize-I420-split-meta"] = entry(
        "cudaequalize", "I420", 10, 10,
        meta=(0, [(2, 1, "none", 0, 0)] * 3), split=80)

    # Spoiled video metas.
    seeds["cudablur-meta-short"] = entry(
        "cudablur", "BGRx", 12, 12, meta=(8, [(4, 0, "none", 0, 0)]),
        length="short", adjust=5)
    # Rows padded to the stride GStreamer gives the output, the buffer
    # ending at the last row's pixels: whole-stride copies read past it.
    seeds["cudaequalize-NV12-meta-unpadded-end"] = entry(
        "cudaequalize", "NV12", 6, 6, meta=(0, [(2, 0, "none", 0, 0)] * 2),
        length="short", adjust=1, pixels=ramp(30, 7))
    seeds["cudamask-meta-negative-stride"] = entry(
        "cudamask", "GRAY8", 16, 4, meta=(0, [(0, 0, "stride", -16, 0)]))
    seeds["cudamask-meta-zero-stride"] = entry(
        "cudamask", "GRAY8", 16, 4, meta=(0, [(0, 0, "stride", 0, 0)]),
        at_start=True)
    seeds["cudagray-meta-overlapping-rows"] = entry(
        "cudagray", "RGBA", 9, 9, meta=(0, [(0, 0, "overlap", 2, 0)]))
    seeds["cudagray-meta-offset-beyond"] = entry(
        "cudagray", "BGR", 9, 9, meta=(0, [(0, 0, "offset", 0, 60000)]))
    seeds["cudaequalize-meta-planes-same"] = entry(
        "cudaequalize", "NV12", 8, 8,
        meta=(0, [(0, 0, "none", 0, 0), (0, 0, "same", 0, 0)]))
    seeds["cudaequalize-meta-chroma-beyond"] = entry(
        "cudaequalize", "I420", 8, 8,
        meta=(0, [(0, 0, "none", 0, 0), (0, 0, "none", 0, 0),
                  (0, 0, "offset", 0, 4000)]))
    seeds["cudalabel-meta-huge-stride"] = entry(
        "cudalabel", "GRAY8", 30, 30, meta=(0, [(0, 0, "stride", 32767, 0)]),
        at_start=True)

    # Metas of another size than the caps'.
    for size, name in [(0xf0, "narrower"), (0xf1, "wider"),
                       (0xf2, "shorter"), (0xf3, "taller")]:
        seeds[f"cudamorph-meta-{name}"] = entry(
            "cudamorph", "RGBA", 6, 5, meta=(0, [(4, 0, "none", 0, 0)]),
            length="long", adjust=200, meta_size=size)
    seeds["cudaequalize-meta-taller"] = entry(
        "cudaequalize", "NV12", 6, 6, meta=(0, [(0, 0, "none", 0, 0)] * 2),
        length="long", adjust=100, meta_size=0xf3)

    # Caps refused: formats, and one pixel too many.
    seeds["cudamask-refuses-RGBA"] = entry("cudamask", "RGBA", 8, 8,
                                           foreign=True)
    seeds["cudablur-refuses-RGB"] = entry("cudablur", "RGB", 8, 8,
                                          foreign=True)
    seeds["cudagray-refuses-YUY2"] = entry("cudagray", "YUY2", 8, 8,
                                           foreign=True)
    seeds["cudaequalize-refuses-NV21"] = entry("cudaequalize", "NV21", 8, 8,
                                               foreign=True)
    seeds["cudalabel-refuses-GRAY16"] = entry("cudalabel", "GRAY16_LE", 8, 8,
                                              foreign=True)
    seeds["cudagray-takes-GRAY8-foreign"] = entry("cudagray", "GRAY8", 8, 8,
                                                  foreign=True)

    # The largest side (16384), with the other side tiny, and one more.
    seeds["cudamask-16384-wide"] = entry("cudamask", "GRAY8", 0, 0,
                                         largest=(True, False))
    seeds["cudablur-16384-high-tiny"] = entry(
        "cudablur", "RGBA", 0, 0, largest=(False, False), length="tiny",
        adjust=3)
    seeds["cudaequalize-16384-high"] = entry(
        "cudaequalize", "I420", 0, 0, largest=(False, False))
    seeds["cudamorph-16385-wide"] = entry("cudamorph", "GRAY8", 0, 0,
                                          largest=(True, True),
                                          length="tiny")
    seeds["cudagray-16385-high"] = entry("cudagray", "NV12", 0, 0,
                                         largest=(False, True), length="tiny")
    return seeds


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    seeds = corpus()
    for name, data in sorted(seeds.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"{len(seeds)} inputs in {out}")


if __name__ == "__main__":
    main()
