#!/usr/bin/python3
"""Region tables of the segmentation workflow as pandas DataFrames.

Runs scikit-image's classic recipe, gray -> gaussian -> threshold_otsu ->
binary_erosion(disk(2)) -> label -> regionprops_table, as one GStreamer
pipeline (cudagray ! cudablur ! cudaotsu ! cudamorph ! cudalabel) on an
image or a clip, and turns the table each frame carries into a DataFrame.
The table rides on the frame as a GstCustomMeta, CudaImgprocRegions, read
here from the frames an appsink takes: its structure has one field a
column, named as regionprops_table names it, each little-endian float64,
so a column is numpy.frombuffer of the field with no parsing.  With
--from messages the same table comes from cudalabel's element messages
(post-messages=true) instead: their `regionprops` field, the same
structure, which arrives on the bus, another thread, after the frame.

Usage:
    examples/regionprops.py [--backend auto|cuda|cpu] [--properties NAMES]
        [--sigma S] [--radius R] [--from frames|messages] INPUT [OUTPUT.csv]

Prints the CSV (one row a region, with the frame's index and timestamp)
or writes it to OUTPUT.csv, only when the run succeeds (an OUTPUT.csv it
cannot write is refused before the pipeline runs; a failed run leaves an
earlier one as it was).  backend=auto, the elements' default, runs on the
GPU where a usable CUDA device is there and on the CPU otherwise (the
same table), and says so.  NAMES are read as cudalabel reads its
`properties`: comma-separated, blanks around a name and empty names
ignored, each name once.  Needs PyGObject with GStreamer's
introspection data, numpy and pandas (Debian: python3-gi,
gir1.2-gstreamer-1.0, python3-pandas); the plugin on GST_PLUGIN_PATH.
"""

import argparse
import os
import sys
import tempfile

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

DEFAULT_PROPERTIES = ("label,area,bbox,centroid,intensity_mean,perimeter,"
                      "eccentricity,euler_number")
# Columns regionprops_table gives as integers (the message carries every
# column as float64).
# The names cudalabel's `properties` knows (its documentation, and
# docs/regionprops.md); those this build of the element takes are asked of
# it.
REGION_PROPERTIES = (
    "label", "area", "area_bbox", "axis_major_length", "axis_minor_length",
    "bbox", "centroid", "eccentricity", "equivalent_diameter_area", "extent",
    "intensity_max", "intensity_mean", "intensity_min", "orientation",
    "perimeter", "euler_number", "area_convex", "area_filled",
    "feret_diameter_max", "solidity")
# The elements of the pipeline, and where each comes from.
ELEMENTS = {
    "filesrc": "GStreamer's core elements",
    "decodebin": "gst-plugins-base (Debian: gstreamer1.0-plugins-base)",
    "videoconvert": "gst-plugins-base (Debian: gstreamer1.0-plugins-base)",
    "fakesink": "GStreamer's core elements",
}
for _name in ("cudagray", "cudablur", "cudaotsu", "cudamorph", "cudalabel"):
    ELEMENTS[_name] = ("the cudaimgproc plugin: build it and put its "
                       "directory on GST_PLUGIN_PATH")
INTEGER_COLUMNS = ("label", "area", "area_bbox", "area_convex", "area_filled",
                   "euler_number", "bbox-0", "bbox-1", "bbox-2", "bbox-3",
                   "track_id")


def table_to_dataframe(table):
    """A region table (the frame's CudaImgprocRegions meta, or a message's
    `regionprops`) as a DataFrame, a column a field."""
    columns = {}
    for i in range(table.n_fields()):
        name = table.nth_field_name(i)
        values = np.frombuffer(table.get_value(name).get_data(), dtype="<f8")
        columns[name] = (values.astype("int64") if name in INTEGER_COLUMNS
                         else values)
    return pd.DataFrame(columns)


def set_checked(element, name, value):
    """Sets a property, refusing a value outside its range (a launch line
    would only warn and keep the default)."""
    spec = element.find_property(name)
    if hasattr(spec, "minimum") and not spec.minimum <= value <= spec.maximum:
        sys.exit(f"error: --{name}={value}: from {spec.minimum:g} to "
                 f"{spec.maximum:g}")
    element.set_property(name, value)


def check_elements():
    """Names the element really missing, before any pipeline is built."""
    for name, where in ELEMENTS.items():
        if Gst.ElementFactory.find(name) is None:
            sys.exit(f"error: no {name} element here (it comes from {where})")


def parse_properties(text, label):
    """`text` as cudalabel's `properties` reads it: the names, split at
    commas, blanks around each and empty ones ignored, each once.  An
    unknown or repeated name is refused with the names the element
    takes."""
    names = [t.strip(" \t\n\v\f\r") for t in text.split(",")]
    names = [n for n in names if n]
    known = []
    for name in REGION_PROPERTIES:
        label.set_property("properties", name)
        if label.get_property("properties") == name:
            known.append(name)
    for i, name in enumerate(names):
        if name not in known:
            sys.exit(f"error: --properties: '{name}' is not a region "
                     f"property of cudalabel; it knows {', '.join(known)} "
                     "(docs/regionprops.md)")
        if name in names[:i]:
            sys.exit(f"error: --properties: '{name}' is named twice")
    if not names:
        sys.exit("error: --properties: name one property at least, of "
                 f"{', '.join(known)}")
    return ",".join(names)


def build_pipeline(args):
    check_elements()
    launch = (
        "filesrc name=src ! decodebin ! "
        "videoconvert ! video/x-raw,format=RGBA ! "
        f"cudagray backend={args.backend} ! "
        f"cudablur name=blur backend={args.backend} ! "
        f"cudaotsu backend={args.backend} ! "
        f"cudamorph name=morph backend={args.backend} operation=erode "
        "shape=disk ! "
        f"cudalabel name=label backend={args.backend} mode=passthrough "
        + ("post-messages=true ! fakesink" if args.source == "messages"
           else "! appsink name=sink sync=false max-buffers=8"))
    try:
        pipeline = Gst.parse_launch(launch)
    except GLib.Error as e:
        sys.exit(f"error: {e.message}")
    pipeline.get_by_name("src").set_property("location", args.input)
    set_checked(pipeline.get_by_name("blur"), "sigma", args.sigma)
    set_checked(pipeline.get_by_name("morph"), "radius", args.radius)
    # The element keeps its value when a name is unknown: checked first.
    label = pipeline.get_by_name("label")
    wanted = parse_properties(args.properties, label)
    label.set_property("properties", wanted)
    if label.get_property("properties") != wanted:
        sys.exit(f"error: --properties={args.properties}: cudalabel "
                 "refused it")
    return pipeline


def open_output(path):
    """A temporary file next to `path`, to be moved onto it on success;
    exits when `path` cannot be written."""
    if os.path.isdir(path):
        sys.exit(f"error: {path}: a directory; give the CSV file to write")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        sys.exit(f"error: {path}: not writable")
    directory = os.path.dirname(path) or "."
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix="." +
                                   os.path.basename(path) + ".")
    except OSError as e:
        sys.exit(f"error: {path}: cannot be written ({e.strerror})")
    # mkstemp's 0600, made what a new file gets
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    return os.fdopen(fd, "w", newline=""), tmp


def add_frame(frames, table, pts):
    frame = table_to_dataframe(table)
    frame.insert(0, "timestamp", float("nan") if pts == Gst.CLOCK_TIME_NONE
                 else pts / Gst.SECOND)
    frame.insert(0, "frame", len(frames))
    frames.append(frame)


def handle_bus(msg, frames, state):
    """An error exits; the end of the stream returns True; with
    --from messages, cudalabel's message adds its frame."""
    if msg.type == Gst.MessageType.ERROR:
        err, debug = msg.parse_error()
        sys.exit(f"error: {err.message} ({debug})")
    if msg.type == Gst.MessageType.EOS:
        return True
    if msg.type == Gst.MessageType.WARNING:
        # backend=auto without a usable CUDA device: each element says it
        # runs on the CPU; told once.
        err, _ = msg.parse_warning()
        if err.matches(Gst.ResourceError.quark(), Gst.ResourceError.NOT_FOUND):
            if not state["told"]:
                print(f"note: {err.message}", file=sys.stderr)
            state["told"] = True
        else:
            print(f"warning: {err.message}", file=sys.stderr)
    s = msg.get_structure()
    if msg.type == Gst.MessageType.ELEMENT and s.has_name("cudalabel"):
        add_frame(frames, s.get_value("regionprops"), s.get_value("timestamp"))
    return False


def run(args):
    Gst.init(None)
    pipeline = build_pipeline(args)
    bus = pipeline.get_bus()
    sink = pipeline.get_by_name("sink")
    frames = []
    state = {"told": False}
    pipeline.set_state(Gst.State.PLAYING)
    try:
        ended = False
        while not ended:
            # in steps, so that Ctrl-C is seen while the stream is idle
            if sink is None:
                msg = bus.timed_pop(100 * Gst.MSECOND)
                ended = msg is not None and handle_bus(msg, frames, state)
                continue
            while (msg := bus.pop()) is not None:
                ended = handle_bus(msg, frames, state) or ended
            sample = sink.emit("try-pull-sample", 100 * Gst.MSECOND)
            if sample is not None:
                buffer = sample.get_buffer()
                meta = buffer.get_custom_meta("CudaImgprocRegions")
                if meta is None:
                    sys.exit("error: a frame without its region table")
                add_frame(frames, meta.get_structure(), buffer.pts)
            elif sink.get_property("eos"):
                ended = True
        # an error after the last frame still fails the run
        while (msg := bus.pop()) is not None:
            handle_bus(msg, frames, state)
    finally:
        pipeline.set_state(Gst.State.NULL)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="auto",
                        choices=("auto", "cuda", "cpu"))
    parser.add_argument("--properties", default=DEFAULT_PROPERTIES)
    parser.add_argument("--sigma", type=float, default=2.0)
    parser.add_argument("--radius", type=int, default=2)
    parser.add_argument("--from", dest="source", default="frames",
                        choices=("frames", "messages"))
    parser.add_argument("input")
    parser.add_argument("output", nargs="?")
    args = parser.parse_args()
    if not args.output:
        print(run(args).to_csv(index=False), end="")
        return
    out, tmp = open_output(args.output)
    try:
        table = run(args)
        with out:
            table.to_csv(out, index=False)
        os.replace(tmp, args.output)
    finally:
        # a failed run (sys.exit included) leaves an earlier file as it was
        out.close()
        if os.path.exists(tmp):
            os.unlink(tmp)


if __name__ == "__main__":
    main()
