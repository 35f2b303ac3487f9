#!/usr/bin/python3
"""The cudaimgproc elements from OpenCV, through its GStreamer backend.

cv2.VideoCapture reads what a launch line ending in appsink gives, and
cv2.VideoWriter feeds a launch line starting with appsrc: the elements run
in between, on the GPU where a usable CUDA device is there and on the CPU
otherwise (backend=auto, their default; the same frames).  This checks
both against OpenCV's own functions and prints the result:

  * VideoCapture: IMAGE.png ! cudagray ! cudaotsu ! appsink, against
    cv2.threshold(gray, 0, 255, THRESH_BINARY | THRESH_OTSU);
  * VideoWriter: appsrc ! cudaequalize ! pngenc ! multifilesink, each
    IMAGE.png written as a frame, the files read back against
    cv2.equalizeHist.

Usage:
    examples/opencv.py [IMAGE.png ...]

Default: examples/data/coins.png and moon.png.  Exits 1 when a frame
differs.  The images are gray ones (of a colour image cudagray's gray and
OpenCV's imread differ in rounding) whose width is a multiple of 4: a
GRAY8 frame's rows are padded to 4 bytes in GStreamer, and OpenCV's
VideoWriter 4.6 hands appsrc unpadded rows.  Needs OpenCV built with GStreamer (Debian's python3-opencv is:
cv2.getBuildInformation() says "GStreamer: YES") and the plugin on
GST_PLUGIN_PATH.  OpenCV's appsink takes BGR, BGRx, BGRA or GRAY8 (and
GRAY16, Bayer, JPEG): cudaotsu's GRAY8 goes to it as it is, a
one-channel frame, with no videoconvert ! video/x-raw,format=BGR before
appsink (which would give the same frame in three channels).
"""

import os
import sys
import tempfile

# "unable to query duration" and such, of a still image: not news
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def quote(path):
    """`path` as a launch-line value within double quotes."""
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def capture_otsu(image):
    """The image's frames through cudagray ! cudaotsu, as OpenCV reads
    them."""
    launch = (f"filesrc location={quote(image)} ! pngdec ! videoconvert ! "
              "cudagray ! cudaotsu ! appsink")
    cap = cv2.VideoCapture(launch, cv2.CAP_GSTREAMER)
    if not cap.isOpened():
        sys.exit(f"error: OpenCV could not open {launch} (is the plugin on "
                 "GST_PLUGIN_PATH, OpenCV built with GStreamer?)")
    frames = []
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        frames.append(frame)
    cap.release()
    return frames


def write_equalized(image, directory):
    """The image's gray frame through appsrc ! cudaequalize ! pngenc, as
    OpenCV writes it; the frame and the file written."""
    gray = cv2.imread(image, cv2.IMREAD_GRAYSCALE)
    h, w = gray.shape
    pattern = os.path.join(directory, "equalized-%05d.png")
    # isColor=False: OpenCV's appsrc gives GRAY8, which cudaequalize takes
    # (the videoconverts pass it through).
    launch = ("appsrc ! videoconvert ! cudaequalize ! videoconvert ! "
              f"pngenc ! multifilesink location={quote(pattern)}")
    writer = cv2.VideoWriter(launch, cv2.CAP_GSTREAMER, 0, 30, (w, h),
                             isColor=False)
    if not writer.isOpened():
        sys.exit(f"error: OpenCV could not open {launch}")
    writer.write(gray)
    writer.release()
    return gray, pattern % 0


def report(what, got, want):
    """Prints how `got` compares with `want`; whether they are equal."""
    if got is None or got.shape != want.shape:
        print(f"{what}: DIFFERENT shape "
              f"({None if got is None else got.shape}, OpenCV {want.shape})")
        return False
    differ = int(np.count_nonzero(got != want))
    print(f"{what}: {'equal' if differ == 0 else f'{differ} pixels DIFFER'}"
          f" ({want.shape[1]}x{want.shape[0]})")
    return differ == 0


def main():
    images = sys.argv[1:] or [os.path.join(DATA, "coins.png"),
                              os.path.join(DATA, "moon.png")]
    ok = True
    for image in images:
        gray = cv2.imread(image, cv2.IMREAD_GRAYSCALE)
        if gray is None:
            sys.exit(f"error: OpenCV cannot read {image}")
        frames = capture_otsu(image)
        if len(frames) != 1:
            print(f"{image}: {len(frames)} frames from VideoCapture, not 1")
            ok = False
            continue
        threshold, want = cv2.threshold(gray, 0, 255,
                                        cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        ok &= report(f"VideoCapture cudagray ! cudaotsu, {image} "
                     f"(OpenCV's Otsu threshold {threshold:g})",
                     frames[0], want)
    for image in images:
        with tempfile.TemporaryDirectory() as directory:
            gray, path = write_equalized(image, directory)
            ok &= report(f"VideoWriter cudaequalize, {image}",
                         cv2.imread(path, cv2.IMREAD_UNCHANGED),
                         cv2.equalizeHist(gray))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
