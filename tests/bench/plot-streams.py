#!/usr/bin/env python3
"""Plots the multi-stream benchmark: frames/s of all streams against their
number, one line per source.

    tests/bench/plot-streams.py STREAMS_CSV PNG

STREAMS_CSV is what bench-elements --streams ... --csv writes."""

import csv
import sys


def main():
    source, target = sys.argv[1], sys.argv[2]
    series = {}
    with open(source, newline="") as f:
        for r in csv.DictReader(f):
            fps = float(r["fps"])
            if fps > 0:
                series.setdefault((r["case"], r["source"]), []).append(
                    (int(r["streams"]), fps))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(10, 5.5))
    for n, ((case, src), points) in enumerate(sorted(series.items())):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points],
                marker="os^vD"[n % 5], label="%s (%s)" % (case, src))
    counts = sorted({p[0] for points in series.values() for p in points})
    ax.set_xscale("log", base=2)
    ax.set_xticks(counts)
    ax.set_xticklabels([str(c) for c in counts])
    ax.set_xlabel("pipelines in one process")
    ax.set_ylabel("frames per second, all pipelines")
    ax.set_title("1080p frames/s against the number of pipelines, H100")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(target, dpi=110)


if __name__ == "__main__":
    main()
