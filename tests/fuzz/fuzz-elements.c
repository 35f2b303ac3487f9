/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* libFuzzer target: every element of the plugin on the cpu backend, fed
 * frames whose format, size, properties, plane strides and offsets and
 * buffer length come from the fuzzer's bytes.  The contract checked:
 * caps the element does not take end in not-negotiated; otherwise the push
 * returns GST_FLOW_OK with exactly one output frame of the negotiated size
 * and no error, or GST_FLOW_ERROR with an error on the bus and no frame.
 * A well-formed frame must give GST_FLOW_OK, a short one without video
 * meta GST_FLOW_ERROR.
 *
 * Input buffers live in pages of their own, with inaccessible pages on both
 * sides and the frame's bytes against one of them, and are read-only:
 * the plugin itself is not instrumented, so any read past the buffer, or
 * write into it, faults.
 *
 * Input layout (missing bytes read as 0): element, mode, format, width
 * (2), height (2), one value (2) per writable property of the element
 * (sorted by name); with a meta, the first plane's offset (1), the
 * meta's size (1: from 0xf0 one pixel more or less across, or down),
 * then per plane: pad, gap, spoil, raw stride (2), raw offset (2); the length
 * adjustment (2), its top bit splitting the buffer in two memories; then
 * the pixel bytes, repeated to fill the frame.  The mode's bits: 0-1 a
 * video meta (when not 0), 2-3 the length (exact, long, short, tiny), 4-5
 * the size (3: the largest side, or one more), 6 formats the element may
 * not take, 7 the frame against the page before it rather than after.
 * make-corpus.py writes inputs in this layout. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#define MAX_DIMENSION 16384
#define MAX_SIDE 300
/* Bytes of pixels per frame beyond which the size is scaled down: keeps
 * each input well under a second with the widest blur and morphology. */
#define MAX_PIXEL_BYTES (96 * 1024)

typedef struct
{
  const gchar *name;
  const GstVideoFormat *formats;        /* GST_VIDEO_FORMAT_UNKNOWN-ended */
} ElementDesc;

static const GstVideoFormat gray_formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_NV16, GST_VIDEO_FORMAT_NV61,
  GST_VIDEO_FORMAT_NV24, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_YUY2,
  GST_VIDEO_FORMAT_YVYU, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_P016_LE, GST_VIDEO_FORMAT_I420_10LE,
  GST_VIDEO_FORMAT_I420_12LE, GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_GRAY16_BE,
  GST_VIDEO_FORMAT_UNKNOWN
};

static const GstVideoFormat gray8_only[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_UNKNOWN
};

static const GstVideoFormat gray8_gray16[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_UNKNOWN
};

static const GstVideoFormat equalize_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21,
  GST_VIDEO_FORMAT_NV16, GST_VIDEO_FORMAT_NV61, GST_VIDEO_FORMAT_NV24,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_YVYU,
  GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_UNKNOWN
};

static const GstVideoFormat filter_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA,
  GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_ARGB,
  GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_UNKNOWN
};

/* Every format an element takes, and some none does. */
static const GstVideoFormat all_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA,
  GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_ARGB,
  GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR,
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_GRAY16_LE,
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_NV16,
  GST_VIDEO_FORMAT_NV61, GST_VIDEO_FORMAT_NV24, GST_VIDEO_FORMAT_YV12,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_YVYU,
  GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_P016_LE,
  GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_I420_12LE,
  GST_VIDEO_FORMAT_GRAY16_BE, GST_VIDEO_FORMAT_AYUV, GST_VIDEO_FORMAT_UNKNOWN
};

static const ElementDesc elements[] = {
  {"cudagray", gray_formats},
  {"cudamask", gray8_gray16},
  {"cudaequalize", equalize_formats},
  {"cudaotsu", gray8_gray16},
  {"cudablur", filter_formats},
  {"cudamorph", filter_formats},
  {"cudalabel", gray8_only},
};

#define N_ELEMENTS G_N_ELEMENTS (elements)

/* The plugin is not instrumented for coverage: what each input led to
 * (element, format, layout, outcome) is counted here instead, in
 * libFuzzer's extra counters, so that new combinations are kept. */
enum
{ OUTCOME_OK, OUTCOME_ERROR, OUTCOME_REFUSED, N_OUTCOMES };
#define N_FORMATS (G_N_ELEMENTS (all_formats) - 1)
#define N_LAYOUTS 5
__attribute__((used, section ("__libfuzzer_extra_counters")))
     static uint8_t outcomes[N_ELEMENTS][N_FORMATS][N_LAYOUTS][N_OUTCOMES];

     static guint format_index (GstVideoFormat format)
{
  guint i;

  for (i = 0; i < N_FORMATS; i++)
    if (all_formats[i] == format)
      return i;
  abort ();
}

/* Reads the fuzzer's bytes; past the end every value is 0. */
typedef struct
{
  const uint8_t *data;
  size_t size;
  size_t pos;
} Reader;

static guint
read_u8 (Reader * r)
{
  return r->pos < r->size ? r->data[r->pos++] : 0;
}

static guint
read_u16 (Reader * r)
{
  guint lo = read_u8 (r);

  return lo | (read_u8 (r) << 8);
}

static void G_GNUC_NORETURN
violation (const gchar * element, const gchar * what)
{
  fprintf (stderr, "contract violated by %s: %s\n", element, what);
  abort ();
}

static guint
count_formats (const GstVideoFormat * formats)
{
  guint n = 0;

  while (formats[n] != GST_VIDEO_FORMAT_UNKNOWN)
    n++;
  return n;
}

static gboolean
takes_format (const ElementDesc * desc, GstVideoFormat format)
{
  const GstVideoFormat *f;

  for (f = desc->formats; *f != GST_VIDEO_FORMAT_UNKNOWN; f++)
    if (*f == format)
      return TRUE;
  return FALSE;
}

static gint
compare_pspec_names (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(GParamSpec **) a)->name, (*(GParamSpec **) b)->name);
}

/* cudalabel's region properties, in cip.h's order: a string property
 * `properties` is set to those of the bits of four bytes ("label" for
 * none). */
static const char *const region_properties[] = {
  "label", "area", "area_bbox", "axis_major_length", "axis_minor_length",
  "bbox", "centroid", "eccentricity", "equivalent_diameter_area", "extent",
  "intensity_max", "intensity_mean", "intensity_min", "orientation",
  "perimeter", "euler_number", "area_convex", "area_filled",
  "feret_diameter_max", "solidity",
};

static void
set_region_properties (GValue * value, guint32 bits)
{
  GString *list = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (region_properties); i++)
    if (bits & (1u << i))
      g_string_append_printf (list, "%s%s", list->len ? "," : "",
          region_properties[i]);
  g_value_take_string (value, g_string_free (list->len ? list :
          (g_string_append (list, "label"), list), FALSE));
}

/* Sets each writable property the element's own class declares to a value
 * within its range, taken from two bytes (four for a list of region
 * properties). */
static void
set_properties (GstElement * element, Reader * r)
{
  GType type = G_OBJECT_TYPE (element);
  guint n, i;
  GParamSpec **specs =
      g_object_class_list_properties (G_OBJECT_GET_CLASS (element), &n);

  qsort (specs, n, sizeof (GParamSpec *), compare_pspec_names);
  for (i = 0; i < n; i++) {
    GParamSpec *spec = specs[i];
    GValue value = G_VALUE_INIT;
    guint raw;

    if (spec->owner_type != type || !(spec->flags & G_PARAM_WRITABLE) ||
        (spec->flags & G_PARAM_CONSTRUCT_ONLY))
      continue;
    raw = read_u16 (r);
    g_value_init (&value, spec->value_type);
    if (G_IS_PARAM_SPEC_UINT (spec)) {
      GParamSpecUInt *u = G_PARAM_SPEC_UINT (spec);
      guint64 span = (guint64) u->maximum - u->minimum + 1;

      /* Wide ranges (min-area): small values and, at 0xffff, the top. */
      if (span > 0x10000)
        g_value_set_uint (&value, raw == 0xffff ? u->maximum :
            u->minimum + raw);
      else
        g_value_set_uint (&value, u->minimum + raw % span);
    } else if (G_IS_PARAM_SPEC_INT (spec)) {
      GParamSpecInt *s = G_PARAM_SPEC_INT (spec);
      gint64 span = (gint64) s->maximum - s->minimum + 1;

      g_value_set_int (&value, s->minimum + (gint) (span > 0x10000 ?
              raw : raw % span));
    } else if (G_IS_PARAM_SPEC_DOUBLE (spec)) {
      GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (spec);

      g_value_set_double (&value, d->minimum +
          (d->maximum - d->minimum) * (raw / 65535.0));
    } else if (G_IS_PARAM_SPEC_BOOLEAN (spec)) {
      g_value_set_boolean (&value, raw & 1);
    } else if (G_IS_PARAM_SPEC_ENUM (spec)) {
      GEnumClass *klass = G_PARAM_SPEC_ENUM (spec)->enum_class;

      g_value_set_enum (&value, klass->values[raw % klass->n_values].value);
    } else if (G_IS_PARAM_SPEC_STRING (spec) &&
        g_str_equal (spec->name, "properties")) {
      set_region_properties (&value, raw | (guint32) read_u16 (r) << 16);
    } else {
      g_value_unset (&value);
      continue;
    }
    g_object_set_property (G_OBJECT (element), spec->name, &value);
    g_value_unset (&value);
  }
  g_free (specs);
}

/* A block of @size bytes with an inaccessible page on each side, the bytes
 * against the page after (@at_end) or before. */
typedef struct
{
  guint8 *base;
  gsize mapped;
  guint8 *data;
  gsize size;
} GuardedBlock;

static GuardedBlock *
guarded_block_new (gsize size, gboolean at_end)
{
  gsize page = sysconf (_SC_PAGESIZE);
  gsize pages = (size + page - 1) / page;
  GuardedBlock *block = g_new0 (GuardedBlock, 1);

  block->mapped = (pages + 2) * page;
  block->base = mmap (NULL, block->mapped, PROT_NONE,
      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block->base == MAP_FAILED)
    abort ();
  if (pages > 0 && mprotect (block->base + page, pages * page,
          PROT_READ | PROT_WRITE) != 0)
    abort ();
  block->data = block->base + page + (at_end ? pages * page - size : 0);
  block->size = size;
  return block;
}

/* Once filled, the frame is read-only: the elements never write their
 * input. */
static void
guarded_block_seal (GuardedBlock * block)
{
  gsize page = sysconf (_SC_PAGESIZE);
  gsize pages = (block->mapped / page) - 2;

  if (pages > 0 && mprotect (block->base + page, pages * page, PROT_READ))
    abort ();
}

static void
guarded_block_free (gpointer data)
{
  GuardedBlock *block = data;

  munmap (block->base, block->mapped);
  g_free (block);
}

/* Fills @dst with the rest of the input, repeated; a ramp when there is
 * none left. */
static void
fill_pixels (guint8 * dst, gsize size, Reader * r)
{
  const uint8_t *src = r->data + r->pos;
  gsize n = r->pos < r->size ? r->size - r->pos : 0;
  gsize i;

  for (i = 0; i < size; i++)
    dst[i] = n ? src[i % n] : (guint8) (i * 7);
}

/* A buffer of @size bytes, in one memory or split in two at @split. */
static GstBuffer *
make_buffer (gsize size, gsize split, gboolean at_end, Reader * r)
{
  GstBuffer *buffer = gst_buffer_new ();
  gsize parts[2] = { split, size - split };
  guint i;

  for (i = 0; i < 2; i++) {
    GuardedBlock *block;

    if (parts[i] == 0)
      continue;
    block = guarded_block_new (parts[i], at_end);
    fill_pixels (block->data, parts[i], r);
    guarded_block_seal (block);
    gst_buffer_append_memory (buffer,
        gst_memory_new_wrapped (GST_MEMORY_FLAG_READONLY, block->data,
            block->size, 0, block->size, block, guarded_block_free));
  }
  return buffer;
}

static GstCaps *
caps_new (GstVideoFormat format, gint width, gint height)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

/* Rows of plane @plane in @info. */
static gint
plane_rows (const GstVideoInfo * info, guint plane)
{
  guint comp;

  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, comp) == plane)
      return GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
  return 0;
}

/* Bits of the samples of plane @plane in @info. */
static guint
plane_depth (const GstVideoInfo * info, guint plane)
{
  guint comp;

  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, comp) == plane)
      return GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, comp);
  return 8;
}

/* Bytes of one row of plane @plane in @info, without padding. */
static gint
plane_row_bytes (const GstVideoInfo * info, guint plane)
{
  guint comp;

  /* packed 4:2:2: whole macropixels, an odd width's last one included
   * (GStreamer's own rows; its unpacking reads them) */
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_YUY2 ||
      GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_YVYU ||
      GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_UYVY)
    return 4 * ((GST_VIDEO_INFO_WIDTH (info) + 1) / 2);
  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, comp) == plane)
      return GST_VIDEO_INFO_COMP_WIDTH (info, comp) *
          GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
  return 0;
}

static void
pop_errors (GstBus * bus, guint * errors)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      if (g_getenv ("CIP_FUZZ_VERBOSE"))
        fprintf (stderr, "  error: %s\n", err->message);
      g_error_free (err);
      (*errors)++;
    }
    gst_message_unref (msg);
  }
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  guint i;

  /* A critical in the element is a bug on malformed input too. */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  gst_init (NULL, NULL);
  for (i = 0; i < N_ELEMENTS; i++) {
    GstElementFactory *factory = gst_element_factory_find (elements[i].name);

    if (factory == NULL) {
      fprintf (stderr, "element %s not found: is GST_PLUGIN_PATH_1_0 the "
          "build's ext/ directory?\n", elements[i].name);
      exit (1);
    }
    gst_object_unref (factory);
  }
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  Reader r = { data, size, 0 };
  const ElementDesc *desc = &elements[read_u8 (&r) % N_ELEMENTS];
  guint mode = read_u8 (&r);
  guint format_byte = read_u8 (&r);
  guint width_raw = read_u16 (&r), height_raw = read_u16 (&r);
  gboolean use_meta = (mode & 0x03) != 0;
  guint length_mode = (mode >> 2) & 0x03;
  guint size_mode = (mode >> 4) & 0x03;
  gboolean foreign_format = (mode & 0x40) != 0;
  gboolean at_end = (mode & 0x80) == 0;
  GstVideoFormat format;
  gint width, height, meta_width, meta_height;
  gboolean refused, well_formed = TRUE;
  GstVideoInfo info;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  gsize need, length, split;
  gint adjust;
  guint plane, errors = 0, received, layout = 0;
  GstHarness *h;
  GstElement *element;
  GstBus *bus;
  GstBuffer *in, *out;
  GstFlowReturn ret;
  gchar *launch;

  if (foreign_format)
    format = all_formats[format_byte % count_formats (all_formats)];
  else
    format = desc->formats[format_byte % count_formats (desc->formats)];

  /* Sizes: mostly small; size mode 3 tries the largest side the caps
   * allow, and one more, with the other side tiny. */
  width = 1 + width_raw % MAX_SIDE;
  height = 1 + height_raw % MAX_SIDE;
  if (size_mode == 3) {
    gint big = MAX_DIMENSION + (width_raw & 1);

    if (height_raw & 1) {
      width = big;
      height = 1 + height % 3;
    } else {
      height = big;
      width = 1 + width % 3;
    }
  }
  refused = !takes_format (desc, format) || width > MAX_DIMENSION ||
      height > MAX_DIMENSION;
  if (!gst_video_info_set_format (&info, format, width, height))
    abort ();
  /* Scale big frames down, along the smaller side first kept at 1. */
  while (size_mode != 3 && GST_VIDEO_INFO_SIZE (&info) > MAX_PIXEL_BYTES) {
    if (height > 1)
      height = (height + 1) / 2;
    else
      width = (width + 1) / 2;
    gst_video_info_set_format (&info, format, width, height);
  }

  meta_width = width;
  meta_height = height;
  launch = g_strdup_printf ("%s backend=cpu", desc->name);
  h = gst_harness_new_parse (launch);
  g_free (launch);
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  element = gst_harness_find_element (h, desc->name);
  set_properties (element, &r);
  /* cudamask refuses a threshold above 255 for 8-bit input at
   * negotiation */
  if (g_str_equal (desc->name, "cudamask") && format == GST_VIDEO_FORMAT_GRAY8) {
    guint threshold = 0;

    g_object_get (element, "threshold", &threshold, NULL);
    if (threshold > 255)
      refused = TRUE;
  }
  gst_object_unref (element);
  bus = gst_bus_new ();
  gst_element_set_bus (h->element, bus);

  /* The layout: GStreamer's own, or padded, or spoiled, in a GstVideoMeta. */
  need = GST_VIDEO_INFO_SIZE (&info);
  for (plane = 0; plane < GST_VIDEO_INFO_N_PLANES (&info); plane++) {
    strides[plane] = GST_VIDEO_INFO_PLANE_STRIDE (&info, plane);
    offsets[plane] = GST_VIDEO_INFO_PLANE_OFFSET (&info, plane);
  }
  if (use_meta) {
    gsize end = read_u8 (&r);   /* the first plane's offset */
    guint meta_size = read_u8 (&r);

    /* Now and then a meta whose frame is not the caps' one. */
    if (meta_size >= 0xf0) {
      meta_width = MAX (1, width + (meta_size & 1 ? 1 : -1));
      if (meta_size & 2) {
        meta_height = meta_width - width + height;
        meta_width = width;
      }
      well_formed = FALSE;
    }

    for (plane = 0; plane < GST_VIDEO_INFO_N_PLANES (&info); plane++) {
      guint pad = read_u8 (&r) % 64, gap = read_u8 (&r) % 64;
      guint spoil = read_u8 (&r) % 12;
      gint raw_stride = (gint16) read_u16 (&r);
      guint raw_offset = read_u16 (&r);

      strides[plane] = plane_row_bytes (&info, plane) + pad;
      offsets[plane] = end;
      end += (gsize) strides[plane] * plane_rows (&info, plane) + gap;
      switch (spoil) {
        case 8:                /* any stride, negative and 0 included */
          strides[plane] = raw_stride;
          break;
        case 9:                /* rows overlap */
          strides[plane] = plane_row_bytes (&info, plane) - 1 - raw_stride % 4;
          break;
        case 10:               /* any offset */
          offsets[plane] = raw_offset;
          break;
        case 11:               /* on the previous plane */
          offsets[plane] = plane > 0 ? offsets[plane - 1] : raw_offset;
          break;
        default:
          continue;
      }
      well_formed = FALSE;
      layout |= spoil < 10 ? 1 : 2;
    }
    /* 16-bit rows at an odd stride or offset are refused (the elements'
     * contract): not a frame they must take */
    for (plane = 0; plane < GST_VIDEO_INFO_N_PLANES (&info); plane++)
      if (plane_depth (&info, plane) > 8 &&
          (strides[plane] % 2 != 0 || offsets[plane] % 2 != 0))
        well_formed = FALSE;
    need = end;
  }
  adjust = read_u16 (&r);
  switch (length_mode) {
    case 1:                    /* long */
      length = need + adjust % 256;
      break;
    case 2:                    /* short */
      length = need - 1 - (need > 1 ? adjust % (need - 1) : 0);
      well_formed = FALSE;
      break;
    case 3:                    /* tiny, or anything up to the need */
      length = adjust % (need < 64 ? need : 64);
      well_formed = FALSE;
      break;
    default:
      length = need;
      break;
  }
  split = (adjust & 0x8000) && length > 1 ? (adjust & 0x7fff) % length : 0;
  /* With a meta, GStreamer maps each plane from the one memory its offset
   * falls in: a plane across two is not readable as it stands. */
  if (use_meta && split > 0)
    well_formed = FALSE;
  in = make_buffer (length, split, at_end, &r);
  if (use_meta)
    gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE, format,
        meta_width, meta_height, GST_VIDEO_INFO_N_PLANES (&info), offsets,
        strides);

  gst_harness_set_src_caps (h, caps_new (format, width, height));
  gst_buffer_ref (in);
  ret = gst_harness_push (h, in);
  received = gst_harness_buffers_received (h);
  pop_errors (bus, &errors);

  if (g_getenv ("CIP_FUZZ_VERBOSE"))
    fprintf (stderr, "%s %s %dx%d meta=%d length=%" G_GSIZE_FORMAT
        "/%" G_GSIZE_FORMAT " well-formed=%d refused=%d: %s, %u out, "
        "%u errors\n", desc->name, gst_video_format_to_string (format),
        width, height, use_meta, length, need, well_formed, refused,
        gst_flow_get_name (ret), received, errors);

  /* 0: no meta, 1: a good meta, 2: strides spoiled, 3: offsets, 4: both. */
  layout = use_meta ? 1 + layout : 0;
  outcomes[desc - elements][format_index (format)][layout]
      [ret == GST_FLOW_OK ? OUTCOME_OK : ret == GST_FLOW_ERROR ?
      OUTCOME_ERROR : OUTCOME_REFUSED]++;

  if (refused) {
    if (ret != GST_FLOW_NOT_NEGOTIATED)
      violation (desc->name, "caps it does not take were not refused");
    if (received != 0)
      violation (desc->name, "a frame came out of refused caps");
  } else if (ret == GST_FLOW_OK) {
    GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
    GstVideoInfo out_info;

    if (received != 1)
      violation (desc->name, "not exactly one frame out of one in");
    if (errors != 0)
      violation (desc->name, "an error posted, yet the push succeeded");
    if (caps == NULL || !gst_video_info_from_caps (&out_info, caps) ||
        GST_VIDEO_INFO_WIDTH (&out_info) != width ||
        GST_VIDEO_INFO_HEIGHT (&out_info) != height)
      violation (desc->name, "output caps are not of the input's size");
    gst_caps_unref (caps);
    out = gst_harness_pull (h);
    /* In passthrough (cudagray on GRAY8), the input itself, unread. */
    if (out != in && !use_meta && length < GST_VIDEO_INFO_SIZE (&info))
      violation (desc->name, "a short buffer was accepted");
    if (out != in && gst_buffer_get_size (out) !=
        GST_VIDEO_INFO_SIZE (&out_info))
      violation (desc->name, "output frame is not of the negotiated size");
    gst_buffer_unref (out);
  } else if (ret == GST_FLOW_ERROR) {
    if (received != 0)
      violation (desc->name, "a frame was pushed, yet the push failed");
    if (errors == 0)
      violation (desc->name, "GST_FLOW_ERROR without an error message");
    if (well_formed)
      violation (desc->name, "a well-formed frame failed");
  } else {
    violation (desc->name, "unexpected flow return");
  }
  gst_buffer_unref (in);

  gst_bus_set_flushing (bus, TRUE);
  gst_element_set_bus (h->element, NULL);
  gst_harness_teardown (h);
  gst_object_unref (bus);
  return 0;
}
