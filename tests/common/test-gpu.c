/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include <string.h>

#include "test-gpu.h"
#include "test-util.h"

CipStream *cip_test_stream;

gboolean
cip_test_size_skipped (gint width, gint height)
{
  const gchar *max = g_getenv ("CIP_TEST_MAX_PIXELS");
  gint64 pixels = (gint64) width * height, limit;

  if (max == NULL)
    return FALSE;
  limit = g_ascii_strtoll (max, NULL, 10);
  /* Empty or not a number: no limit. */
  return limit > 0 && pixels > limit;
}

gboolean
cip_test_gpu_init (void)
{
  char error[256] = "";
  int count = 0;
  CipStatus status;

  if (!cip_test_have_cuda_device ()) {
    g_print ("no usable CUDA device: skipping\n");
    return FALSE;
  }
  g_assert_cmpint (cip_device_count (&count), ==, CIP_OK);
  g_assert_cmpint (count, >=, 1);
  status = cip_stream_new (&cip_test_stream, NULL, error, sizeof (error));
  if (status != CIP_OK)
    g_error ("cip_stream_new: %s: %s", cip_status_name (status), error);
  g_assert_nonnull (cip_stream_handle (cip_test_stream));
  return TRUE;
}

void
cip_test_gpu_cleanup (void)
{
  cip_stream_free (cip_test_stream);
  cip_test_stream = NULL;
}

/* NULL stands for cip_image_alloc's own pitched image. */
const CipTestLayout *cip_test_layouts[] = {
  NULL,
  &(CipTestLayout) {0, 0, FALSE},       /* tight rows: odd strides for odd widths */
  &(CipTestLayout) {1, 0, FALSE},
  &(CipTestLayout) {2, 1, FALSE},
  &(CipTestLayout) {3, 3, FALSE},
  &(CipTestLayout) {0, 13, FALSE},
  &(CipTestLayout) {3, 0, TRUE},        /* stride aligned, data not */
  &(CipTestLayout) {16, 0, TRUE},       /* both aligned, not at the allocation start */
  &(CipTestLayout) {1, 5, FALSE},
};


const guint cip_test_n_layouts = G_N_ELEMENTS (cip_test_layouts);

/* Fast deterministic bytes (splitmix64): the large images are hundreds of
 * megabytes. */
void
cip_test_fill_bytes (guint8 * p, size_t n, guint64 seed)
{
  guint64 x = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  size_t i;

  for (i = 0; i < n; i += 8) {
    guint64 z = (x += 0x9e3779b97f4a7c15ull);
    size_t k;

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    for (k = 0; k < 8 && i + k < n; k++)
      p[i + k] = (guint8) (z >> (8 * k));
  }
}

guint8 *
cip_test_copy_bytes (const guint8 * p, size_t n)
{
  guint8 *copy = g_malloc (n);

  memcpy (copy, p, n);
  return copy;
}

/* Device images */

gchar *
cip_test_layout_name (const CipTestLayout * layout)
{
  if (layout == NULL)
    return g_strdup ("pitched");
  return g_strdup_printf ("offset %zu pad %zu%s", layout->offset,
      layout->pad, layout->align16 ? " align16" : "");
}

/* A device image filled with random bytes, padding included.  Nothing is
 * uploaded yet: see cip_test_device_image_upload(). */
CipTestDeviceImage *
cip_test_device_image_new (int width, int height, CipFormat format,
    const CipTestLayout * layout, guint64 seed)
{
  CipTestDeviceImage *b = g_new0 (CipTestDeviceImage, 1);
  size_t row = (size_t) width * cip_format_bytes_per_pixel (format);

  if (layout == NULL) {
    CHECK (cip_image_alloc (&b->backing, width, height, format,
            cip_test_stream));
    b->dev = b->backing;
  } else {
    size_t stride = row + layout->pad, total;
    int bw, bh;

    if (layout->align16)
      stride = (stride + 15) & ~(size_t) 15;
    total = layout->offset + (height - 1) * stride + row;
    bw = (int) MIN (total, 8192);
    bh = (int) ((total + bw - 1) / bw);
    g_assert_cmpint (bh, <=, CIP_MAX_DIMENSION);
    CHECK (cip_image_alloc (&b->backing, bw, bh, CIP_FORMAT_GRAY8,
            cip_test_stream));
    b->offset = layout->offset;
    b->dev.data = (guint8 *) b->backing.data + b->offset;
    b->dev.width = width;
    b->dev.height = height;
    b->dev.stride = stride;
    b->dev.format = format;
  }
  g_assert_cmpuint (b->backing.stride, >=,
      (size_t) b->backing.width *
      cip_format_bytes_per_pixel (b->backing.format));

  b->size = b->backing.stride * b->backing.height;
  b->host = g_malloc (b->size);
  cip_test_fill_bytes (b->host, b->size, seed);
  b->host_img = b->dev;
  b->host_img.data = b->host + b->offset;
  if (b->backing.stride <= CIP_MAX_DIMENSION) {
    b->dev_all.data = b->backing.data;
    b->dev_all.width = (int) b->backing.stride;
    b->dev_all.height = b->backing.height;
    b->dev_all.stride = b->backing.stride;
    b->dev_all.format = CIP_FORMAT_GRAY8;
    b->host_all = b->dev_all;
    b->host_all.data = b->host;
  }
  return b;
}

void
cip_test_device_image_free (CipTestDeviceImage * b)
{
  cip_image_free (&b->backing, cip_test_stream);
  g_free (b->host);
  g_free (b);
}

/* Device memory := the mirror. */
void
cip_test_device_image_upload (CipTestDeviceImage * b)
{
  if (b->dev_all.data)
    CHECK (cip_copy (&b->host_all, &b->dev_all, cip_test_stream));
  else
    CHECK (cip_copy (&b->host_img, &b->dev, cip_test_stream));
  CHECK (cip_stream_synchronize (cip_test_stream));
}

/* Downloads @b and compares it with @expected, a buffer laid out as its
 * mirror: the whole allocation where it can, else the image's rows. */
void
cip_test_device_image_check (CipTestDeviceImage * b, const guint8 * expected,
    const char *what)
{
  guint8 *out = g_malloc0 (b->size);
  CipImage got, want;
  gchar *where = NULL;

  if (b->dev_all.data) {
    got = want = b->host_all;
    got.data = out;
    want.data = (guint8 *) expected;
    CHECK (cip_copy (&b->dev_all, &got, cip_test_stream));
  } else {
    got = want = b->host_img;
    got.data = out + b->offset;
    want.data = (guint8 *) expected + b->offset;
    CHECK (cip_copy (&b->dev, &got, cip_test_stream));
  }
  CHECK (cip_stream_synchronize (cip_test_stream));

  if (!cip_test_images_equal (&got, &want, &where)) {
    /* Tell wrong pixels from writes outside the image. */
    CipImage got_img = b->host_img, want_img = b->host_img;

    got_img.data = out + b->offset;
    want_img.data = (guint8 *) expected + b->offset;
    fail ("%s: %s%s", what, where, cip_test_images_equal (&got_img,
            &want_img, NULL) ? " (outside the image: its pixels are right)" :
        "");
  }
  g_free (out);
}

/* Copies a host image's pixels into a buffer's mirror. */
void
cip_test_device_image_set (CipTestDeviceImage * b, const CipImage * image)
{
  size_t row = (size_t) image->width *
      cip_format_bytes_per_pixel (image->format);
  int y;

  g_assert_cmpint (image->width, ==, b->host_img.width);
  g_assert_cmpint (image->height, ==, b->host_img.height);
  g_assert_cmpint (image->format, ==, b->host_img.format);
  for (y = 0; y < image->height; y++)
    memcpy ((guint8 *) b->host_img.data + y * b->host_img.stride,
        (const guint8 *) image->data + y * image->stride, row);
}
