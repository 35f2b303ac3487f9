#!/usr/bin/python3
"""cudaotsu's threshold over a flickering clip, per frame and smoothed.

A live camera's frames flicker: mains-powered light, auto exposure, sensor
noise.  Otsu's threshold, computed per frame, follows the flicker and the
mask boils at the edges of every object.  cudaotsu's temporal-smoothing
carries the histogram over from frame to frame (each bin s x previous +
(1 - s) x this frame's count) and the threshold settles.

This makes a clip of cells (bright discs drifting on a darker, uneven
background) under flickering light with sensor noise, runs it through
cudaotsu post-messages=true with temporal-smoothing 0 and with S, and
prints each frame's two thresholds; with --svg FILE it also draws them
(a plain SVG, no plotting library needed).

Usage:
    examples/temporal-smoothing.py [--frames N] [--smoothing S] [--svg FILE]

Needs the plugin on GST_PLUGIN_PATH, and numpy.  The elements run on the
GPU where there is one and on the CPU otherwise (backend=auto): the
thresholds are the same.
"""

import argparse
import sys

import gi
import numpy as np

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

WIDTH, HEIGHT = 320, 240


def make_clip(n, seed=7):
    """n GRAY8 frames: discs drifting on an uneven background, the light
    flickering by up to 20% and noise of sigma 6 on every pixel."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH]
    background = 60 + 30 * xx / WIDTH + 10 * np.sin(yy / 17.0)
    centres = rng.uniform([20, 20], [WIDTH - 20, HEIGHT - 20], (14, 2))
    radii = rng.uniform(8, 18, 14)
    drift = rng.normal(0, 0.7, (14, 2))
    frames = []
    for i in range(n):
        scene = background.copy()
        for (cx, cy), r, (dx, dy) in zip(centres, radii, drift):
            cx, cy = cx + dx * i, cy + dy * i
            scene[(xx - cx) ** 2 + (yy - cy) ** 2 <= r * r] = 170
        light = 1.0 + 0.12 * np.sin(i * 2.1) + rng.uniform(-0.08, 0.08)
        frame = scene * light + rng.normal(0, 6, scene.shape)
        frames.append(np.clip(np.rint(frame), 0, 255).astype(np.uint8))
    return frames


def thresholds(frames, smoothing):
    """Each frame's threshold from cudaotsu's messages, in frame order."""
    pipeline = Gst.parse_launch(
        "appsrc name=src format=time ! "
        f"video/x-raw,format=GRAY8,width={WIDTH},height={HEIGHT},"
        "framerate=30/1 ! "
        f"cudaotsu post-messages=true temporal-smoothing={smoothing} ! "
        "fakesink")
    src = pipeline.get_by_name("src")
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    for i, frame in enumerate(frames):
        buf = Gst.Buffer.new_wrapped(frame.tobytes())
        buf.pts = i * Gst.SECOND // 30
        buf.duration = Gst.SECOND // 30
        src.emit("push-buffer", buf)
    src.emit("end-of-stream")
    found = []
    while True:
        msg = bus.timed_pop_filtered(
            10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR |
            Gst.MessageType.ELEMENT)
        if msg is None:
            sys.exit("error: no end of stream after 10 s")
        if msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            sys.exit(f"error: {err.message} ({debug})")
        if msg.type == Gst.MessageType.EOS:
            break
        s = msg.get_structure()
        if s is not None and s.get_name() == "cudaotsu":
            found.append(s.get_value("threshold"))
    pipeline.set_state(Gst.State.NULL)
    if len(found) != len(frames):
        sys.exit(f"error: {len(found)} thresholds for {len(frames)} frames")
    return found


def svg(per_frame, smoothed, smoothing):
    """The two series as a line chart."""
    w, h, left, bottom, top = 640, 300, 50, 40, 20
    lo = min(per_frame + smoothed) - 4
    hi = max(per_frame + smoothed) + 4
    n = len(per_frame)

    def x(i):
        return left + (w - left - 20) * i / max(1, n - 1)

    def y(v):
        return top + (h - top - bottom) * (hi - v) / (hi - lo)

    def line(values, colour):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}"
                          for i, v in enumerate(values))
        return (f'<polyline fill="none" stroke="{colour}" '
                f'stroke-width="1.5" points="{points}"/>')

    ticks = []
    for v in range(int(lo) + (-int(lo)) % 5, int(hi) + 1, 5):
        ticks.append(f'<line x1="{left}" x2="{w - 20}" y1="{y(v):.1f}" '
                     f'y2="{y(v):.1f}" stroke="#ddd"/>'
                     f'<text x="{left - 6}" y="{y(v) + 4:.1f}" '
                     f'text-anchor="end">{v}</text>')
    for i in range(0, n, max(1, n // 6)):
        ticks.append(f'<text x="{x(i):.1f}" y="{h - bottom + 16}" '
                     f'text-anchor="middle">{i}</text>')
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        'font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        *ticks,
        line(per_frame, "#d62728"),
        line(smoothed, "#1f77b4"),
        f'<text x="{left}" y="{top - 6}">cudaotsu threshold per frame: '
        '<tspan fill="#d62728">temporal-smoothing=0</tspan>, '
        f'<tspan fill="#1f77b4">temporal-smoothing={smoothing}</tspan>'
        '</text>',
        f'<text x="{(w + left) / 2}" y="{h - 6}" '
        'text-anchor="middle">frame</text>',
        '</svg>', ""])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=150)
    parser.add_argument("--smoothing", type=float, default=0.9)
    parser.add_argument("--svg", help="write the chart to this file")
    args = parser.parse_args()
    if args.frames < 2 or not 0 < args.smoothing < 1:
        sys.exit("error: --frames is at least 2, --smoothing in (0, 1)")

    Gst.init(None)
    if Gst.ElementFactory.find("cudaotsu") is None:
        sys.exit("error: no cudaotsu element: set GST_PLUGIN_PATH to the "
                 "build's ext folder")
    frames = make_clip(args.frames)
    per_frame = thresholds(frames, 0)
    smoothed = thresholds(frames, args.smoothing)
    print(f"frame,threshold,threshold smoothed {args.smoothing}")
    for i, (a, b) in enumerate(zip(per_frame, smoothed)):
        print(f"{i},{a},{b}")

    def spread(values):
        steps = np.abs(np.diff(values))
        return float(steps.mean()), int(steps.max())

    (m0, x0), (m1, x1) = spread(per_frame), spread(smoothed)
    print(f"# frame-to-frame change: mean {m0:.2f}, largest {x0} per frame; "
          f"mean {m1:.2f}, largest {x1} smoothed", file=sys.stderr)
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(svg(per_frame, smoothed, args.smoothing))


if __name__ == "__main__":
    main()
