/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgproccaps.h"
#include "gstcudaimgproccompat.h"
#include "cip.h"

/* Formats that hold a gray frame as YUV, the chroma neutral, for
 * neighbours that take no GRAY8. */
static const gchar *const gray_as_yuv_formats[] = { "NV12", "I420", NULL };

static gboolean
formats_contain (const gchar * const *formats, const gchar * format)
{
  return formats && g_strv_contains (formats, format);
}

/* Adds @format to @formats unless it is there. */
static void
formats_add (GPtrArray * formats, const gchar * format)
{
  guint i;

  for (i = 0; i < formats->len; i++)
    if (g_str_equal (g_ptr_array_index (formats, i), format))
      return;
  g_ptr_array_add (formats, (gpointer) format);
}

/* Whether the output @format comes from deep inputs only. */
static gboolean
is_deep_only (const GstCudaImgprocFormats * element, const gchar * format)
{
  return element->deep_formats && g_str_equal (format, "GRAY16_LE");
}

/* The formats the other pad may have when this one has @format. */
static void
other_formats (const GstCudaImgprocFormats * element,
    GstPadDirection direction, const gchar * format, GPtrArray * formats)
{
  const gchar *const *outputs = element->output_formats;
  guint i;

  if (direction == GST_PAD_SINK) {
    if (outputs) {
      for (i = 0; outputs[i]; i++)
        if (!is_deep_only (element, outputs[i]) ||
            formats_contain (element->deep_formats, format))
          formats_add (formats, outputs[i]);
    } else {
      formats_add (formats, format);
    }
    if (outputs ? formats_contain (outputs, "GRAY8") :
        g_str_equal (format, "GRAY8"))
      for (i = 0; gray_as_yuv_formats[i]; i++)
        formats_add (formats, gray_as_yuv_formats[i]);
    return;
  }

  if (element->input_formats && is_deep_only (element, format)) {
    for (i = 0; element->deep_formats[i]; i++)
      formats_add (formats, element->deep_formats[i]);
    return;
  }
  if (element->input_formats) {
    if (formats_contain (outputs, format) || (formats_contain (outputs,
                "GRAY8") && formats_contain (gray_as_yuv_formats, format)))
      for (i = 0; element->input_formats[i]; i++)
        formats_add (formats, element->input_formats[i]);
    return;
  }
  formats_add (formats, format);
  if (formats_contain (gray_as_yuv_formats, format))
    formats_add (formats, "GRAY8");
}

/* @s, with each format of its "format" field (a string or a list) in
 * turn, into @result, its format replaced by the formats the other pad
 * may have then.  Fields that belong to the old format go with it. */
static void
transform_structure (const GstCudaImgprocFormats * element,
    GstPadDirection direction, const GstStructure * s,
    GstCapsFeatures * features, GstCaps ** result)
{
  const GValue *value = gst_structure_get_value (s, "format");
  guint n = value && GST_VALUE_HOLDS_LIST (value) ?
      gst_value_list_get_size (value) : 1;
  guint i, j;

  /* Any format: any of the formats of the other side. */
  if (value == NULL) {
    const gchar *const *formats = direction == GST_PAD_SRC ?
        element->input_formats : element->output_formats;
    GstStructure *copy = gst_structure_copy (s);

    if (formats) {
      GValue list = G_VALUE_INIT;

      gst_value_list_init (&list, 0);
      for (j = 0; formats[j]; j++) {
        GValue f = G_VALUE_INIT;

        g_value_init (&f, G_TYPE_STRING);
        g_value_set_static_string (&f, formats[j]);
        gst_value_list_append_and_take_value (&list, &f);
      }
      gst_structure_take_value (copy, "format", &list);
      gst_structure_remove_fields (copy, "colorimetry", "chroma-site", NULL);
    }
    *result = gst_caps_merge_structure_full (*result, copy,
        features ? gst_caps_features_copy (features) : NULL);
    return;
  }

  for (i = 0; i < n; i++) {
    const GValue *v = value && GST_VALUE_HOLDS_LIST (value) ?
        gst_value_list_get_value (value, i) : value;
    const gchar *format = v && G_VALUE_HOLDS_STRING (v) ?
        g_value_get_string (v) : NULL;
    GPtrArray *formats;
    GstStructure *copy;

    if (format == NULL)
      continue;
    formats = g_ptr_array_new ();
    other_formats (element, direction, format, formats);
    if (formats->len > 0) {
      copy = gst_structure_copy (s);
      if (formats->len == 1) {
        gst_structure_set (copy, "format", G_TYPE_STRING,
            g_ptr_array_index (formats, 0), NULL);
      } else {
        GValue list = G_VALUE_INIT;

        g_value_init (&list, GST_TYPE_LIST);
        for (j = 0; j < formats->len; j++) {
          GValue f = G_VALUE_INIT;

          g_value_init (&f, G_TYPE_STRING);
          g_value_set_static_string (&f, g_ptr_array_index (formats, j));
          gst_value_list_append_and_take_value (&list, &f);
        }
        gst_structure_take_value (copy, "format", &list);
      }
      if (formats->len > 1 || !g_str_equal (g_ptr_array_index (formats, 0),
              format))
        gst_structure_remove_fields (copy, "colorimetry", "chroma-site", NULL);
      *result = gst_caps_merge_structure_full (*result, copy,
          features ? gst_caps_features_copy (features) : NULL);
    }
    g_ptr_array_unref (formats);
  }
}

/* @caps with every structure's memory feature set to @feature. */
static GstCaps *
caps_with_feature (GstCaps * caps, const gchar * feature)
{
  GstCaps *result = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (result); i++)
    gst_caps_set_features (result, i, gst_caps_features_new (feature, NULL));
  return result;
}

GstCaps *
gst_cuda_imgproc_caps_transform (const GstCudaImgprocFormats * element,
    GstPadDirection direction, GstCaps * caps, gboolean cuda)
{
  GstCaps *other, *result;
  guint i;

  other = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++)
    transform_structure (element, direction, gst_caps_get_structure (caps, i),
        gst_caps_get_features (caps, i), &other);

  if (cuda && gst_cuda_imgproc_have_cuda_memory ()) {
    result = caps_with_feature (other, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
    result = gst_caps_merge (result, caps_with_feature (other,
            GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY));
  } else {
    result = caps_with_feature (other, GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY);
  }
  gst_caps_unref (other);
  return result;
}

GstCaps *
gst_cuda_imgproc_caps_prefer_cuda (GstCaps * othercaps)
{
  GstCaps *device = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (othercaps); i++) {
    GstCapsFeatures *features = gst_caps_get_features (othercaps, i);

    if (features && gst_caps_features_contains (features,
            GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY))
      gst_caps_append_structure_full (device,
          gst_structure_copy (gst_caps_get_structure (othercaps, i)),
          gst_caps_features_copy (features));
  }
  if (gst_caps_is_empty (device)) {
    gst_caps_unref (device);
    return othercaps;
  }
  gst_caps_unref (othercaps);
  return device;
}

gboolean
gst_cuda_imgproc_caps_is_gray_as_yuv (const GstCudaImgprocFormats * element,
    GstVideoFormat in_format, GstVideoFormat out_format)
{

  if (out_format != GST_VIDEO_FORMAT_NV12 &&
      out_format != GST_VIDEO_FORMAT_I420)
    return FALSE;
  return !(element->passes_chroma && in_format == out_format);
}

/* A gray frame as YUV is full range, and its BT.601 matrix makes neutral
 * chroma gray: every converter downstream gives R = G = B = Y. */
GstCaps *
gst_cuda_imgproc_caps_fixate_gray_as_yuv (const GstCudaImgprocFormats *
    element, GstCaps * caps, GstCaps * othercaps)
{
  GstStructure *in = gst_caps_get_structure (caps, 0);
  GstStructure *out;
  const gchar *in_format = gst_structure_get_string (in, "format");
  const gchar *out_format;
  GstVideoColorimetry gray = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_BT601, GST_VIDEO_TRANSFER_UNKNOWN,
    GST_VIDEO_COLOR_PRIMARIES_UNKNOWN
  };
  gchar *colorimetry;

  if (gst_caps_is_empty (othercaps) || in_format == NULL)
    return othercaps;
  out = gst_caps_get_structure (othercaps, 0);
  out_format = gst_structure_get_string (out, "format");
  if (out_format == NULL || gst_structure_has_field (out, "colorimetry") ||
      !gst_cuda_imgproc_caps_is_gray_as_yuv (element,
          gst_video_format_from_string (in_format),
          gst_video_format_from_string (out_format)))
    return othercaps;

  othercaps = gst_caps_make_writable (othercaps);
  colorimetry = gst_video_colorimetry_to_string (&gray);
  gst_structure_set (gst_caps_get_structure (othercaps, 0), "colorimetry",
      G_TYPE_STRING, colorimetry, NULL);
  g_free (colorimetry);
  return othercaps;
}

/* Gray taken from the luma of YUV is that luma: it keeps the input's
 * colorimetry, so that a BT.709 camera's gray frame says it is
 * BT.709 luma of limited range rather than taking GRAY's full-range BT.601
 * default, under which a converter downstream would read it wrongly. */
GstCaps *
gst_cuda_imgproc_caps_fixate_luma (GstCaps * caps, GstCaps * othercaps)
{
  GstStructure *out;
  const gchar *out_format;
  GstVideoInfo in_info;
  const GstVideoFormatInfo *out_finfo;
  gchar *colorimetry;

  if (gst_caps_is_empty (othercaps) ||
      !gst_video_info_from_caps (&in_info, caps))
    return othercaps;
  out = gst_caps_get_structure (othercaps, 0);
  out_format = gst_structure_get_string (out, "format");
  if (out_format == NULL || gst_structure_has_field (out, "colorimetry"))
    return othercaps;
  out_finfo = gst_video_format_get_info (gst_video_format_from_string
      (out_format));
  if (out_finfo == NULL || !GST_VIDEO_FORMAT_INFO_IS_GRAY (out_finfo) ||
      !GST_VIDEO_INFO_IS_YUV (&in_info))
    return othercaps;

  colorimetry = gst_video_colorimetry_to_string (&in_info.colorimetry);
  if (colorimetry == NULL)
    return othercaps;
  othercaps = gst_caps_make_writable (othercaps);
  gst_structure_set (gst_caps_get_structure (othercaps, 0), "colorimetry",
      G_TYPE_STRING, colorimetry, NULL);
  g_free (colorimetry);
  return othercaps;
}

gboolean
gst_cuda_imgproc_caps_are_cuda (GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  return features != NULL && gst_caps_features_contains (features,
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

/* The template caps of raw video of @formats (a GPtrArray of strings) up
 * to CIP_MAX_DIMENSION a side, in CUDA memory, then in system memory. */
static GstCaps *
template_caps (GPtrArray * formats)
{
  GString *list = g_string_new (NULL);
  gchar *fields, *description;
  GstCaps *caps;
  guint i;

  if (formats->len == 1) {
    g_string_append (list, g_ptr_array_index (formats, 0));
  } else {
    g_string_append (list, "{ ");
    for (i = 0; i < formats->len; i++)
      g_string_append_printf (list, "%s%s", i > 0 ? ", " : "",
          (const gchar *) g_ptr_array_index (formats, i));
    g_string_append (list, " }");
  }
  fields = g_strdup_printf ("format = (string) %s, "
      "width = (int) [ 1, %d ], height = (int) [ 1, %d ], "
      "framerate = " GST_VIDEO_FPS_RANGE, list->str, CIP_MAX_DIMENSION,
      CIP_MAX_DIMENSION);
  if (gst_cuda_imgproc_have_cuda_memory ())
    description = g_strdup_printf ("video/x-raw("
        GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY "), %s; video/x-raw, %s", fields,
        fields);
  else
    description = g_strdup_printf ("video/x-raw, %s", fields);
  caps = gst_caps_from_string (description);
  g_assert (caps != NULL);
  g_free (description);
  g_free (fields);
  g_string_free (list, TRUE);
  return caps;
}

static void
add_pad_template (GstElementClass * klass, const gchar * name,
    GstPadDirection direction, GPtrArray * formats)
{
  GstCaps *caps = template_caps (formats);

  gst_element_class_add_pad_template (klass,
      gst_pad_template_new (name, direction, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

/* The sink template of @input_formats, and the source template of
 * @output_formats. */
static void
add_pad_templates (GstElementClass * klass,
    const gchar * const *input_formats, GPtrArray * output_formats)
{
  GPtrArray *formats = g_ptr_array_new ();
  guint i;

  for (i = 0; input_formats[i]; i++)
    formats_add (formats, input_formats[i]);
  add_pad_template (klass, "sink", GST_PAD_SINK, formats);
  add_pad_template (klass, "src", GST_PAD_SRC, output_formats);
  g_ptr_array_unref (formats);
}

void
gst_cuda_imgproc_caps_add_pad_templates (GstElementClass * klass,
    const gchar * const *input_formats, const gchar * const *output_formats)
{
  /* The element as its class will say it. */
  GstCudaImgprocFormats element = { output_formats ? input_formats : NULL,
    output_formats, NULL, FALSE
  };
  GPtrArray *formats;
  guint i;

  g_return_if_fail (input_formats != NULL && input_formats[0] != NULL);

  formats = g_ptr_array_new ();
  for (i = 0; input_formats[i]; i++)
    other_formats (&element, GST_PAD_SINK, input_formats[i], formats);
  add_pad_templates (klass, input_formats, formats);
  g_ptr_array_unref (formats);
}

void
gst_cuda_imgproc_caps_add_pad_templates_by_mode (GstElementClass * klass,
    const gchar * const *input_formats,
    const gchar * const *const *mode_formats)
{
  GPtrArray *formats;
  guint i, j;

  g_return_if_fail (input_formats != NULL && input_formats[0] != NULL);
  g_return_if_fail (mode_formats != NULL && mode_formats[0] != NULL);

  formats = g_ptr_array_new ();
  for (i = 0; mode_formats[i]; i++)
    for (j = 0; mode_formats[i][j]; j++)
      formats_add (formats, mode_formats[i][j]);
  add_pad_templates (klass, input_formats, formats);
  g_ptr_array_unref (formats);
}
