/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The CUDA operations of gpu/cip.h against their CPU reference
 * (gpu/ref/), byte for byte: every format, method and parameter, sizes
 * from 1x1 to 9000x4637, real and random images, and device images at
 * unaligned addresses and odd strides.  Each device image sits in a
 * larger allocation whose every other byte holds a random pattern, and the
 * whole allocation is compared after each operation, so a write outside
 * the destination's rows fails the test too.
 *
 * Exits with 77 (skipped) where no CUDA device is usable. */

#include <string.h>

#include "cip-pixel.h"
#include "cip-ref.h"
#include "test-gpu.h"
#include "test-util.h"

/* cip_otsu's threshold: page-locked.  Only its first byte may be written;
 * the others hold THRESHOLD_GUARD. */
static guint8 *threshold;
#define THRESHOLD_BYTES 16
#define THRESHOLD_GUARD 0xc3

static const int sizes[][2] = {
  {1, 1}, {2, 3}, {3, 2}, {7, 5}, {31, 17}, {33, 1}, {1, 33}, {127, 129},
  {640, 480}, {1001, 999}, {1920, 1080}, {3840, 2160},
};

static const CipGrayMethod gray_methods[] = {
  CIP_GRAY_BT601, CIP_GRAY_BT709, CIP_GRAY_LUMINOSITY, CIP_GRAY_AVERAGE,
};

static const char *gray_images[] = {
  "coins", "camera", "moon", "phantom", "chelsea-gray-bt601",
};

/* Contents */

typedef enum
{
  FILL_RANDOM,                  /* as cip_test_device_image_new left it */
  FILL_NARROW,                  /* 100..115 */
  FILL_SKEWED,                  /* mostly dark */
  FILL_CONSTANT,                /* a */
  FILL_TWO,                     /* a or b */
  FILL_SPARSE,                  /* a, with a few other values at the edges */
} Fill;

static const char *fill_names[] = {
  "random", "narrow", "skewed", "constant", "two-valued", "sparse",
};

/* Reshapes the random pixels of a GRAY8 buffer's mirror. */
static void
buffer_fill (CipTestDeviceImage * b, Fill fill, guint8 a, guint8 v)
{
  CipImage *img = &b->host_img;
  int x, y, w = img->width, h = img->height;

  g_assert_cmpint (img->format, ==, CIP_FORMAT_GRAY8);
  for (y = 0; y < h; y++) {
    guint8 *p = (guint8 *) img->data + y * img->stride;

    for (x = 0; x < w; x++) {
      switch (fill) {
        case FILL_RANDOM:
          break;
        case FILL_NARROW:
          p[x] = 100 + (p[x] & 15);
          break;
        case FILL_SKEWED:
          p[x] = (p[x] * p[x]) >> 8;
          break;
        case FILL_CONSTANT:
          p[x] = a;
          break;
        case FILL_TWO:
          p[x] = (p[x] & 1) ? v : a;
          break;
        case FILL_SPARSE:
          /* The last row and column and the corners, where edge handling
           * would lose counts: each pixel moves the equalize table. */
          p[x] = y == h - 1 ? 100 : x == w - 1 ? 200 : a;
          if (y == 0 && x == 0)
            p[x] = 3;
          else if (y == 0 && x == w - 1)
            p[x] = 7;
          else if (y == h - 1 && x == 0)
            p[x] = 250;
          else if (y == h - 1 && x == w - 1)
            p[x] = 252;
          break;
      }
    }
  }
}

/* Operations */

typedef enum
{
  OP_GRAY, OP_MASK, OP_EQUALIZE, OP_OTSU,
} Op;

typedef struct
{
  Op op;
  CipGrayMethod method;
  CipMaskParams mask;
  bool invert;
} OpArgs;

static CipStatus
run_op (const OpArgs * a, const CipImage * src, CipImage * dst, guint8 * t,
    CipStream * s)
{
  switch (a->op) {
    case OP_GRAY:
      return s ? cip_gray (src, dst, a->method, s) :
          cip_ref_gray (src, dst, a->method, NULL);
    case OP_MASK:
      return s ? cip_mask (src, dst, &a->mask, s) :
          cip_ref_mask (src, dst, &a->mask, NULL);
    case OP_EQUALIZE:
      return s ? cip_equalize (src, dst, s) : cip_ref_equalize (src, dst, NULL);
    case OP_OTSU:
      return s ? cip_otsu (src, dst, a->invert, t, s) :
          cip_ref_otsu (src, dst, a->invert, t, NULL);
  }
  g_assert_not_reached ();
}

static gchar *
op_name (const OpArgs * a)
{
  switch (a->op) {
    case OP_GRAY:
      return g_strdup_printf ("gray method %d", a->method);
    case OP_MASK:
      return g_strdup_printf ("mask threshold %u foreground %u%s",
          a->mask.threshold, a->mask.foreground,
          a->mask.invert ? " inverted" : "");
    case OP_EQUALIZE:
      return g_strdup ("equalize");
    case OP_OTSU:
      return g_strdup_printf ("otsu%s", a->invert ? " inverted" : "");
  }
  g_assert_not_reached ();
}

/* Runs @a on the device from @src (already uploaded) into @dst, and checks
 * every byte of @dst's allocation against the reference, and Otsu's
 * threshold.  Returns the threshold (0 for other operations). */
static guint8
check_op (CipTestDeviceImage * src, CipTestDeviceImage * dst, const OpArgs * a,
    const char *what)
{
  guint8 *expected = g_malloc (dst->size);
  CipImage expected_img = dst->host_img;
  guint8 ref_t = 0;
  gchar *name = op_name (a);
  gchar *full = g_strdup_printf ("%s %dx%d %s: %s", what, src->dev.width,
      src->dev.height, cip_format_name (src->dev.format), name);
  int i;

  memcpy (expected, dst->host, dst->size);
  expected_img.data = expected + dst->offset;
  if (run_op (a, &src->host_img, &expected_img, &ref_t, NULL) != CIP_OK)
    fail ("%s: the reference failed", full);

  /* Fresh random pattern in the destination. */
  cip_test_device_image_upload (dst);
  threshold[0] = ~ref_t;
  CHECK (run_op (a, &src->dev, &dst->dev, threshold, cip_test_stream));
  CHECK (cip_stream_synchronize (cip_test_stream));

  if (a->op == OP_OTSU && threshold[0] != ref_t)
    fail ("%s: threshold %u, reference %u", full, threshold[0], ref_t);
  for (i = 1; i < THRESHOLD_BYTES; i++)
    if (threshold[i] != THRESHOLD_GUARD)
      fail ("%s: threshold byte %d written", full, i);
  cip_test_device_image_check (dst, expected, full);

  g_free (full);
  g_free (name);
  g_free (expected);
  return ref_t;
}

/* Gray */

/* Every format (GRAY8's copy included) and method, on random pixels of
 * every size. */
static void
test_gray_sizes (void)
{
  guint i, m;
  int f;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    int w = sizes[i][0], h = sizes[i][1];
    CipTestDeviceImage *dst;

    if (cip_test_size_skipped (w, h))
      continue;
    dst = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8, NULL, i);

    for (f = 0; f < CIP_N_INPUT_FORMATS; f++) {
      CipTestDeviceImage *src =
          cip_test_device_image_new (w, h, (CipFormat) f, NULL,
          1000 + i * 16 + f);

      cip_test_device_image_upload (src);
      for (m = 0; m < G_N_ELEMENTS (gray_methods); m++) {
        OpArgs a = { OP_GRAY, gray_methods[m] };

        check_op (src, dst, &a, "random");
      }
      cip_test_device_image_free (src);
    }
    cip_test_device_image_free (dst);
  }
}

/* Chelsea in every format, with fillers in the unused bytes, pitched and
 * at odd addresses and strides. */
static void
test_gray_chelsea (void)
{
  CipImage rgb = cip_test_image_load ("chelsea.ppm");
  CipImage gray = cip_test_image_load ("chelsea-gray-bt601.pgm");
  guint l, m;
  int f;

  for (l = 0; l < cip_test_n_layouts; l++) {
    CipTestDeviceImage *dst =
        cip_test_device_image_new (rgb.width, rgb.height, CIP_FORMAT_GRAY8,
        cip_test_layouts[(l + 3) % cip_test_n_layouts], l);
    gchar *layout = cip_test_layout_name (cip_test_layouts[l]);

    for (f = 0; f < CIP_N_INPUT_FORMATS; f++) {
      CipTestDeviceImage *src =
          cip_test_device_image_new (rgb.width, rgb.height, (CipFormat) f,
          cip_test_layouts[l], 2000 + l * 16 + f);
      CipImage packed;

      if (f == CIP_FORMAT_GRAY8)
        packed = cip_test_image_copy (&gray, 0);
      else if (f == CIP_FORMAT_RGB)
        packed = cip_test_image_copy (&rgb, 0);
      else
        packed = cip_test_image_repack (&rgb, (CipFormat) f, 0x11 * f, 0);
      cip_test_device_image_set (src, &packed);
      cip_test_device_image_upload (src);
      for (m = 0; m < G_N_ELEMENTS (gray_methods); m++) {
        OpArgs a = { OP_GRAY, gray_methods[m] };
        gchar *what = g_strdup_printf ("chelsea, %s", layout);

        check_op (src, dst, &a, what);
        g_free (what);
      }
      cip_test_image_free (&packed);
      cip_test_device_image_free (src);
    }
    g_free (layout);
    cip_test_device_image_free (dst);
  }
  cip_test_image_free (&gray);
  cip_test_image_free (&rgb);
}

/* The luma of every two-byte layout, as GRAY8 and, of more than eight
 * bits, GRAY16, on random words (P010's low bits and I420_10LE's high
 * bits set too), every size and layout. */
static void
test_gray_luma (void)
{
  static const CipFormat luma_formats[] = {
    CIP_FORMAT_YUYV, CIP_FORMAT_UYVY, CIP_FORMAT_GRAY16, CIP_FORMAT_GRAY16_BE,
    CIP_FORMAT_GRAY10_MSB, CIP_FORMAT_GRAY10_LSB, CIP_FORMAT_GRAY12_LSB,
  };
  guint i, f, l, deep;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    int w = sizes[i][0], h = sizes[i][1];

    if (cip_test_size_skipped (w, h))
      continue;
    for (f = 0; f < G_N_ELEMENTS (luma_formats); f++) {
      for (deep = 0; deep < 2; deep++) {
        const CipTestLayout *layout =
            cip_test_layouts[(i + f + deep) % cip_test_n_layouts];
        CipTestDeviceImage *src, *dst;
        OpArgs a = { OP_GRAY, CIP_GRAY_BT601 };

        if (deep && (luma_formats[f] == CIP_FORMAT_YUYV ||
                luma_formats[f] == CIP_FORMAT_UYVY))
          continue;
        l = (i + f + deep + 3) % cip_test_n_layouts;
        src = cip_test_device_image_new (w, h, luma_formats[f], layout,
            3000 + i * 16 + f * 2 + deep);
        dst = cip_test_device_image_new (w, h, deep ? CIP_FORMAT_GRAY16 :
            CIP_FORMAT_GRAY8, cip_test_layouts[l], i);
        cip_test_device_image_upload (src);
        check_op (src, dst, &a, "random");
        cip_test_device_image_free (dst);
        cip_test_device_image_free (src);
      }
    }
  }
}

/* Temporal smoothing: a run of frames of different content (and a
 * restart in the middle) through equalize, Otsu and 16-bit Otsu, the
 * device's history against the reference's, every output byte and each
 * threshold. */
static void
test_smoothed (void)
{
  static const double factors[] = { 0.0, 0.5, 0.9, 0.999 };
  static const char *ops[] = { "equalize", "otsu", "otsu16" };
  guint8 *threshold;
  guint f, i, o;

  CHECK (cip_host_alloc ((void **) &threshold, 2, cip_test_stream));
  for (o = 0; o < G_N_ELEMENTS (ops); o++)
    for (f = 0; f < G_N_ELEMENTS (factors); f++) {
      gboolean deep = o == 2;
      gsize bins = deep ? CIP_HIST16_BINS : CIP_HIST_BINS;
      double *host_history = g_new0 (double, bins);
      void *dev_history = NULL;
      CipTestDeviceImage *dst = cip_test_device_image_new (333, 77,
          CIP_FORMAT_GRAY8, cip_test_layouts[f % cip_test_n_layouts], f);

      CHECK (cip_buffer_alloc (&dev_history, bins * sizeof (double),
              cip_test_stream));
      for (i = 0; i < 8; i++) {
        /* frames of a narrow random range that moves: the histories and
         * thresholds differ from frame to frame */
        CipTestDeviceImage *src = cip_test_device_image_new (333, 77,
            deep ? CIP_FORMAT_GRAY16 : CIP_FORMAT_GRAY8,
            cip_test_layouts[i % cip_test_n_layouts], 4000 + f * 16 + i);
        CipSmoothing host = { host_history, factors[f], i == 0 || i == 5 };
        CipSmoothing dev = { dev_history, factors[f], i == 0 || i == 5 };
        guint8 *expected = g_malloc (dst->size);
        CipImage expected_img = dst->host_img;
        guint8 ref_t8 = 0;
        guint16 ref_t16 = 0;
        gchar *what = g_strdup_printf ("%s smoothed %g, frame %u", ops[o],
            factors[f], i);
        int y, x;

        for (y = 0; y < src->host_img.height; y++)
          for (x = 0; x < src->host_img.width; x++) {
            guint8 *p = (guint8 *) src->host_img.data +
                y * src->host_img.stride + (deep ? 2 * x + 1 : x);

            *p = (guint8) (i * 20 + *p % (40 + 10 * i));
          }
        cip_test_device_image_upload (src);
        memcpy (expected, dst->host, dst->size);
        expected_img.data = expected + dst->offset;
        cip_test_device_image_upload (dst);
        if (o == 0) {
          CHECK (cip_ref_equalize_smoothed (&src->host_img, &expected_img,
                  &host, NULL));
          CHECK (cip_equalize_smoothed (&src->dev, &dst->dev, &dev,
                  cip_test_stream));
        } else if (o == 1) {
          CHECK (cip_ref_otsu_smoothed (&src->host_img, &expected_img, FALSE,
                  &ref_t8, &host, NULL));
          CHECK (cip_otsu_smoothed (&src->dev, &dst->dev, FALSE, threshold,
                  &dev, cip_test_stream));
        } else {
          CHECK (cip_ref_otsu16_smoothed (&src->host_img, &expected_img,
                  FALSE, &ref_t16, &host, NULL));
          CHECK (cip_otsu16_smoothed (&src->dev, &dst->dev, FALSE,
                  (guint16 *) threshold, &dev, cip_test_stream));
        }
        CHECK (cip_stream_synchronize (cip_test_stream));
        if (o == 1 && threshold[0] != ref_t8)
          fail ("%s: threshold %u, reference %u", what, threshold[0], ref_t8);
        if (o == 2 && *(guint16 *) threshold != ref_t16)
          fail ("%s: threshold %u, reference %u", what,
              *(guint16 *) threshold, ref_t16);
        cip_test_device_image_check (dst, expected, what);
        g_free (what);
        g_free (expected);
        cip_test_device_image_free (src);
      }
      cip_buffer_free (dev_history, cip_test_stream);
      cip_test_device_image_free (dst);
      g_free (host_history);
    }
  cip_host_free (threshold, cip_test_stream);
}

/* Equalize and Otsu */

/* OpenCV's images: the device's output against the reference, and Otsu's
 * threshold against OpenCV's too. */
static void
test_real_images (void)
{
  GKeyFile *ini = cip_test_expected ();
  guint i, l;

  for (i = 0; i < G_N_ELEMENTS (gray_images); i++) {
    gchar *name = g_strdup_printf ("%s.pgm", gray_images[i]);
    CipImage image = cip_test_image_load (name);
    GError *error = NULL;
    gint expected_t = g_key_file_get_integer (ini, gray_images[i],
        "otsu-threshold", &error);

    g_assert_no_error (error);
    for (l = 0; l < cip_test_n_layouts; l++) {
      CipTestDeviceImage *src =
          cip_test_device_image_new (image.width, image.height,
          CIP_FORMAT_GRAY8,
          cip_test_layouts[l], 3000 + i * 16 + l);
      CipTestDeviceImage *dst =
          cip_test_device_image_new (image.width, image.height,
          CIP_FORMAT_GRAY8,
          cip_test_layouts[(l + 5) % cip_test_n_layouts], 4000 + i * 16 + l);
      OpArgs equalize = { OP_EQUALIZE }, otsu = { OP_OTSU };
      OpArgs mask = { OP_MASK,.mask = {expected_t, 255, false}
      };
      gchar *layout = cip_test_layout_name (cip_test_layouts[l]);
      gchar *what = g_strdup_printf ("%s, %s", name, layout);

      cip_test_device_image_set (src, &image);
      cip_test_device_image_upload (src);
      check_op (src, dst, &equalize, what);
      g_assert_cmpint (check_op (src, dst, &otsu, what), ==, expected_t);
      otsu.invert = true;
      g_assert_cmpint (check_op (src, dst, &otsu, what), ==, expected_t);
      check_op (src, dst, &mask, what);

      g_free (what);
      g_free (layout);
      cip_test_device_image_free (dst);
      cip_test_device_image_free (src);
    }
    cip_test_image_free (&image);
    g_free (name);
  }
  g_key_file_unref (ini);
}

/* Random, constant, two-valued and sparse images of every size. */
static void
test_histogram_ops_sizes (void)
{
  static const struct
  {
    Fill fill;
    guint8 a, b;
  } fills[] = {
    {FILL_RANDOM}, {FILL_NARROW}, {FILL_SKEWED},
    {FILL_CONSTANT, 0}, {FILL_CONSTANT, 1}, {FILL_CONSTANT, 128},
    {FILL_CONSTANT, 255},
    {FILL_TWO, 10, 200}, {FILL_TWO, 0, 255}, {FILL_TWO, 128, 127},
    {FILL_SPARSE, 60},
  };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    int w = sizes[i][0], h = sizes[i][1];
    CipTestDeviceImage *src, *dst;
    guint8 *random;

    if (cip_test_size_skipped (w, h))
      continue;
    src = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8, NULL, 5000 + i);
    dst = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8, NULL, 6000 + i);
    random = cip_test_copy_bytes (src->host, src->size);

    for (k = 0; k < G_N_ELEMENTS (fills); k++) {
      OpArgs equalize = { OP_EQUALIZE }, otsu = { OP_OTSU };
      OpArgs mask = { OP_MASK,.mask = {127, 255, false}
      };
      gchar *what = g_strdup_printf ("%s %u %u", fill_names[fills[k].fill],
          fills[k].a, fills[k].b);

      memcpy (src->host, random, src->size);
      buffer_fill (src, fills[k].fill, fills[k].a, fills[k].b);
      cip_test_device_image_upload (src);
      check_op (src, dst, &equalize, what);
      check_op (src, dst, &otsu, what);
      otsu.invert = true;
      check_op (src, dst, &otsu, what);
      check_op (src, dst, &mask, what);
      g_free (what);
    }
    g_free (random);
    cip_test_device_image_free (dst);
    cip_test_device_image_free (src);
  }
}

/* Mask */

static void
test_mask_params (void)
{
  static const guint8 thresholds[] = { 0, 1, 100, 127, 128, 200, 254, 255 };
  static const guint8 foregrounds[] = { 255, 1, 128, 0 };
  /* Real images, or random ones of the given size. */
  static const struct
  {
    const char *name;
    int width, height;
  } images[] = {
    {"coins.pgm"}, {"camera.pgm"}, {NULL, 1001, 999}, {NULL, 33, 1},
  };
  guint i, t, f, n = 0;
  int invert;

  for (i = 0; i < G_N_ELEMENTS (images); i++) {
    CipImage image = { NULL };
    int w = images[i].width, h = images[i].height;
    CipTestDeviceImage *src, *dst;

    if (images[i].name) {
      image = cip_test_image_load (images[i].name);
      w = image.width;
      h = image.height;
    }
    src = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8, NULL, 7000 + i);
    if (images[i].name)
      cip_test_device_image_set (src, &image);
    cip_test_device_image_upload (src);

    for (t = 0; t < G_N_ELEMENTS (thresholds); t++) {
      /* A different destination layout now and then. */
      const CipTestLayout *layout = cip_test_layouts[t % cip_test_n_layouts];

      dst =
          cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8, layout,
          8000 + n++);
      for (f = 0; f < G_N_ELEMENTS (foregrounds); f++) {
        for (invert = 0; invert < 2; invert++) {
          OpArgs a = { OP_MASK };

          a.mask.threshold = thresholds[t];
          a.mask.foreground = foregrounds[f];
          a.mask.invert = invert;
          check_op (src, dst, &a, images[i].name ? images[i].name : "random");
        }
      }
      cip_test_device_image_free (dst);
    }
    cip_test_device_image_free (src);
    cip_test_image_free (&image);
  }
}

/* Strides and alignment */

/* Every pair of source and destination cip_test_layouts, with every operation:
 * unaligned data pointers and strides take the byte-wise paths, and
 * nothing may be written outside the destination's rows. */
static void
test_layouts (void)
{
  static const int view_sizes[][2] = {
    {1, 1}, {2, 3}, {7, 5}, {33, 1}, {1, 33}, {127, 129}, {333, 77},
  };
  guint i, s, d, n = 0;
  int f;

  for (i = 0; i < G_N_ELEMENTS (view_sizes); i++) {
    int w = view_sizes[i][0], h = view_sizes[i][1];

    for (s = 0; s < cip_test_n_layouts; s++) {
      for (d = 0; d < cip_test_n_layouts; d++) {
        CipTestDeviceImage *dst =
            cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8,
            cip_test_layouts[d],
            9000 + n++);
        gchar *sname = cip_test_layout_name (cip_test_layouts[s]);
        gchar *dname = cip_test_layout_name (cip_test_layouts[d]);
        gchar *what = g_strdup_printf ("src %s, dst %s", sname, dname);

        for (f = 0; f < CIP_N_INPUT_FORMATS; f++) {
          CipTestDeviceImage *src =
              cip_test_device_image_new (w, h, (CipFormat) f,
              cip_test_layouts[s],
              9000 + n++);
          OpArgs gray = { OP_GRAY, gray_methods[(s + d + f) % 4] };

          cip_test_device_image_upload (src);
          check_op (src, dst, &gray, what);
          if (f == CIP_FORMAT_GRAY8) {
            OpArgs equalize = { OP_EQUALIZE }, otsu = { OP_OTSU };
            OpArgs mask = { OP_MASK,.mask = {(s * 31) & 0xff, 200, false}
            };

            otsu.invert = mask.mask.invert = d & 1;

            check_op (src, dst, &equalize, what);
            check_op (src, dst, &otsu, what);
            check_op (src, dst, &mask, what);
          }
          cip_test_device_image_free (src);
        }
        g_free (what);
        g_free (dname);
        g_free (sname);
        cip_test_device_image_free (dst);
      }
    }
  }
}

/* Frames whose thresholds' variances tie or nearly tie, where the
 * kernel's parallel search cannot decide and OpenCV's recurrence runs in
 * the block: even values only (every odd threshold ties with the one
 * before), and equalized frames, as `cudaequalize ! cudaotsu` gives them
 * (gaps between their levels).  The threshold and the mask are the
 * reference's. */
static void
test_otsu_near_ties (void)
{
  static const struct
  {
    int width, height;
    Fill fill;
  } cases[] = {
    {256, 64, FILL_RANDOM}, {641, 479, FILL_NARROW}, {1920, 1080, FILL_RANDOM},
    {1920, 1080, FILL_SKEWED}, {1000, 3, FILL_NARROW},
  };
  OpArgs equalize = { OP_EQUALIZE }, otsu = { OP_OTSU };
  guint i;
  guint8 t;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    int w = cases[i].width, h = cases[i].height, x, y;
    CipTestDeviceImage *src = cip_test_device_image_new (w, h,
        CIP_FORMAT_GRAY8, NULL, 900 + i);
    CipTestDeviceImage *dst = cip_test_device_image_new (w, h,
        CIP_FORMAT_GRAY8, NULL, 950 + i);

    buffer_fill (src, cases[i].fill, 0, 0);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        ((guint8 *) src->host_img.data)[y * src->host_img.stride + x] &= 0xfe;
    cip_test_device_image_upload (src);
    check_op (src, dst, &otsu, "even values");

    /* the equalized frame into dst's mirror, then Otsu of it */
    buffer_fill (src, cases[i].fill, 0, 0);
    g_assert_cmpint (run_op (&equalize, &src->host_img, &dst->host_img, &t,
            NULL), ==, CIP_OK);
    cip_test_device_image_upload (dst);
    check_op (dst, src, &otsu, "equalized");
    otsu.invert = TRUE;
    check_op (dst, src, &otsu, "equalized");
    otsu.invert = FALSE;

    cip_test_device_image_free (dst);
    cip_test_device_image_free (src);
  }
}

/* Large images */

/* 8192x8192: 2^26 pixels, where a lost or doubled histogram count changes
 * the equalize table or the threshold.  The reference runs once per
 * operation: it is the slow part. */
static void
test_large_gray8 (void)
{
  CipTestDeviceImage *src, *dst;
  OpArgs equalize = { OP_EQUALIZE }, otsu = { OP_OTSU };

  if (cip_test_size_skipped (8192, 8192)) {
    g_test_skip ("larger than CIP_TEST_MAX_PIXELS");
    return;
  }
  src = cip_test_device_image_new (8192, 8192, CIP_FORMAT_GRAY8, NULL, 10000);
  dst = cip_test_device_image_new (8192, 8192, CIP_FORMAT_GRAY8, NULL, 10001);

  buffer_fill (src, FILL_SKEWED, 0, 0);
  cip_test_device_image_upload (src);
  check_op (src, dst, &equalize, "skewed");
  check_op (src, dst, &otsu, "skewed");
  otsu.invert = true;
  check_op (src, dst, &otsu, "skewed");

  buffer_fill (src, FILL_SPARSE, 90, 0);
  cip_test_device_image_upload (src);
  check_op (src, dst, &equalize, "sparse");
  otsu.invert = false;
  check_op (src, dst, &otsu, "sparse");

  cip_test_device_image_free (dst);
  cip_test_device_image_free (src);
}

/* 9000x4637 RGBA: rows wider than CIP_MAX_DIMENSION bytes. */
static void
test_large_rgba (void)
{
  CipTestDeviceImage *src, *dst;
  guint m;

  if (cip_test_size_skipped (9000, 4637)) {
    g_test_skip ("larger than CIP_TEST_MAX_PIXELS");
    return;
  }
  src = cip_test_device_image_new (9000, 4637, CIP_FORMAT_RGBA, NULL, 11000);
  dst = cip_test_device_image_new (9000, 4637, CIP_FORMAT_GRAY8, NULL, 11001);

  cip_test_device_image_upload (src);
  for (m = 0; m < G_N_ELEMENTS (gray_methods); m++) {
    OpArgs gray = { OP_GRAY, gray_methods[m] };

    check_op (src, dst, &gray, "random");
  }
  cip_test_device_image_free (dst);
  cip_test_device_image_free (src);
}

/* 16-bit */

/* cip_otsu16 and cip_mask on GRAY16 against the reference: the data
 * images, and random frames of few and of many levels, up to more than
 * 2^24 pixels (scikit-image's float32 running sums). */
static void
test_threshold16 (void)
{
  static const int sizes16[][2] = { {1, 1}, {7, 5}, {33, 1}, {640, 480},
  {1920, 1080}, {4097, 4097}
  };
  static const char *images16[] = { "otsu16-camera", "otsu16-bimodal",
    "otsu16-three-levels", "otsu16-flat"
  };
  guint16 *t16;
  guint i, k;

  CHECK (cip_host_alloc ((void **) &t16, 2, cip_test_stream));
  for (i = 0; i < G_N_ELEMENTS (sizes16) + G_N_ELEMENTS (images16); i++)
    for (k = 0; k < 3; k++) {
      gboolean from_file = i >= G_N_ELEMENTS (sizes16);
      CipImage loaded = { 0 };
      int w, h;
      CipTestDeviceImage *src, *dst;
      guint8 *expected;
      CipImage expected_img;
      CipMaskParams params = { 29999, 255, k == 2 };
      guint16 ref_t = 0;
      gchar *what;

      if (from_file) {
        gchar *file = g_strdup_printf ("%s.pgm",
            images16[i - G_N_ELEMENTS (sizes16)]);

        loaded = cip_test_image_load (file);
        g_free (file);
        w = loaded.width;
        h = loaded.height;
      } else {
        w = sizes16[i][0];
        h = sizes16[i][1];
        if (cip_test_size_skipped (w, h))
          continue;
      }
      src = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY16, NULL,
          20000 + i * 3 + k);
      dst = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8, NULL,
          21000 + i * 3 + k);
      if (from_file) {
        cip_test_device_image_set (src, &loaded);
        cip_test_image_free (&loaded);
      } else if (k == 1) {
        /* few levels: the top byte only */
        int x, y;

        for (y = 0; y < h; y++)
          for (x = 0; x < w; x++)
            ((guint8 *) src->host_img.data)[y * src->host_img.stride +
                2 * x] = 0;
      }
      cip_test_device_image_upload (src);
      what = g_strdup_printf ("GRAY16 %dx%d case %u", w, h, k);

      expected = g_malloc (dst->size);
      memcpy (expected, dst->host, dst->size);
      expected_img = dst->host_img;
      expected_img.data = expected + dst->offset;
      g_assert_cmpint (cip_ref_otsu16 (&src->host_img, &expected_img,
              k == 2, &ref_t, NULL), ==, CIP_OK);
      *t16 = ~ref_t;
      /* the pattern outside the image, on the device too */
      cip_test_device_image_upload (dst);
      CHECK (cip_otsu16 (&src->dev, &dst->dev, k == 2, t16, cip_test_stream));
      CHECK (cip_stream_synchronize (cip_test_stream));
      if (*t16 != ref_t)
        fail ("%s: threshold %u, reference %u", what, *t16, ref_t);
      cip_test_device_image_check (dst, expected, what);

      memcpy (expected, dst->host, dst->size);
      g_assert_cmpint (cip_ref_mask (&src->host_img, &expected_img, &params,
              NULL), ==, CIP_OK);
      cip_test_device_image_upload (dst);
      CHECK (cip_mask (&src->dev, &dst->dev, &params, cip_test_stream));
      CHECK (cip_stream_synchronize (cip_test_stream));
      cip_test_device_image_check (dst, expected, what);

      g_free (expected);
      g_free (what);
      cip_test_device_image_free (dst);
      cip_test_device_image_free (src);
    }
  cip_host_free (t16, cip_test_stream);
}

/* Resources */

/* Operations allocate nothing: scratch space lives in the stream. */
static void
test_memory_stats (void)
{
  CipImage rgba, gray, dst, extra[4], zeros;
  CipMemoryStats start, before, after, freed;
  CipStream *other;
  CipMaskParams params = { 99, 255, false };
  void *pinned;
  char error[256] = "";
  CipStatus status;
  int i;

  cip_memory_stats (&start);
  CHECK (cip_image_alloc (&rgba, 640, 480, CIP_FORMAT_RGBA, cip_test_stream));
  CHECK (cip_image_alloc (&gray, 640, 480, CIP_FORMAT_GRAY8, cip_test_stream));
  CHECK (cip_image_alloc (&dst, 640, 480, CIP_FORMAT_GRAY8, cip_test_stream));
  /* Only the allocations matter here, but no kernel reads memory that was
   * never written (compute-sanitizer's initcheck watches). */
  zeros = cip_test_image_new (640, 480, CIP_FORMAT_RGBA, 0);
  CHECK (cip_copy (&zeros, &rgba, cip_test_stream));
  CHECK (cip_gray (&rgba, &gray, CIP_GRAY_BT601, cip_test_stream));
  CHECK (cip_stream_synchronize (cip_test_stream));
  cip_test_image_free (&zeros);

  cip_memory_stats (&before);
  for (i = 0; i < 100; i++) {
    switch (i % 5) {
      case 0:
        CHECK (cip_gray (&rgba, &dst, gray_methods[i % 4], cip_test_stream));
        break;
      case 1:
        CHECK (cip_mask (&gray, &dst, &params, cip_test_stream));
        break;
      case 2:
        CHECK (cip_equalize (&gray, &dst, cip_test_stream));
        break;
      case 3:
        CHECK (cip_otsu (&gray, &dst, i & 1, threshold, cip_test_stream));
        break;
      case 4:
        CHECK (cip_copy (&dst, &gray, cip_test_stream));
        break;
    }
  }
  CHECK (cip_stream_synchronize (cip_test_stream));
  cip_memory_stats (&after);
  g_assert_cmpuint (after.allocations, ==, before.allocations);
  g_assert_cmpuint (after.frees, ==, before.frees);

  /* Everything allocated is counted, and counted again when freed. */
  for (i = 0; i < (int) G_N_ELEMENTS (extra); i++)
    CHECK (cip_image_alloc (&extra[i], 17 + i, 5, (CipFormat) i,
            cip_test_stream));
  CHECK (cip_host_alloc (&pinned, 4096, cip_test_stream));
  status = cip_stream_new (&other, NULL, error, sizeof (error));
  if (status != CIP_OK)
    fail ("cip_stream_new: %s: %s", cip_status_name (status), error);
  cip_memory_stats (&after);
  g_assert_cmpuint (after.allocations - before.allocations, >=,
      G_N_ELEMENTS (extra) + 1);
  g_assert_cmpuint (after.frees, ==, before.frees);

  cip_stream_free (other);
  cip_host_free (pinned, cip_test_stream);
  for (i = 0; i < (int) G_N_ELEMENTS (extra); i++)
    cip_image_free (&extra[i], cip_test_stream);
  cip_image_free (&dst, cip_test_stream);
  cip_image_free (&gray, cip_test_stream);
  cip_image_free (&rgba, cip_test_stream);
  cip_memory_stats (&freed);
  g_assert_cmpuint (freed.allocations, ==, after.allocations);
  g_assert_cmpuint (freed.frees - start.frees, ==,
      freed.allocations - start.allocations);
}

/* Two streams at once, each with its own scratch space. */
static void
test_streams (void)
{
  CipTestDeviceImage *a =
      cip_test_device_image_new (1001, 999, CIP_FORMAT_GRAY8, NULL, 12000);
  CipTestDeviceImage *b =
      cip_test_device_image_new (1001, 999, CIP_FORMAT_GRAY8, NULL, 12001);
  CipTestDeviceImage *a_out =
      cip_test_device_image_new (1001, 999, CIP_FORMAT_GRAY8, NULL, 12002);
  CipTestDeviceImage *b_out =
      cip_test_device_image_new (1001, 999, CIP_FORMAT_GRAY8, NULL, 12003);
  guint8 *a_expected = cip_test_copy_bytes (a_out->host, a_out->size);
  guint8 *b_expected = cip_test_copy_bytes (b_out->host, b_out->size);
  CipImage img;
  CipStream *other = NULL;
  guint8 t = 0, *other_t;
  char error[256] = "";
  CipStatus status;
  int i;

  status = cip_stream_new (&other, NULL, error, sizeof (error));
  if (status != CIP_OK)
    fail ("cip_stream_new: %s: %s", cip_status_name (status), error);
  g_assert_nonnull (cip_stream_handle (other));
  g_assert_true (cip_stream_handle (other) !=
      cip_stream_handle (cip_test_stream));
  g_assert_nonnull (cip_stream_error (other));
  CHECK_ON (other, cip_host_alloc ((void **) &other_t, 1, other));

  buffer_fill (a, FILL_SKEWED, 0, 0);
  buffer_fill (b, FILL_NARROW, 0, 0);
  cip_test_device_image_upload (a);
  cip_test_device_image_upload (b);
  cip_test_device_image_upload (a_out);
  cip_test_device_image_upload (b_out);

  img = a_out->host_img;
  img.data = a_expected + a_out->offset;
  g_assert_cmpint (cip_ref_equalize (&a->host_img, &img, NULL), ==, CIP_OK);
  img = b_out->host_img;
  img.data = b_expected + b_out->offset;
  g_assert_cmpint (cip_ref_otsu (&b->host_img, &img, false, &t, NULL), ==,
      CIP_OK);

  /* Interleaved, several times over, with no synchronization between. */
  for (i = 0; i < 8; i++) {
    CHECK (cip_equalize (&a->dev, &a_out->dev, cip_test_stream));
    CHECK_ON (other, cip_otsu (&b->dev, &b_out->dev, false, other_t, other));
  }
  CHECK (cip_stream_synchronize (cip_test_stream));
  CHECK_ON (other, cip_stream_synchronize (other));

  g_assert_cmpuint (*other_t, ==, t);
  cip_test_device_image_check (a_out, a_expected,
      "equalize on the first stream");
  cip_test_device_image_check (b_out, b_expected, "otsu on the second stream");

  cip_host_free (other_t, other);
  cip_stream_free (other);
  g_free (b_expected);
  g_free (a_expected);
  cip_test_device_image_free (b_out);
  cip_test_device_image_free (a_out);
  cip_test_device_image_free (b);
  cip_test_device_image_free (a);
}

/* Invalid arguments */

enum
{
  API_GRAY, API_MASK, API_EQUALIZE, API_OTSU, API_COPY, N_APIS
};

static const char *api_names[] = {
  "gray", "mask", "equalize", "otsu", "copy",
};

static CipStatus
run_api (int api, const CipImage * src, CipImage * dst, gboolean null_extra,
    CipGrayMethod method, CipStream * s)
{
  CipMaskParams params = { 10, 255, false };

  switch (api) {
    case API_GRAY:
      return cip_gray (src, dst, method, s);
    case API_MASK:
      return cip_mask (src, dst, null_extra ? NULL : &params, s);
    case API_EQUALIZE:
      return cip_equalize (src, dst, s);
    case API_OTSU:
      return cip_otsu (src, dst, false, null_extra ? NULL : threshold, s);
    case API_COPY:
      return cip_copy (src, dst, s);
  }
  g_assert_not_reached ();
}

static void
test_invalid_arguments (void)
{
  /* The shared cases, and two of the GPU API's own. */
  enum
  {
    STREAM_NULL = CIP_N_BAD_CASES, BAD_METHOD, N_CASES
  };
  CipTestDeviceImage *gray =
      cip_test_device_image_new (5, 3, CIP_FORMAT_GRAY8, NULL, 13000);
  CipTestDeviceImage *rgba =
      cip_test_device_image_new (5, 3, CIP_FORMAT_RGBA, NULL, 13001);
  CipTestDeviceImage *dst =
      cip_test_device_image_new (5, 3, CIP_FORMAT_GRAY8, NULL, 13002);
  /* Room for the over-sized views, so that a missed check fails the test
   * rather than faulting. */
  CipTestDeviceImage *big =
      cip_test_device_image_new (8192, 4, CIP_FORMAT_GRAY8, NULL, 13003);
  CipTestDeviceImage *big_dst =
      cip_test_device_image_new (8192, 4, CIP_FORMAT_GRAY8, NULL, 13004);
  CipImage wide = { big->dev.data, CIP_MAX_DIMENSION + 1, 1,
    CIP_MAX_DIMENSION + 1, CIP_FORMAT_GRAY8
  };
  CipImage high = { big->dev.data, 1, CIP_MAX_DIMENSION + 1, 1,
    CIP_FORMAT_GRAY8
  };
  CipMemoryStats before, after;
  CipBadImages other;
  CipImage image;
  OpArgs equalize = { OP_EQUALIZE };
  int api, c;

  cip_test_device_image_upload (gray);
  cip_test_device_image_upload (rgba);
  cip_test_device_image_upload (dst);
  cip_test_device_image_upload (big);
  cip_test_device_image_upload (big_dst);
  other.rgba = rgba->dev;
  other.wide_src = wide;
  other.wide_dst = wide;
  other.wide_dst.data = big_dst->dev.data;
  other.high_src = high;
  other.high_dst = high;
  other.high_dst.data = big_dst->dev.data;
  cip_memory_stats (&before);

  for (api = 0; api < N_APIS; api++) {
    for (c = 0; c < N_CASES; c++) {
      CipImage s = gray->dev, d = dst->dev;
      const CipImage *sp = &s;
      CipImage *dp = &d;
      CipStream *st = cip_test_stream;
      CipGrayMethod method = CIP_GRAY_BT601;
      gboolean extra_null = FALSE;
      CipStatus status;

      if (c == CIP_BAD_EXTRA_NULL && api != API_MASK && api != API_OTSU)
        continue;
      if (c == BAD_METHOD && api != API_GRAY)
        continue;
      if (c == CIP_BAD_SRC_NOT_GRAY && api == API_GRAY)
        continue;               /* colour is what gray takes */
      if (c == STREAM_NULL && api == API_COPY)
        continue;               /* cip_copy needs its stream */

      if (c == STREAM_NULL) {
        st = NULL;
      } else if (c == BAD_METHOD) {
        /* From colour: a GRAY8 source is copied, whatever the method. */
        s = rgba->dev;
        method = (CipGrayMethod) 42;
      } else {
        cip_test_spoil_arguments (c, &other, &s, &d, &sp, &dp, &extra_null);
      }
      status = run_api (api, sp, dp, extra_null, method, st);
      if (status != CIP_ERROR_INVALID_ARGUMENT)
        fail ("%s, case %d: %s, not invalid argument (%s)", api_names[api],
            c, cip_status_name (status), cip_stream_error (cip_test_stream));
    }
  }
  CHECK (cip_stream_synchronize (cip_test_stream));

  /* Rejected before anything was allocated, launched or written. */
  cip_memory_stats (&after);
  g_assert_cmpuint (after.allocations, ==, before.allocations);
  g_assert_cmpuint (after.frees, ==, before.frees);
  cip_test_device_image_check (dst, dst->host,
      "destination after invalid calls");
  cip_test_device_image_check (rgba, rgba->host,
      "RGBA image after invalid calls");
  cip_test_device_image_check (big_dst, big_dst->host,
      "large image after invalid calls");

  /* Allocations with bad sizes or formats. */
  g_assert_cmpint (cip_image_alloc (&image, 0, 5, CIP_FORMAT_GRAY8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_image_alloc (&image, 5, 0, CIP_FORMAT_GRAY8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_image_alloc (&image, CIP_MAX_DIMENSION + 1, 1,
          CIP_FORMAT_GRAY8, cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_image_alloc (&image, 1, CIP_MAX_DIMENSION + 1,
          CIP_FORMAT_GRAY8, cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_image_alloc (&image, 5, 5, (CipFormat) CIP_N_FORMATS,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_image_alloc (NULL, 5, 5, CIP_FORMAT_GRAY8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  cip_memory_stats (&after);
  g_assert_cmpuint (after.allocations, ==, before.allocations);

  /* The stream still works, and has a message to give (a string, maybe
   * empty). */
  g_assert_nonnull (cip_stream_error (cip_test_stream));
  g_assert_true (g_utf8_validate (cip_stream_error (cip_test_stream), -1,
          NULL));
  g_assert_nonnull (cip_stream_error (NULL));
  g_assert_null (cip_stream_handle (NULL));
  g_test_message ("stream error after invalid calls: \"%s\"",
      cip_stream_error (cip_test_stream));
  check_op (gray, dst, &equalize, "after invalid calls");

  cip_test_device_image_free (big_dst);
  cip_test_device_image_free (big);
  cip_test_device_image_free (dst);
  cip_test_device_image_free (rgba);
  cip_test_device_image_free (gray);
}

/* Equalize of GRAY16 and packed 4:2:2 (YUYV, UYVY) */

static const CipFormat equalize_formats[] = {
  CIP_FORMAT_GRAY16, CIP_FORMAT_YUYV, CIP_FORMAT_UYVY,
};

/* A device image of @format for equalize: packed 4:2:2 rows of
 * cip_packed_row_bytes(), as GStreamer lays them out (an odd width's last
 * pixel a macropixel of its own), padding after them as @layout says. */
static CipTestDeviceImage *
equalize_image_new (int w, int h, CipFormat format,
    const CipTestLayout * layout, guint64 seed)
{
  CipTestDeviceImage *b;

  if (format != CIP_FORMAT_YUYV && format != CIP_FORMAT_UYVY)
    return cip_test_device_image_new (w, h, format, layout, seed);
  b = cip_test_device_image_new (cip_packed_row_bytes (w), h,
      CIP_FORMAT_GRAY8, layout, seed);
  b->dev.width = b->host_img.width = w;
  b->dev.format = b->host_img.format = format;
  return b;
}

/* Reshapes the luma of the mirror: 0 random, 1 a narrow range that
 * @frame moves (of GRAY16, its high byte: the low bytes stay random),
 * 2 constant (@frame). */
static void
equalize_fill (CipTestDeviceImage * b, int fill, guint frame)
{
  CipImage *img = &b->host_img;
  gboolean deep = img->format == CIP_FORMAT_GRAY16;
  int at = deep || img->format == CIP_FORMAT_UYVY ? 1 : 0;
  int x, y;

  for (y = 0; y < img->height; y++)
    for (x = 0; x < img->width; x++) {
      guint8 *p = (guint8 *) img->data + y * img->stride + 2 * x + at;

      if (fill == 1)
        *p = (guint8) (frame * 20 + *p % (40 + 10 * frame));
      else if (fill == 2) {
        *p = (guint8) (frame * 37);
        if (deep)
          p[-1] = (guint8) frame;
      }
    }
}

/* Equalize of @src into @dst on the device against the reference, every
 * byte of @dst's allocation; @host and @dev: the two histories, or
 * NULL. */
static void
check_equalize (CipTestDeviceImage * src, CipTestDeviceImage * dst,
    const CipSmoothing * host, const CipSmoothing * dev, const char *what)
{
  guint8 *expected = g_malloc (dst->size);
  CipImage expected_img = dst->host_img;
  gchar *full = g_strdup_printf ("%s %dx%d %s: equalize", what,
      src->dev.width, src->dev.height, cip_format_name (src->dev.format));

  memcpy (expected, dst->host, dst->size);
  expected_img.data = expected + dst->offset;
  if (cip_ref_equalize_smoothed (&src->host_img, &expected_img, host,
          NULL) != CIP_OK)
    fail ("%s: the reference failed", full);
  cip_test_device_image_upload (dst);
  CHECK (cip_equalize_smoothed (&src->dev, &dst->dev, dev, cip_test_stream));
  CHECK (cip_stream_synchronize (cip_test_stream));
  cip_test_device_image_check (dst, expected, full);
  g_free (full);
  g_free (expected);
}

/* Every size, random, narrow and constant luma, at the layouts' odd
 * addresses and strides in turn; and every layout pair at two small odd
 * sizes. */
static void
test_equalize_formats (void)
{
  static const char *fills[] = { "random", "narrow", "constant" };
  guint i, f, k, l;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (f = 0; f < G_N_ELEMENTS (equalize_formats); f++) {
      int w = sizes[i][0], h = sizes[i][1];
      guint n = cip_test_n_layouts;
      CipTestDeviceImage *src, *dst;
      guint8 *random;

      if (cip_test_size_skipped (w, h))
        continue;
      src = equalize_image_new (w, h, equalize_formats[f],
          cip_test_layouts[(i + f) % n], 14000 + i * 4 + f);
      dst = equalize_image_new (w, h, equalize_formats[f],
          cip_test_layouts[(i + f + 3) % n], 15000 + i * 4 + f);
      random = cip_test_copy_bytes (src->host, src->size);
      for (k = 0; k < G_N_ELEMENTS (fills); k++) {
        memcpy (src->host, random, src->size);
        equalize_fill (src, k, k + i);
        cip_test_device_image_upload (src);
        check_equalize (src, dst, NULL, NULL, fills[k]);
      }
      g_free (random);
      cip_test_device_image_free (dst);
      cip_test_device_image_free (src);
    }

  for (i = 0; i < 2; i++)
    for (f = 0; f < G_N_ELEMENTS (equalize_formats); f++)
      for (l = 0; l < cip_test_n_layouts; l++)
        for (k = 0; k < cip_test_n_layouts; k++) {
          int w = i ? 31 : 7, h = i ? 17 : 5;
          CipTestDeviceImage *src = equalize_image_new (w, h,
              equalize_formats[f], cip_test_layouts[l], 16000 + l);
          CipTestDeviceImage *dst = equalize_image_new (w, h,
              equalize_formats[f], cip_test_layouts[k], 17000 + k);
          gchar *sname = cip_test_layout_name (cip_test_layouts[l]);
          gchar *dname = cip_test_layout_name (cip_test_layouts[k]);
          gchar *what = g_strdup_printf ("%s to %s", sname, dname);

          equalize_fill (src, 1, l);
          cip_test_device_image_upload (src);
          check_equalize (src, dst, NULL, NULL, what);
          g_free (what);
          g_free (dname);
          g_free (sname);
          cip_test_device_image_free (dst);
          cip_test_device_image_free (src);
        }
}

/* Temporal smoothing of GRAY16 and packed 4:2:2: frames of a moving
 * narrow range (a restart in the middle), the device's history against
 * the reference's, every output byte. */
static void
test_equalize_formats_smoothed (void)
{
  static const double factors[] = { 0.0, 0.5, 0.999 };
  guint f, g, i;

  for (f = 0; f < G_N_ELEMENTS (equalize_formats); f++)
    for (g = 0; g < G_N_ELEMENTS (factors); g++) {
      CipFormat format = equalize_formats[f];
      gsize bins = format == CIP_FORMAT_GRAY16 ? CIP_HIST16_BINS :
          CIP_HIST_BINS;
      double *host_history = g_new0 (double, bins);
      void *dev_history = NULL;
      CipTestDeviceImage *dst = equalize_image_new (333, 77, format,
          cip_test_layouts[(f + g) % cip_test_n_layouts], 18000 + f * 4 + g);

      CHECK (cip_buffer_alloc (&dev_history, bins * sizeof (double),
              cip_test_stream));
      for (i = 0; i < 8; i++) {
        CipTestDeviceImage *src = equalize_image_new (333, 77, format,
            cip_test_layouts[i % cip_test_n_layouts], 19000 + f * 64 + g * 16
            + i);
        CipSmoothing host = { host_history, factors[g], i == 0 || i == 5 };
        CipSmoothing dev = { dev_history, factors[g], i == 0 || i == 5 };
        gchar *what = g_strdup_printf ("smoothed %g, frame %u", factors[g],
            i);

        equalize_fill (src, 1, i);
        cip_test_device_image_upload (src);
        check_equalize (src, dst, &host, &dev, what);
        g_free (what);
        cip_test_device_image_free (src);
      }
      cip_buffer_free (dev_history, cip_test_stream);
      cip_test_device_image_free (dst);
      g_free (host_history);
    }
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  if (!cip_test_gpu_init ())
    return CIP_TEST_SKIP;
  CHECK (cip_host_alloc ((void **) &threshold, THRESHOLD_BYTES,
          cip_test_stream));
  memset (threshold, THRESHOLD_GUARD, THRESHOLD_BYTES);

  g_test_add_func ("/kernels/gray/sizes", test_gray_sizes);
  g_test_add_func ("/kernels/gray/chelsea", test_gray_chelsea);
  g_test_add_func ("/kernels/gray/luma", test_gray_luma);
  g_test_add_func ("/kernels/smoothed", test_smoothed);
  g_test_add_func ("/kernels/histogram-ops/real-images", test_real_images);
  g_test_add_func ("/kernels/histogram-ops/sizes", test_histogram_ops_sizes);
  g_test_add_func ("/kernels/mask/params", test_mask_params);
  g_test_add_func ("/kernels/otsu/near-ties", test_otsu_near_ties);
  g_test_add_func ("/kernels/threshold16", test_threshold16);
  g_test_add_func ("/kernels/equalize/formats", test_equalize_formats);
  g_test_add_func ("/kernels/equalize/formats-smoothed",
      test_equalize_formats_smoothed);
  g_test_add_func ("/kernels/layouts", test_layouts);
  g_test_add_func ("/kernels/large/gray8-8192x8192", test_large_gray8);
  g_test_add_func ("/kernels/large/rgba-9000x4637", test_large_rgba);
  g_test_add_func ("/kernels/memory-stats", test_memory_stats);
  g_test_add_func ("/kernels/streams", test_streams);
  g_test_add_func ("/kernels/invalid-arguments", test_invalid_arguments);

  ret = g_test_run ();

  cip_host_free (threshold, cip_test_stream);
  cip_test_gpu_cleanup ();
  return ret;
}
