/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Device-side test helpers: the shared stream, device images with a host
 * mirror of their whole allocation (so writes outside an image show), and
 * CHECK(), which fails a test with what CUDA said. */

#ifndef __CIP_TEST_GPU_H__
#define __CIP_TEST_GPU_H__

#include <glib.h>

#include "cip.h"

G_BEGIN_DECLS
/* The stream every case uses: see cip_test_gpu_init(). */
extern CipStream *cip_test_stream;

/* Creates cip_test_stream.  FALSE (and a message) when no CUDA device is
 * usable: the test then exits with CIP_TEST_SKIP. */
gboolean cip_test_gpu_init (void);
void cip_test_gpu_cleanup (void);

/* TRUE when CIP_TEST_MAX_PIXELS is set and a @width x @height image is
 * larger: under compute-sanitizer, which slows every access, the kernel
 * tests leave out their largest images. */
gboolean cip_test_size_skipped (gint width, gint height);

/* Fails the test with a formatted message. */
#define fail(...)                                                       \
  G_STMT_START {                                                        \
    gchar *_msg = g_strdup_printf (__VA_ARGS__);                        \
    g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, _msg); \
    g_free (_msg);                                                      \
  } G_STMT_END

/* Every status from the CUDA side goes through these, so that a failure
 * says what CUDA said. */
#define CHECK_ON(s, call)                                               \
  G_STMT_START {                                                        \
    CipStatus _status = (call);                                         \
    if (_status != CIP_OK)                                              \
      fail ("%s: %s: %s", #call, cip_status_name (_status),             \
          cip_stream_error (s));                                        \
  } G_STMT_END
#define CHECK(call) CHECK_ON (cip_test_stream, call)


guint8 *cip_test_copy_bytes (const guint8 * p, size_t n);

/* Where an image lies in its allocation. */
typedef struct
{
  size_t offset;                /* bytes before the first pixel */
  size_t pad;                   /* bytes after each row */
  gboolean align16;             /* stride rounded up to 16 bytes */
} CipTestLayout;

/* NULL stands for cip_image_alloc's own pitched image. */
extern const CipTestLayout *cip_test_layouts[];
extern const guint cip_test_n_layouts;
gchar *cip_test_layout_name (const CipTestLayout * layout);

/* A device image and its host mirror, byte for byte the same layout: the
 * mirror holds what the whole device allocation should hold. */
typedef struct
{
  CipImage backing;             /* from cip_image_alloc */
  CipImage dev;                 /* the image, inside backing */
  CipImage dev_all;             /* all of backing as GRAY8 rows; data NULL
                                 * when its rows are too wide for that */
  size_t offset;
  size_t size;
  guint8 *host;                 /* the mirror of backing */
  CipImage host_img;
  CipImage host_all;
} CipTestDeviceImage;

/* A device image filled with random bytes, padding included.  Nothing is
 * uploaded yet: see cip_test_device_image_upload(). */
CipTestDeviceImage *cip_test_device_image_new (int width, int height,
    CipFormat format, const CipTestLayout * layout, guint64 seed);
void cip_test_device_image_free (CipTestDeviceImage * b);
/* Device memory := the mirror. */
void cip_test_device_image_upload (CipTestDeviceImage * b);
/* Downloads @b and compares it with @expected, a buffer laid out as its
 * mirror: the whole allocation where it can, else the image's rows. */
void cip_test_device_image_check (CipTestDeviceImage * b,
    const guint8 * expected, const char *what);
/* Copies a host image's pixels into a buffer's mirror. */
void cip_test_device_image_set (CipTestDeviceImage * b, const CipImage * image);

G_END_DECLS
#endif /* __CIP_TEST_GPU_H__ */
