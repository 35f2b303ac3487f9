#!/usr/bin/env python3
"""Writes the performance report from the benchmarks' CSV files.

    tests/bench/report.py DIR

DIR holds kernels.csv (bench-kernels --csv), elements.csv (bench-elements
--csv), device.txt (one "key: value" a line: device, driver, cuda,
gstreamer, date; kernels: where kernels.csv comes from another session)
and analysis.md (the hand-written reading of the
numbers); and, from one later session, chains.csv (bench-kernels --chains
--csv) with streams.csv (bench-elements --streams --csv).  Writes
DIR/README.md, and DIR/fps.png when matplotlib is there."""

import csv
import os
import sys

PENDING = "to be measured on the GPU host"

TARGETS_FPS = {
    ("cudagray, system memory", "1080p"): 4000,
    ("cudagray, system memory", "4K"): 1000,
    ("cudagray ! cudaequalize ! cudaotsu, CUDA memory", "1080p"): 10000,
}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fnum(value):
    return float(value) if value not in ("", None) else None


def kernel_tables(rows):
    floors = [r for r in rows if r["section"] == "floor"]
    ops = [r for r in rows if r["section"] == "op"]
    npp = [r for r in rows if r["section"] == "npp"]
    out = ["## Floors", "",
           "| copy | size | median µs | GB/s |", "|---|---|---:|---:|"]
    for r in floors:
        out.append("| %s | %s | %.1f | %.1f |" % (
            r["op"], r["size"], fnum(r["median_us"]), fnum(r["gbps"])))
    out += ["", "## Kernels", "",
            "Median of 300 calls (CUDA events, after warm-up, inputs rotated "
            "through more than five times the L2), p10–p90 in brackets. "
            "NPP on the same stream: gray = `nppiRGBToGray_8u_AC4C1R`, "
            "equalize = `HistogramEven` + `LUT_Linear` (without the host "
            "CDF NPP needs between them), Otsu = `HistogramEven` + "
            "`Threshold_GTVal` (without any threshold search), mask = "
            "`Threshold_GTVal`.", "",
            "| operation | size | input | ours µs | NPP µs | NPP / ours | "
            "GB/s | % of copy |",
            "|---|---|---|---:|---:|---:|---:|---:|"]
    for r in ops:
        npp_us = fnum(r["npp_median_us"])
        out.append("| `%s` | %s | %s | %.1f [%.1f–%.1f] | %s | %s | %.0f | "
                   "%.0f%% |" % (
                       r["op"], r["size"], r["input"], fnum(r["median_us"]),
                       fnum(r["p10_us"]), fnum(r["p90_us"]),
                       "%.1f" % npp_us if npp_us else "–",
                       "%.2f×" % fnum(r["speedup"]) if r["speedup"] else "–",
                       fnum(r["gbps"]), fnum(r["pct_copy"])))
    if npp:
        out += ["", "NPP calls alone:", "",
                "| call | size | input | µs |", "|---|---|---|---:|"]
        for r in npp:
            out.append("| `%s` | %s | %s | %.1f |" % (
                r["op"], r["size"], r["input"], fnum(r["median_us"])))
    return out


STREAM_CHAIN = "cudagray ! cudaequalize ! cudaotsu"


def chain_limits(rows):
    """The frames/s the chain's kernels and the page-locked copy floors
    allow at 1080p: {(source, streams): (what, frames/s)}, by the source
    names of streams.csv; streams 0 where the limit is the same for any
    number.  The pageable floor (64 MB copies) is left out: frames of 8 MB
    copy faster than that from pageable memory."""
    floors = {r["op"]: r for r in rows if r["section"] == "floor"}
    limits = {}
    chain = [r for r in rows if r["section"] == "chain"
             and r["op"] == STREAM_CHAIN and r["size"] == "1080p"]
    if chain:
        limits[("cuda", 0)] = ("the chain's kernels one frame after another",
                               1e6 / fnum(chain[0]["median_us"]))
    for n in (1, 2, 4, 8, 16):
        r = floors.get("1080p frames, RGBA up and GRAY8 down, %d pipeline%s "
                       "overlapped" % (n, "s" if n > 1 else ""))
        if r:
            limits[("pinned", n)] = ("%d pipeline%s copies overlapped" % (
                n, "s'" if n > 1 else "'s"), 1e6 / fnum(r["median_us"]))
    return limits


def limit_for(limits, source, streams):
    return limits.get((source, int(streams))) or limits.get((source, 0))


def chain_tables(rows):
    floors = [r for r in rows if r["section"] == "floor"]
    chains = [r for r in rows if r["section"] == "chain"]
    out = ["## Floors and GPU-time limits of the streams' session", "",
           "`bench-kernels --chains`, run beside the many-streams table "
           "below: the copy floors, and the kernels of each element "
           "pipeline back to back on one stream over four source frames "
           "(CUDA events): the frames/s their GPU time allows one frame "
           "after another. Pipelines can pass it, since frames of "
           "different elements' streams overlap on the GPU.", "",
           "| copy | size | median µs | GB/s | frames/s |",
           "|---|---|---:|---:|---:|"]
    for r in floors:
        frames = r["op"].startswith("1080p frame")
        out.append("| %s | %s | %.1f | %.1f | %s |" % (
            r["op"], r["size"], fnum(r["median_us"]), fnum(r["gbps"]),
            "%.0f" % (1e6 / fnum(r["median_us"])) if frames else ""))
    out += ["", "| pipeline's kernels | size | frames | µs a frame [p10–p90] "
            "| frames/s limit |", "|---|---|---|---:|---:|"]
    for r in chains:
        out.append("| `%s` | %s | %s | %.1f [%.1f–%.1f] | %.0f |" % (
            r["op"], r["size"], r["input"], fnum(r["median_us"]),
            fnum(r["p10_us"]), fnum(r["p90_us"]),
            1e6 / fnum(r["median_us"])))
    return out


def stream_table(rows, limits):
    out = ["## Many streams", "",
           "`bench-elements --streams`: the chain `%s` at 1080p in N "
           "pipelines of one process at once, started together (each "
           "source pushes 16 frames, then waits until all have), the "
           "frames of all of them counted over one 2 s window that opens "
           "0.5 s after the last pipeline's first frame. GPU µs/frame is the GPU's time over "
           "the frames of all pipelines (against the chain's kernels one "
           "frame after another in the table above: less where frames "
           "overlap on the GPU). The last column sets the row against the "
           "limit of its source from the table above (none for the "
           "decoder's rows, and none for pageable memory, whose 64 MB "
           "floors do not hold for frames of 8 MB)." % STREAM_CHAIN, "",
           "| source | N | frames/s, all | slowest stream | host µs/frame | "
           "GPU µs/frame | 1080p30 streams | against its limit |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        fps = fnum(r["fps"])
        # spread over GPUs (bench-elements --devices): named so, and set
        # against no one-GPU limit
        gpus = r["case"].rpartition(", ")[2] if r["case"].endswith(
            " GPUs") else ""
        # imagefreeze repeats one pageable frame, page-locked from its
        # second copy on: set against the page-locked copies
        frozen = r["case"].startswith("imagefreeze")
        source = "pinned" if frozen else r["source"]
        limit = None if gpus else limit_for(limits, source, r["streams"])
        against = ("%.0f%% of %s (%.0f)" % (100 * fps / limit[1], limit[0],
                                            limit[1]) if limit else "")
        label = "pageable, one frame (imagefreeze)" if frozen else r["source"]
        out.append("| %s | %s | %.0f | %.0f | %.1f | %.1f | %.0f | %s |" % (
            label + (", " + gpus if gpus else ""), r["streams"], fps,
            fnum(r["slowest_fps"]),
            fnum(r["host_us"]), 1e6 / fps, fps / 30, against))
    return out


def element_table(rows):
    out = ["## Elements", "",
           "Frames per second after start-up, measured for 2 s after a "
           "0.5 s warm-up; the source (`appsrc`) pushes the same few "
           "pre-filled frames, page-locked, pageable or in CUDA memory, so "
           "it costs next to nothing.", "",
           "| pipeline | source | size | frames/s | host µs/frame | target |",
           "|---|---|---|---:|---:|---:|"]
    for r in rows:
        target = TARGETS_FPS.get((r["case"], r["size"]))
        fps = fnum(r["fps"])
        mark = ""
        if target:
            mark = "≥ %d %s" % (target, "✓" if fps >= target else "✗")
        label = r["size"]
        if "x" in label:
            label += " (%.2f ms/frame)" % (1000.0 / fps)
        host = fnum(r.get("host_us"))
        out.append("| `%s` | %s | %s | %.0f | %s | %s |" % (
            r["case"], r["source"], label, fps,
            "%.1f" % host if host is not None else "", mark))
    return out


# The rows of the camera formats' issue ("Every camera's frames"): each
# target sets one row against another of the same run and size.
#   (what, --only of bench-elements, row, against, least ratio, note)
CAMERA_ELEMENT_TARGETS = [
    ("`cudagray`, YUY2 page-locked in, CUDA memory out: ≥ 1.5× the same "
     "row with RGBA", "page-locked in, CUDA memory out",
     "cudagray, YUY2 page-locked in, CUDA memory out",
     "cudagray, RGBA page-locked in, CUDA memory out", 1.5, ""),
    ("`cudagray`, YUY2 from pageable memory: ≥ 10× `videoconvert ! "
     "cudagray` (`videoconvert` to BGRx, what it negotiates in front of "
     "cudagray's former formats)", "YUY2 pageable",
     "cudagray, YUY2 pageable", "videoconvert ! cudagray, YUY2 pageable",
     10.0, ""),
    ("`cudaequalize ! cudaotsu`, GRAY16_LE, CUDA memory: ≥ 50% of the same "
     "chain on GRAY8 (expected to fail to link, n/a, until both elements "
     "take GRAY16_LE)", "cudaequalize ! cudaotsu, GRAY",
     "cudaequalize ! cudaotsu, GRAY16_LE, CUDA memory",
     "cudaequalize ! cudaotsu, GRAY8, CUDA memory", 0.5,
     "n/a until cudaequalize and cudaotsu take GRAY16_LE"),
]

# bench-kernels' gray rows: "cip_gray LAYOUT to GRAY8|GRAY16".
GRAY_LAYOUTS = [
    ("RGBA", "GRAY8"), ("BGRA", "GRAY8"), ("RGBx", "GRAY8"),
    ("BGRx", "GRAY8"), ("ARGB", "GRAY8"), ("ABGR", "GRAY8"),
    ("RGB", "GRAY8"), ("BGR", "GRAY8"), ("YUYV", "GRAY8"), ("UYVY", "GRAY8"),
    ("GRAY16", "GRAY8"), ("GRAY16_BE", "GRAY8"), ("GRAY10_MSB", "GRAY8"),
    ("GRAY10_LSB", "GRAY8"), ("GRAY12_LSB", "GRAY8"),
    ("GRAY16_BE", "GRAY16"), ("GRAY10_MSB", "GRAY16"),
    ("GRAY10_LSB", "GRAY16"), ("GRAY12_LSB", "GRAY16"),
]
GRAY_LAYOUT_SOURCES = {
    "YUYV": "YUY2, YVYU", "UYVY": "UYVY", "GRAY16": "GRAY16_LE, P016_LE",
    "GRAY16_BE": "GRAY16_BE", "GRAY10_MSB": "P010_10LE",
    "GRAY10_LSB": "I420_10LE", "GRAY12_LSB": "I420_12LE",
}
GRAY_NPP_SPEEDUP = 1.3          # at 1080p and 4K, where NPP has a call
GRAY_GBPS_1080P = 1700.0        # bytes read + written


def mark(ok):
    return "✓" if ok else "✗"


def camera_element_rows(elements):
    """{(case, size): fps} of the rows that ran (failed rows: -1)."""
    return {(r["case"], r["size"]): fnum(r["fps"]) for r in elements}


def camera_tables(elements, kernels):
    """The targets of the camera formats' rows, set against their
    measurements where the CSV files hold them, PENDING where not."""
    fps = camera_element_rows(elements)
    out = ["## Camera formats", "",
           "The rows for the camera and decoder layouts (YUY2, UYVY, YVYU, "
           "the semi-planar and planar 8-bit ones, P010_10LE, P016_LE, "
           "I420_10LE, I420_12LE, GRAY16_LE/BE) and their targets, each "
           "ratio between two rows of the same run. A figure reads \"%s\" "
           "until a run there (`tests/bench/run-benchmarks.sh`) has written "
           "the row; `--only TEXT` runs the rows whose name holds TEXT. A "
           "row whose source format an element does not take yet is left "
           "out as n/a (it would fail to link); a row that ran and failed "
           "reads \"failed\"." % PENDING, "",
           "On the GPU host, from the source root after `ninja -C build` "
           "(`-Dnpp=enabled` for the NPP column): the rows of one target "
           "with `GST_PLUGIN_PATH_1_0=build/ext build/tests/bench/"
           "bench-elements --only \"YUY2 pageable\"` (the `--only` text "
           "of each target below; `--only YUY2` runs the three YUY2 rows), "
           "the kernels with `build/tests/bench/bench-kernels --only "
           "cip_gray`; `tests/bench/run-benchmarks.sh build` runs "
           "everything and rewrites this report.", "",
           "| target (`bench-elements --only`) | 1080p | 4K |",
           "|---|---|---|"]
    for what, only, row, against, least, note in CAMERA_ELEMENT_TARGETS:
        cells = []
        for size in ("1080p", "4K"):
            a, b = fps.get((row, size)), fps.get((against, size))
            if a is None and b is not None and note:
                cell = note
            elif a is None or b is None:
                cell = PENDING
            elif a <= 0 or b <= 0:
                cell = "failed"
            else:
                cell = "%.0f against %.0f frames/s: %.2f× %s" % (
                    a, b, a / b, mark(a / b >= least))
            cells.append(cell)
        out.append("| %s (`\"%s\"`) | %s | %s |" % (what, only, cells[0],
                                                cells[1]))

    ops = {(r["op"], r["size"]): r for r in kernels if r["section"] == "op"}
    out += ["", "`cip_gray` for every layout it reads (`bench-kernels --only "
            "\"cip_gray\"`; `\" to GRAY\"` for these rows alone): "
            "random bytes in the layout, µs a call (CUDA events, median), "
            "GB/s of the bytes read and written, and NPP's call for the "
            "layout on the same stream where NPP has one (RGBToGray_8u "
            "AC4C1R or C3C1R, ColorToGray_8u with BT.601 weights for the "
            "others; none for the two-byte luma layouts). Targets: ≥ "
            "%.1f× NPP at 1080p and 4K, ≥ %.1f TB/s at 1080p." % (
                GRAY_NPP_SPEEDUP, GRAY_GBPS_1080P / 1000), "",
            "| layout (GStreamer formats) | out | 1080p µs | 1080p GB/s | "
            "1080p NPP / ours | 4K µs | 4K GB/s | 4K NPP / ours |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    for layout, dst in GRAY_LAYOUTS:
        name = "cip_gray %s to %s" % (layout, dst)
        cells = []
        for size in ("1080p", "4K"):
            r = ops.get((name, size))
            if r is None:
                cells += [PENDING, "", ""]
                continue
            gbps = fnum(r["gbps"])
            speedup = fnum(r["speedup"])
            cells += ["%.1f" % fnum(r["median_us"]),
                      "%.0f%s" % (gbps, " " + mark(gbps >= GRAY_GBPS_1080P)
                                  if size == "1080p" else ""),
                      "%.2f× %s" % (speedup, mark(
                          speedup >= GRAY_NPP_SPEEDUP))
                      if speedup else "–"]
        sources = GRAY_LAYOUT_SOURCES.get(layout)
        out.append("| %s | %s | %s |" % (
            "%s (%s)" % (layout, sources) if sources else layout, dst,
            " | ".join(cells)))
    return out


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    pixels = {"1080p": 1920 * 1080, "4K": 3840 * 2160}
    series = {}
    for r in rows:
        if r["size"] not in pixels:
            continue
        series.setdefault((r["case"], r["source"]), []).append(
            (pixels[r["size"]] / 1e6, fnum(r["fps"])))
    fig, ax = plt.subplots(figsize=(12, 6.5))
    colours = plt.get_cmap("tab20").colors
    styles = ["-", "--", ":", "-."]
    for n, ((case, source), points) in enumerate(sorted(series.items())):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points],
                marker="os^vD"[n % 5], linestyle=styles[n % 4],
                color=colours[n % len(colours)],
                label="%s (%s)" % (case, source))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.minorticks_off()
    ax.set_xticks([pixels["1080p"] / 1e6, pixels["4K"] / 1e6])
    ax.set_xticklabels(["1080p (2.1 MP)", "4K (8.3 MP)"])
    ax.set_xlim(pixels["1080p"] / 1e6 / 1.3, pixels["4K"] / 1e6 * 1.3)
    ax.set_xlabel("frame size")
    ax.set_ylabel("frames per second (log)")
    ax.set_title("Frames per second against resolution, H100")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "docs/performance"
    device = {}
    with open(os.path.join(folder, "device.txt")) as f:
        for line in f:
            if ":" in line:
                key, value = line.split(":", 1)
                device[key.strip()] = value.strip()
    kernels = read_csv(os.path.join(folder, "kernels.csv"))
    elements = read_csv(os.path.join(folder, "elements.csv"))
    with open(os.path.join(folder, "analysis.md")) as f:
        analysis = f.read().strip()

    out = ["# Performance", "",
           "Measured by the project's benchmarks (`tests/bench/`) on %s, "
           "driver %s, %s, GStreamer %s, on %s%s. "
           "Regenerate with `tests/bench/run-benchmarks.sh`." % (
               device.get("device"), device.get("driver"),
               device.get("cuda"), device.get("gstreamer"),
               device.get("date"),
               "; the kernel and NPP rows on %s" % device["kernels"]
               if "kernels" in device else ""), "", analysis, ""]
    out += camera_tables(elements, kernels) + [""]
    # without matplotlib here, the plot a run drew before stays
    if (plot(elements, os.path.join(folder, "fps.png")) or
            os.path.exists(os.path.join(folder, "fps.png"))):
        out += ["![frames per second against resolution](fps.png)", ""]
    out += element_table(elements) + [""] + kernel_tables(kernels) + [""]
    raw = ["[elements.csv](elements.csv)", "[kernels.csv](kernels.csv)"]
    chains_path = os.path.join(folder, "chains.csv")
    if os.path.exists(chains_path):
        chains = read_csv(chains_path)
        out += chain_tables(chains) + [""]
        raw.append("[chains.csv](chains.csv)")
        streams_path = os.path.join(folder, "streams.csv")
        if os.path.exists(streams_path):
            out += stream_table(read_csv(streams_path),
                                chain_limits(chains)) + [""]
            if os.path.exists(os.path.join(folder, "streams.png")):
                out += ["![frames/s against the number of pipelines]"
                        "(streams.png)", ""]
            raw.append("[streams.csv](streams.csv)")
    out += ["Raw numbers: %s." % ", ".join(raw), ""]
    with open(os.path.join(folder, "README.md"), "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
