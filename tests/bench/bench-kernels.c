/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Time per call of the cip operations on the GPU, against the copy
 * bandwidth of the same GPU and, when built with NPP, NPP's nearest
 * equivalents on the same stream.
 *
 *   bench-kernels [--quick] [--chains] [--only TEXT] [--csv FILE]
 *
 * Floors: a 256 MB device-to-device copy (bytes read + written), 64 MB
 * host-to-device and device-to-host copies from page-locked and from
 * pageable memory, median of 20 after a warm-up; and the copies of the
 * chain's 1080p frames from page-locked memory, one pipeline's in turn,
 * then 1 to 16 pipelines' overlapped.
 *
 * Operations, at 1080p and 4K: inputs hold random bytes and rotate through
 * enough images (inputs and outputs together over 5x the L2, 256 MB at
 * least) that no call finds its image in L2.  Calls are queued in batches
 * of 25 behind a host gate, released once the batch is queued, so that
 * they run back to back: each call is timed by the CUDA events around it,
 * on the GPU, without launch gaps.  The host's cost of queuing one call
 * (one event record included) is reported beside it: where it exceeds the
 * GPU time, a pipeline is bound by launches, not by the kernels.  300
 * calls after 20 of warm-up.
 * GB/s counts the bytes an operation must read and write (RGBA to gray:
 * 5 per pixel; mask: 2; equalize and Otsu: 3, histogram pass included).
 *
 * Gray of every layout cip_gray() reads ("cip_gray LAYOUT to GRAY8", and
 * "... to GRAY16" for luma of more than eight bits), at 1080p and 4K:
 * random bytes in the layout (two-byte luma layouts: every byte, chroma
 * included, is read), GB/s = (bytes a pixel in + out) / time.  Beside
 * each 8-bit colour layout NPP's call for it: RGBToGray_8u_AC4C1R (RGBA,
 * RGBx), RGBToGray_8u_C3C1R (RGB), ColorToGray_8u with BT.601 weights
 * (BGRA, BGRx: AC4C1R; ARGB, ABGR: C4C1R; BGR: C3C1R).  NPP has no call
 * for the two-byte luma layouts: no peer there.  --only "cip_gray" runs
 * these with the RGBA row above; --only " to GRAY" these alone.
 *
 * Chains: the kernels of the element pipelines bench-elements runs, with
 * the elements' settings, back to back on one stream, timed the same way
 * over four source frames (as bench-elements feeds its pipelines; at 1080p
 * they stay in L2): the GPU-time limit of each pipeline when its frames
 * follow one another on one stream.  Only with --chains, which runs the
 * floors and the chains instead of the operations.
 *
 * Region table (host): cip_region_property_table on 1,000 and 10,000
 * regions against a memcpy of what it writes (--only "region table":
 * that alone).
 *
 * --quick (CI, no GPU): the CPU reference on 320x240, a few calls each.
 * Without --quick and without a device: exit code 77.
 *
 * NPP peers: meson builds them in when it finds NPP under the CUDA
 * toolkit (-Dnpp=auto|enabled).  On a GPU machine where meson cannot be
 * configured (no GStreamer development files), from the source root after
 * `ninja -C build-gpu` elsewhere:
 *
 *   gcc -O2 -std=gnu11 -DHAVE_NPP -Igpu -Igpu/ref \
 *     -I/usr/local/cuda/include $(pkg-config --cflags glib-2.0) \
 *     tests/bench/bench-kernels.c tests/bench/npp-peers.c \
 *     -o build-gpu/bench-kernels-npp build-gpu/gpu/libcip.a \
 *     -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 \
 *     -lnppicc -lnppist -lnppitc -lnppc -lcudart_static \
 *     $(pkg-config --libs glib-2.0) -lrt -ldl -lpthread -lstdc++ -lm
 *   build-gpu/bench-kernels-npp --csv kernels.csv
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <cuda_runtime_api.h>

#include "cip.h"
#include "cip-ref.h"
#include "npp-peers.h"
#include "bench-cells.h"

#define N_WARMUP 20
#define N_RUNS 300
#define BATCH 25
#define N_FLOOR_WARMUP 3
#define N_FLOOR_RUNS 20
#define D2D_BYTES ((size_t) 256 << 20)
#define HOST_COPY_BYTES ((size_t) 64 << 20)
#define MIN_ROTATION_BYTES ((size_t) 256 << 20)
/* A gate not opened by then means the call waited for the stream. */
#define GATE_TIMEOUT_US 500000

#define QUICK_WIDTH 320
#define QUICK_HEIGHT 240
#define QUICK_WARMUP 2
#define QUICK_RUNS 20

typedef struct
{
  double min, p10, median, p90, max;
  double host_us;               /* queuing cost per call, or NAN */
  gboolean host_waited;         /* some call waited for the GPU */
} Timing;

typedef enum
{
  INPUT_RGBA,
  INPUT_NATURAL,
  INPUT_UNIFORM,
  INPUT_MASK,
  N_INPUTS,
} InputKind;

static const char *input_names[N_INPUTS] = {
  "random RGBA", "gray of random RGBA", "uniform GRAY8", "random 50% mask"
};

/* Images an operation rotates through. */
typedef struct
{
  CipImage *src;
  CipImage *dst;
  int n;
} Set;

typedef struct
{
  CipStream *stream;
  cudaStream_t cuda;
  cudaEvent_t events[BATCH + 1];
  uint8_t *threshold;           /* page-locked, for cip_otsu ... */
  uint16_t *threshold16;        /* ... and cip_otsu16 */
  /* NPP's operands. */
  uint8_t npp_threshold;
  int32_t *npp_hist;            /* device, 256 bins */
  int32_t *npp_values;          /* device, 256-entry lookup table */
  int32_t *npp_levels;          /* device, 0 .. 255 */
  int32_t *npp_hist16;          /* device, 65536 bins */
  uint16_t *npp_table16;        /* device, 65536-entry lookup table */
  /* cip_label's tables: the count alone, and every region (page-locked),
   * and a GRAY16 label image. */
  CipRegionTable count_only;
  CipRegionTable all_regions;
  /* cudalabel's: the statistics of the regions with a meta of their own,
   * every region's default columns */
  CipRegionTable element;
  CipImage label_ids;
  /* The chains' images between their kernels, and cudalabel's colour
   * output. */
  CipImage between[4];
  CipImage painted;
  /* cudalabel track=true: two frames' label images, ids and states, the
   * newer written next; none tracked yet after a reset */
  uint32_t *track_buffers[2];
  CipTrackFrame track[2];
  int track_next;
  gboolean track_started;
  /* The NPP call of the gray row being timed (GrayPeer) and its weights
   * by byte. */
  int gray_peer;
  float gray_weights[4];
} Ctx;

typedef gboolean (*OpFunc) (Ctx * c, const CipImage * src, CipImage * dst);

typedef enum
{
  PREPARE_NONE,
  PREPARE_MASK,                 /* NPP threshold from the mask's */
  PREPARE_LUT,                  /* NPP lookup table from a histogram */
  PREPARE_OTSU,                 /* NPP threshold from cip_otsu */
} Prepare;

typedef struct
{
  const char *name;
  InputKind input;
  OpFunc ours;
  OpFunc npp;
  const char *npp_name;
  Prepare prepare;
  int bytes_per_pixel;          /* read + written per call */
} OpCase;

static const CipMaskParams mask_params = { 128, 255, false };

/* A 50% mask of uniform bytes. */
static const CipMaskParams half_mask = { 127, 255, false };
static const CipLabelParams label_params = { 8, 0 };

/* cudalabel's default properties (label, area, bbox, centroid,
 * intensity_mean: nine columns), and the regions with a meta of their own
 * at most: 1000, its default when docs/performance/chains.csv was
 * measured (256 since: a limit at most a few microseconds low at 4K). */
static const CipRegionProperty element_props[] = {
  CIP_PROP_LABEL, CIP_PROP_AREA, CIP_PROP_BBOX, CIP_PROP_CENTROID,
  CIP_PROP_INTENSITY_MEAN
};

#define ELEMENT_COLUMNS 9
#define ELEMENT_REGION_METAS 1000

static const struct
{
  const char *name;
  int width, height;
} sizes[] = {
  {"1080p", 1920, 1080},
  {"4K", 3840, 2160},
};

static FILE *csv;
static guint n_passed, n_failed;
/* --only: the operations whose name contains it. */
static gchar *only;
/* --chains: the floors and the chains instead of the operations. */
static gboolean chains_only;

/* Statistics */

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
timing_from_samples (double *us, int n, Timing * t)
{
  qsort (us, n, sizeof (double), compare_double);
  t->min = us[0];
  t->p10 = us[(int) (0.1 * (n - 1) + 0.5)];
  t->median = (us[(n - 1) / 2] + us[n / 2]) / 2;
  t->p90 = us[(int) (0.9 * (n - 1) + 0.5)];
  t->max = us[n - 1];
}

/* Random bytes: xorshift64*, fast enough for hundreds of MB. */
static void
fill_random (uint8_t * data, size_t size, uint64_t seed)
{
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  size_t i;

  for (i = 0; i < size; i += 8) {
    uint64_t v;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    v = x * 0x2545F4914F6CDD1Dull;
    memcpy (data + i, &v, MIN (8, size - i));
  }
}

static CipImage
host_image (int width, int height, CipFormat format)
{
  CipImage image;

  image.width = width;
  image.height = height;
  image.format = format;
  image.stride = (size_t) width *cip_format_bytes_per_pixel (format);
  image.data = g_malloc (image.stride * height);
  return image;
}

static double
gbps (double bytes, double us)
{
  return bytes / us / 1e3;
}

/* Output */

static void
csv_row (const char *section, const char *op, const char *size, int width,
    int height, const char *input, const Timing * t, double npp_us,
    double bytes, double copy_gbps)
{
  double rate = gbps (bytes, t->median);

  if (csv == NULL)
    return;
  fprintf (csv, "%s,\"%s\",%s,%d,%d,\"%s\",%.2f,%.2f,%.2f,%.2f,%.2f,",
      section, op, size, width, height, input, t->median, t->min, t->p10,
      t->p90, t->max);
  if (isnan (t->host_us))
    fprintf (csv, ",");
  else
    fprintf (csv, "%.2f,", t->host_us);
  if (isnan (npp_us))
    fprintf (csv, ",,");
  else
    fprintf (csv, "%.2f,%.3f,", npp_us, npp_us / t->median);
  fprintf (csv, "%.2f,", rate);
  if (copy_gbps > 0)
    fprintf (csv, "%.1f\n", 100 * rate / copy_gbps);
  else
    fprintf (csv, "\n");
}

static void
print_op_header (void)
{
  printf ("| op | size | input | ours µs median [p10–p90] | min–max µs | "
      "host µs/call | NPP µs | speedup (NPP/ours) | GB/s | %% of copy |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
}

static void
print_op_row (const char *op, const char *size, const char *input,
    const Timing * t, double npp_us, double bytes, double copy_gbps)
{
  double rate = gbps (bytes, t->median);

  printf ("| %s | %s | %s | %.1f [%.1f–%.1f] | %.1f–%.1f | ", op, size,
      input, t->median, t->p10, t->p90, t->min, t->max);
  if (isnan (t->host_us))
    printf ("n/a | ");
  else
    printf ("%.1f%s%s | ", t->host_us, t->host_us > t->median ?
        " (launch-bound)" : "", t->host_waited ? " (waits for GPU)" : "");
  if (isnan (npp_us))
    printf ("n/a | n/a | ");
  else
    printf ("%.1f | %.2f× | ", npp_us, npp_us / t->median);
  if (copy_gbps > 0)
    printf ("%.1f | %.0f%% |\n", rate, 100 * rate / copy_gbps);
  else
    printf ("%.2f | n/a |\n", rate);
}

/* Operations */

static gboolean
run_gray (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_gray (src, dst, CIP_GRAY_BT601, c->stream) == CIP_OK;
}

static gboolean
run_mask (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_mask (src, dst, &mask_params, c->stream) == CIP_OK;
}

static gboolean
run_equalize (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_equalize (src, dst, c->stream) == CIP_OK;
}

static gboolean
run_otsu (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_otsu (src, dst, false, c->threshold, c->stream) == CIP_OK;
}

static gboolean
run_otsu16 (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_otsu16 (src, dst, false, c->threshold16, c->stream) == CIP_OK;
}

/* 5x5: radius ceil (4 * 0.5) = 2. */
static gboolean
run_blur_5x5 (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_blur (src, dst, 0.5, c->stream) == CIP_OK;
}

static gboolean
run_erode_3x3 (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_morph (src, dst, CIP_MORPH_ERODE, CIP_SHAPE_SQUARE, 1,
      c->stream) == CIP_OK;
}

static gboolean
run_erode_disk_2 (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_morph (src, dst, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 2,
      c->stream) == CIP_OK;
}

static gboolean
run_label_count (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_label (src, NULL, &label_params, NULL, &c->count_only,
      c->stream) == CIP_OK;
}

static gboolean
run_label_table (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_label (src, NULL, &label_params, NULL, &c->all_regions,
      c->stream) == CIP_OK;
}

/* The table to host with one set of statistics more: what each pass
 * (cudalabel's properties of that set) costs beyond the default's. */
static gboolean
run_label_with (Ctx * c, const CipImage * src, uint32_t statistics)
{
  CipLabelParams params = { 8, 0, statistics };

  return cip_label (src, NULL, &params, NULL, &c->all_regions,
      c->stream) == CIP_OK;
}

static gboolean
run_label_moments (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_label_with (c, src, CIP_LABEL_MOMENTS);
}

static gboolean
run_label_intensity_range (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_label_with (c, src, CIP_LABEL_INTENSITY_RANGE);
}

static gboolean
run_label_contours (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_label_with (c, src, CIP_LABEL_CONTOURS);
}

static gboolean
run_label_convex (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_label_with (c, src, CIP_LABEL_CONVEX);
}

/* The hull's row ends found by the contours pass. */
static gboolean
run_label_contours_convex (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_label_with (c, src, CIP_LABEL_CONTOURS | CIP_LABEL_CONVEX);
}

static gboolean
run_label_filled (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_label_with (c, src, CIP_LABEL_FILLED);
}

static gboolean
run_label_every_statistic (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_label_with (c, src, CIP_LABEL_MOMENTS | CIP_LABEL_INTENSITY_RANGE |
      CIP_LABEL_CONTOURS | CIP_LABEL_CONVEX | CIP_LABEL_FILLED);
}

static gboolean
run_label_ids (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_label (src, NULL, &label_params, &c->label_ids, &c->count_only,
      c->stream) == CIP_OK;
}

/* Chains, each kernel with its element's defaults. */

static gboolean
run_chain_equalize_otsu (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_gray (src, &c->between[0], CIP_GRAY_BT601, c->stream) == CIP_OK
      && cip_equalize (&c->between[0], &c->between[1], c->stream) == CIP_OK
      && cip_otsu (&c->between[1], dst, false, c->threshold,
      c->stream) == CIP_OK;
}

/* SEED_CHAIN_WITHOUT_LABEL of bench-elements: gray, blur sigma 2, Otsu,
 * erosion by disk(2). */
static gboolean
run_workflow_without_label (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_gray (src, &c->between[0], CIP_GRAY_BT601, c->stream) == CIP_OK
      && cip_blur (&c->between[0], &c->between[1], 2.0, c->stream) == CIP_OK
      && cip_otsu (&c->between[1], &c->between[2], false, c->threshold,
      c->stream) == CIP_OK
      && cip_morph (&c->between[2], dst, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 2,
      c->stream) == CIP_OK;
}

/* ... then cudalabel's default: the labels painted in colour, the default
 * table's columns and the statistics of the regions with a meta, the
 * blurred frame (what cudaotsu thresholded) as the intensity image. */
static gboolean
run_workflow (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_workflow_without_label (c, src, &c->between[3])
      && cip_label (&c->between[3], &c->between[1], &label_params,
      &c->painted, &c->element, c->stream) == CIP_OK;
}

/* cudagray ! cudaotsu ! cudalabel: gray, Otsu, the labels painted in
 * colour with the default table (the gray frame as intensity). */
static gboolean
run_gray_otsu_label (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cip_gray (src, &c->between[0], CIP_GRAY_BT601, c->stream) == CIP_OK
      && cip_otsu (&c->between[0], &c->between[1], false, c->threshold,
      c->stream) == CIP_OK
      && cip_label (&c->between[1], &c->between[0], &label_params,
      &c->painted, &c->element, c->stream) == CIP_OK;
}

/* ... with track=true, as the element queues it: the label image written
 * too, the overlaps with the previous call's counted where it is written
 * (the table's track_prev), then the regions numbered. */
static gboolean
run_gray_otsu_label_tracked (Ctx * c, const CipImage * src, CipImage * dst,
    gboolean counted)
{
  CipTrackFrame *frame = &c->track[c->track_next];
  CipTrackFrame *prev = c->track_started ? &c->track[1 - c->track_next] : NULL;
  gboolean ok;

  c->element.labels = (uint32_t *) frame->labels;
  c->element.labels_stride = frame->stride;
  c->element.track_prev = counted ? prev : NULL;
  ok = run_gray_otsu_label (c, src, dst)
      && cip_track_frame (prev, frame, c->element.count, src->width,
      src->height, c->stream) == CIP_OK;
  c->element.labels = NULL;
  c->element.labels_stride = 0;
  c->element.track_prev = NULL;
  c->track_next = 1 - c->track_next;
  c->track_started = ok;
  return ok;
}

static gboolean
run_gray_otsu_label_track (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_gray_otsu_label_tracked (c, src, dst, TRUE);
}

/* ... the overlaps counted by cip_track_frame() from both label images
 * instead: what counting them in the labelling saves. */
static gboolean
run_gray_otsu_label_track_apart (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_gray_otsu_label_tracked (c, src, dst, FALSE);
}

#ifdef HAVE_NPP

static gboolean
run_npp_gauss (Ctx * c, const CipImage * src, CipImage * dst)
{
  return npp_filter_gauss_5x5 (src->data, (int) src->stride, dst->data,
      (int) dst->stride, src->width, src->height) == 0;
}

static gboolean
run_npp_erode (Ctx * c, const CipImage * src, CipImage * dst)
{
  return npp_erode_3x3 (src->data, (int) src->stride, dst->data,
      (int) dst->stride, src->width, src->height) == 0;
}

static gboolean
run_npp_label (Ctx * c, const CipImage * src, CipImage * dst)
{
  return npp_label_markers_uf (src->data, (int) src->stride, src->width,
      src->height) == 0;
}

static gboolean
run_npp_label_compress (Ctx * c, const CipImage * src, CipImage * dst)
{
  return npp_label_and_compress (src->data, (int) src->stride, src->width,
      src->height) == 0;
}

static gboolean
run_npp_gray (Ctx * c, const CipImage * src, CipImage * dst)
{
  return npp_rgba_to_gray (src->data, (int) src->stride, dst->data,
      (int) dst->stride, src->width, src->height) == 0;
}

static gboolean
run_npp_histogram (Ctx * c, const CipImage * src, CipImage * dst)
{
  return npp_histogram_even (src->data, (int) src->stride, src->width,
      src->height, c->npp_hist) == 0;
}

static gboolean
run_npp_lut (Ctx * c, const CipImage * src, CipImage * dst)
{
  return npp_lut_linear (src->data, (int) src->stride, dst->data,
      (int) dst->stride, src->width, src->height, c->npp_values,
      c->npp_levels, 256) == 0;
}

static gboolean
run_npp_threshold (Ctx * c, const CipImage * src, CipImage * dst)
{
  return npp_threshold_gtval (src->data, (int) src->stride, dst->data,
      (int) dst->stride, src->width, src->height, c->npp_threshold, 255) == 0;
}

/* NPP has no equalization: histogram, then the table applied.  The table
 * (a CDF) needs the histogram on the host in between; that round trip is
 * left out, so this is a lower bound of an NPP equalize. */
static gboolean
run_npp_equalize (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_npp_histogram (c, src, dst) && run_npp_lut (c, src, dst);
}

/* Likewise without the threshold search between the two calls. */
static gboolean
run_npp_otsu (Ctx * c, const CipImage * src, CipImage * dst)
{
  return run_npp_histogram (c, src, dst) && run_npp_threshold (c, src, dst);
}

static gboolean
run_npp_equalize16 (Ctx * c, const CipImage * src, CipImage * dst)
{
  return npp_histogram_even_16u (src->data, (int) src->stride, src->width,
      src->height, c->npp_hist16) == 0
      && npp_lut_palette_16u (src->data, (int) src->stride, dst->data,
      (int) dst->stride, src->width, src->height, c->npp_table16) == 0;
}

#define NPP_PEER(f) f
#else
#define NPP_PEER(f) NULL
#endif

static const OpCase op_cases[] = {
  {"cip_gray (BT601)", INPUT_RGBA, run_gray, NPP_PEER (run_npp_gray),
      "RGBToGray_8u_AC4C1R", PREPARE_NONE, 5},
  {"cip_mask", INPUT_UNIFORM, run_mask, NPP_PEER (run_npp_threshold),
        "Threshold_GTVal (leaves pixels <= t as they are)", PREPARE_MASK,
      2},
  {"cip_equalize", INPUT_NATURAL, run_equalize,
        NPP_PEER (run_npp_equalize),
        "HistogramEven + LUT_Linear, back to back, no host CDF",
      PREPARE_LUT, 3},
  {"cip_equalize", INPUT_UNIFORM, run_equalize,
        NPP_PEER (run_npp_equalize),
        "HistogramEven + LUT_Linear, back to back, no host CDF",
      PREPARE_LUT, 3},
  {"cip_otsu", INPUT_NATURAL, run_otsu, NPP_PEER (run_npp_otsu),
        "HistogramEven + Threshold_GTVal, no threshold search",
      PREPARE_OTSU, 3},
  {"cip_otsu", INPUT_UNIFORM, run_otsu, NPP_PEER (run_npp_otsu),
        "HistogramEven + Threshold_GTVal, no threshold search",
      PREPARE_OTSU, 3},
  {"cip_blur 5x5 (sigma 0.5)", INPUT_NATURAL, run_blur_5x5,
        NPP_PEER (run_npp_gauss), "FilterGauss 5x5 (ROI less 2 pixels)",
      PREPARE_NONE, 2},
  {"cip_morph erode 3x3", INPUT_NATURAL, run_erode_3x3,
        NPP_PEER (run_npp_erode), "Erode3x3 (ROI less 1 pixel)",
      PREPARE_NONE, 2},
  {"cip_morph erode disk 2", INPUT_MASK, run_erode_disk_2, NULL, NULL,
      PREPARE_NONE, 2},
  {"cip_label, statistics, count only", INPUT_MASK, run_label_count,
        NPP_PEER (run_npp_label), "LabelMarkersUF alone (8-way)",
      PREPARE_NONE, 1},
  {"cip_label, statistics, table to host", INPUT_MASK, run_label_table,
        NPP_PEER (run_npp_label), "LabelMarkersUF alone (8-way)",
      PREPARE_NONE, 1},
  {"cip_label, statistics, GRAY16 ids", INPUT_MASK, run_label_ids,
        NPP_PEER (run_npp_label), "LabelMarkersUF alone (8-way)",
      PREPARE_NONE, 3},
  {"cip_label, table to host + moments", INPUT_MASK, run_label_moments,
      NULL, NULL, PREPARE_NONE, 1},
  {"cip_label, table to host + intensity range", INPUT_MASK,
      run_label_intensity_range, NULL, NULL, PREPARE_NONE, 1},
  {"cip_label, table to host + contours", INPUT_MASK, run_label_contours,
      NULL, NULL, PREPARE_NONE, 1},
  {"cip_label, table to host + convex hull", INPUT_MASK, run_label_convex,
      NULL, NULL, PREPARE_NONE, 1},
  {"cip_label, table to host + contours and convex hull", INPUT_MASK,
      run_label_contours_convex, NULL, NULL, PREPARE_NONE, 1},
  {"cip_label, table to host + holes", INPUT_MASK, run_label_filled, NULL,
      NULL, PREPARE_NONE, 1},
  {"cip_label, table to host + every statistic", INPUT_MASK,
      run_label_every_statistic, NULL, NULL, PREPARE_NONE, 1},
};

#ifdef HAVE_NPP
/* Each NPP call alone, to see where a composite's time goes. */
static const OpCase npp_cases[] = {
  {"nppiRGBToGray_8u_AC4C1R_Ctx", INPUT_RGBA, run_npp_gray, NULL, NULL,
      PREPARE_NONE, 5},
  {"nppiHistogramEven_8u_C1R_Ctx", INPUT_NATURAL, run_npp_histogram, NULL,
      NULL, PREPARE_NONE, 1},
  {"nppiHistogramEven_8u_C1R_Ctx", INPUT_UNIFORM, run_npp_histogram, NULL,
      NULL, PREPARE_NONE, 1},
  {"nppiLUT_Linear_8u_C1R_Ctx", INPUT_NATURAL, run_npp_lut, NULL, NULL,
      PREPARE_LUT, 2},
  {"nppiThreshold_GTVal_8u_C1R_Ctx", INPUT_UNIFORM, run_npp_threshold, NULL,
      NULL, PREPARE_MASK, 2},
  {"nppiFilterGauss_8u_C1R_Ctx 5x5", INPUT_NATURAL, run_npp_gauss, NULL,
      NULL, PREPARE_NONE, 2},
  {"nppiErode3x3_8u_C1R_Ctx", INPUT_NATURAL, run_npp_erode, NULL, NULL,
      PREPARE_NONE, 2},
  {"nppiLabelMarkersUF_8u32u_C1R_Ctx", INPUT_MASK, run_npp_label, NULL,
      NULL, PREPARE_NONE, 5},
  {"nppiLabelMarkersUF + nppiCompressMarkerLabelsUF", INPUT_MASK,
      run_npp_label_compress, NULL, NULL, PREPARE_NONE, 13},
};
#endif

/* cip_gray for every layout it reads. */

typedef enum
{
  GRAY_PEER_NONE = -2,
  GRAY_PEER_RGBA = -1,          /* npp_rgba_to_gray: RGBToGray_8u_AC4C1R */
  /* else an NppGrayCall of npp_color_to_gray() */
} GrayPeer;

typedef struct
{
  const char *layout;           /* as the row names it */
  CipFormat src;
  CipFormat dst;                /* GRAY8, or GRAY16 for deep luma */
  int peer;                     /* GrayPeer or NppGrayCall */
  float weights[4];             /* NPP's BT.601 weights, by byte */
  const char *npp_name;
} GrayLayout;

#define W_RGB 0.299f, 0.587f, 0.114f
#define W_BGR 0.114f, 0.587f, 0.299f

static const GrayLayout gray_layouts[] = {
  {"RGBA", CIP_FORMAT_RGBA, CIP_FORMAT_GRAY8, GRAY_PEER_RGBA, {W_RGB, 0},
      "RGBToGray_8u_AC4C1R"},
  {"BGRA", CIP_FORMAT_BGRA, CIP_FORMAT_GRAY8, NPP_GRAY_AC4, {W_BGR, 0},
      "ColorToGray_8u_AC4C1R"},
  {"RGBx", CIP_FORMAT_RGBX, CIP_FORMAT_GRAY8, GRAY_PEER_RGBA, {W_RGB, 0},
      "RGBToGray_8u_AC4C1R"},
  {"BGRx", CIP_FORMAT_BGRX, CIP_FORMAT_GRAY8, NPP_GRAY_AC4, {W_BGR, 0},
      "ColorToGray_8u_AC4C1R"},
  {"ARGB", CIP_FORMAT_ARGB, CIP_FORMAT_GRAY8, NPP_GRAY_C4, {0, W_RGB},
      "ColorToGray_8u_C4C1R"},
  {"ABGR", CIP_FORMAT_ABGR, CIP_FORMAT_GRAY8, NPP_GRAY_C4, {0, W_BGR},
      "ColorToGray_8u_C4C1R"},
  {"RGB", CIP_FORMAT_RGB, CIP_FORMAT_GRAY8, NPP_GRAY_RGB, {W_RGB, 0},
      "RGBToGray_8u_C3C1R"},
  {"BGR", CIP_FORMAT_BGR, CIP_FORMAT_GRAY8, NPP_GRAY_C3, {W_BGR, 0},
      "ColorToGray_8u_C3C1R"},
  /* The luma of camera and decoder layouts: YUY2 and YVYU, UYVY,
   * GRAY16_LE and P016_LE, GRAY16_BE, P010_10LE, I420_10LE, I420_12LE. */
  {"YUYV", CIP_FORMAT_YUYV, CIP_FORMAT_GRAY8, GRAY_PEER_NONE, {0}, NULL},
  {"UYVY", CIP_FORMAT_UYVY, CIP_FORMAT_GRAY8, GRAY_PEER_NONE, {0}, NULL},
  {"GRAY16", CIP_FORMAT_GRAY16, CIP_FORMAT_GRAY8, GRAY_PEER_NONE, {0}, NULL},
  {"GRAY16_BE", CIP_FORMAT_GRAY16_BE, CIP_FORMAT_GRAY8, GRAY_PEER_NONE, {0},
      NULL},
  {"GRAY10_MSB", CIP_FORMAT_GRAY10_MSB, CIP_FORMAT_GRAY8, GRAY_PEER_NONE,
      {0}, NULL},
  {"GRAY10_LSB", CIP_FORMAT_GRAY10_LSB, CIP_FORMAT_GRAY8, GRAY_PEER_NONE,
      {0}, NULL},
  {"GRAY12_LSB", CIP_FORMAT_GRAY12_LSB, CIP_FORMAT_GRAY8, GRAY_PEER_NONE,
      {0}, NULL},
  {"GRAY16_BE", CIP_FORMAT_GRAY16_BE, CIP_FORMAT_GRAY16, GRAY_PEER_NONE,
      {0}, NULL},
  {"GRAY10_MSB", CIP_FORMAT_GRAY10_MSB, CIP_FORMAT_GRAY16, GRAY_PEER_NONE,
      {0}, NULL},
  {"GRAY10_LSB", CIP_FORMAT_GRAY10_LSB, CIP_FORMAT_GRAY16, GRAY_PEER_NONE,
      {0}, NULL},
  {"GRAY12_LSB", CIP_FORMAT_GRAY12_LSB, CIP_FORMAT_GRAY16, GRAY_PEER_NONE,
      {0}, NULL},
};

/* "cip_gray RGBA to GRAY8", or with @prefix "cip_ref_gray". */
static gchar *
gray_layout_name (const char *prefix, const GrayLayout * g)
{
  return g_strdup_printf ("%s %s to %s", prefix, g->layout,
      g->dst == CIP_FORMAT_GRAY16 ? "GRAY16" : "GRAY8");
}

static int
gray_layout_bytes (const GrayLayout * g)
{
  return cip_format_bytes_per_pixel (g->src) +
      cip_format_bytes_per_pixel (g->dst);
}

#ifdef HAVE_NPP
static gboolean
run_npp_layout_gray (Ctx * c, const CipImage * src, CipImage * dst)
{
  if (c->gray_peer == GRAY_PEER_RGBA)
    return run_npp_gray (c, src, dst);
  return npp_color_to_gray ((NppGrayCall) c->gray_peer, c->gray_weights,
      src->data, (int) src->stride, dst->data, (int) dst->stride,
      src->width, src->height) == 0;
}
#endif

/* GPU timing */

#define CUDA_CHECK(call) do {                                         \
    cudaError_t _err = (call);                                        \
    if (_err != cudaSuccess) {                                        \
      g_printerr ("%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
          #call, cudaGetErrorName (_err));                            \
      return FALSE;                                                   \
    }                                                                 \
  } while (0)

typedef struct
{
  gint open;
  gint timed_out;
} Gate;

/* Static: a callback that timed out may still read it after its batch. */
static Gate gate;

G_STATIC_ASSERT (N_RUNS % BATCH == 0);

/* Holds the stream until the host has queued a whole batch. */
static void CUDART_CB
gate_wait (void *data)
{
  Gate *g = data;
  gint64 deadline = g_get_monotonic_time () + GATE_TIMEOUT_US;

  while (!g_atomic_int_get (&g->open)) {
    if (g_get_monotonic_time () > deadline) {
      /* The host is blocked on this stream inside a call. */
      g_atomic_int_set (&g->timed_out, 1);
      return;
    }
  }
}

/* Times @op over the images of @set: each call between two events, or,
 * @back_to_back, a batch of calls between two events, each sample the
 * batch's time over its calls (what calls cost when they follow one
 * another, as a pipeline's do, without an event between them). */
static gboolean
time_op_full (Ctx * c, OpFunc op, const Set * set, gboolean back_to_back,
    Timing * t)
{
  double us[N_RUNS];
  gint64 host_us = 0;
  int i, k, r = 0, n_samples = 0;

  t->host_waited = FALSE;
  for (i = 0; i < N_WARMUP; i++, r = (r + 1) % set->n)
    if (!op (c, &set->src[r], &set->dst[r]))
      return FALSE;
  CUDA_CHECK (cudaStreamSynchronize (c->cuda));

  for (i = 0; i < N_RUNS; i += BATCH) {
    gint64 start;

    /* The previous batch's callback has returned: the stream is idle. */
    gate.open = 0;
    gate.timed_out = 0;

    CUDA_CHECK (cudaLaunchHostFunc (c->cuda, gate_wait, &gate));
    start = g_get_monotonic_time ();
    for (k = 0; k <= BATCH; k++) {
      /* Event k before call k, event k + 1 after it; back to back, event
       * 0 before the first and event BATCH after the last. */
      if (((!back_to_back || k == 0 || k == BATCH) &&
              cudaEventRecord (c->events[k], c->cuda) != cudaSuccess)
          || (k < BATCH && !op (c, &set->src[r], &set->dst[r]))) {
        g_atomic_int_set (&gate.open, 1);
        cudaStreamSynchronize (c->cuda);
        return FALSE;
      }
      if (k < BATCH)
        r = (r + 1) % set->n;
    }
    host_us += g_get_monotonic_time () - start;
    g_atomic_int_set (&gate.open, 1);
    CUDA_CHECK (cudaStreamSynchronize (c->cuda));
    if (g_atomic_int_get (&gate.timed_out))
      t->host_waited = TRUE;

    if (back_to_back) {
      float ms;

      CUDA_CHECK (cudaEventElapsedTime (&ms, c->events[0], c->events[BATCH]));
      us[n_samples++] = ms * 1e3 / BATCH;
      continue;
    }
    for (k = 0; k < BATCH; k++) {
      float ms;

      CUDA_CHECK (cudaEventElapsedTime (&ms, c->events[k], c->events[k + 1]));
      us[n_samples++] = ms * 1e3;
    }
  }
  timing_from_samples (us, n_samples, t);
  t->host_us = (double) host_us / N_RUNS;
  return TRUE;
}

static gboolean
time_op (Ctx * c, OpFunc op, const Set * set, Timing * t)
{
  return time_op_full (c, op, set, FALSE, t);
}

static gboolean
time_copy (Ctx * c, void *dst, const void *src, size_t bytes,
    enum cudaMemcpyKind kind, Timing * t)
{
  double us[N_FLOOR_RUNS];
  int i;

  for (i = 0; i < N_FLOOR_WARMUP + N_FLOOR_RUNS; i++) {
    float ms;

    CUDA_CHECK (cudaEventRecord (c->events[0], c->cuda));
    CUDA_CHECK (cudaMemcpyAsync (dst, src, bytes, kind, c->cuda));
    CUDA_CHECK (cudaEventRecord (c->events[1], c->cuda));
    CUDA_CHECK (cudaEventSynchronize (c->events[1]));
    CUDA_CHECK (cudaEventElapsedTime (&ms, c->events[0], c->events[1]));
    if (i >= N_FLOOR_WARMUP)
      us[i - N_FLOOR_WARMUP] = ms * 1e3;
  }
  timing_from_samples (us, N_FLOOR_RUNS, t);
  t->host_us = NAN;
  t->host_waited = FALSE;
  return TRUE;
}

static void
floor_row (const char *name, size_t bytes, double traffic, const Timing * t)
{
  char size[32];

  g_snprintf (size, sizeof (size), "%zu MB", bytes >> 20);
  printf ("| %s | %s | %.1f | %.1f–%.1f | %.1f |\n", name, size, t->median,
      t->min, t->max, gbps (traffic, t->median));
  csv_row ("floor", name, size, 0, 0, "", t, NAN, traffic, 0);
}

/* The copies of page-locked system-memory pipelines of the chain, per
 * 1080p frame: RGBA up, GRAY8 down.  One pipeline's one after the other
 * on one stream; then N pipelines' at once, each with its own upload and
 * download streams and buffers (the copy engines overlap uploads with
 * downloads, and the N pipelines share the bus).  The frames/s they allow
 * are the floors of the chain from page-locked memory (the many-streams
 * table's page-locked rows, by N). */
#define FRAME_COPY_FRAMES 320
#define FRAME_COPY_REPEATS 5
#define FRAME_COPY_MAX_PIPELINES 16
#define FRAME_UP_BYTES ((size_t) 1920 * 1080 * 4)
#define FRAME_DOWN_BYTES ((size_t) 1920 * 1080)
/* Host frames a pipeline cycles through each way, as bench-elements'
 * sources do (N_SOURCE_FRAMES): the host memory the copies touch grows
 * with the pipelines, as theirs does. */
#define FRAME_COPY_HOST_FRAMES 4

typedef struct
{
  void *host_up[FRAME_COPY_HOST_FRAMES], *host_down[FRAME_COPY_HOST_FRAMES];
  void *dev_up, *dev_down;
  cudaStream_t up, down;
  cudaEvent_t done;
} FrameCopies;

/* One row of the frame floors. */
typedef struct
{
  int pipelines;
  gboolean overlapped;          /* else one after the other */
  int host_frames;
  /* each upload a 2-D copy of 1080 rows (pitch = row, as an element's
   * cudaMemcpy2DAsync of an unpadded frame), else one block */
  gboolean upload_rows;
} FrameCopyRow;

/* Microseconds a frame: FRAME_COPY_FRAMES frames shared out over the
 * first @row->pipelines pipelines of @f, all started together (overlapped:
 * uploads and downloads on their own streams, else one after the other on
 * the upload stream), each pipeline cycling through @row->host_frames of
 * its host frames. */
static gboolean
time_frame_copies (Ctx * c, FrameCopies * f, const FrameCopyRow * row,
    double *us)
{
  int n = row->pipelines;
  gboolean overlapped = row->overlapped;
  int host_frames = row->host_frames;
  float ms;
  int i, k;

  CUDA_CHECK (cudaEventRecord (c->events[0], c->cuda));
  for (k = 0; k < n; k++) {
    CUDA_CHECK (cudaStreamWaitEvent (f[k].up, c->events[0], 0));
    CUDA_CHECK (cudaStreamWaitEvent (f[k].down, c->events[0], 0));
  }
  for (i = 0; i < FRAME_COPY_FRAMES; i++) {
    FrameCopies *p = &f[i % n];
    int h = (i / n) % host_frames;

    if (row->upload_rows)
      CUDA_CHECK (cudaMemcpy2DAsync (p->dev_up, FRAME_UP_BYTES / 1080,
              p->host_up[h], FRAME_UP_BYTES / 1080, FRAME_UP_BYTES / 1080,
              1080, cudaMemcpyHostToDevice, p->up));
    else
      CUDA_CHECK (cudaMemcpyAsync (p->dev_up, p->host_up[h],
              FRAME_UP_BYTES, cudaMemcpyHostToDevice, p->up));
    CUDA_CHECK (cudaMemcpyAsync (p->host_down[h], p->dev_down,
            FRAME_DOWN_BYTES, cudaMemcpyDeviceToHost,
            overlapped ? p->down : p->up));
  }
  for (k = 0; k < n; k++) {
    CUDA_CHECK (cudaEventRecord (f[k].done, f[k].up));
    CUDA_CHECK (cudaStreamWaitEvent (c->cuda, f[k].done, 0));
    CUDA_CHECK (cudaEventRecord (f[k].done, f[k].down));
    CUDA_CHECK (cudaStreamWaitEvent (c->cuda, f[k].done, 0));
  }
  CUDA_CHECK (cudaEventRecord (c->events[1], c->cuda));
  CUDA_CHECK (cudaEventSynchronize (c->events[1]));
  CUDA_CHECK (cudaEventElapsedTime (&ms, c->events[0], c->events[1]));
  *us = ms * 1e3 / FRAME_COPY_FRAMES;
  return TRUE;
}

static void
run_frame_floors (Ctx * c)
{
  static const FrameCopyRow rows[] = {
    {1, FALSE, FRAME_COPY_HOST_FRAMES, FALSE},
    {1, TRUE, FRAME_COPY_HOST_FRAMES, FALSE},
    {2, TRUE, FRAME_COPY_HOST_FRAMES, FALSE},
    {4, TRUE, FRAME_COPY_HOST_FRAMES, FALSE},
    {8, TRUE, FRAME_COPY_HOST_FRAMES, FALSE},
    {16, TRUE, FRAME_COPY_HOST_FRAMES, FALSE},
    {1, TRUE, 1, FALSE},
    {8, TRUE, 1, FALSE},
    {16, TRUE, 1, FALSE},
    {1, TRUE, FRAME_COPY_HOST_FRAMES, TRUE},
    {8, TRUE, FRAME_COPY_HOST_FRAMES, TRUE},
    {16, TRUE, FRAME_COPY_HOST_FRAMES, TRUE},
  };
  FrameCopies f[FRAME_COPY_MAX_PIPELINES];
  int k, i, h;
  gboolean allocated = TRUE;

  memset (f, 0, sizeof (f));
  for (k = 0; k < FRAME_COPY_MAX_PIPELINES; k++)
    for (h = 0; h < FRAME_COPY_HOST_FRAMES; h++) {
      allocated = allocated && cudaHostAlloc (&f[k].host_up[h],
          FRAME_UP_BYTES, cudaHostAllocDefault) == cudaSuccess
          && cudaHostAlloc (&f[k].host_down[h], FRAME_DOWN_BYTES,
          cudaHostAllocDefault) == cudaSuccess;
      if (allocated) {
        memset (f[k].host_up[h], 0x5a, FRAME_UP_BYTES);
        memset (f[k].host_down[h], 0xa5, FRAME_DOWN_BYTES);
      }
    }
  for (k = 0; k < FRAME_COPY_MAX_PIPELINES; k++)
    if (!allocated || cudaMalloc (&f[k].dev_up, FRAME_UP_BYTES) != cudaSuccess
        || cudaMalloc (&f[k].dev_down, FRAME_DOWN_BYTES) != cudaSuccess
        || cudaStreamCreateWithFlags (&f[k].up,
            cudaStreamNonBlocking) != cudaSuccess
        || cudaStreamCreateWithFlags (&f[k].down,
            cudaStreamNonBlocking) != cudaSuccess
        || cudaEventCreateWithFlags (&f[k].done,
            cudaEventDisableTiming) != cudaSuccess) {
      g_printerr ("frame floors: allocation failed\n");
      n_failed++;
      goto out;
    }

  for (i = 0; i < (int) G_N_ELEMENTS (rows); i++) {
    const FrameCopyRow *row = &rows[i];
    gchar *name = row->overlapped ?
        g_strdup_printf ("1080p frames, RGBA up and GRAY8 down, %d "
        "pipeline%s overlapped%s%s", row->pipelines,
        row->pipelines > 1 ? "s" : "",
        row->host_frames == 1 ? ", one host frame each" : "",
        row->upload_rows ? ", uploads row by row (2-D)" : "") :
        g_strdup ("1080p frames, RGBA up and GRAY8 down, in turn");
    double us[FRAME_COPY_REPEATS];
    gboolean ok = TRUE;
    Timing t;
    int r;

    for (r = 0; ok && r < FRAME_COPY_REPEATS; r++)
      ok = time_frame_copies (c, f, row, &us[r]);
    if (ok) {
      timing_from_samples (us, FRAME_COPY_REPEATS, &t);
      t.host_us = NAN;
      t.host_waited = FALSE;
      printf ("| %s (%.0f frames/s) | 8 + 2 MB | %.1f | %.1f–%.1f | %.1f |\n",
          name, 1e6 / t.median, t.median, t.min, t.max,
          gbps ((double) (FRAME_UP_BYTES + FRAME_DOWN_BYTES), t.median));
      csv_row ("floor", name, "8 + 2 MB", 1920, 1080, "", &t, NAN,
          (double) (FRAME_UP_BYTES + FRAME_DOWN_BYTES), 0);
      n_passed++;
    } else
      n_failed++;
    g_free (name);
  }

out:
  for (k = 0; k < FRAME_COPY_MAX_PIPELINES; k++) {
    if (f[k].up)
      cudaStreamDestroy (f[k].up);
    if (f[k].down)
      cudaStreamDestroy (f[k].down);
    if (f[k].done)
      cudaEventDestroy (f[k].done);
    cudaFree (f[k].dev_up);
    cudaFree (f[k].dev_down);
    for (h = 0; h < FRAME_COPY_HOST_FRAMES; h++) {
      cudaFreeHost (f[k].host_up[h]);
      cudaFreeHost (f[k].host_down[h]);
    }
  }
}

/* The device-to-device copy's GB/s (read + written), or 0 on failure. */
static double
run_floors (Ctx * c)
{
  void *dev_a = NULL, *dev_b = NULL, *pinned = NULL, *pageable = NULL;
  double copy_gbps = 0;
  Timing t;

  printf ("## Floors\n\n| copy | size | median µs | min–max µs | GB/s |\n"
      "|---|---|---:|---:|---:|\n");
  if (cudaMalloc (&dev_a, D2D_BYTES) != cudaSuccess
      || cudaMalloc (&dev_b, D2D_BYTES) != cudaSuccess
      || cudaHostAlloc (&pinned, HOST_COPY_BYTES,
          cudaHostAllocDefault) != cudaSuccess
      || (pageable = malloc (HOST_COPY_BYTES)) == NULL) {
    g_printerr ("floors: allocation failed\n");
    n_failed++;
    goto out;
  }
  /* Touch every page; the content does not matter to a copy. */
  memset (pinned, 0x5a, HOST_COPY_BYTES);
  memset (pageable, 0xa5, HOST_COPY_BYTES);
  cudaMemsetAsync (dev_a, 0x5a, D2D_BYTES, c->cuda);

  if (time_copy (c, dev_b, dev_a, D2D_BYTES, cudaMemcpyDeviceToDevice, &t)) {
    floor_row ("device to device (read + written)", D2D_BYTES,
        2.0 * D2D_BYTES, &t);
    copy_gbps = gbps (2.0 * D2D_BYTES, t.median);
    n_passed++;
  } else
    n_failed++;

  {
    static const char *names[] = {
      "host to device, page-locked", "device to host, page-locked",
      "host to device, pageable", "device to host, pageable"
    };
    int i;

    for (i = 0; i < 4; i++) {
      void *host = i < 2 ? pinned : pageable;
      gboolean to_device = i % 2 == 0;

      if (time_copy (c, to_device ? dev_a : host, to_device ? host : dev_a,
              HOST_COPY_BYTES, to_device ? cudaMemcpyHostToDevice :
              cudaMemcpyDeviceToHost, &t)) {
        floor_row (names[i], HOST_COPY_BYTES, HOST_COPY_BYTES, &t);
        n_passed++;
      } else
        n_failed++;
    }
  }

  run_frame_floors (c);

out:
  cudaFree (dev_a);
  cudaFree (dev_b);
  cudaFreeHost (pinned);
  free (pageable);
  printf ("\n");
  return copy_gbps;
}

static void
set_free (Set * set, Ctx * c)
{
  int i;

  for (i = 0; i < set->n; i++) {
    cip_image_free (&set->src[i], c->stream);
    if (set->dst)
      cip_image_free (&set->dst[i], c->stream);
  }
  g_free (set->src);
  g_free (set->dst);
  memset (set, 0, sizeof (*set));
}

/* @n inputs of @format and, with @outputs, @n outputs of @out_format. */
static gboolean
set_alloc_full (Set * set, Ctx * c, int n, int width, int height,
    CipFormat format, gboolean outputs, CipFormat out_format)
{
  int i;

  set->n = n;
  set->src = g_new0 (CipImage, n);
  set->dst = outputs ? g_new0 (CipImage, n) : NULL;
  for (i = 0; i < n; i++) {
    if (cip_image_alloc (&set->src[i], width, height, format,
            c->stream) != CIP_OK
        || (outputs && cip_image_alloc (&set->dst[i], width, height,
                out_format, c->stream) != CIP_OK)) {
      g_printerr ("%dx%d: out of device memory\n", width, height);
      set_free (set, c);
      return FALSE;
    }
  }
  return TRUE;
}

/* @n inputs of @format and, with @outputs, @n GRAY8 outputs. */
static gboolean
set_alloc (Set * set, Ctx * c, int n, int width, int height,
    CipFormat format, gboolean outputs)
{
  return set_alloc_full (set, c, n, width, height, format, outputs,
      CIP_FORMAT_GRAY8);
}

static gboolean
set_fill_random (Set * set, Ctx * c, uint64_t seed)
{
  CipImage host = host_image (set->src[0].width, set->src[0].height,
      set->src[0].format);
  gboolean ok = TRUE;
  int i;

  for (i = 0; ok && i < set->n; i++) {
    fill_random (host.data, host.stride * host.height, seed + i);
    ok = cip_copy (&host, &set->src[i], c->stream) == CIP_OK
        && cip_stream_synchronize (c->stream) == CIP_OK;
  }
  g_free (host.data);
  return ok;
}

/* cip_label's tables for @width x @height masks: room for every region of
 * 8-connectivity (at most one per 2x2 block). */
static gboolean
label_tables_alloc (Ctx * c, int width, int height)
{
  uint32_t capacity = (uint32_t) ((width + 1) / 2) * ((height + 1) / 2);

  if (cip_host_alloc ((void **) &c->count_only.count, sizeof (uint32_t),
          c->stream) != CIP_OK
      || cip_host_alloc ((void **) &c->all_regions.count, sizeof (uint32_t),
          c->stream) != CIP_OK
      || cip_host_alloc ((void **) &c->all_regions.regions,
          (size_t) capacity * sizeof (CipRegion), c->stream) != CIP_OK
      || cip_host_alloc ((void **) &c->element.count, sizeof (uint32_t),
          c->stream) != CIP_OK
      || cip_host_alloc ((void **) &c->element.regions,
          ELEMENT_REGION_METAS * sizeof (CipRegion), c->stream) != CIP_OK
      || cip_host_alloc ((void **) &c->element.columns,
          (size_t) capacity * ELEMENT_COLUMNS * sizeof (double),
          c->stream) != CIP_OK
      || cip_image_alloc (&c->label_ids, width, height, CIP_FORMAT_GRAY16,
          c->stream) != CIP_OK) {
    g_printerr ("label tables: %s\n", cip_stream_error (c->stream));
    return FALSE;
  }
  c->all_regions.capacity = capacity;
  c->element.capacity = ELEMENT_REGION_METAS;
  c->element.column_capacity = capacity;
  c->element.props = element_props;
  c->element.n_props = G_N_ELEMENTS (element_props);
  return TRUE;
}

static void
label_tables_free (Ctx * c)
{
  cip_host_free (c->count_only.count, c->stream);
  cip_host_free (c->all_regions.count, c->stream);
  cip_host_free (c->all_regions.regions, c->stream);
  cip_host_free (c->element.count, c->stream);
  cip_host_free (c->element.regions, c->stream);
  cip_host_free (c->element.columns, c->stream);
  cip_image_free (&c->label_ids, c->stream);
  memset (&c->count_only, 0, sizeof (c->count_only));
  memset (&c->all_regions, 0, sizeof (c->all_regions));
  memset (&c->element, 0, sizeof (c->element));
}

/* Number of input/output pairs whose bytes exceed @rotation_bytes. */
static int
rotation_count (size_t rotation_bytes, int width, int height, int in_bpp)
{
  size_t pair = (size_t) width * height * (in_bpp + 1);

  return MAX (4, (int) ((rotation_bytes + pair - 1) / pair));
}

#ifdef HAVE_NPP
/* An equalization table (CDF) from the histogram of @src, uploaded for
 * LUT_Linear, so that it maps as an equalize would. */
static gboolean
prepare_lut (Ctx * c, const CipImage * src)
{
  int32_t hist[256], values[256];
  uint64_t total = 0, sum = 0;
  int i;

  if (!run_npp_histogram (c, src, NULL)) {
    g_printerr ("NPP: %s\n", npp_peers_error ());
    return FALSE;
  }
  CUDA_CHECK (cudaMemcpyAsync (hist, c->npp_hist, sizeof (hist),
          cudaMemcpyDeviceToHost, c->cuda));
  CUDA_CHECK (cudaStreamSynchronize (c->cuda));
  for (i = 0; i < 256; i++)
    total += (uint32_t) hist[i];
  for (i = 0; i < 256; i++) {
    sum += (uint32_t) hist[i];
    values[i] = total ? (int32_t) ((255 * sum + total / 2) / total) : i;
  }
  /* On the stream: it does not synchronize with the legacy one. */
  CUDA_CHECK (cudaMemcpyAsync (c->npp_values, values, sizeof (values),
          cudaMemcpyHostToDevice, c->cuda));
  CUDA_CHECK (cudaStreamSynchronize (c->cuda));
  return TRUE;
}
#endif

static gboolean
prepare (Ctx * c, Prepare what, const Set * set)
{
  switch (what) {
    case PREPARE_NONE:
      return TRUE;
    case PREPARE_MASK:
      c->npp_threshold = mask_params.threshold;
      return TRUE;
    case PREPARE_OTSU:
      /* The threshold Otsu finds on the first image. */
      if (!run_otsu (c, &set->src[0], &set->dst[0])
          || cip_stream_synchronize (c->stream) != CIP_OK)
        return FALSE;
      c->npp_threshold = *c->threshold;
      return TRUE;
    case PREPARE_LUT:
#ifdef HAVE_NPP
      return prepare_lut (c, &set->src[0]);
#else
      return TRUE;
#endif
  }
  return FALSE;
}

static void
op_failed (Ctx * c, const char *op, const char *size, gboolean npp)
{
#ifdef HAVE_NPP
  if (npp) {
    g_printerr ("%s at %s failed: %s\n", op, size, npp_peers_error ());
    n_failed++;
    return;
  }
#endif
  g_printerr ("%s at %s failed: %s\n", op, size, cip_stream_error (c->stream));
  n_failed++;
}

static void
run_size (Ctx * c, int s, size_t rotation_bytes, double copy_gbps)
{
  int width = sizes[s].width, height = sizes[s].height;
  int n_rgba = rotation_count (rotation_bytes, width, height, 4);
  int n_gray = rotation_count (rotation_bytes, width, height, 1);
  Set sets[N_INPUTS] = { {0,}, };
  Set gray_out = { 0, };
  double pixels = (double) width * height;
  guint i;

  /* Gray inputs share one set of outputs. */
  if (!set_alloc (&sets[INPUT_RGBA], c, n_rgba, width, height,
          CIP_FORMAT_RGBA, TRUE)
      || !set_alloc (&sets[INPUT_NATURAL], c, n_gray, width, height,
          CIP_FORMAT_GRAY8, FALSE)
      || !set_alloc (&sets[INPUT_UNIFORM], c, n_gray, width, height,
          CIP_FORMAT_GRAY8, FALSE)
      || !set_alloc (&sets[INPUT_MASK], c, n_gray, width, height,
          CIP_FORMAT_GRAY8, FALSE)
      || !set_alloc (&gray_out, c, n_gray, width, height, CIP_FORMAT_GRAY8,
          FALSE)
      || !label_tables_alloc (c, width, height)) {
    n_failed++;
    goto out;
  }
  sets[INPUT_NATURAL].dst = gray_out.src;
  sets[INPUT_UNIFORM].dst = gray_out.src;
  sets[INPUT_MASK].dst = gray_out.src;

  if (!set_fill_random (&sets[INPUT_RGBA], c, 1000 * s + 1)
      || !set_fill_random (&sets[INPUT_UNIFORM], c, 1000 * s + 500)) {
    g_printerr ("filling the inputs failed: %s\n",
        cip_stream_error (c->stream));
    n_failed++;
    goto out;
  }
  /* Gray made from random colours: a bell-shaped histogram, unlike
   * uniform bytes. */
  for (i = 0; i < (guint) n_gray; i++)
    if (cip_gray (&sets[INPUT_RGBA].src[i % n_rgba],
            &sets[INPUT_NATURAL].src[i], CIP_GRAY_BT601, c->stream) != CIP_OK) {
      op_failed (c, "cip_gray", sizes[s].name, FALSE);
      goto out;
    }
  for (i = 0; i < (guint) n_gray; i++)
    if (cip_mask (&sets[INPUT_UNIFORM].src[i], &sets[INPUT_MASK].src[i],
            &half_mask, c->stream) != CIP_OK) {
      op_failed (c, "cip_mask", sizes[s].name, FALSE);
      goto out;
    }

  for (i = 0; i < G_N_ELEMENTS (op_cases); i++) {
    const OpCase *oc = &op_cases[i];
    const Set *set = &sets[oc->input];
    double bytes = pixels * oc->bytes_per_pixel;
    double npp_us = NAN;
    Timing ours, npp;

    if (only && !strstr (oc->name, only))
      continue;
    if (!time_op (c, oc->ours, set, &ours)) {
      op_failed (c, oc->name, sizes[s].name, FALSE);
      continue;
    }
    if (oc->npp) {
      if (prepare (c, oc->prepare, set) && time_op (c, oc->npp, set, &npp))
        npp_us = npp.median;
      else
        op_failed (c, oc->npp_name, sizes[s].name, TRUE);
    }
    print_op_row (oc->name, sizes[s].name, input_names[oc->input], &ours,
        npp_us, bytes, copy_gbps);
    csv_row ("op", oc->name, sizes[s].name, width, height,
        input_names[oc->input], &ours, npp_us, bytes, copy_gbps);
    n_passed++;
  }

#ifdef HAVE_NPP
  for (i = 0; i < G_N_ELEMENTS (npp_cases); i++) {
    const OpCase *oc = &npp_cases[i];
    const Set *set = &sets[oc->input];
    double bytes = pixels * oc->bytes_per_pixel;
    Timing t;

    if (only)
      continue;
    if (!prepare (c, oc->prepare, set) || !time_op (c, oc->ours, set, &t)) {
      op_failed (c, oc->name, sizes[s].name, TRUE);
      continue;
    }
    print_op_row (oc->name, sizes[s].name, input_names[oc->input], &t, NAN,
        bytes, copy_gbps);
    csv_row ("npp", oc->name, sizes[s].name, width, height,
        input_names[oc->input], &t, NAN, bytes, copy_gbps);
    n_passed++;
  }
#endif

out:
  label_tables_free (c);
  sets[INPUT_NATURAL].dst = NULL;
  sets[INPUT_UNIFORM].dst = NULL;
  sets[INPUT_MASK].dst = NULL;
  for (i = 0; i < N_INPUTS; i++)
    set_free (&sets[i], c);
  set_free (&gray_out, c);
}

/* What the timing itself costs, for the gray rows beside them: a call that
 * does nothing (a 1-byte memset) and the RGBA frame copied on the device,
 * each timed as a gray call is. */
static gboolean
run_floor_empty (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cudaMemsetAsync (dst->data, 0, 1, c->cuda) == cudaSuccess;
}

static gboolean
run_floor_copy (Ctx * c, const CipImage * src, CipImage * dst)
{
  return cudaMemcpy2DAsync (dst->data, dst->stride, src->data, src->stride,
      (size_t) src->width * 4, src->height, cudaMemcpyDeviceToDevice,
      c->cuda) == cudaSuccess;
}

static void
run_gray_floors (Ctx * c, int s, size_t rotation_bytes, double copy_gbps)
{
  static const struct
  {
    const char *name;
    OpFunc func;
    int bytes_per_pixel;
  } floors[] = {
    {"cip_gray floor: an empty call (1-byte memset)", run_floor_empty, 0},
    {"cip_gray floor: the RGBA frame copied on the device", run_floor_copy,
        8},
  };
  int width = sizes[s].width, height = sizes[s].height;
  size_t pair = (size_t) width * height * 8;
  int n = MAX (4, (int) ((rotation_bytes + pair - 1) / pair));
  Set set = { 0, };
  guint i;

  if (!set_alloc_full (&set, c, n, width, height, CIP_FORMAT_RGBA, TRUE,
          CIP_FORMAT_RGBA)) {
    op_failed (c, "cip_gray floor", sizes[s].name, FALSE);
    goto out;
  }
  /* each call between events, then back to back as the gray rows */
  for (i = 0; i < 2 * G_N_ELEMENTS (floors); i++) {
    guint f = i % G_N_ELEMENTS (floors);
    gboolean back_to_back = i >= G_N_ELEMENTS (floors);
    gchar *name = g_strdup_printf ("%s%s", floors[f].name,
        back_to_back ? ", back to back" : "");
    Timing t;

    if ((only && !strstr (floors[f].name, only)) ||
        !time_op_full (c, floors[f].func, &set, back_to_back, &t)) {
      if (!only || strstr (floors[f].name, only))
        op_failed (c, name, sizes[s].name, FALSE);
      g_free (name);
      continue;
    }
    print_op_row (name, sizes[s].name, "random RGBA", &t, NAN,
        (double) width * height * floors[f].bytes_per_pixel, copy_gbps);
    csv_row ("floor", name, sizes[s].name, width, height, "random RGBA", &t,
        NAN, (double) width * height * floors[f].bytes_per_pixel, copy_gbps);
    n_passed++;
    g_free (name);
  }
out:
  set_free (&set, c);
}

/* How a gray row is timed: each call between two events, over inputs
 * rotated through more than L2 holds; the same calls back to back (no
 * event between them, as a pipeline's calls follow one another); or back
 * to back on one source and one output, which then stay in L2 (what a
 * benchmark that converts the same image over and over measures, as
 * peers' published figures do). */
typedef enum
{
  GRAY_TIMED_EACH,
  GRAY_TIMED_BACK_TO_BACK,
  GRAY_TIMED_WARM,
} GrayTiming;

static const char *gray_timing_suffix[] = { "", ", back to back",
  ", warm in L2"
};

/* One row of @g timed as @timing, ours and NPP's (where it has the
 * layout) alike, over the images of @set. */
static void
run_gray_row (Ctx * c, int s, const GrayLayout * g, const char *layout_name,
    const char *input, const Set * set, GrayTiming timing, double bytes,
    double copy_gbps)
{
  gboolean back_to_back = timing != GRAY_TIMED_EACH;
  gchar *name = g_strconcat (layout_name, gray_timing_suffix[timing], NULL);
  Set images = *set;
  double npp_us = NAN;
  Timing ours;

  if (timing == GRAY_TIMED_WARM)
    images.n = 1;
  if (!time_op_full (c, run_gray, &images, back_to_back, &ours)) {
    op_failed (c, name, sizes[s].name, FALSE);
    goto out;
  }
#ifdef HAVE_NPP
  if (g->peer != GRAY_PEER_NONE) {
    Timing npp;

    c->gray_peer = g->peer;
    memcpy (c->gray_weights, g->weights, sizeof (c->gray_weights));
    if (time_op_full (c, run_npp_layout_gray, &images, back_to_back, &npp))
      npp_us = npp.median;
    else
      op_failed (c, g->npp_name, sizes[s].name, TRUE);
  }
#else
  (void) g;
#endif
  print_op_row (name, sizes[s].name, input, &ours, npp_us, bytes, copy_gbps);
  csv_row ("op", name, sizes[s].name, sizes[s].width, sizes[s].height, input,
      &ours, npp_us, bytes, copy_gbps);
  n_passed++;
out:
  g_free (name);
}

/* The gray rows of every layout at size @s, each with its own inputs and
 * outputs (over @rotation_bytes together), timed each way, NPP's call
 * beside it where it has one. */
static void
run_gray_layouts (Ctx * c, int s, size_t rotation_bytes, double copy_gbps)
{
  int width = sizes[s].width, height = sizes[s].height;
  double pixels = (double) width * height;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gray_layouts); i++) {
    const GrayLayout *g = &gray_layouts[i];
    gchar *name = gray_layout_name ("cip_gray", g);
    gchar *input = g_strdup_printf ("random %s", g->layout);
    double bytes = pixels * gray_layout_bytes (g);
    size_t pair = (size_t) width * height * gray_layout_bytes (g);
    int n = MAX (4, (int) ((rotation_bytes + pair - 1) / pair));
    Set set = { 0, };
    GrayTiming timing;

    if (only && !strstr (name, only))
      goto next;
    if (!set_alloc_full (&set, c, n, width, height, g->src, TRUE, g->dst)
        || !set_fill_random (&set, c, 7000 + 100 * s + i)) {
      op_failed (c, name, sizes[s].name, FALSE);
      goto next;
    }
    for (timing = GRAY_TIMED_EACH; timing <= GRAY_TIMED_WARM; timing++)
      run_gray_row (c, s, g, name, input, &set, timing, bytes, copy_gbps);
  next:
    set_free (&set, c);
    g_free (name);
    g_free (input);
  }
}

/* GRAY16_LE in: cip_equalize (GRAY16 out, NPP's 16-bit HistogramEven +
 * LUTPalette beside it) and cip_otsu (GRAY8 mask out), on uniform 16-bit
 * values and on a 12-bit sensor's (4,096 occupied levels of 65,536). */
static const struct
{
  const char *name;
  CipFormat out;
  OpFunc ours;
  OpFunc npp;
  int bytes_per_pixel;          /* read twice, written once */
} deep_cases[] = {
  {"cip_equalize GRAY16", CIP_FORMAT_GRAY16, run_equalize,
      NPP_PEER (run_npp_equalize16), 6},
  {"cip_otsu GRAY16", CIP_FORMAT_GRAY8, run_otsu16, NULL, 5},
};

static const struct
{
  const char *name;
  CipFormat stored;             /* random bytes in it, read as luma */
} deep_inputs[] = {
  {"uniform GRAY16", CIP_FORMAT_GRAY16},
  {"12-bit sensor", CIP_FORMAT_GRAY12_LSB},
};

static void
run_deep (Ctx * c, int s, size_t rotation_bytes, double copy_gbps)
{
  int width = sizes[s].width, height = sizes[s].height;
  double pixels = (double) width * height;
  guint i, k, j;

  for (i = 0; i < G_N_ELEMENTS (deep_cases); i++) {
    size_t pair = (size_t) width * height * deep_cases[i].bytes_per_pixel;
    int n = MAX (4, (int) ((rotation_bytes + pair - 1) / pair));

    if (only && !strstr (deep_cases[i].name, only))
      continue;
    for (k = 0; k < G_N_ELEMENTS (deep_inputs); k++) {
      Set set = { 0, };
      CipImage raw = { 0, };
      double npp_us = NAN;
      Timing ours;

      /* Random bytes, then the luma of them as GRAY16_LE. */
      if (!set_alloc_full (&set, c, n, width, height, CIP_FORMAT_GRAY16,
              TRUE, deep_cases[i].out)
          || !set_fill_random (&set, c, 9000 + 100 * s + k)
          || cip_image_alloc (&raw, width, height, CIP_FORMAT_GRAY16,
              c->stream) != CIP_OK) {
        op_failed (c, deep_cases[i].name, sizes[s].name, FALSE);
        goto next;
      }
      for (j = 0; j < (guint) n && deep_inputs[k].stored != CIP_FORMAT_GRAY16;
          j++) {
        CipImage as_stored = raw;

        as_stored.format = deep_inputs[k].stored;
        if (cip_copy (&set.src[j], &raw, c->stream) != CIP_OK
            || cip_gray (&as_stored, &set.src[j], CIP_GRAY_BT601,
                c->stream) != CIP_OK) {
          op_failed (c, "cip_gray", sizes[s].name, FALSE);
          goto next;
        }
      }
      if (!time_op (c, deep_cases[i].ours, &set, &ours)) {
        op_failed (c, deep_cases[i].name, sizes[s].name, FALSE);
        goto next;
      }
#ifdef HAVE_NPP
      if (deep_cases[i].npp) {
        Timing npp;

        if (time_op (c, deep_cases[i].npp, &set, &npp))
          npp_us = npp.median;
        else
          op_failed (c, "HistogramEven_16u + LUTPalette_16u", sizes[s].name,
              TRUE);
      }
#endif
      print_op_row (deep_cases[i].name, sizes[s].name, deep_inputs[k].name,
          &ours, npp_us, pixels * deep_cases[i].bytes_per_pixel, copy_gbps);
      csv_row ("op", deep_cases[i].name, sizes[s].name, width, height,
          deep_inputs[k].name, &ours, npp_us,
          pixels * deep_cases[i].bytes_per_pixel, copy_gbps);
      n_passed++;
    next:
      cip_image_free (&raw, c->stream);
      set_free (&set, c);
    }
  }
}

/* What bench-elements' pipelines queue on the GPU per frame. */
static const struct
{
  const char *name;
  gboolean cells;               /* cell-like frames, else random RGBA */
  OpFunc func;
} chain_cases[] = {
  {"cudagray ! cudaequalize ! cudaotsu", FALSE, run_chain_equalize_otsu},
  {"seed workflow without cudalabel", TRUE, run_workflow_without_label},
  {"seed workflow", TRUE, run_workflow},
  {"seed workflow without cudalabel", FALSE, run_workflow_without_label},
  {"seed workflow", FALSE, run_workflow},
  /* what tracks add (bench-elements' "cudagray ! cudaotsu ! cudalabel"
   * rows on cell-like frames) */
  {"cudagray ! cudaotsu ! cudalabel", TRUE, run_gray_otsu_label},
  {"cudagray ! cudaotsu ! cudalabel track=true", TRUE,
      run_gray_otsu_label_track},
  {"cudagray ! cudaotsu ! cudalabel track=true, pairs counted apart", TRUE,
      run_gray_otsu_label_track_apart},
};

/* bench-elements' source frames: four, seeds 1 to 4. */
#define N_CHAIN_FRAMES 4

static gboolean
chain_frames_alloc (Ctx * c, Set * random_frames, Set * cell_frames,
    int width, int height)
{
  CipImage host;
  gboolean ok = TRUE;
  int i;

  if (!set_alloc (random_frames, c, N_CHAIN_FRAMES, width, height,
          CIP_FORMAT_RGBA, TRUE)
      || !set_alloc (cell_frames, c, N_CHAIN_FRAMES, width, height,
          CIP_FORMAT_RGBA, TRUE)
      || !set_fill_random (random_frames, c, 1))
    return FALSE;
  for (i = 0; i < 4; i++)
    if (cip_image_alloc (&c->between[i], width, height, CIP_FORMAT_GRAY8,
            c->stream) != CIP_OK)
      return FALSE;
  if (cip_image_alloc (&c->painted, width, height, CIP_FORMAT_RGBA,
          c->stream) != CIP_OK || !label_tables_alloc (c, width, height))
    return FALSE;
  for (i = 0; i < 2; i++) {
    size_t regions = cip_label_max_regions (width, height, 8);
    uint32_t *words;

    if (cip_buffer_alloc ((void **) &c->track_buffers[i],
            (CIP_TRACK_STATE_WORDS + regions + (size_t) width * height) *
            sizeof (uint32_t), c->stream) != CIP_OK)
      return FALSE;
    words = c->track_buffers[i];
    c->track[i].state = words;
    c->track[i].ids = words + CIP_TRACK_STATE_WORDS;
    c->track[i].labels = words + CIP_TRACK_STATE_WORDS + regions;
    c->track[i].stride = width;
  }
  c->track_started = FALSE;

  host = host_image (width, height, CIP_FORMAT_RGBA);
  for (i = 0; ok && i < N_CHAIN_FRAMES; i++) {
    bench_draw_cells (host.data, width, height, host.stride, i + 1);
    ok = cip_copy (&host, &cell_frames->src[i], c->stream) == CIP_OK
        && cip_stream_synchronize (c->stream) == CIP_OK;
  }
  g_free (host.data);
  return ok;
}

static void
run_chains (Ctx * c, int s)
{
  int width = sizes[s].width, height = sizes[s].height;
  Set random_frames = { 0, }, cell_frames = { 0, };
  guint i;

  if (!chain_frames_alloc (c, &random_frames, &cell_frames, width, height)) {
    op_failed (c, "chains", sizes[s].name, FALSE);
    goto out;
  }

  for (i = 0; i < G_N_ELEMENTS (chain_cases); i++) {
    const char *input = chain_cases[i].cells ? "cell-like RGBA" : "random RGBA";
    gchar *what = g_strdup_printf ("%s, %s", chain_cases[i].name, input);
    gboolean skip = only && !strstr (what, only);
    char regions[32] = "";
    Timing t;

    g_free (what);
    if (skip)
      continue;
    if (!time_op (c, chain_cases[i].func, chain_cases[i].cells ?
            &cell_frames : &random_frames, &t)) {
      op_failed (c, chain_cases[i].name, sizes[s].name, FALSE);
      continue;
    }
    /* time_op synchronized: the last frame's count. */
    if (chain_cases[i].func == run_workflow)
      g_snprintf (regions, sizeof (regions), "%u", *c->all_regions.count);
    printf ("| %s | %s | %s | %s | %.1f [%.1f–%.1f] | %.1f | %.0f |\n",
        chain_cases[i].name, sizes[s].name, input, regions, t.median, t.p10,
        t.p90, t.host_us, 1e6 / t.median);
    csv_row ("chain", chain_cases[i].name, sizes[s].name, width, height,
        input, &t, NAN, 0, 0);
    n_passed++;
  }

out:
  label_tables_free (c);
  for (i = 0; i < 4; i++)
    cip_image_free (&c->between[i], c->stream);
  for (i = 0; i < 2; i++) {
    cip_buffer_free (c->track_buffers[i], c->stream);
    c->track_buffers[i] = NULL;
    memset (&c->track[i], 0, sizeof (c->track[i]));
  }
  cip_image_free (&c->painted, c->stream);
  set_free (&random_frames, c);
  set_free (&cell_frames, c);
}

static gboolean
run_gpu (void)
{
  Ctx c = { 0, };
  struct cudaDeviceProp prop;
  char error[256] = "";
  int device, l2 = 0, runtime = 0, s, i;
  size_t rotation_bytes;
  double copy_gbps;

  if (cip_stream_new (&c.stream, NULL, error, sizeof (error)) != CIP_OK) {
    g_printerr ("cip_stream_new: %s\n", error);
    return FALSE;
  }
  c.cuda = (cudaStream_t) cip_stream_handle (c.stream);
  CUDA_CHECK (cudaGetDevice (&device));
  CUDA_CHECK (cudaGetDeviceProperties (&prop, device));
  CUDA_CHECK (cudaDeviceGetAttribute (&l2, cudaDevAttrL2CacheSize, device));
  CUDA_CHECK (cudaRuntimeGetVersion (&runtime));
  for (i = 0; i <= BATCH; i++)
    CUDA_CHECK (cudaEventCreate (&c.events[i]));
  if (cip_host_alloc ((void **) &c.threshold, 1, c.stream) != CIP_OK
      || cip_host_alloc ((void **) &c.threshold16, 2, c.stream) != CIP_OK) {
    g_printerr ("cip_host_alloc: %s\n", cip_stream_error (c.stream));
    return FALSE;
  }
  rotation_bytes = MAX (MIN_ROTATION_BYTES, (size_t) 5 * l2);

  printf ("# Kernel benchmark: %s, %d SMs, L2 %d MB, CUDA runtime %d.%d\n\n"
      "Inputs and outputs rotate through at least %zu MB; %d calls timed "
      "after %d of warm-up.\n\n", prop.name, prop.multiProcessorCount,
      l2 >> 20, runtime / 1000, runtime % 1000 / 10, rotation_bytes >> 20,
      N_RUNS, N_WARMUP);

#ifdef HAVE_NPP
  {
    int32_t levels[256];

    for (i = 0; i < 256; i++)
      levels[i] = i;
    CUDA_CHECK (cudaMalloc ((void **) &c.npp_hist, 256 * sizeof (int32_t)));
    CUDA_CHECK (cudaMalloc ((void **) &c.npp_values, 256 * sizeof (int32_t)));
    CUDA_CHECK (cudaMalloc ((void **) &c.npp_levels, 256 * sizeof (int32_t)));
    CUDA_CHECK (cudaMemcpyAsync (c.npp_levels, levels, sizeof (levels),
            cudaMemcpyHostToDevice, c.cuda));
    CUDA_CHECK (cudaMemcpyAsync (c.npp_values, levels, sizeof (levels),
            cudaMemcpyHostToDevice, c.cuda));
    CUDA_CHECK (cudaMalloc ((void **) &c.npp_hist16, 65536 * sizeof (int32_t)));
    /* The table's values do not change its cost: zeros. */
    CUDA_CHECK (cudaMalloc ((void **) &c.npp_table16,
            65536 * sizeof (uint16_t)));
    CUDA_CHECK (cudaMemsetAsync (c.npp_table16, 0, 65536 * sizeof (uint16_t),
            c.cuda));
    CUDA_CHECK (cudaStreamSynchronize (c.cuda));
    if (npp_peers_init (c.cuda, sizes[G_N_ELEMENTS (sizes) - 1].width,
            sizes[G_N_ELEMENTS (sizes) - 1].height) != 0) {
      g_printerr ("NPP: %s\n", npp_peers_error ());
      return FALSE;
    }
  }
#endif

  copy_gbps = run_floors (&c);

  if (!chains_only) {
    printf ("## Operations\n\n");
#ifdef HAVE_NPP
    printf ("NPP peers on the same stream.  equalize = HistogramEven + "
        "LUT_Linear back to back, without the host CDF NPP needs between "
        "them; Otsu = HistogramEven + Threshold_GTVal without a threshold "
        "search; mask = Threshold_GTVal, which leaves pixels at or below "
        "the threshold as they are.  The last rows time each NPP call "
        "alone.\n\n");
#else
    printf ("Built without NPP (-DHAVE_NPP): no peers.\n\n");
#endif
    print_op_header ();
    for (s = 0; s < (int) G_N_ELEMENTS (sizes); s++) {
      run_size (&c, s, rotation_bytes, copy_gbps);
      run_gray_floors (&c, s, rotation_bytes, copy_gbps);
      run_gray_layouts (&c, s, rotation_bytes, copy_gbps);
      run_deep (&c, s, rotation_bytes, copy_gbps);
    }
    printf ("\n");
  } else {
    printf ("## Chains\n\nThe kernels of each element pipeline, with the "
        "elements' settings, back to back on one stream over %d source "
        "frames; the frames/s their GPU time allows.\n\n"
        "| pipeline | size | frames | regions | µs median [p10–p90] | "
        "host µs/frame | frames/s limit |\n"
        "|---|---|---|---:|---:|---:|---:|\n", N_CHAIN_FRAMES);
    for (s = 0; s < (int) G_N_ELEMENTS (sizes); s++)
      run_chains (&c, s);
  }

#ifdef HAVE_NPP
  npp_peers_free ();
  cudaFree (c.npp_hist);
  cudaFree (c.npp_values);
  cudaFree (c.npp_levels);
  cudaFree (c.npp_hist16);
  cudaFree (c.npp_table16);
#endif
  for (i = 0; i <= BATCH; i++)
    cudaEventDestroy (c.events[i]);
  cip_host_free (c.threshold, c.stream);
  cip_host_free (c.threshold16, c.stream);
  cip_stream_free (c.stream);
  return TRUE;
}

/* --quick: the CPU reference */

typedef CipStatus (*RefFunc) (const CipImage * src, CipImage * dst);

static CipStatus
ref_gray (const CipImage * src, CipImage * dst)
{
  return cip_ref_gray (src, dst, CIP_GRAY_BT601, NULL);
}

static CipStatus
ref_mask (const CipImage * src, CipImage * dst)
{
  return cip_ref_mask (src, dst, &mask_params, NULL);
}

static CipStatus
ref_equalize (const CipImage * src, CipImage * dst)
{
  return cip_ref_equalize (src, dst, NULL);
}

static CipStatus
ref_otsu (const CipImage * src, CipImage * dst)
{
  uint8_t threshold;

  return cip_ref_otsu (src, dst, false, &threshold, NULL);
}

static CipStatus
ref_blur_5x5 (const CipImage * src, CipImage * dst)
{
  return cip_ref_blur (src, dst, 0.5, NULL);
}

static CipStatus
ref_erode_3x3 (const CipImage * src, CipImage * dst)
{
  return cip_ref_morph (src, dst, CIP_MORPH_ERODE, CIP_SHAPE_SQUARE, 1, NULL);
}

static CipStatus
ref_label (const CipImage * src, CipImage * dst)
{
  uint32_t count;
  CipRegionTable table = { NULL, 0, &count };

  return cip_ref_label (src, NULL, &label_params, NULL, &table, NULL);
}

static void
run_quick (void)
{
  static const struct
  {
    const char *name;
    InputKind input;
    RefFunc func;
    int bytes_per_pixel;
  } cases[] = {
    {"cip_ref_gray (BT601)", INPUT_RGBA, ref_gray, 5},
    {"cip_ref_mask", INPUT_UNIFORM, ref_mask, 2},
    {"cip_ref_equalize", INPUT_NATURAL, ref_equalize, 3},
    {"cip_ref_equalize", INPUT_UNIFORM, ref_equalize, 3},
    {"cip_ref_otsu", INPUT_NATURAL, ref_otsu, 3},
    {"cip_ref_otsu", INPUT_UNIFORM, ref_otsu, 3},
    {"cip_ref_blur 5x5 (sigma 0.5)", INPUT_NATURAL, ref_blur_5x5, 2},
    {"cip_ref_morph erode 3x3", INPUT_NATURAL, ref_erode_3x3, 2},
    {"cip_ref_label, statistics", INPUT_MASK, ref_label, 1},
  };
  CipImage inputs[N_INPUTS], dst;
  double pixels = QUICK_WIDTH * QUICK_HEIGHT;
  char size[32];
  guint i;
  int k;

  inputs[INPUT_RGBA] = host_image (QUICK_WIDTH, QUICK_HEIGHT, CIP_FORMAT_RGBA);
  inputs[INPUT_NATURAL] = host_image (QUICK_WIDTH, QUICK_HEIGHT,
      CIP_FORMAT_GRAY8);
  inputs[INPUT_UNIFORM] = host_image (QUICK_WIDTH, QUICK_HEIGHT,
      CIP_FORMAT_GRAY8);
  inputs[INPUT_MASK] = host_image (QUICK_WIDTH, QUICK_HEIGHT, CIP_FORMAT_GRAY8);
  dst = host_image (QUICK_WIDTH, QUICK_HEIGHT, CIP_FORMAT_GRAY8);
  fill_random (inputs[INPUT_RGBA].data, inputs[INPUT_RGBA].stride *
      QUICK_HEIGHT, 1);
  fill_random (inputs[INPUT_UNIFORM].data, inputs[INPUT_UNIFORM].stride *
      QUICK_HEIGHT, 2);
  cip_ref_gray (&inputs[INPUT_RGBA], &inputs[INPUT_NATURAL], CIP_GRAY_BT601,
      NULL);
  cip_ref_mask (&inputs[INPUT_UNIFORM], &inputs[INPUT_MASK], &half_mask, NULL);
  g_snprintf (size, sizeof (size), "%dx%d", QUICK_WIDTH, QUICK_HEIGHT);

  printf ("# Kernel benchmark, --quick: the CPU reference only\n\n");
  print_op_header ();
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    double us[QUICK_RUNS];
    gboolean ok = TRUE;
    Timing t;

    for (k = 0; ok && k < QUICK_WARMUP + QUICK_RUNS; k++) {
      gint64 start = g_get_monotonic_time ();

      ok = cases[i].func (&inputs[cases[i].input], &dst) == CIP_OK;
      if (k >= QUICK_WARMUP)
        /* Microsecond clock: keep tiny calls off zero. */
        us[k - QUICK_WARMUP] = MAX (1, g_get_monotonic_time () - start);
    }
    if (!ok) {
      g_printerr ("%s failed\n", cases[i].name);
      n_failed++;
      continue;
    }
    timing_from_samples (us, QUICK_RUNS, &t);
    t.host_us = NAN;
    t.host_waited = FALSE;
    print_op_row (cases[i].name, size, input_names[cases[i].input], &t, NAN,
        pixels * cases[i].bytes_per_pixel, 0);
    csv_row ("cpu", cases[i].name, size, QUICK_WIDTH, QUICK_HEIGHT,
        input_names[cases[i].input], &t, NAN,
        pixels * cases[i].bytes_per_pixel, 0);
    n_passed++;
  }

  /* cip_gray's layouts, as the reference reads them. */
  for (i = 0; i < G_N_ELEMENTS (gray_layouts); i++) {
    const GrayLayout *g = &gray_layouts[i];
    gchar *name = gray_layout_name ("cip_ref_gray", g);
    gchar *input = g_strdup_printf ("random %s", g->layout);
    CipImage src = host_image (QUICK_WIDTH, QUICK_HEIGHT, g->src);
    CipImage out = host_image (QUICK_WIDTH, QUICK_HEIGHT, g->dst);
    double us[QUICK_RUNS];
    gboolean ok = TRUE;
    Timing t;

    fill_random (src.data, src.stride * QUICK_HEIGHT, 100 + i);
    for (k = 0; ok && k < QUICK_WARMUP + QUICK_RUNS; k++) {
      gint64 start = g_get_monotonic_time ();

      ok = cip_ref_gray (&src, &out, CIP_GRAY_BT601, NULL) == CIP_OK;
      if (k >= QUICK_WARMUP)
        us[k - QUICK_WARMUP] = MAX (1, g_get_monotonic_time () - start);
    }
    if (ok) {
      timing_from_samples (us, QUICK_RUNS, &t);
      t.host_us = NAN;
      t.host_waited = FALSE;
      print_op_row (name, size, input, &t, NAN,
          pixels * gray_layout_bytes (g), 0);
      csv_row ("cpu", name, size, QUICK_WIDTH, QUICK_HEIGHT, input, &t, NAN,
          pixels * gray_layout_bytes (g), 0);
      n_passed++;
    } else {
      g_printerr ("%s failed\n", name);
      n_failed++;
    }
    g_free (src.data);
    g_free (out.data);
    g_free (name);
    g_free (input);
  }

  for (i = 0; i < N_INPUTS; i++)
    g_free (inputs[i].data);
  g_free (dst.data);
}

/* The region table's columns from the regions' statistics, as the
 * reference computes them (cudalabel's cpu backend; the cuda backend's
 * labelling kernel writes them itself), against a memcpy of the same
 * bytes, which is what the cuda backend's host does per frame. */

#define TABLE_RUNS 200

static void
run_table (void)
{
  static const CipRegionProperty default_props[] = {
    CIP_PROP_LABEL, CIP_PROP_AREA, CIP_PROP_BBOX, CIP_PROP_CENTROID,
    CIP_PROP_INTENSITY_MEAN
  };
  static const guint counts[] = { 1000, 10000 };
  CipRegionProperty all_props[CIP_N_PROPS];
  guint i, p;

  for (p = 0; p < CIP_N_PROPS; p++)
    all_props[p] = p;

  printf ("## Region table (host)\n\n"
      "`cip_region_property_table`, the columns of a frame's table from its "
      "regions' statistics, against a memcpy of the bytes it writes; "
      "median of %d.\n\n| properties | regions | µs | memcpy µs |\n"
      "|---|---:|---:|---:|\n", TABLE_RUNS);
  for (i = 0; i < G_N_ELEMENTS (counts); i++) {
    guint n = counts[i], set;
    CipRegion *regions = g_new0 (CipRegion, n);
    GRand *rand = g_rand_new_with_seed (n);
    guint r;

    /* cell-like regions of 20 to 2000 pixels over a 4K frame */
    for (r = 0; r < n; r++) {
      CipRegion *region = &regions[r];
      guint w = g_rand_int_range (rand, 4, 50), h = g_rand_int_range (rand,
          4, 50);

      region->label = r + 1;
      region->left = g_rand_int_range (rand, 0, 3790);
      region->top = g_rand_int_range (rand, 0, 2110);
      region->width = w;
      region->height = h;
      region->area = MAX (1, w * h * 3 / 4);
      region->sum_x = (guint64) region->area * (region->left + w / 2);
      region->sum_y = (guint64) region->area * (region->top + h / 2);
      region->sum_xx = region->sum_x * (region->left + w / 2);
      region->sum_yy = region->sum_y * (region->top + h / 2);
      region->sum_xy = region->sum_x * (region->top + h / 2);
      region->sum_intensity = (guint64) region->area * 170;
      region->intensity_min = 150;
      region->intensity_max = 209;
      region->area_convex = region->area + w;
      region->area_filled = region->area;
      region->feret_sq4 = 4 * (guint64) (w * w + h * h);
    }

    for (set = 0; set < 2; set++) {
      const CipRegionProperty *props = set ? all_props : default_props;
      guint n_props = set ? CIP_N_PROPS : G_N_ELEMENTS (default_props);
      guint n_columns = 0, k;
      double table_us[TABLE_RUNS], copy_us[TABLE_RUNS];
      double *columns, *copy;
      Timing table, memcpy_t;

      for (p = 0; p < n_props; p++)
        n_columns += cip_region_property_columns (props[p]);
      columns = g_new (double, (gsize) n_columns * n);
      copy = g_new (double, (gsize) n_columns * n);
      for (k = 0; k < TABLE_RUNS + 5; k++) {
        gint64 start = g_get_monotonic_time ();

        cip_region_property_table (regions, n, props, n_props, columns);
        if (k >= 5)
          table_us[k - 5] = MAX (0.1, g_get_monotonic_time () - start);
        start = g_get_monotonic_time ();
        memcpy (copy, columns, (gsize) n_columns * n * sizeof (double));
        if (k >= 5)
          copy_us[k - 5] = MAX (0.1, g_get_monotonic_time () - start);
      }
      timing_from_samples (table_us, TABLE_RUNS, &table);
      timing_from_samples (copy_us, TABLE_RUNS, &memcpy_t);
      table.host_us = NAN;
      table.host_waited = FALSE;
      printf ("| %s (%u columns) | %u | %.1f | %.1f |\n", set ? "all 20" :
          "default", n_columns, n, table.median, memcpy_t.median);
      csv_row ("table", set ? "region table, all 20 properties" :
          "region table, default properties", "", n, n_columns, "", &table,
          NAN, (double) n_columns * n * sizeof (double), 0);
      n_passed++;
      g_free (columns);
      g_free (copy);
    }
    g_rand_free (rand);
    g_free (regions);
  }
  printf ("\n");
}

int
main (int argc, char **argv)
{
  gboolean quick = FALSE;
  gchar *csv_path = NULL;
  GOptionEntry entries[] = {
    {"quick", 0, 0, G_OPTION_ARG_NONE, &quick,
        "The CPU reference on small images (no GPU needed)", NULL},
    {"chains", 0, 0, G_OPTION_ARG_NONE, &chains_only,
        "Only the copy floors and the element pipelines' kernels", NULL},
    {"only", 0, 0, G_OPTION_ARG_STRING, &only,
        "Run only the operations whose name contains TEXT (and their NPP "
          "peers)", "TEXT"},
    {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path, "Write the rows as CSV",
        "FILE"},
    {NULL}
  };
  GOptionContext *options = g_option_context_new ("- kernel benchmark");
  GError *error = NULL;
  int devices = 0;
  gboolean ok = TRUE;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    g_clear_error (&error);
    return 2;
  }
  g_option_context_free (options);

  if (!quick && cip_device_count (&devices) != CIP_OK) {
    g_printerr ("no usable CUDA device: use --quick\n");
    return 77;
  }

  if (csv_path) {
    csv = fopen (csv_path, "w");
    if (csv == NULL) {
      g_printerr ("cannot write %s\n", csv_path);
      return 2;
    }
    fprintf (csv, "section,op,size,width,height,input,median_us,min_us,"
        "p10_us,p90_us,max_us,host_us,npp_median_us,speedup,gbps,"
        "pct_copy\n");
  }

  if (quick)
    run_quick ();
  else
    ok = run_gpu ();
  if (!chains_only && (only == NULL || strstr ("region table", only)))
    run_table ();

  if (csv)
    fclose (csv);
  g_free (csv_path);
  printf ("\n%u passed, %u failed\n", n_passed, n_failed);
  return ok && n_failed == 0 ? 0 : 1;
}
