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
from gi.repository import Gst  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

DEFAULT_PROPERTIES = ("label,area,bbox,centroid,intensity_mean,perimeter,"
                      "eccentricity,euler_number")


def table_to_dataframe(table):
    """The `regionprops` structure as a DataFrame, a column a field."""
    columns = {}
    for i in range(table.n_fields()):
        name = table.nth_field_name(i)
        columns[name] = np.frombuffer(table.get_value(name).get_data(),
                                      dtype="<f8")
    return pd.DataFrame(columns)


def run(args):
    Gst.init(None)
    launch = (
        "filesrc name=src ! decodebin ! "
        "videoconvert ! video/x-raw,format=RGBA ! "
        f"cudagray backend={args.backend} ! "
        f"cudablur backend={args.backend} sigma={args.sigma} ! "
        f"cudaotsu backend={args.backend} ! "
        f"cudamorph backend={args.backend} operation=erode shape=disk "
        f"radius={args.radius} ! "
        f"cudalabel backend={args.backend} mode=passthrough "
        f"post-messages=true properties={args.properties} ! fakesink")
    pipeline = Gst.parse_launch(launch)
    pipeline.get_by_name("src").set_property("location", args.input)
    bus = pipeline.get_bus()
    frames = []
    pipeline.set_state(Gst.State.PLAYING)
    try:
        while True:
            msg = bus.timed_pop(Gst.CLOCK_TIME_NONE)
            if msg.type == Gst.MessageType.ERROR:
                err, debug = msg.parse_error()
                sys.exit(f"error: {err.message} ({debug})")
            if msg.type == Gst.MessageType.EOS:
                break
            s = msg.get_structure()
            if msg.type == Gst.MessageType.ELEMENT and s.has_name("cudalabel"):
                frame = table_to_dataframe(s.get_value("regionprops"))
                frame.insert(0, "timestamp", s.get_value("timestamp") / Gst.SECOND)
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
