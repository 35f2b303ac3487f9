#!/usr/bin/env python3
"""Runs every gst-launch-1.0 line of README.md's ```sh blocks as pasted.

    readme-lines.py cpu|cuda README.md SOURCE_ROOT PLUGIN_DIR [MORE.md...]

Each line runs with bash, in a fresh folder that holds `examples` (a link
to SOURCE_ROOT/examples) and `build/ext` (a link to PLUGIN_DIR), with an
environment as bare as a new user's shell: PATH, a fresh HOME (so a fresh
registry), what locates a GStreamer installed outside the system's paths
(LD_LIBRARY_PATH, GST_PLUGIN_SYSTEM_PATH, GST_PLUGIN_SCANNER, as its user
would have them) and what the README's `export` lines set, run as written
(there is no DISPLAY).  A line passes when it exits 0 within its time and, where
it writes a file (filesink, multifilesink: the first of the pattern), that
file is not empty.

The launch lines of MORE.md (docs/elements.md) run the same way, in the
shell the README's export lines set up.

Skipped, each with its reason: lines that open a window (autovideosink;
the README gives a headless variant after each, which must follow it and
runs), and lines that need an element this installation lacks (nvcodec's
without a GPU, GStreamer 1.24+'s on 1.22).

cpu: runs on the CPU: the GPU, if any, is hidden (CUDA_VISIBLE_DEVICES=-1),
and every line that uses our elements must say so with the fallback
warning of backend=auto.  cuda: skips (77) where no CUDA device is usable;
otherwise no line may post the warning that it runs on the CPU.

Exits 0 when every line that ran passed, 1 when one failed, 77 when none
could run.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

OUR_ELEMENTS = {"cudagray", "cudamask", "cudaequalize", "cudaotsu",
                "cudablur", "cudamorph", "cudalabel"}
FALLBACK = " runs on the CPU "
TIMEOUT = 120


def sh_blocks(text):
    """The lines of every ```sh block, joined where a line ends in \\."""
    lines, inside, pending = [], False, ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            inside = (not inside) and stripped == "```sh"
            continue
        if not inside:
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        lines.append(pending + stripped)
        pending = ""
    return lines


def elements_of(line):
    """The factory names of a launch line."""
    words = shlex.split(line)[1:]
    while words and words[0].startswith("-"):
        words.pop(0)
    names, first = [], True
    for w in words:
        if w == "!":
            first = True
            continue
        if first:
            first = False
            if "/" in w or "=" in w or w.endswith("."):
                continue  # caps, a property or a pad reference
            names.append(w)
    return names


def output_of(line):
    """The file a line writes, or None (a pattern's first file)."""
    words = shlex.split(line)
    for i, w in enumerate(words):
        if w in ("filesink", "multifilesink"):
            for p in words[i + 1:]:
                if p == "!":
                    break
                if p.startswith("location="):
                    loc = p[len("location="):]
                    if w == "multifilesink":
                        loc = re.sub(r"%0?(\d*)d",
                                     lambda m: "0" * int(m.group(1) or 1), loc)
                    return loc
    return None


def main():
    mode, readme, top, plugin_dir = sys.argv[1:5]
    lines = sh_blocks(open(readme, encoding="utf-8").read())
    for more in sys.argv[5:]:
        lines += sh_blocks(open(more, encoding="utf-8").read())

    work = tempfile.mkdtemp(prefix="readme-lines-")
    try:
        os.symlink(os.path.join(top, "examples"),
                   os.path.join(work, "examples"))
        os.makedirs(os.path.join(work, "build"))
        os.symlink(plugin_dir, os.path.join(work, "build", "ext"))
        home = os.path.join(work, "home")
        os.makedirs(home)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "HOME": home, "LANG": "C.UTF-8"}
        for name in ("LD_LIBRARY_PATH", "GST_PLUGIN_SYSTEM_PATH",
                     "GST_PLUGIN_SYSTEM_PATH_1_0", "GST_PLUGIN_SCANNER",
                     "GST_PLUGIN_SCANNER_1_0"):
            if name in os.environ:
                env[name] = os.environ[name]
        if mode == "cpu":
            env["CUDA_VISIBLE_DEVICES"] = "-1"

        # The README's export lines, in a shell as the user's, in order.
        exports = [l for l in lines if l.startswith("export ")]
        if not any("GST_PLUGIN_PATH" in l for l in exports):
            print("README.md sets no GST_PLUGIN_PATH in a sh block")
            return 1
        script = "cd %s && %s && env -0" % (
            shlex.quote(work), " && ".join(exports))
        out = subprocess.run(["bash", "--noprofile", "--norc", "-c", script],
                             env=env, capture_output=True, check=True).stdout
        env = dict(kv.split("=", 1) for kv in out.decode().split("\0") if kv)
        print("environment: GST_PLUGIN_PATH=%s" % env["GST_PLUGIN_PATH"])

        def have(element):
            # (not --exists: it also asks for the plugin's version to be
            # GStreamer's, which ours, 0.x, is not)
            return subprocess.run(["gst-inspect-1.0", element], env=env,
                                  cwd=work, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL).returncode == 0

        gst = subprocess.run(
            ["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=1", "!",
             "fakesink"], env=env, cwd=work, capture_output=True, text=True,
            timeout=TIMEOUT)
        if gst.returncode != 0:
            print("FAIL: gst-launch-1.0 does not run here\n" + gst.stdout +
                  gst.stderr)
            return 1
        if mode == "cuda":
            probe = subprocess.run(
                ["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=1", "!",
                 "cudagray", "backend=cuda", "!", "fakesink"],
                env=env, cwd=work, capture_output=True, text=True,
                timeout=TIMEOUT)
            if probe.returncode != 0:
                print("no usable CUDA device: skipped\n" + probe.stdout +
                      probe.stderr)
                return 77

        launch = [l for l in lines if l.startswith("gst-launch-1.0")]
        ran = failed = skipped = 0
        missing_cache = {}
        for n, line in enumerate(launch):
            print("\n[%d] %s" % (n + 1, line))
            names = elements_of(line)
            if "autovideosink" in names:
                nxt = launch[n + 1] if n + 1 < len(launch) else ""
                if output_of(nxt) is None:
                    print("FAIL: a display line without a headless variant "
                          "(a line that writes a file) after it")
                    failed += 1
                else:
                    print("skipped: opens a window; its headless variant, "
                          "the next line, runs")
                    skipped += 1
                continue
            missing = [e for e in names
                       if not missing_cache.setdefault(e, have(e))]
            if OUR_ELEMENTS & set(missing):
                print("FAIL: %s not found: GST_PLUGIN_PATH as the README "
                      "sets it does not reach the plugin" %
                      ", ".join(sorted(OUR_ELEMENTS & set(missing))))
                failed += 1
                continue
            if missing:
                print("skipped: needs %s, not here" % ", ".join(missing))
                skipped += 1
                continue
            target = output_of(line)
            if target:
                path = os.path.join(work, target)
                if os.path.exists(path):
                    os.remove(path)
            ran += 1
            try:
                r = subprocess.run(["bash", "--noprofile", "--norc", "-c",
                                    line], env=env, cwd=work, text=True,
                                   capture_output=True, timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                print("FAIL: still running after %d s" % TIMEOUT)
                failed += 1
                continue
            text = r.stdout + r.stderr
            problem = None
            ours = OUR_ELEMENTS & set(names)
            if r.returncode != 0:
                problem = "exit status %d" % r.returncode
            elif target and not (os.path.isfile(path) and
                                 os.path.getsize(path) > 0):
                problem = "%s not written, or empty" % target
            elif mode == "cuda" and FALLBACK in text:
                problem = "an element ran on the CPU, not the GPU"
            elif mode == "cpu" and ours and FALLBACK not in text:
                problem = "no warning that backend=auto runs on the CPU"
            if problem:
                print("FAIL: " + problem + "\n" + text)
                failed += 1
            else:
                print("ok" + (": %s, %d bytes" % (target,
                                                 os.path.getsize(path))
                              if target else ""))
        print("\n%d lines: %d ran, %d failed, %d skipped" %
              (len(launch), ran, failed, skipped))
        if failed:
            return 1
        return 0 if ran else 77
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
