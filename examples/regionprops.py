#!/usr/bin/python3
"""Region tables of the segmentation workflow as pandas DataFrames.

Runs scikit-image's classic recipe, gray -> gaussian -> threshold_otsu ->
binary_erosion(disk(2)) -> label -> regionprops_table, as one GStreamer
pipeline (cudagray ! cudablur ! cudaotsu ! cudamorph ! cudalabel) on an
image or a clip, and turns the table each frame carries into a DataFrame:
the `regionprops` structure of cudalabel's message has one field a column,
named as regionprops_table names it, each little-endian float64, so a
column is numpy.frombuffer of the field with no parsing.

Usage:
    examples/regionprops.py [--backend cuda|cpu] [--properties NAMES]
        [--sigma S] [--radius R] INPUT [OUTPUT.csv]

Prints the CSV (one row a region, with the frame's index and timestamp)
or writes it to OUTPUT.csv.  Needs PyGObject with GStreamer's
introspection data, numpy and pandas (Debian: python3-gi,
gir1.2-gstreamer-1.0, python3-pandas); the plugin on GST_PLUGIN_PATH.
"""

import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

DEFAULT_PROPERTIES = ("label,area,bbox,centroid,intensity_mean,perimeter,"
                      "eccentricity,euler_number")
# Columns regionprops_table gives as integers (the message carries every
# column as float64).
INTEGER_COLUMNS = ("label", "area", "area_bbox", "area_convex", "area_filled",
                   "euler_number", "bbox-0", "bbox-1", "bbox-2", "bbox-3")


def table_to_dataframe(table):
    """The `regionprops` structure as a DataFrame, a column a field."""
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


def build_pipeline(args):
    launch = (
        "filesrc name=src ! decodebin ! "
        "videoconvert ! video/x-raw,format=RGBA ! "
        f"cudagray backend={args.backend} ! "
        f"cudablur name=blur backend={args.backend} ! "
        f"cudaotsu backend={args.backend} ! "
        f"cudamorph name=morph backend={args.backend} operation=erode "
        "shape=disk ! "
        f"cudalabel name=label backend={args.backend} mode=passthrough "
        "post-messages=true ! fakesink")
    try:
        pipeline = Gst.parse_launch(launch)
    except GLib.Error as e:
        sys.exit(f"error: {e.message} (is the plugin on GST_PLUGIN_PATH?)")
    pipeline.get_by_name("src").set_property("location", args.input)
    set_checked(pipeline.get_by_name("blur"), "sigma", args.sigma)
    set_checked(pipeline.get_by_name("morph"), "radius", args.radius)
    # An unknown name leaves the property as it was.
    label = pipeline.get_by_name("label")
    wanted = "".join(args.properties.split())
    label.set_property("properties", wanted)
    if not wanted or label.get_property("properties") != wanted:
        sys.exit(f"error: --properties={args.properties}: names of "
                 "regionprops_table's properties, separated by commas "
                 "(docs/regionprops.md)")
    return pipeline


def run(args):
    Gst.init(None)
    pipeline = build_pipeline(args)
    bus = pipeline.get_bus()
    frames = []
    pipeline.set_state(Gst.State.PLAYING)
    try:
        while True:
            # in steps, so that Ctrl-C is seen while the stream is idle
            msg = bus.timed_pop(100 * Gst.MSECOND)
            if msg is None:
                continue
            if msg.type == Gst.MessageType.ERROR:
                err, debug = msg.parse_error()
                sys.exit(f"error: {err.message} ({debug})")
            if msg.type == Gst.MessageType.EOS:
                break
            s = msg.get_structure()
            if msg.type == Gst.MessageType.ELEMENT and s.has_name("cudalabel"):
                frame = table_to_dataframe(s.get_value("regionprops"))
                pts = s.get_value("timestamp")
                frame.insert(0, "timestamp", float("nan")
                             if pts == Gst.CLOCK_TIME_NONE
                             else pts / Gst.SECOND)
                frame.insert(0, "frame", len(frames))
                frames.append(frame)
    finally:
        pipeline.set_state(Gst.State.NULL)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="cuda", choices=("cuda", "cpu"))
    parser.add_argument("--properties", default=DEFAULT_PROPERTIES)
    parser.add_argument("--sigma", type=float, default=2.0)
    parser.add_argument("--radius", type=int, default=2)
    parser.add_argument("input")
    parser.add_argument("output", nargs="?")
    args = parser.parse_args()
    table = run(args)
    if args.output:
        table.to_csv(args.output, index=False)
    else:
        print(table.to_csv(index=False), end="")


if __name__ == "__main__":
    main()
