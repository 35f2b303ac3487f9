/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The base class, GstCudaImgprocFilter, through its elements: the
 * plugin and its properties, negotiation, malformed input, strides, odd
 * sizes, caps changes, state changes, memory and device selection. */

#include <string.h>

#include "test-element.h"

typedef struct
{
  const gchar *name;
  GstVideoFormat format;        /* an input format it takes */
} ElementCase;

/* One case per element, with an input format that is not passed through. */
static const ElementCase elements[] = {
  {"cudagray", GST_VIDEO_FORMAT_RGBA},
  {"cudamask", GST_VIDEO_FORMAT_GRAY8},
  {"cudaequalize", GST_VIDEO_FORMAT_GRAY8},
  {"cudaotsu", GST_VIDEO_FORMAT_GRAY8},
  {"cudablur", GST_VIDEO_FORMAT_BGRx},
  {"cudamorph", GST_VIDEO_FORMAT_GRAY8},
  {"cudalabel", GST_VIDEO_FORMAT_GRAY8},
};

/* Every element, and cudagray on GRAY8 too: the same caps on both pads,
 * which GstBaseTransform passes through without calling transform. */
static const ElementCase every_input_path[] = {
  {"cudagray", GST_VIDEO_FORMAT_RGBA},
  {"cudagray", GST_VIDEO_FORMAT_GRAY8},
  {"cudamask", GST_VIDEO_FORMAT_GRAY8},
  {"cudaequalize", GST_VIDEO_FORMAT_GRAY8},
  {"cudaotsu", GST_VIDEO_FORMAT_GRAY8},
  {"cudablur", GST_VIDEO_FORMAT_BGRx},
  {"cudamorph", GST_VIDEO_FORMAT_GRAY8},
  {"cudalabel", GST_VIDEO_FORMAT_GRAY8},
};

/* Pushes one random @width x @height frame of @format into @h (whose caps
 * are set) and checks that @element's output is the reference's, with the
 * chroma planes passed through when the output has the input's format. */
static void
push_and_check_frame (GstHarness * h, const gchar * element,
    GstVideoFormat format, gint width, gint height, guint32 seed)
{
  CipImage src = cip_test_image_random (width, height,
      cip_test_plane0_format (format), seed);
  CipImage expected = cip_test_expected_default (element, &src);
  GstBuffer *in = cip_test_buffer_for_format (&src, format, (guint8) seed);
  GstBuffer *out;
  GstCaps *out_caps;
  GstVideoInfo out_info;
  guint plane;

  out = cip_test_push_pull (h, gst_buffer_ref (in));
  out_caps = cip_test_harness_output_caps (h);
  fail_unless (gst_video_info_from_caps (&out_info, out_caps));
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), width);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info), height);
  cip_test_assert_buffer_image (out, out_caps, &expected);
  if (GST_VIDEO_INFO_FORMAT (&out_info) == format)
    for (plane = 1; plane < GST_VIDEO_INFO_N_PLANES (&out_info); plane++)
      cip_test_assert_buffer_plane_equal (in, out, out_caps, plane);

  gst_caps_unref (out_caps);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
}

/* ---- The plugin and its properties ---- */

GST_START_TEST (test_plugin_has_its_elements)
{
  static const gchar *expected[] = {
    "cudagray", "cudamask", "cudaequalize", "cudaotsu", "cudablur",
    "cudamorph", "cudalabel",
  };
  GstRegistry *registry = gst_registry_get ();
  GstPlugin *plugin;
  GList *features, *l;
  guint i, found[G_N_ELEMENTS (expected)] = { 0, };

  plugin = gst_registry_find_plugin (registry, "cudaimgproc");
  fail_unless (plugin != NULL, "plugin cudaimgproc is not registered");
  gst_object_unref (plugin);

  features = gst_registry_get_feature_list_by_plugin (registry, "cudaimgproc");
  fail_unless_equals_int (g_list_length (features), G_N_ELEMENTS (expected));
  for (l = features; l; l = l->next) {
    const gchar *name = gst_plugin_feature_get_name (l->data);
    gboolean known = FALSE;

    fail_unless (GST_IS_ELEMENT_FACTORY (l->data), "%s is no element", name);
    for (i = 0; i < G_N_ELEMENTS (expected); i++)
      if (g_str_equal (name, expected[i])) {
        found[i]++;
        known = TRUE;
      }
    fail_unless (known, "unexpected feature %s", name);
  }
  for (i = 0; i < G_N_ELEMENTS (expected); i++) {
    GstElementFactory *factory = gst_element_factory_find (expected[i]);
    GstPluginFeature *loaded;

    fail_unless_equals_int (found[i], 1);
    fail_unless (factory != NULL, "no factory %s", expected[i]);
    fail_unless_equals_string (gst_plugin_feature_get_plugin_name
        (GST_PLUGIN_FEATURE (factory)), "cudaimgproc");
    loaded = gst_plugin_feature_load (GST_PLUGIN_FEATURE (factory));
    fail_unless (loaded != NULL);
    fail_unless (g_type_is_a (gst_element_factory_get_element_type
            (GST_ELEMENT_FACTORY (loaded)), GST_TYPE_BASE_TRANSFORM));
    gst_object_unref (loaded);
    gst_object_unref (factory);
  }
  gst_plugin_feature_list_free (features);
}

GST_END_TEST;

/* When a property may be set, as docs/elements.md says: never (read-only),
 * in NULL and READY, or in PLAYING too; and whether it is controllable. */
enum
{
  READ_ONLY = 0,
  READY = 1,
  PLAYING = 2,
  CONTROLLABLE = 4,
};

typedef struct
{
  const gchar *name;
  GType fundamental;            /* G_TYPE_ENUM, G_TYPE_UINT... */
  guint settable;               /* READY, PLAYING, CONTROLLABLE */
  const gchar *default_value;   /* as gst_value_serialize() writes it */
  const gchar *min, *max;       /* numbers only */
  const gchar *nicks;           /* enums only: every value's nick */
} PropertyCase;

static const PropertyCase common_properties[] = {
  {"backend", G_TYPE_ENUM, READY, "auto", NULL, NULL, "auto,cuda,cpu"},
  {"cuda-device-id", G_TYPE_INT, READY, "-1", "-1", "2147483647", NULL},
  {"zero-copy", G_TYPE_ENUM, READY, "auto", NULL, NULL, "auto,on,off"},
  {"stats", G_TYPE_BOXED, READ_ONLY, NULL, NULL, NULL, NULL},
};

static const PropertyCase gray_properties[] = {
  {"method", G_TYPE_ENUM, PLAYING, "bt601", NULL, NULL,
      "bt601,bt709,luminosity,average"},
};

static const PropertyCase mask_properties[] = {
  {"threshold", G_TYPE_UINT, PLAYING | CONTROLLABLE, "0", "0", "65535", NULL},
  {"foreground", G_TYPE_UINT, PLAYING | CONTROLLABLE, "255", "0", "255", NULL},
  {"invert", G_TYPE_BOOLEAN, PLAYING | CONTROLLABLE, "false", NULL, NULL, NULL},
};

static const PropertyCase equalize_properties[] = {
  {"temporal-smoothing", G_TYPE_DOUBLE, PLAYING | CONTROLLABLE, "0", NULL,
      NULL, NULL},
};

static const PropertyCase otsu_properties[] = {
  {"invert", G_TYPE_BOOLEAN, PLAYING | CONTROLLABLE, "false", NULL, NULL, NULL},
  {"threshold", G_TYPE_UINT, READ_ONLY, "0", "0", "65535", NULL},
  {"post-messages", G_TYPE_BOOLEAN, PLAYING, "false", NULL, NULL, NULL},
  {"temporal-smoothing", G_TYPE_DOUBLE, PLAYING | CONTROLLABLE, "0", NULL,
      NULL, NULL},
};

static const PropertyCase blur_properties[] = {
  {"sigma", G_TYPE_DOUBLE, PLAYING | CONTROLLABLE, "1", NULL, NULL, NULL},
};

static const PropertyCase morph_properties[] = {
  {"operation", G_TYPE_ENUM, PLAYING | CONTROLLABLE, "erode", NULL, NULL,
      "erode,dilate,open,close"},
  {"shape", G_TYPE_ENUM, PLAYING | CONTROLLABLE, "disk", NULL, NULL,
      "disk,square,cross"},
  {"radius", G_TYPE_UINT, PLAYING | CONTROLLABLE, "1", "1", "32", NULL},
};

static const PropertyCase label_properties[] = {
  {"mode", G_TYPE_ENUM, READY, "color", NULL, NULL,
      "color,labels,passthrough"},
  {"connectivity", G_TYPE_ENUM, PLAYING, "8", NULL, NULL, "4,8"},
  {"min-area", G_TYPE_UINT, PLAYING | CONTROLLABLE, "0", "0", "4294967295",
      NULL},
  {"post-messages", G_TYPE_BOOLEAN, PLAYING, "false", NULL, NULL, NULL},
  {"n-regions", G_TYPE_UINT, READ_ONLY, "0", "0", "4294967295", NULL},
  {"properties", G_TYPE_STRING, PLAYING,
        "\"label\\,area\\,bbox\\,centroid\\,intensity_mean\"", NULL, NULL,
      NULL},
  {"max-regions", G_TYPE_UINT, PLAYING, "100000", "1", "2147483647", NULL},
  /* Their defaults depend on the version (test_property_specs of
   * cudalabel). */
  {"roi-meta", G_TYPE_BOOLEAN, PLAYING, NULL, NULL, NULL, NULL},
  {"analytics-meta", G_TYPE_BOOLEAN, PLAYING, NULL, NULL, NULL, NULL},
  {"max-region-metas", G_TYPE_UINT, PLAYING, "256", "0", "2147483647", NULL},
  {"track", G_TYPE_BOOLEAN, PLAYING, "false", NULL, NULL, NULL},
};

static void
check_property (GObjectClass * klass, const PropertyCase * p)
{
  GParamSpec *pspec = g_object_class_find_property (klass, p->name);
  const GValue *def;
  gchar *str;

  fail_unless (pspec != NULL, "no property %s", p->name);
  fail_unless_equals_int (G_TYPE_FUNDAMENTAL (pspec->value_type),
      p->fundamental);
  fail_unless (pspec->flags & G_PARAM_READABLE);
  fail_unless_equals_int (!!(pspec->flags & G_PARAM_WRITABLE),
      p->settable != READ_ONLY);
  fail_unless_equals_int (!!(pspec->flags & GST_PARAM_MUTABLE_READY),
      (p->settable & READY) != 0);
  fail_unless_equals_int (!!(pspec->flags & GST_PARAM_MUTABLE_PLAYING),
      (p->settable & PLAYING) != 0);
  fail_unless_equals_int (!!(pspec->flags & GST_PARAM_CONTROLLABLE),
      (p->settable & CONTROLLABLE) != 0);

  if (p->default_value) {
    def = g_param_spec_get_default_value (pspec);
    str = gst_value_serialize (def);
    fail_unless_equals_string (str, p->default_value);
    g_free (str);
  }

  if (G_IS_PARAM_SPEC_UINT (pspec)) {
    GParamSpecUInt *u = G_PARAM_SPEC_UINT (pspec);

    fail_unless_equals_uint64 (u->minimum, g_ascii_strtoull (p->min, NULL, 10));
    fail_unless_equals_uint64 (u->maximum, g_ascii_strtoull (p->max, NULL, 10));
  } else if (G_IS_PARAM_SPEC_INT (pspec)) {
    GParamSpecInt *i = G_PARAM_SPEC_INT (pspec);

    fail_unless_equals_int64 (i->minimum, g_ascii_strtoll (p->min, NULL, 10));
    fail_unless_equals_int64 (i->maximum, g_ascii_strtoll (p->max, NULL, 10));
  } else if (G_IS_PARAM_SPEC_ENUM (pspec)) {
    GEnumClass *e = G_PARAM_SPEC_ENUM (pspec)->enum_class;
    GString *nicks = g_string_new (NULL);
    guint i;

    for (i = 0; i < e->n_values; i++)
      g_string_append_printf (nicks, "%s%s", i ? "," : "",
          e->values[i].value_nick);
    fail_unless_equals_string (nicks->str, p->nicks);
    g_string_free (nicks, TRUE);
  }
}

/* Every element has the base class's properties and its own, no more. */
GST_START_TEST (test_element_properties)
{
  const gchar *name = elements[__i__].name;
  const PropertyCase *own = NULL;
  guint n_own = 0, n_specs, i, j;
  GstElement *element;
  GObjectClass *klass;
  GParamSpec **specs;

  if (g_str_equal (name, "cudagray")) {
    own = gray_properties;
    n_own = G_N_ELEMENTS (gray_properties);
  } else if (g_str_equal (name, "cudamask")) {
    own = mask_properties;
    n_own = G_N_ELEMENTS (mask_properties);
  } else if (g_str_equal (name, "cudaequalize")) {
    own = equalize_properties;
    n_own = G_N_ELEMENTS (equalize_properties);
  } else if (g_str_equal (name, "cudaotsu")) {
    own = otsu_properties;
    n_own = G_N_ELEMENTS (otsu_properties);
  } else if (g_str_equal (name, "cudablur")) {
    own = blur_properties;
    n_own = G_N_ELEMENTS (blur_properties);
  } else if (g_str_equal (name, "cudamorph")) {
    own = morph_properties;
    n_own = G_N_ELEMENTS (morph_properties);
  } else if (g_str_equal (name, "cudalabel")) {
    own = label_properties;
    n_own = G_N_ELEMENTS (label_properties);
  }

  element = gst_element_factory_make (name, NULL);
  fail_unless (element != NULL);
  klass = G_OBJECT_GET_CLASS (element);

  for (i = 0; i < G_N_ELEMENTS (common_properties); i++)
    check_property (klass, &common_properties[i]);
  for (i = 0; i < n_own; i++)
    check_property (klass, &own[i]);

  /* Nothing else beyond GstObject's and GstBaseTransform's. */
  specs = g_object_class_list_properties (klass, &n_specs);
  for (i = 0; i < n_specs; i++) {
    const gchar *prop = specs[i]->name;
    gboolean known = g_str_equal (prop, "name") ||
        g_str_equal (prop, "parent") || g_str_equal (prop, "qos");

    for (j = 0; j < G_N_ELEMENTS (common_properties); j++)
      known |= g_str_equal (prop, common_properties[j].name);
    for (j = 0; j < n_own; j++)
      known |= g_str_equal (prop, own[j].name);
    fail_unless (known, "%s has an unexpected property %s", name, prop);
  }
  fail_unless_equals_int (n_specs, 3 + G_N_ELEMENTS (common_properties) +
      n_own);
  g_free (specs);
  gst_object_unref (element);
}

GST_END_TEST;

/* ---- Negotiation and malformed input ---- */

GST_START_TEST (test_mask_refuses_rgba)
{
  GstHarness *h = cip_test_harness_new ("cudamask", NULL);

  cip_test_assert_caps_refused (h, GST_VIDEO_FORMAT_RGBA, 16, 8);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A layout it does not read (v210: 10-bit 4:2:2 packed in 32-bit words)
 * is refused at negotiation. */
GST_START_TEST (test_gray_refuses_v210)
{
  GstHarness *h = cip_test_harness_new ("cudagray", NULL);

  cip_test_assert_caps_refused (h, GST_VIDEO_FORMAT_v210, 48, 8);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A buffer too small for its caps is a STREAM/FORMAT error, not a crash,
 * for every element: cudagray on GRAY8, in passthrough, pushes nothing
 * either. */
GST_START_TEST (test_short_buffer_is_an_error)
{
  const ElementCase *c = &every_input_path[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  GstBus *bus = cip_test_harness_add_bus (h);

  GST_INFO ("%s %s", c->name, gst_video_format_to_string (c->format));
  cip_test_assert_short_buffer_refused (h, bus, c->format);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* Video metas that do not fit their buffer, and metas of another frame
 * than the caps' one: each a STREAM/FORMAT error, nothing pushed, never a
 * read out of bounds; for every element, cudagray's GRAY8 passthrough
 * included. */
typedef struct
{
  const gchar *element;
  GstVideoFormat format;        /* the caps' */
  gint stride_change;           /* to the first plane's natural stride */
  gsize offset;                 /* of the first plane */
  gsize last_offset_change;     /* to the last plane's natural offset */
  gssize size_change;           /* to the bytes the layout needs */
  /* The meta's frame, where it is not the caps' (the buffer then holds
   * the caps' frame too): its format (UNKNOWN: the caps') and width. */
  GstVideoFormat meta_format;
  gint meta_width_change;
} MetaCase;

static const MetaCase bad_meta_cases[] = {
  /* rows shorter than a row of pixels */
  {"cudamask", GST_VIDEO_FORMAT_GRAY8, -1, 0, 0, 0},
  /* the last row's last pixel past the end */
  {"cudaotsu", GST_VIDEO_FORMAT_GRAY8, 0, 16, 0, -1},
  {"cudalabel", GST_VIDEO_FORMAT_GRAY8, 8, 0, 0, -9},
  {"cudagray", GST_VIDEO_FORMAT_RGBA, 0, 4, 0, -4},
  /* a chroma plane beyond the buffer */
  {"cudaequalize", GST_VIDEO_FORMAT_NV12, 0, 0, 4096, 0},
  {"cudagray", GST_VIDEO_FORMAT_I420, 0, 0, 1, 0},
  {"cudamorph", GST_VIDEO_FORMAT_GRAY8, 0, 8, 0, -1},
  {"cudagray", GST_VIDEO_FORMAT_GRAY8, 0, 8, 0, -1},
  /* rows upwards */
  {"cudablur", GST_VIDEO_FORMAT_GRAY8, G_MININT, 0, 0, 0},
  {"cudagray", GST_VIDEO_FORMAT_GRAY8, G_MININT, 0, 0, 0},
  /* rows shorter than a row of pixels, in passthrough */
  {"cudagray", GST_VIDEO_FORMAT_GRAY8, -1, 0, 0, 0},
  /* a meta of a narrower frame, in a buffer the caps' frame fits */
  {"cudagray", GST_VIDEO_FORMAT_RGBA, 0, 0, 0, 0, 0, -8},
  {"cudagray", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, 0, -8},
  {"cudamask", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, 0, -8},
  {"cudaequalize", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, 0, -8},
  {"cudaotsu", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, 0, -8},
  {"cudablur", GST_VIDEO_FORMAT_BGRx, 0, 0, 0, 0, 0, -8},
  {"cudamorph", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, 0, -8},
  {"cudalabel", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, 0, -8},
  /* a meta of another format, of the caps' size */
  {"cudagray", GST_VIDEO_FORMAT_RGBA, 0, 0, 0, 0, GST_VIDEO_FORMAT_BGRA, 0},
  {"cudagray", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, GST_VIDEO_FORMAT_RGBA, 0},
  {"cudamask", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, GST_VIDEO_FORMAT_RGBA, 0},
  {"cudaequalize", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, GST_VIDEO_FORMAT_NV12,
      0},
  {"cudaotsu", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, GST_VIDEO_FORMAT_RGBA, 0},
  {"cudablur", GST_VIDEO_FORMAT_BGRx, 0, 0, 0, 0, GST_VIDEO_FORMAT_RGBx, 0},
  {"cudamorph", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, GST_VIDEO_FORMAT_RGBA, 0},
  {"cudalabel", GST_VIDEO_FORMAT_GRAY8, 0, 0, 0, 0, GST_VIDEO_FORMAT_RGBA, 0},
};

GST_START_TEST (test_video_meta_that_does_not_fit)
{
  const MetaCase *c = &bad_meta_cases[__i__];
  GstHarness *h = cip_test_harness_new (c->element, NULL);
  GstBus *bus = cip_test_harness_add_bus (h);
  GstVideoFormat meta_format = c->meta_format != GST_VIDEO_FORMAT_UNKNOWN ?
      c->meta_format : c->format;
  gsize offsets[GST_VIDEO_MAX_PLANES];
  gint strides[GST_VIDEO_MAX_PLANES];
  gsize need, plane, last;
  GstVideoInfo info, caps_info;
  GstBuffer *in;

  GST_INFO ("%s %s, meta of %s %dx24", c->element,
      gst_video_format_to_string (c->format),
      gst_video_format_to_string (meta_format), 40 + c->meta_width_change);
  fail_unless (gst_video_info_set_format (&caps_info, c->format, 40, 24));
  /* the meta's frame */
  fail_unless (gst_video_info_set_format (&info, meta_format,
          40 + c->meta_width_change, 24));
  last = GST_VIDEO_INFO_N_PLANES (&info) - 1;
  for (plane = 0; plane <= last; plane++) {
    strides[plane] = GST_VIDEO_INFO_PLANE_STRIDE (&info, plane);
    offsets[plane] = GST_VIDEO_INFO_PLANE_OFFSET (&info, plane) + c->offset;
  }
  /* the natural layout moved by @offset, and its last row padded too */
  need = GST_VIDEO_INFO_SIZE (&info) + c->offset;
  if (c->stride_change == G_MININT) {
    strides[0] = -strides[0];
  } else if (c->stride_change != 0) {
    strides[0] += c->stride_change;
    need += (gsize) c->stride_change * GST_VIDEO_INFO_HEIGHT (&info);
  }
  offsets[last] += c->last_offset_change;
  need += c->size_change;
  /* a meta of another frame is refused as such: the buffer is not short */
  if (meta_format != c->format || c->meta_width_change != 0)
    need = MAX (need, GST_VIDEO_INFO_SIZE (&caps_info));
  in = gst_buffer_new_allocate (NULL, need, NULL);
  gst_buffer_memset (in, 0, 0x80, gst_buffer_get_size (in));
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE, meta_format,
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info),
      GST_VIDEO_INFO_N_PLANES (&info), offsets, strides);

  cip_test_harness_set_caps (h, c->format, 40, 24);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
  cip_test_bus_assert_one_error (bus, GST_STREAM_ERROR,
      GST_STREAM_ERROR_FORMAT, NULL);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* A whole frame whose one plane lies across two memories, as its video
 * meta says (offset 0, the natural stride), is refused as such: GStreamer
 * maps a plane from the one memory its offset falls in.  STREAM/FORMAT,
 * nothing pushed, and the debug text says that the memories are why. */
static const struct
{
  const gchar *name;
  GstVideoFormat format;
  gint width, height;
  gsize first_memory;           /* bytes of the first memory */
} split_plane_cases[] = {
  /* 40 bytes, 20 + 20: the third row split */
  {"cudamask", GST_VIDEO_FORMAT_GRAY8, 8, 5, 20},
  /* 256 bytes, 100 + 156 */
  {"cudagray", GST_VIDEO_FORMAT_RGBA, 16, 4, 100},
  {"cudablur", GST_VIDEO_FORMAT_RGBA, 16, 4, 64},
};

GST_START_TEST (test_plane_across_two_memories)
{
  const gchar *name = split_plane_cases[__i__].name;
  GstVideoFormat format = split_plane_cases[__i__].format;
  gint width = split_plane_cases[__i__].width;
  gint height = split_plane_cases[__i__].height;
  gsize first = split_plane_cases[__i__].first_memory;
  GstHarness *h = cip_test_harness_new (name, NULL);
  GstBus *bus = cip_test_harness_add_bus (h);
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0, };
  GError *err = NULL;
  gchar *debug = NULL, *lower;
  GstVideoInfo info;
  GstMessage *msg;
  GstBuffer *in;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  fail_unless_equals_int (GST_VIDEO_INFO_N_PLANES (&info), 1);
  fail_unless (first > 0 && first < GST_VIDEO_INFO_SIZE (&info));
  strides[0] = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  in = gst_buffer_new ();
  gst_buffer_append_memory (in, gst_allocator_alloc (NULL, first, NULL));
  gst_buffer_append_memory (in, gst_allocator_alloc (NULL,
          GST_VIDEO_INFO_SIZE (&info) - first, NULL));
  gst_buffer_memset (in, 0, 0x80, GST_VIDEO_INFO_SIZE (&info));
  fail_unless_equals_int (gst_buffer_n_memory (in), 2);
  fail_unless_equals_uint64 (gst_buffer_get_size (in),
      GST_VIDEO_INFO_SIZE (&info));
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE, format,
      width, height, 1, offsets, strides);

  cip_test_harness_set_caps (h, format, width, height);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);

  msg = cip_test_bus_pop_type (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error posted");
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (g_error_matches (err, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FORMAT), "error %s %d (%s), expected STREAM/FORMAT",
      g_quark_to_string (err->domain), err->code, err->message);
  fail_unless (debug != NULL, "the error has no debug text");
  /* the text after GST_ELEMENT_ERROR's "file(line): function (): path:" */
  lower = g_ascii_strdown (strchr (debug, '\n') ? strchr (debug, '\n') + 1 :
      debug, -1);
  fail_unless (strstr (lower, "split across memories") != NULL,
      "the error's debug text '%s' does not say that the frame is split "
      "across memories", debug);
  g_free (lower);
  g_free (debug);
  g_error_free (err);
  gst_message_unref (msg);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* backend=auto computes on the GPU where a CUDA device is usable, without
 * a word (the frame is uploaded and downloaded), and on the CPU where
 * none is, saying so once in a RESOURCE/NOT_FOUND warning; the frames are
 * the reference's either way. */
GST_START_TEST (test_auto_backend_picks_where_it_runs)
{
  gboolean have_device = cip_test_probe_cuda_device ();
  GstElement *element = gst_element_factory_make ("cudamask", NULL);
  GstBus *bus = gst_bus_new ();
  CipImage src = cip_test_image_random (40, 24, CIP_FORMAT_GRAY8, 11);
  CipImage expected = cip_test_expected_default ("cudamask", &src);
  GstHarness *h;
  GstBuffer *out;
  GstCaps *caps;

  /* the bus is there before the element looks for a device */
  gst_object_ref_sink (element);
  gst_element_set_bus (element, bus);
  h = gst_harness_new_with_element (element, "sink", "src");
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 40, 24);
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  cip_test_assert_buffer_image (out, caps, &expected);
  fail_unless_equals_uint64 (cip_test_element_stat (element, "uploads"),
      have_device ? 1 : 0);
  fail_unless_equals_int (cip_test_bus_pop_warnings (bus, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_FOUND), have_device ? 0 : 1);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  cip_test_harness_teardown_with_bus (h, bus);
  gst_object_unref (element);
}

GST_END_TEST;

/* QoS as GstVideoFilter does it: once downstream says that frames before
 * a time are late, a frame before it is dropped, not computed, and a QOS
 * message counts it; the next frame in time comes out. */
GST_START_TEST (test_late_frames_dropped_and_counted)
{
  GstHarness *h = cip_test_harness_new ("cudamask", NULL);
  GstElement *element = cip_test_harness_element (h, "cudamask");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage src = cip_test_image_random (32, 16, CIP_FORMAT_GRAY8, 5);
  GstBuffer *in;
  GstMessage *msg;
  GstFormat format;
  guint64 processed, dropped;

  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 32, 16);
  /* downstream is 100 ms behind a frame at 1 s */
  fail_unless (gst_harness_push_upstream_event (h,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 1.5,
              100 * GST_MSECOND, GST_SECOND)));
  in = cip_test_buffer_new (&src);
  GST_BUFFER_PTS (in) = GST_SECOND;
  GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  fail_unless_equals_uint64 (cip_test_element_stat (element, "frames"), 0);
  msg = cip_test_bus_pop_type (bus, GST_MESSAGE_QOS);
  fail_unless (msg != NULL, "no QOS message for the late frame");
  gst_message_parse_qos_stats (msg, &format, &processed, &dropped);
  fail_unless_equals_int (format, GST_FORMAT_BUFFERS);
  fail_unless_equals_uint64 (dropped, 1);
  gst_message_unref (msg);

  in = cip_test_buffer_new (&src);
  GST_BUFFER_PTS (in) = 2 * GST_SECOND;
  GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
  gst_buffer_unref (cip_test_push_pull (h, in));
  fail_unless_equals_uint64 (cip_test_element_stat (element, "frames"), 1);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  cip_test_image_free (&src);
  gst_object_unref (element);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* ---- Layouts and sizes ---- */

/* GRAY8 rows of 33 pixels 48 bytes apart, the padding random: the
 * histogram elements must not count it. */
GST_START_TEST (test_padded_gray8_stride)
{
  static const gchar *names[] = { "cudamask", "cudaequalize", "cudaotsu" };
  const gchar *name = names[__i__];
  GstHarness *h = cip_test_harness_new (name, NULL);
  CipImage src = cip_test_image_new (33, 17, CIP_FORMAT_GRAY8, 48 - 33);
  CipImage expected;
  GstBuffer *in, *out;
  GstCaps *caps;
  GstVideoMeta *meta;

  cip_test_image_fill_random (&src, 33);
  expected = cip_test_expected_default (name, &src);
  in = cip_test_buffer_new_strided (&src, 0);
  meta = gst_buffer_get_video_meta (in);
  fail_unless (meta != NULL);
  fail_unless_equals_int (meta->stride[0], 48);

  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 33, 17);
  out = cip_test_push_pull (h, in);
  caps = cip_test_harness_output_caps (h);
  cip_test_assert_buffer_image (out, caps, &expected);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* RGBA rows width * 4 + 20 bytes apart, starting 64 bytes into the
 * buffer. */
GST_START_TEST (test_padded_rgba_stride_and_offset)
{
  GstHarness *h = cip_test_harness_new ("cudagray", NULL);
  CipImage rgb = cip_test_image_load ("chelsea.ppm");
  CipImage rgba = cip_test_image_repack (&rgb, CIP_FORMAT_RGBA, 0xff, 20);
  CipImage expected = cip_test_image_load ("chelsea-gray-bt601.pgm");
  GstBuffer *in, *out;
  GstCaps *caps;
  GstVideoMeta *meta;

  in = cip_test_buffer_new_strided (&rgba, 64);
  meta = gst_buffer_get_video_meta (in);
  fail_unless (meta != NULL);
  fail_unless_equals_int (meta->stride[0], rgba.width * 4 + 20);
  fail_unless_equals_int (meta->offset[0], 64);

  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_RGBA, rgba.width, rgba.height);
  out = cip_test_push_pull (h, in);
  caps = cip_test_harness_output_caps (h);
  cip_test_assert_buffer_image (out, caps, &expected);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&rgba);
  cip_test_image_free (&rgb);
  gst_harness_teardown (h);
}

GST_END_TEST;

static const ElementCase odd_size_cases[] = {
  {"cudagray", GST_VIDEO_FORMAT_RGB},
  {"cudagray", GST_VIDEO_FORMAT_BGRx},
  {"cudagray", GST_VIDEO_FORMAT_I420},
  {"cudamask", GST_VIDEO_FORMAT_GRAY8},
  {"cudaequalize", GST_VIDEO_FORMAT_GRAY8},
  {"cudaequalize", GST_VIDEO_FORMAT_NV12},
  {"cudaequalize", GST_VIDEO_FORMAT_I420},
  {"cudaequalize", GST_VIDEO_FORMAT_GRAY16_LE},
  {"cudaotsu", GST_VIDEO_FORMAT_GRAY8},
  {"cudablur", GST_VIDEO_FORMAT_GRAY8},
  {"cudablur", GST_VIDEO_FORMAT_ABGR},
  {"cudamorph", GST_VIDEO_FORMAT_RGBA},
  {"cudalabel", GST_VIDEO_FORMAT_GRAY8},
};

static const gint odd_sizes[][2] = {
  {1, 1}, {3, 1}, {1, 7}, {33, 17}, {641, 479},
};

/* Every element and size: GStreamer's row padding (rows rounded up to 4
 * bytes, subsampled chroma) must not show in the output. */
GST_START_TEST (test_odd_sizes)
{
  const ElementCase *c = &odd_size_cases[__i__ / G_N_ELEMENTS (odd_sizes)];
  const gint *size = odd_sizes[__i__ % G_N_ELEMENTS (odd_sizes)];
  GstHarness *h = cip_test_harness_new (c->name, NULL);

  GST_INFO ("%s %s %dx%d", c->name, gst_video_format_to_string (c->format),
      size[0], size[1]);
  cip_test_harness_set_caps (h, c->format, size[0], size[1]);
  push_and_check_frame (h, c->name, c->format, size[0], size[1], __i__);
  push_and_check_frame (h, c->name, c->format, size[0], size[1], __i__ + 99);
  fail_unless_equals_int (gst_harness_buffers_received (h), 2);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* 320x240 frames, then 17x9 frames: one output per input, each right. */
GST_START_TEST (test_caps_change_mid_stream)
{
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  GstCaps *caps;
  guint i;

  cip_test_harness_set_caps (h, c->format, 320, 240);
  for (i = 0; i < 3; i++)
    push_and_check_frame (h, c->name, c->format, 320, 240, i);
  cip_test_harness_set_caps (h, c->format, 17, 9);
  for (i = 0; i < 3; i++)
    push_and_check_frame (h, c->name, c->format, 17, 9, 10 + i);
  caps = cip_test_harness_output_caps (h);
  fail_unless (gst_caps_is_fixed (caps));
  {
    GstStructure *s = gst_caps_get_structure (caps, 0);
    gint w = 0, hh = 0;

    fail_unless (gst_structure_get_int (s, "width", &w));
    fail_unless (gst_structure_get_int (s, "height", &hh));
    fail_unless_equals_int (w, 17);
    fail_unless_equals_int (hh, 9);
  }
  gst_caps_unref (caps);
  fail_unless_equals_int (gst_harness_buffers_received (h), 6);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- States and resources ---- */

GST_START_TEST (test_state_cycles)
{
  static const GstState states[] = {
    GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_NULL,
  };
  const ElementCase *c = &elements[__i__];
  GstElement *element = gst_element_factory_make (c->name, NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  guint cycle, i;

  fail_unless (element != NULL);
  gst_object_ref_sink (element);
  gst_util_set_object_arg (G_OBJECT (element), "backend",
      cip_test_backend_name ());
  gst_element_set_bus (element, bus);

  for (cycle = 0; cycle < 20; cycle++) {
    for (i = 0; i < G_N_ELEMENTS (states); i++) {
      GstState current = GST_STATE_VOID_PENDING;

      fail_unless_equals_int (gst_element_set_state (element, states[i]),
          GST_STATE_CHANGE_SUCCESS);
      fail_unless_equals_int (gst_element_get_state (element, &current, NULL,
              0), GST_STATE_CHANGE_SUCCESS);
      fail_unless_equals_int (current, states[i]);
    }
  }
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  /* ... and the same instance still computes frames. */
  h = gst_harness_new_with_element (element, "sink", "src");
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  cip_test_harness_set_caps (h, c->format, 64, 48);
  push_and_check_frame (h, c->name, c->format, 64, 48, 7);
  gst_harness_teardown (h);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  gst_bus_set_flushing (bus, TRUE);
  gst_element_set_bus (element, NULL);
  gst_object_unref (bus);
  gst_object_unref (element);
}

GST_END_TEST;

/* What a property of @element reads, as gst_value_serialize() writes it
 * (an enum's nick). */
static gchar *
get_serialized (GstElement * element, const gchar * property)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), property);
  GValue value = G_VALUE_INIT;
  gchar *str;

  fail_unless (pspec != NULL, "no property %s", property);
  g_value_init (&value, pspec->value_type);
  g_object_get_property (G_OBJECT (element), property, &value);
  str = gst_value_serialize (&value);
  g_value_unset (&value);
  return str;
}

/* The settings that may change only in NULL and READY, each with a value
 * other than the one the tests run with (NULL: the other backend). */
static const struct
{
  const gchar *property;
  const gchar *other;
} ready_settings[] = {
  {"backend", NULL},
  {"cuda-device-id", "63"},
  {"zero-copy", "on"},
};

static const gchar *
ready_setting_other (guint i)
{
  if (ready_settings[i].other)
    return ready_settings[i].other;
  return cip_test_backend_is_cuda ()? "cpu" : "cuda";
}

static const GstState running_states[] = {
  GST_STATE_PAUSED, GST_STATE_PLAYING,
};

/* backend, cuda-device-id and zero-copy set in PAUSED or PLAYING: the property reads
 * as before, one RESOURCE/SETTINGS warning says why, and the element goes
 * on computing frames with its setting. */
GST_START_TEST (test_setting_fixed_while_running)
{
  guint setting = __i__ / G_N_ELEMENTS (running_states);
  const gchar *property = ready_settings[setting].property;
  const gchar *other = ready_setting_other (setting);
  GstState state = running_states[__i__ % G_N_ELEMENTS (running_states)];
  GstHarness *h = cip_test_harness_new ("cudamask", NULL);
  GstElement *element = cip_test_harness_element (h, "cudamask");
  GstBus *bus = cip_test_harness_add_bus (h);
  gchar *before, *after;

  GST_INFO ("%s=%s in %s", property, other, gst_element_state_get_name (state));
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  push_and_check_frame (h, "cudamask", GST_VIDEO_FORMAT_GRAY8, 64, 48, 1);
  if (state != GST_STATE_PLAYING)
    fail_unless_equals_int (gst_element_set_state (h->element, state),
        GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (GST_STATE (element), state);
  before = get_serialized (element, property);
  fail_if (g_str_equal (before, other));

  gst_util_set_object_arg (G_OBJECT (element), property, other);
  after = get_serialized (element, property);
  fail_unless_equals_string (after, before);
  fail_unless_equals_int (cip_test_bus_pop_warnings (bus, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_SETTINGS), 1);

  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS);
  push_and_check_frame (h, "cudamask", GST_VIDEO_FORMAT_GRAY8, 64, 48, 2);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  fail_unless (cip_test_bus_pop_type (bus, GST_MESSAGE_WARNING) == NULL);

  g_free (after);
  g_free (before);
  gst_object_unref (element);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* In NULL and READY the same settings change, without a warning, and
 * change back; the element then computes frames. */
GST_START_TEST (test_setting_free_in_null_and_ready)
{
  guint setting = __i__ / 2;
  const gchar *property = ready_settings[setting].property;
  const gchar *other = ready_setting_other (setting);
  GstState state = __i__ % 2 ? GST_STATE_READY : GST_STATE_NULL;
  GstElement *element = gst_element_factory_make ("cudamask", NULL);
  GstBus *bus = gst_bus_new ();
  gchar *before, *value;
  GstHarness *h;

  GST_INFO ("%s=%s in %s", property, other, gst_element_state_get_name (state));
  fail_unless (element != NULL);
  gst_object_ref_sink (element);
  gst_util_set_object_arg (G_OBJECT (element), "backend",
      cip_test_backend_name ());
  gst_element_set_bus (element, bus);
  fail_unless_equals_int (gst_element_set_state (element, state),
      GST_STATE_CHANGE_SUCCESS);
  before = get_serialized (element, property);
  fail_if (g_str_equal (before, other));

  gst_util_set_object_arg (G_OBJECT (element), property, other);
  value = get_serialized (element, property);
  fail_unless_equals_string (value, other);
  g_free (value);
  gst_util_set_object_arg (G_OBJECT (element), property, before);
  value = get_serialized (element, property);
  fail_unless_equals_string (value, before);
  g_free (value);
  fail_unless (cip_test_bus_pop_type (bus, GST_MESSAGE_WARNING) == NULL);
  fail_unless_equals_int (gst_element_set_state (element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);

  h = gst_harness_new_with_element (element, "sink", "src");
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  push_and_check_frame (h, "cudamask", GST_VIDEO_FORMAT_GRAY8, 64, 48, 3);
  gst_harness_teardown (h);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  fail_unless (cip_test_bus_pop_type (bus, GST_MESSAGE_WARNING) == NULL);

  g_free (before);
  gst_bus_set_flushing (bus, TRUE);
  gst_element_set_bus (element, NULL);
  gst_object_unref (bus);
  gst_object_unref (element);
}

GST_END_TEST;

/* Whether any structure of @caps has the memory:CUDAMemory feature. */
static gboolean
caps_have_cuda_memory (const GstCaps * caps)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *features = gst_caps_get_features (caps, i);

    if (features && !gst_caps_features_is_any (features) &&
        gst_caps_features_contains (features, "memory:CUDAMemory"))
      return TRUE;
  }
  return FALSE;
}

/* Fails unless @element's pads have and offer the caps of the backend
 * under test: CUDA memory out (the harness takes it) and in with cuda,
 * none anywhere with cpu.  The harness pushes system memory. */
static void
assert_caps_of_backend (GstElement * element, const gchar * when)
{
  /* without libgstcuda (GStreamer 1.20), system memory on both backends */
  gboolean cuda = cip_test_backend_is_cuda () && CIP_TEST_HAVE_CUDA_MEMORY;
  GstPad *sinkpad = gst_element_get_static_pad (element, "sink");
  GstPad *srcpad = gst_element_get_static_pad (element, "src");
  GstCaps *caps[4];
  guint i;

  caps[0] = gst_pad_get_current_caps (sinkpad);
  caps[1] = gst_pad_get_current_caps (srcpad);
  caps[2] = gst_pad_query_caps (sinkpad, NULL);
  caps[3] = gst_pad_query_caps (srcpad, NULL);
  fail_unless (caps[0] != NULL && caps[1] != NULL, "%s: not negotiated", when);
  for (i = 0; i < G_N_ELEMENTS (caps); i++) {
    /* the input is in system memory whatever the backend */
    gboolean want_cuda = cuda && i != 0;

    if (caps_have_cuda_memory (caps[i]) != want_cuda) {
      gchar *str = gst_caps_to_string (caps[i]);

      fail ("%s, on the %s backend: the %s pad's %s caps %s "
          "memory:CUDAMemory: %s", when, cip_test_backend_name (),
          i % 2 ? "src" : "sink", i < 2 ? "current" : "queried",
          want_cuda ? "lack" : "have", str);
      g_free (str);
    }
  }
  for (i = 0; i < G_N_ELEMENTS (caps); i++)
    gst_caps_unref (caps[i]);
  gst_object_unref (srcpad);
  gst_object_unref (sinkpad);
}

/* The backend set while PLAYING (refused) does not change what the
 * element negotiates: after a caps change its pads have the caps of the
 * backend that runs, with a neighbour that takes CUDA memory too. */
GST_START_TEST (test_caps_stay_those_of_the_running_backend)
{
  GstHarness *h = cip_test_harness_new ("cudamask", NULL);
  GstElement *element = cip_test_harness_element (h, "cudamask");
  GstBus *bus = cip_test_harness_add_bus (h);
  const gchar *other = cip_test_backend_is_cuda ()? "cpu" : "cuda";

  gst_harness_set_sink_caps_str (h,
      "video/x-raw(memory:CUDAMemory); video/x-raw");
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  assert_caps_of_backend (element, "at the start");
  push_and_check_frame (h, "cudamask", GST_VIDEO_FORMAT_GRAY8, 64, 48, 4);

  gst_util_set_object_arg (G_OBJECT (element), "backend", other);
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 32, 16);
  assert_caps_of_backend (element, "after backend was set in PLAYING and "
      "the caps changed");
  push_and_check_frame (h, "cudamask", GST_VIDEO_FORMAT_GRAY8, 32, 16, 5);
  fail_unless_equals_int (gst_harness_buffers_received (h), 2);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  gst_object_unref (element);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* No allocation per frame, all released at the end, as the element's
 * "stats" counts them.  On the cpu backend nothing is allocated at all. */
GST_START_TEST (test_no_allocation_per_frame)
{
  const ElementCase *c = &elements[__i__];
  guint64 first, frees;
  GstElement *element;
  GstHarness *h;
  guint i;

  /* The harness starts the element: the stream and its scratch exist. */
  h = cip_test_harness_new (c->name, NULL);
  element = cip_test_harness_element (h, c->name);
  if (cip_test_backend_is_cuda ())
    fail_unless (cip_test_element_stat (element, "device-allocations") > 0);
  else
    fail_unless_equals_uint64 (cip_test_element_stat (element,
            "device-allocations"), 0);

  cip_test_harness_set_caps (h, c->format, 320, 240);
  push_and_check_frame (h, c->name, c->format, 320, 240, 0);
  first = cip_test_element_stat (element, "device-allocations");
  frees = cip_test_element_stat (element, "device-frees");
  if (cip_test_backend_is_cuda ())
    fail_unless (first > 0, "no device allocation seen for the first frame");
  else
    fail_unless_equals_uint64 (first, 0);

  for (i = 1; i <= 50; i++)
    push_and_check_frame (h, c->name, c->format, 320, 240, i);
  fail_unless_equals_uint64 (cip_test_element_stat (element,
          "device-allocations"), first);
  fail_unless_equals_uint64 (cip_test_element_stat (element, "device-frees"),
      frees);
  fail_unless_equals_uint64 (cip_test_element_stat (element, "frames"), 51);
  fail_unless_equals_int (gst_harness_buffers_received (h), 51);

  gst_harness_teardown (h);
  fail_unless_equals_uint64 (cip_test_element_stat (element, "device-frees"),
      first);
  gst_object_unref (element);
}

GST_END_TEST;

/* The element's "frames" count as each output frame leaves it, by the
 * frame's timestamp in seconds. */
typedef struct
{
  GstElement *element;
  guint64 frames_at_push[8];
} PushRecord;

static GstPadProbeReturn
record_push (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  PushRecord *record = user_data;
  guint64 second = GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info)) /
      GST_SECOND;

  fail_unless (second < G_N_ELEMENTS (record->frames_at_push));
  record->frames_at_push[second] =
      cip_test_element_stat (record->element, "frames");
  return GST_PAD_PROBE_OK;
}

/* Behind a source that is not live, a frame that leaves for system memory
 * is held on the cuda backend until the next one's work is queued (one
 * frame later out, after the next frame is computed), and goes out
 * before a segment and a drain query, and before the frame after a
 * discontinuity, which alone is marked DISCONT and goes out at once;
 * holding goes on after it.  On the cpu backend each frame comes out at
 * once. */
GST_START_TEST (test_held_frame_order)
{
  GstHarness *h = cip_test_harness_new ("cudagray", NULL);
  gboolean cuda = cip_test_backend_is_cuda ();
  /* frames computed when frame i leaves: frame i + 1 too where it is
   * held and the next one's work queued before it goes; where a segment
   * (1), a drain query (2), a discontinuity (3, 4) or the end (7) pushes
   * it, or on the cpu backend, frame i alone */
  static const guint64 held_frames_at_push[] = { 2, 2, 3, 4, 5, 7, 8, 8 };
  PushRecord record = { cip_test_harness_element (h, "cudagray") };
  CipImage rgba = cip_test_image_random (32, 8, CIP_FORMAT_RGBA, 5);
  GstSegment segment;
  GstQuery *drain;
  guint i;

  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER, record_push,
      &record, NULL);
  gst_harness_set_live (h, FALSE);
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_RGBA, 32, 8);
  for (i = 0; i < 8; i++) {
    GstBuffer *in = cip_test_buffer_new_strided (&rgba, 0);

    GST_BUFFER_PTS (in) = i * GST_SECOND;
    if (i == 4)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    /* the frames before are out, this one too where it is not held */
    fail_unless_equals_int (gst_harness_buffers_received (h),
        i + (cuda && i != 4 ? 0 : 1));
    if (i == 1) {
      gst_segment_init (&segment, GST_FORMAT_TIME);
      fail_unless (gst_harness_push_event (h,
              gst_event_new_segment (&segment)));
      fail_unless_equals_int (gst_harness_buffers_received (h), i + 1);
    } else if (i == 2) {
      drain = gst_query_new_drain ();
      fail_unless (gst_pad_peer_query (h->srcpad, drain));
      gst_query_unref (drain);
      fail_unless_equals_int (gst_harness_buffers_received (h), i + 1);
    }
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 8);

  for (i = 0; i < 8; i++) {
    GstBuffer *out = gst_harness_pull (h);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND);
    fail_unless_equals_int (GST_BUFFER_IS_DISCONT (out), i == 4);
    fail_unless_equals_uint64 (record.frames_at_push[i],
        cuda ? held_frames_at_push[i] : i + 1);
    gst_buffer_unref (out);
  }
  gst_object_unref (record.element);
  cip_test_image_free (&rgba);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* cuda-device-id=63: no such device on the cuda backend (RESOURCE /
 * NOT_FOUND, the element does not start); ignored on the cpu backend. */
GST_START_TEST (test_nonexistent_device)
{
  const ElementCase *c = &elements[__i__];

  if (cip_test_backend_is_cuda ()) {
    GstElement *element = gst_element_factory_make (c->name, NULL);
    GstBus *bus = gst_bus_new ();

    gst_object_ref_sink (element);
    g_object_set (element, "cuda-device-id", 63, NULL);
    gst_util_set_object_arg (G_OBJECT (element), "backend", "cuda");
    gst_element_set_bus (element, bus);
    fail_unless_equals_int (gst_element_set_state (element,
            GST_STATE_READY), GST_STATE_CHANGE_FAILURE);
    cip_test_bus_assert_one_error (bus, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_NOT_FOUND, "63");
    fail_unless_equals_int (gst_element_set_state (element, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    gst_bus_set_flushing (bus, TRUE);
    gst_element_set_bus (element, NULL);
    gst_object_unref (bus);
    gst_object_unref (element);
  } else {
    GstHarness *h = cip_test_harness_new (c->name, "cuda-device-id=63");
    GstBus *bus = cip_test_harness_add_bus (h);

    cip_test_harness_set_caps (h, c->format, 64, 48);
    push_and_check_frame (h, c->name, c->format, 64, 48, 63);
    fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
    cip_test_harness_teardown_with_bus (h, bus);
  }
}

GST_END_TEST;

/* The minimum of the first pool of @query, after @pad answered it for
 * @caps; -1 when it proposed none. */
static gint
proposed_min_buffers (GstPad * pad, const gchar * caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  guint min = 0;
  gint found = -1;

  fail_unless (gst_pad_query (pad, query), "%s: no answer", caps_str);
  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, NULL);
    found = (gint) min;
  }
  gst_query_unref (query);
  gst_caps_unref (caps);
  return found;
}

/* CUDA-memory pools are made with frames for all that may be in flight
 * before the stream flows: upstream is told how many of its frames the
 * element holds, and the element's output pool has those it holds and
 * those downstream holds (a pool that grows while others stream waits
 * for the whole context: streams of many pipelines stopped).  Here
 * downstream (the harness) holds none and offers no pool.  Only the cuda
 * backend has pools, CUDA memory only where GStreamer has it (1.22+). */
GST_START_TEST (test_pools_hold_the_frames_in_flight)
{
  GstHarness *h = cip_test_harness_new ("cudagray", NULL);
  GstElement *gray = cip_test_harness_element (h, "cudagray");
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;
  GstBuffer *frame;
  GstPad *pad;
  guint min = 0;
  gint held;

  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_RGBA, 64, 48);
  gst_harness_set_sink_caps_str (h, "video/x-raw(memory:CUDAMemory),"
      "format=GRAY8,width=64,height=48,framerate=30/1");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  frame = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (frame, 0, 90, GST_VIDEO_INFO_SIZE (&info));
  gst_buffer_unref (cip_test_push_pull (h, frame));

  pad = gst_element_get_static_pad (gray, "sink");
  held = proposed_min_buffers (pad, "video/x-raw(memory:CUDAMemory),"
      "format=RGBA,width=64,height=48,framerate=30/1");
  fail_unless (held > 0, "cudagray proposed %d frames", held);
  fail_unless_equals_int (proposed_min_buffers (pad,
          "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1"), 0);
  gst_object_unref (pad);

  pool = gst_base_transform_get_buffer_pool (GST_BASE_TRANSFORM (gray));
  fail_unless (pool != NULL);
  fail_unless (gst_buffer_pool_is_active (pool));
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_params (config, NULL, NULL, &min,
          NULL));
  fail_unless_equals_int (min, held);
  gst_structure_free (config);
  gst_object_unref (pool);

  gst_object_unref (gray);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Where a neighbour takes no GRAY8, a gray output is the luma of NV12 or
 * I420: the same bytes, the chroma neutral (128), full range, so that a
 * converter gives R = G = B = Y; cudagray on NV12 is then no copy of its
 * input. */
static const struct
{
  const gchar *name;
  GstVideoFormat in_format;
} gray_as_yuv_cases[] = {
  {"cudagray", GST_VIDEO_FORMAT_RGBA},
  {"cudagray", GST_VIDEO_FORMAT_NV12},
  {"cudamask", GST_VIDEO_FORMAT_GRAY8},
  {"cudaequalize", GST_VIDEO_FORMAT_GRAY8},
  {"cudaotsu", GST_VIDEO_FORMAT_GRAY8},
  {"cudablur", GST_VIDEO_FORMAT_GRAY8},
  {"cudamorph", GST_VIDEO_FORMAT_GRAY8},
};

static const GstVideoFormat gray_as_yuv_formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
};

GST_START_TEST (test_gray_as_yuv)
{
  guint n_formats = G_N_ELEMENTS (gray_as_yuv_formats);
  const gchar *name = gray_as_yuv_cases[__i__ / n_formats].name;
  GstVideoFormat in_format = gray_as_yuv_cases[__i__ / n_formats].in_format;
  GstVideoFormat out_format = gray_as_yuv_formats[__i__ % n_formats];
  GstHarness *h = cip_test_harness_new (name, NULL);
  CipFormat src_format = in_format == GST_VIDEO_FORMAT_RGBA ?
      CIP_FORMAT_RGBA : CIP_FORMAT_GRAY8;
  CipImage src = cip_test_image_random (33, 17, src_format, 7);
  CipImage expected = cip_test_expected_default (name, &src);
  GstVideoColorimetry colorimetry;
  GstVideoFrame frame;
  GstVideoInfo info;
  GstBuffer *out;
  GstCaps *caps;
  guint plane, comp, x, y;
  gchar *sink_caps = g_strdup_printf ("video/x-raw,format=%s",
      gst_video_format_to_string (out_format));

  gst_harness_set_sink_caps_str (h, sink_caps);
  g_free (sink_caps);
  cip_test_harness_set_caps (h, in_format, 33, 17);
  out = cip_test_push_pull (h, cip_test_buffer_for_format (&src, in_format, 5));
  caps = cip_test_harness_output_caps (h);
  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info), out_format);
  colorimetry = GST_VIDEO_INFO_COLORIMETRY (&info);
  fail_unless_equals_int (colorimetry.range, GST_VIDEO_COLOR_RANGE_0_255);
  fail_unless_equals_int (colorimetry.matrix, GST_VIDEO_COLOR_MATRIX_BT601);
  cip_test_assert_buffer_image (out, caps, &expected);

  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  for (plane = 1; plane < GST_VIDEO_FRAME_N_PLANES (&frame); plane++) {
    for (comp = 0; GST_VIDEO_FORMAT_INFO_PLANE (info.finfo, comp) != plane;)
      comp++;
    for (y = 0; y < (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&frame, comp); y++)
      for (x = 0; x < (guint) (GST_VIDEO_FRAME_COMP_WIDTH (&frame, comp) *
              GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, comp)); x++)
        fail_unless_equals_int (((guint8 *) GST_VIDEO_FRAME_PLANE_DATA
                (&frame, plane))[y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame,
                    plane) + x], 128);
  }
  gst_video_frame_unmap (&frame);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
cudaimgprocfilter_suite (void)
{
  Suite *s = suite_create ("cudaimgprocfilter");
  TCase *tc = tcase_create ("general");
  gint n = G_N_ELEMENTS (elements);

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_test (tc, test_plugin_has_its_elements);
  tcase_add_loop_test (tc, test_element_properties, 0, n);
  tcase_add_test (tc, test_mask_refuses_rgba);
  tcase_add_test (tc, test_gray_refuses_v210);
  tcase_add_loop_test (tc, test_short_buffer_is_an_error, 0,
      G_N_ELEMENTS (every_input_path));
  tcase_add_loop_test (tc, test_video_meta_that_does_not_fit, 0,
      G_N_ELEMENTS (bad_meta_cases));
  tcase_add_loop_test (tc, test_plane_across_two_memories, 0,
      G_N_ELEMENTS (split_plane_cases));
  tcase_add_loop_test (tc, test_padded_gray8_stride, 0, 3);
  tcase_add_test (tc, test_padded_rgba_stride_and_offset);
  tcase_add_loop_test (tc, test_gray_as_yuv, 0,
      G_N_ELEMENTS (gray_as_yuv_cases) * G_N_ELEMENTS (gray_as_yuv_formats));
  tcase_add_loop_test (tc, test_odd_sizes, 0,
      G_N_ELEMENTS (odd_size_cases) * G_N_ELEMENTS (odd_sizes));
  tcase_add_loop_test (tc, test_caps_change_mid_stream, 0, n);
  tcase_add_loop_test (tc, test_state_cycles, 0, n);
  tcase_add_loop_test (tc, test_setting_fixed_while_running, 0,
      G_N_ELEMENTS (ready_settings) * G_N_ELEMENTS (running_states));
  tcase_add_loop_test (tc, test_setting_free_in_null_and_ready, 0,
      G_N_ELEMENTS (ready_settings) * 2);
  tcase_add_test (tc, test_caps_stay_those_of_the_running_backend);
  tcase_add_test (tc, test_auto_backend_picks_where_it_runs);
  tcase_add_test (tc, test_late_frames_dropped_and_counted);
  tcase_add_loop_test (tc, test_no_allocation_per_frame, 0, n);
  tcase_add_test (tc, test_held_frame_order);
  tcase_add_loop_test (tc, test_nonexistent_device, 0, n);
  if (cip_test_backend_is_cuda () && CIP_TEST_HAVE_CUDA_MEMORY)
    tcase_add_test (tc, test_pools_hold_the_frames_in_flight);

  return s;
}

CIP_TEST_ELEMENT_MAIN (cudaimgprocfilter)
