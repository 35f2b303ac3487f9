#!/usr/bin/env python3
"""The report generator on the committed benchmark files: writes the
report into a scratch folder and checks what it derives from them (the
limits of each many-streams row, the sections, one table row per CSV
row).

    tests/bench/test-report.py PERFORMANCE_DIR"""

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402


def check(condition, what):
    if not condition:
        print("FAIL: " + what)
        sys.exit(1)


def main():
    source = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        for name in os.listdir(source):
            if name.endswith((".csv", ".txt", ".md")) and name != "README.md":
                shutil.copy(os.path.join(source, name), folder)
        sys.argv = ["report.py", folder]
        report.main()
        with open(os.path.join(folder, "README.md")) as f:
            text = f.read()

        chains = report.read_csv(os.path.join(folder, "chains.csv"))
        streams = report.read_csv(os.path.join(folder, "streams.csv"))
        limits = report.chain_limits(chains)

        # each limit is the frames/s of its row's median time
        floors = {r["op"]: r for r in chains if r["section"] == "floor"}
        four = floors["1080p frames, RGBA up and GRAY8 down, 4 pipelines "
                      "overlapped"]
        check(abs(limits[("pinned", 4)][1] -
                  1e6 / float(four["median_us"])) < 1e-6,
              "the page-locked limit of 4 pipelines is their copies' rate")
        chain = [r for r in chains if r["section"] == "chain" and
                 r["op"] == report.STREAM_CHAIN and r["size"] == "1080p"][0]
        check(abs(limits[("cuda", 0)][1] -
                  1e6 / float(chain["median_us"])) < 1e-6,
              "the CUDA-memory limit is the chain's kernels' rate")
        check(report.limit_for(limits, "cuda", "8") == limits[("cuda", 0)],
              "any number of CUDA-memory pipelines has the chain's limit")
        check(report.limit_for(limits, "h264", "4") is None,
              "the decoder's rows have no limit")

        for heading in ("# Performance", "## Where it stands", "## Elements",
                        "## Camera formats",
                        "## Floors and GPU-time limits", "## Many streams"):
            check(heading in text, "the report has " + heading)
        # a row's first cell: its source, ", N GPUs" when spread
        sources = {r["source"] for r in streams}
        rows = [line for line in text.splitlines()
                if line.startswith("| ") and
                line.split("|")[1].strip().split(", ")[0] in sources and
                line.split("|")[2].strip().isdigit()]
        check(len(rows) == len(streams), "a many-streams row per CSV row")
        for r, line in zip(streams, rows):
            fps = float(r["fps"])
            spread = r["case"].endswith(" GPUs")
            check(line.split("|")[6].strip() == "%.1f" % (1e6 / fps),
                  "row %s ×%s: the GPU's time a frame is 1 s over its "
                  "frames/s" % (r["source"], r["streams"]))
            # imagefreeze's one frame is page-locked from its second copy
            frozen = r["case"].startswith("imagefreeze")
            limit = report.limit_for(limits, "pinned" if frozen else
                                     r["source"], r["streams"])
            if limit and not spread:
                check(line.endswith("| %.0f%% of %s (%.0f) |" % (
                    100 * fps / limit[1], limit[0], limit[1])),
                    "row %s ×%s set against its limit" % (r["source"],
                                                          r["streams"]))
            else:
                check(line.endswith("|  |"), "row %s ×%s has no limit" % (
                    r["source"], r["streams"]))
        check_camera_formats(folder, text)
    print("report: %d many-streams rows, %d limits" % (len(streams),
                                                        len(limits)))


def check_camera_formats(folder, text):
    """The camera formats' targets: a figure per row of the CSV files that
    holds it, the placeholder where none does."""
    elements = report.read_csv(os.path.join(folder, "elements.csv"))
    kernels = report.read_csv(os.path.join(folder, "kernels.csv"))
    cases = {r["case"] for r in elements}
    ops = {r["op"] for r in kernels}
    for _, _, row, against, _, _ in report.CAMERA_ELEMENT_TARGETS:
        if row not in cases or against not in cases:
            check(report.PENDING in text, "%s: the placeholder" % row)
    for layout, dst in report.GRAY_LAYOUTS:
        if "cip_gray %s to %s" % (layout, dst) not in ops:
            check(report.PENDING in text, "%s: the placeholder" % layout)

    # Made-up rows (not measurements): each ratio is the row's frames/s
    # over its partner's, marked against the target.
    fps = {"cudagray, YUY2 page-locked in, CUDA memory out": 3000.0,
           "cudagray, RGBA page-locked in, CUDA memory out": 2500.0,
           "cudagray, YUY2 pageable": 2000.0,
           "videoconvert ! cudagray, YUY2 pageable": 100.0,
           "cudaequalize ! cudaotsu, GRAY8, CUDA memory": 20000.0}
    rows = [{"case": case, "size": size, "fps": str(value)}
            for case, value in fps.items() for size in ("1080p", "4K")]
    kernel_rows = [{"section": "op", "op": "cip_gray YUYV to GRAY8",
                    "size": "1080p", "median_us": "4.0", "gbps": "1555.2",
                    "speedup": ""},
                   {"section": "op", "op": "cip_gray RGBA to GRAY8",
                    "size": "4K", "median_us": "12.0", "gbps": "3456.0",
                    "speedup": "1.500"}]
    lines = report.camera_tables(rows, kernel_rows)
    table = "\n".join(lines)
    check("3000 against 2500 frames/s: 1.20× ✗" in table,
          "YUY2 page-locked against RGBA: 1.20×, under 1.5×")
    check("2000 against 100 frames/s: 20.00× ✓" in table,
          "YUY2 pageable against videoconvert: 20×, over 10×")
    check("n/a until cudaequalize and cudaotsu take GRAY16_LE" in table,
          "the GRAY16 chain, not run beside a GRAY8 one that ran: n/a")
    yuyv = [line for line in lines if line.startswith("| YUYV")][0]
    check("| 4.0 | 1555 ✗ | – |" in yuyv,
          "YUYV at 1080p: µs, GB/s under 1.7 TB/s, no NPP peer")
    rgba = [line for line in lines if line.startswith("| RGBA")][0]
    check(rgba.endswith("| 12.0 | 3456 | 1.50× ✓ |"),
          "RGBA at 4K: µs, GB/s without a target, 1.5× NPP")


if __name__ == "__main__":
    main()
