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
                        "## Floors and GPU-time limits", "## Many streams"):
            check(heading in text, "the report has " + heading)
        rows = [line for line in text.splitlines()
                if line.startswith(("| cuda |", "| pinned |", "| pageable |",
                                    "| h264 |"))]
        check(len(rows) == len(streams), "a many-streams row per CSV row")
        for r, line in zip(streams, rows):
            fps = float(r["fps"])
            check(line.split("|")[6].strip() == "%.1f" % (1e6 / fps),
                  "row %s ×%s: the GPU's time a frame is 1 s over its "
                  "frames/s" % (r["source"], r["streams"]))
            limit = report.limit_for(limits, r["source"], r["streams"])
            if limit:
                check(line.endswith("| %.0f%% of %s (%.0f) |" % (
                    100 * fps / limit[1], limit[0], limit[1])),
                    "row %s ×%s set against its limit" % (r["source"],
                                                          r["streams"]))
            else:
                check(line.endswith("|  |"), "row %s ×%s has no limit" % (
                    r["source"], r["streams"]))
    print("report: %d many-streams rows, %d limits" % (len(streams),
                                                        len(limits)))


if __name__ == "__main__":
    main()
