#!/usr/bin/python3
"""Tracks of cells in a synthetic time-lapse, as a CSV that pandas groups.

Makes a short time-lapse of bright cells drifting over a dark, noisy
background (numpy; one cell divides half way, one drifts out of the frame
and one drifts in), feeds it to a GStreamer pipeline as GRAY8 frames:

    appsrc ! cudablur ! cudaotsu ! cudalabel track=true ! appsink

and reads the region table each frame carries (the CudaImgprocRegions
meta, as examples/regionprops.py does), whose `track_id` column gives each
cell the id it had on the frame before: a cell keeps its id while it
moves, a daughter cell takes a new one when it parts from its mother
(docs/regionprops.md, "Tracks").  Writes one row a cell and frame:

    frame,timestamp,track_id,label,area,centroid-0,centroid-1,intensity_mean

then groups the rows by track_id with pandas and prints a line a track
(its first and last frame, frames seen, mean area, distance travelled) on
stderr, or with --summary into a CSV of its own.

Usage:
    examples/timelapse.py [--backend auto|cuda|cpu] [--frames N]
        [--cells N] [--size WxH] [--seed S] [--summary SUMMARY.csv]
        [OUTPUT.csv]

Writes the CSV to OUTPUT.csv (only when the run succeeds) or prints it.
Needs PyGObject with GStreamer's introspection data, numpy and pandas
(Debian: python3-gi, gir1.2-gstreamer-1.0, python3-pandas) and the plugin
on GST_PLUGIN_PATH.  backend=auto runs on the GPU where a usable CUDA
device is there and on the CPU otherwise, with the same tracks.
"""

import argparse
import math
import os
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from regionprops import open_output, table_to_dataframe  # noqa: E402

PROPERTIES = "label,area,centroid,intensity_mean"
ELEMENTS = {
    "appsrc": "gst-plugins-base (Debian: gstreamer1.0-plugins-base)",
    "appsink": "gst-plugins-base (Debian: gstreamer1.0-plugins-base)",
}
for _name in ("cudablur", "cudaotsu", "cudalabel"):
    ELEMENTS[_name] = ("the cudaimgproc plugin: build it and put its "
                       "directory on GST_PLUGIN_PATH")
FRAMERATE = 10


class Cell:
    """A disc that drifts at a steady velocity (until it reaches @stop_y,
    if set)."""

    def __init__(self, x, y, vx, vy, radius, brightness, stop_y=None):
        self.x, self.y, self.vx, self.vy = x, y, vx, vy
        self.radius, self.brightness, self.stop_y = radius, brightness, stop_y

    def step(self):
        self.x += self.vx
        self.y += self.vy
        if self.stop_y is not None and (self.vy < 0) == (self.y < self.stop_y):
            self.y, self.vx, self.vy = self.stop_y, 0.0, 0.0


def make_timelapse(args):
    """The frames: cells on a jittered grid, each drifting in its own
    direction within its own square of the grid, so that none touches
    another; the first divides half way (mother and daughter part, and the
    region splits once they no longer touch); the last leaves through the
    bottom edge and, a third of the way in, a new one comes in through it
    to take its square."""
    rng = np.random.default_rng(args.seed)
    width, height = args.size
    columns = max(1, math.ceil(math.sqrt(args.cells * width / height)))
    rows = max(1, math.ceil(args.cells / columns))
    dx, dy = width / columns, height / rows
    radius = 0.15 * min(dx, dy)
    # how far a cell may go from its square's centre, jitter included
    room = 0.5 * min(dx, dy) - 1.2 * radius - 0.05 * max(dx, dy) - 2
    cells = []
    for i in range(args.cells):
        angle = rng.uniform(0, 2 * math.pi)
        speed = rng.uniform(0.3, 1.0) * room / args.frames
        cells.append(Cell((i % columns + 0.5 + rng.uniform(-0.05, 0.05)) * dx,
                          (i // columns + 0.5 + rng.uniform(-0.05, 0.05)) * dy,
                          speed * math.cos(angle), speed * math.sin(angle),
                          radius * rng.uniform(0.85, 1.15),
                          rng.uniform(150, 220)))
    leaving = cells[-1]
    slot_y = leaving.y
    leaving.vx, leaving.vy = 0.0, (height - slot_y + 2 * radius) / (
        args.frames / 4)
    frames = []
    for f in range(args.frames):
        if f == args.frames // 2:
            mother = cells[0]
            angle = rng.uniform(0, 2 * math.pi)
            part = room / (args.frames - f)
            mother.radius *= 0.8
            daughter = Cell(mother.x, mother.y, part * math.cos(angle),
                            part * math.sin(angle), mother.radius,
                            mother.brightness)
            mother.vx, mother.vy = -daughter.vx, -daughter.vy
            cells.append(daughter)
        if f == args.frames // 3:
            cells.append(Cell(leaving.x, height + radius, 0.0,
                              -(height + radius - slot_y) / (args.frames / 4),
                              radius, 190.0, stop_y=slot_y))
        frames.append(render(cells, width, height, rng))
        for c in cells:
            c.step()
    return frames


def render(cells, width, height, rng):
    """A GRAY8 frame: each cell a disc with a soft edge, over noise."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    frame = rng.normal(30, 8, (height, width)).astype(np.float32)
    for c in cells:
        d = np.sqrt((xx - c.x) ** 2 + (yy - c.y) ** 2)
        frame += c.brightness * np.clip(c.radius + 0.5 - d, 0, 1)
    return np.clip(frame, 0, 255).astype(np.uint8)


def check_elements():
    for name, where in ELEMENTS.items():
        if Gst.ElementFactory.find(name) is None:
            sys.exit(f"error: no {name} element here (it comes from {where})")


def run(args, frames):
    """The tracks of @frames, a DataFrame of one row a region and frame."""
    Gst.init(None)
    check_elements()
    width, height = args.size
    b = f"backend={args.backend}"
    launch = (
        "appsrc name=src format=time "
        f"caps=video/x-raw,format=GRAY8,width={width},height={height},"
        f"framerate={FRAMERATE}/1 ! "
        f"cudablur {b} sigma=1.5 ! cudaotsu {b} ! "
        f"cudalabel name=label {b} track=true mode=passthrough "
        f"properties={PROPERTIES} min-area=20 ! "
        "appsink name=sink sync=false")
    try:
        pipeline = Gst.parse_launch(launch)
    except GLib.Error as e:
        sys.exit(f"error: {e.message}")
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")
    bus = pipeline.get_bus()
    duration = Gst.SECOND // FRAMERATE
    tables, told = [], False

    def handle(msg):
        nonlocal told
        if msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            sys.exit(f"error: {err.message} ({debug})")
        if msg.type == Gst.MessageType.WARNING:
            err, _ = msg.parse_warning()
            # backend=auto without a usable CUDA device: told once
            if err.matches(Gst.ResourceError.quark(),
                           Gst.ResourceError.NOT_FOUND):
                if not told:
                    print(f"note: {err.message}", file=sys.stderr)
                told = True
            else:
                print(f"warning: {err.message}", file=sys.stderr)

    pipeline.set_state(Gst.State.PLAYING)
    try:
        # appsrc queues them all: a short clip
        for i, frame in enumerate(frames):
            buffer = Gst.Buffer.new_wrapped(frame.tobytes())
            buffer.pts = i * duration
            buffer.duration = duration
            src.emit("push-buffer", buffer)
        src.emit("end-of-stream")
        while True:
            while (msg := bus.pop()) is not None:
                handle(msg)
            sample = sink.emit("try-pull-sample", 100 * Gst.MSECOND)
            if sample is None:
                if sink.get_property("eos"):
                    break
                continue
            buffer = sample.get_buffer()
            meta = buffer.get_custom_meta("CudaImgprocRegions")
            if meta is None:
                sys.exit("error: a frame without its region table")
            table = table_to_dataframe(meta.get_structure())
            if "track_id" not in table:
                sys.exit("error: cudalabel gave no track_id column")
            table.insert(0, "timestamp", buffer.pts / Gst.SECOND)
            table.insert(0, "frame", len(tables))
            tables.append(table)
        while (msg := bus.pop()) is not None:
            handle(msg)
    finally:
        pipeline.set_state(Gst.State.NULL)
    if len(tables) != len(frames):
        sys.exit(f"error: {len(tables)} frames out of {len(frames)}")
    rows = pd.concat(tables, ignore_index=True)
    first = ["frame", "timestamp", "track_id"]
    return rows[first + [c for c in rows.columns if c not in first]]


def summarize(rows):
    """A row a track: pandas' groupby on track_id."""
    rows = rows.sort_values(["track_id", "frame"])
    step = rows.groupby("track_id")[["centroid-0", "centroid-1"]].diff()
    rows = rows.assign(step=np.hypot(step["centroid-0"],
                                     step["centroid-1"]).fillna(0.0))
    return rows.groupby("track_id").agg(
        first_frame=("frame", "min"), last_frame=("frame", "max"),
        frames=("frame", "count"), mean_area=("area", "mean"),
        distance=("step", "sum")).reset_index()


def write_csv(table, path):
    if not path:
        print(table.to_csv(index=False), end="")
        return
    out, tmp = open_output(path)
    try:
        with out:
            table.to_csv(out, index=False)
        os.replace(tmp, path)
    finally:
        out.close()
        if os.path.exists(tmp):
            os.unlink(tmp)


def parse_size(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text}: WIDTHxHEIGHT")
    if not (32 <= w <= 4096 and 32 <= h <= 4096):
        raise argparse.ArgumentTypeError(f"{text}: 32 to 4096 a side")
    return w, h


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="auto",
                        choices=("auto", "cuda", "cpu"))
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--cells", type=int, default=12)
    parser.add_argument("--size", type=parse_size, default=(320, 240))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--summary")
    parser.add_argument("output", nargs="?")
    args = parser.parse_args()
    if not 2 <= args.frames <= 10000:
        sys.exit("error: --frames: from 2 to 10000")
    if not 2 <= args.cells <= 1000:
        sys.exit("error: --cells: from 2 to 1000")

    rows = run(args, make_timelapse(args))
    summary = summarize(rows)
    write_csv(rows, args.output)
    if args.summary:
        write_csv(summary, args.summary)
    else:
        print(summary.to_string(index=False, float_format="%.1f"),
              file=sys.stderr)


if __name__ == "__main__":
    main()
