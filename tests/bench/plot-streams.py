#!/usr/bin/env python3
"""Plots the multi-stream benchmark: frames/s of all streams against their
number, one line per source, and with CHAINS_CSV (bench-kernels --chains
--csv) each source's limit as a dashed line of its colour (one GPU's: rows
spread over several GPUs, "..., 2 GPUs", get none).

    tests/bench/plot-streams.py STREAMS_CSV PNG [CHAINS_CSV]

STREAMS_CSV is what bench-elements --streams ... --csv writes."""

import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import chain_limits, read_csv  # noqa: E402


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
    limits = chain_limits(read_csv(sys.argv[3])) if len(sys.argv) > 3 else {}
    fig, ax = plt.subplots(figsize=(10, 7))
    for n, ((case, src), points) in enumerate(sorted(series.items())):
        points.sort()
        line, = ax.plot([p[0] for p in points], [p[1] for p in points],
                        marker="os^vD"[n % 5],
                        label="%s (%s)" % (case, src))
        # the floors and limits are one GPU's: none for rows spread over
        # several
        bounds = sorted((count, fps, what) for (source, count), (what, fps)
                        in limits.items()
                        if source == src and "GPUs" not in case)
        if bounds and bounds[0][0] == 0:
            ax.axhline(bounds[0][1], linestyle="--", linewidth=1,
                       color=line.get_color(),
                       label="%s: %s" % (src, bounds[0][2]))
        elif bounds:
            ax.plot([b[0] for b in bounds], [b[1] for b in bounds],
                    linestyle="--", linewidth=1, color=line.get_color(),
                    label="%s: the copies' floor" % src)
    counts = sorted({p[0] for points in series.values() for p in points})
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(counts)
    ax.set_xticklabels([str(c) for c in counts])
    ax.set_xlabel("pipelines in one process")
    ax.set_ylabel("frames per second, all pipelines (log)")
    ax.set_title("1080p frames/s against the number of pipelines, H100")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14),
              ncol=2)
    fig.tight_layout()
    fig.savefig(target, dpi=110)


if __name__ == "__main__":
    main()
