/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cip: the image operations of gst-cuda-imgproc, on the GPU.
 *
 * Every operation takes its images by CipImage (pointer, size, stride,
 * format) and runs asynchronously on a CipStream.  Images passed to cip_*
 * operations live in device memory; cip_copy() moves them between host and
 * device.  Each operation has a CPU twin with the same signature in
 * ref/cip-ref.h that defines its result: the GPU output equals it byte for
 * byte.
 *
 * The caller makes a CUDA context current (for example a GstCudaContext)
 * before any call; every call uses whatever context is current.  Nothing
 * here allocates memory per call: device scratch space lives in the stream,
 * images are allocated once with cip_image_alloc().
 */

#ifndef __CIP_H__
#define __CIP_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CIP_OK = 0,
  CIP_ERROR_INVALID_ARGUMENT,   /* bad size, stride, format or pointer */
  CIP_ERROR_NO_DEVICE,          /* no driver, or no usable device */
  CIP_ERROR_OUT_OF_MEMORY,      /* a device or page-locked allocation failed */
  CIP_ERROR_CUDA,               /* any other CUDA failure; see cip_stream_error() */
} CipStatus;

typedef enum
{
  CIP_FORMAT_GRAY8,
  CIP_FORMAT_RGBA,
  CIP_FORMAT_BGRA,
  CIP_FORMAT_RGBX,
  CIP_FORMAT_BGRX,
  CIP_FORMAT_ARGB,
  CIP_FORMAT_ABGR,
  CIP_FORMAT_RGB,
  CIP_FORMAT_BGR,
  CIP_FORMAT_GRAY16,            /* 16-bit little-endian: label ids, and the
                                 * luma of GRAY16_LE and P016_LE */
  /* The luma of camera and decoder layouts, two bytes a pixel, that
   * cip_gray() reads (GRAY8 is the luma plane of the 8-bit planar and
   * semi-planar ones): */
  CIP_FORMAT_YUYV,              /* Y in bytes 0 and 2 of 4: YUY2, YVYU */
  CIP_FORMAT_UYVY,              /* Y in bytes 1 and 3 of 4: UYVY */
  CIP_FORMAT_GRAY16_BE,         /* 16-bit big-endian */
  CIP_FORMAT_GRAY10_MSB,        /* 10 bits at the top of 16-bit LE words: P010 */
  CIP_FORMAT_GRAY10_LSB,        /* 10 bits at the bottom: I420_10LE */
  CIP_FORMAT_GRAY12_LSB,        /* 12 bits at the bottom: I420_12LE */
} CipFormat;

#define CIP_N_FORMATS (CIP_FORMAT_GRAY12_LSB + 1)
/* The formats with 8-bit channels, GRAY8 to BGR: what colour operations
 * read. */
#define CIP_N_INPUT_FORMATS (CIP_FORMAT_BGR + 1)

/* Largest width and height accepted by every operation. */
#define CIP_MAX_DIMENSION 16384

typedef struct
{
  void *data;                   /* first byte of the first row */
  int width;                    /* pixels, 1 .. CIP_MAX_DIMENSION */
  int height;                   /* rows, 1 .. CIP_MAX_DIMENSION */
  size_t stride;                /* bytes from one row to the next */
  CipFormat format;
} CipImage;

typedef enum
{
  CIP_GRAY_BT601,               /* OpenCV's COLOR_RGB2GRAY, bit for bit */
  CIP_GRAY_BT709,
  CIP_GRAY_LUMINOSITY,          /* 0.21 R + 0.71 G + 0.07 B */
  CIP_GRAY_AVERAGE,             /* (R + G + B) / 3 */
} CipGrayMethod;

typedef struct
{
  uint16_t threshold;           /* a pixel above it is foreground (GRAY8:
                                 * above 255, none is) */
  uint8_t foreground;           /* value written for foreground pixels */
  bool invert;                  /* write foreground for the other pixels */
} CipMaskParams;

typedef struct
{
  uint64_t allocations;         /* device and page-locked allocations made */
  uint64_t frees;               /* ... and released */
} CipMemoryStats;

/* An element's CUDA stream and the small scratch buffers its operations
 * need (histogram, lookup table, threshold), created once. */
typedef struct _CipStream CipStream;

/* A frame as tracking sees it: cip-label.h. */
typedef struct _CipTrackFrame CipTrackFrame;

/* Pixel layout. */
int cip_format_bytes_per_pixel (CipFormat format);
const char *cip_format_name (CipFormat format);
const char *cip_status_name (CipStatus status);

/* Checks that @image is well formed: pointer set, sizes in range, stride
 * holding a whole row, and its last row's end addressable. */
CipStatus cip_image_validate (const CipImage * image);

/* Devices.  Returns CIP_ERROR_NO_DEVICE (and *count = 0) when there is no
 * driver or no device. */
CipStatus cip_device_count (int *count);

/* Streams, in the current context.  Every allocation and release made
 * with the stream (its own scratch included) is also added to @stats when
 * set, which must outlive the stream.  On failure @error, when set, says
 * why. */
CipStatus cip_stream_new (CipStream ** stream, CipMemoryStats * stats,
    char *error, size_t error_size);
/* The same on @cuda_stream, a cudaStream_t of the current context that
 * the caller owns: operations run on it, and cip_stream_free() leaves it
 * alive. */
CipStatus cip_stream_new_on (CipStream ** stream, void *cuda_stream,
    CipMemoryStats * stats, char *error, size_t error_size);
void cip_stream_free (CipStream * stream);
CipStatus cip_stream_synchronize (CipStream * stream);
/* The CUDA stream (a cudaStream_t). */
void *cip_stream_handle (CipStream * stream);
/* What the last failed call on @stream said, with the CUDA error's name. */
const char *cip_stream_error (const CipStream * stream);

/* Events mark a point in a stream's work, so that another stream, or the
 * host, can wait for it without waiting for the whole stream. */
typedef struct _CipEvent CipEvent;

CipStatus cip_event_new (CipEvent ** event, CipStream * stream);
/* An event whose host waits sleep until the GPU has passed it, instead of
 * spinning: for waits that may be long, where several threads wait at
 * once. */
CipStatus cip_event_new_blocking (CipEvent ** event, CipStream * stream);
void cip_event_free (CipEvent * event);
/* Marks the work enqueued on @stream so far. */
CipStatus cip_event_record (CipEvent * event, CipStream * stream);
/* Work enqueued on @stream from now on waits for @event (a no-op if it
 * was never recorded). */
CipStatus cip_stream_wait_event (CipStream * stream, CipEvent * event);
/* Work enqueued on @stream from now on waits for the work enqueued so far
 * on @other (a cudaStream_t of the current context), through @event,
 * which it records there.  No host wait. */
CipStatus cip_stream_wait_stream (CipStream * stream, void *other,
    CipEvent * event);
/* Whether the work @event marks is done (or it was never recorded).  Work
 * that failed is not done: cip_event_synchronize() returns its error. */
bool cip_event_done (CipEvent * event);
/* Blocks until it is. */
CipStatus cip_event_synchronize (CipEvent * event, CipStream * stream);

/* Memory.  Device images are pitched for coalesced rows. */
CipStatus cip_image_alloc (CipImage * image, int width, int height,
    CipFormat format, CipStream * stream);
void cip_image_free (CipImage * image, CipStream * stream);
CipStatus cip_host_alloc (void **ptr, size_t size, CipStream * stream);
void cip_host_free (void *ptr, CipStream * stream);
/* Whether @stream's GPU shares the host's memory (a Jetson's), where
 * copying frames between the two is pure waste. */
bool cip_stream_integrated (CipStream * stream);
/* Whether @host is in page-locked host memory (cip_host_alloc, any
 * cudaHostAlloc, or cip_host_register) that kernels can read and write in
 * place: then @device is its address for them.  With the context
 * current. */
bool cip_host_device_address (const void *host, void **device);
/* Page-locks @size bytes of ordinary host memory for kernels to use in
 * place, until cip_host_unregister(); fails where the driver cannot (the
 * range overlaps one already registered, or the platform does not). */
CipStatus cip_host_register (void *host, size_t size, CipStream * stream);
void cip_host_unregister (void *host);
/* Memory the operations keep from frame to frame (the history of
 * temporal smoothing): device memory, not initialised;
 * cip_ref_buffer_alloc() gives host memory for the reference. */
CipStatus cip_buffer_alloc (void **ptr, size_t size, CipStream * stream);
void cip_buffer_free (void *ptr, CipStream * stream);
/* All allocations and releases of the process, through any stream. */
void cip_memory_stats (CipMemoryStats * stats);

/* Copies the pixels of @src into @dst (same size and format), host or
 * device on either side, asynchronously on @stream. */
CipStatus cip_copy (const CipImage * src, CipImage * dst, CipStream * stream);

/* The chroma value of a gray frame as YUV. */
#define CIP_NEUTRAL_CHROMA 128

/* Sets every byte of the rows of @image (a device image; its width in
 * bytes) to @value, asynchronously on @stream. */
CipStatus cip_fill (CipImage * image, uint8_t value, CipStream * stream);

/* Operations.  @src and @dst are device images of the same size; @dst is
 * GRAY8.  Each is asynchronous: results are ready after
 * cip_stream_synchronize(). */

/* Colour (GRAY8 to BGR) or a layout's luma (GRAY16 to GRAY12_LSB) to
 * gray.  Luma of more than eight bits is read as GStreamer unpacks it, to
 * 16 bits with its bits repeated below (cip_luma16()); @dst is GRAY8, its
 * top byte, or for those, GRAY16.  GRAY8 to GRAY8 and GRAY16 to GRAY16
 * are copies. */
CipStatus cip_gray (const CipImage * src, CipImage * dst,
    CipGrayMethod method, CipStream * stream);

/* Binary mask of a gray image, GRAY8 or GRAY16, into GRAY8: see
 * CipMaskParams. */
CipStatus cip_mask (const CipImage * src, CipImage * dst,
    const CipMaskParams * params, CipStream * stream);

/* Global histogram equalization, OpenCV's equalizeHist bit for bit: @src
 * and @dst GRAY8, or both GRAY16 (the same formula on 65,536 levels, in
 * exact arithmetic), or both YUYV or UYVY (the Y bytes equalized, the
 * others copied; rows of cip_packed_row_bytes(), an odd width's last
 * macropixel whole). */
CipStatus cip_equalize (const CipImage * src, CipImage * dst,
    CipStream * stream);

/* Histogram bins of a GRAY8 and of a GRAY16 image: a bin per level. */
#define CIP_HIST_BINS 256
#define CIP_HIST16_BINS 65536

/* Temporal smoothing of a histogram: @history (a double a bin, from
 * cip_buffer_alloc()) carries, bin by bin,
 *   H = factor H + (1 - factor) h
 * from frame to frame (H = h when @restart), and the operation works on
 * the counts H rounded half to even.  @factor is in [0, 1); 0 is no
 * smoothing. */
typedef struct
{
  double *history;
  double factor;
  bool restart;
} CipSmoothing;

/* cip_equalize() of the histogram smoothed over frames: @smoothing's
 * history holds CIP_HIST_BINS doubles (GRAY16: CIP_HIST16_BINS). */
CipStatus cip_equalize_smoothed (const CipImage * src, CipImage * dst,
    const CipSmoothing * smoothing, CipStream * stream);

/* Binarization at the image's Otsu threshold (OpenCV's THRESH_OTSU): a
 * pixel above the threshold becomes 255, every other 0 (swapped when
 * @invert).  The threshold is written to @threshold, which must be
 * page-locked host memory (cip_host_alloc) and is valid once the stream is
 * synchronized. */
CipStatus cip_otsu (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, CipStream * stream);

/* The same for a GRAY16 image at its 16-bit Otsu threshold, scikit-image's
 * threshold_otsu (docs/design.md): @dst is GRAY8, a pixel above the
 * threshold 255.  @threshold (page-locked, cip_host_alloc, two-byte
 * aligned) gets the threshold in 16-bit units. */
CipStatus cip_otsu16 (const CipImage * src, CipImage * dst, bool invert,
    uint16_t * threshold, CipStream * stream);

/* Both at the threshold of the histogram smoothed over frames: its
 * history holds CIP_HIST_BINS doubles (GRAY8) or CIP_HIST16_BINS
 * (GRAY16). */
CipStatus cip_otsu_smoothed (const CipImage * src, CipImage * dst,
    bool invert, uint8_t * threshold, const CipSmoothing * smoothing,
    CipStream * stream);
CipStatus cip_otsu16_smoothed (const CipImage * src, CipImage * dst,
    bool invert, uint16_t * threshold, const CipSmoothing * smoothing,
    CipStream * stream);

/* Segmentation: blur, morphology, labelling.  Blur and morphology take
 * GRAY8, GRAY16 (16-bit pixels, at any alignment) or a four-byte format
 * (RGBA, BGRA, RGBx, BGRx, ARGB, ABGR; every byte is filtered as its own
 * channel), @dst of the same size and format
 * as @src, and never in place.  Scratch space they need is kept in the
 * stream and grows only when a larger image comes. */

/* Gaussian blur with kernel radius cip_blur_radius (sigma) = ceil (4
 * sigma), separable, borders mirrored as OpenCV's BORDER_REFLECT_101, in
 * OpenCV's own fixed point (docs/design.md gives it): equal bit for bit to
 * OpenCV's GaussianBlur of the same kernel size and sigma (GRAY16: of the
 * CV_16U image, weights in 1/65536).  An
 * out-of-range sigma has radius 0 and is refused. */
#define CIP_BLUR_SIGMA_MIN 0.1
#define CIP_BLUR_SIGMA_MAX 32.0
int cip_blur_radius (double sigma);
CipStatus cip_blur (const CipImage * src, CipImage * dst, double sigma,
    CipStream * stream);

typedef enum
{
  CIP_MORPH_ERODE,              /* minimum over the structuring element */
  CIP_MORPH_DILATE,             /* maximum */
  CIP_MORPH_OPEN,               /* erode, then dilate */
  CIP_MORPH_CLOSE,              /* dilate, then erode */
} CipMorphOperation;

typedef enum
{
  CIP_SHAPE_DISK,               /* x^2 + y^2 <= r^2, scikit-image's disk (r) */
  CIP_SHAPE_SQUARE,             /* (2r+1) x (2r+1) */
  CIP_SHAPE_CROSS,              /* the centre row and column, OpenCV's MORPH_CROSS */
} CipMorphShape;

#define CIP_MORPH_RADIUS_MIN 1
#define CIP_MORPH_RADIUS_MAX 32

/* Writes the (2 @radius + 1)^2 structuring element, row by row, 1 inside
 * and 0 outside, into @element. */
CipStatus cip_morph_element (CipMorphShape shape, int radius,
    uint8_t * element);

/* Grayscale (per channel) morphology, the same as OpenCV's erode, dilate
 * and morphologyEx with the element of cip_morph_element() and the default
 * border: pixels outside the image do not count. */
CipStatus cip_morph (const CipImage * src, CipImage * dst,
    CipMorphOperation operation, CipMorphShape shape, int radius,
    CipStream * stream);

/* Statistics cip_label() gathers beyond area, box, coordinate sums and
 * intensity sum, each only when asked for (the others stay 0). */
typedef enum
{
  /* sum_xx, sum_yy, sum_xy: second moments (axes, orientation,
   * eccentricity) */
  CIP_LABEL_MOMENTS = 1 << 0,
  /* intensity_min, intensity_max */
  CIP_LABEL_INTENSITY_RANGE = 1 << 1,
  /* perimeter_counts, euler_quads: what scikit-image's perimeter (4
   * neighbourhood) and euler_number (8-connectivity) count */
  CIP_LABEL_CONTOURS = 1 << 2,
  /* area_convex, feret_sq4: the convex hull (area_convex, solidity,
   * feret_diameter_max) */
  CIP_LABEL_CONVEX = 1 << 3,
  /* area_filled: the region with its holes */
  CIP_LABEL_FILLED = 1 << 4,
} CipLabelStatistics;

typedef struct
{
  int connectivity;             /* 4 or 8 */
  uint32_t min_area;            /* smaller regions become background */
  uint32_t statistics;          /* CipLabelStatistics */
} CipLabelParams;

/* One connected region; the centroid is sum_x / area, sum_y / area and
 * the mean intensity sum_intensity / area.  Coordinates are those of
 * pixels: x the column, y the row, from the image's top left. */
typedef struct
{
  uint32_t label;               /* 1 .. count */
  uint32_t area;                /* pixels */
  uint32_t left, top, width, height;    /* bounding box */
  uint64_t sum_x, sum_y;        /* of the pixels' coordinates */
  uint64_t sum_intensity;       /* of the intensity image's values */
  /* CIP_LABEL_MOMENTS: sums of x * x, y * y and x * y */
  uint64_t sum_xx, sum_yy, sum_xy;
  /* CIP_LABEL_INTENSITY_RANGE */
  uint32_t intensity_min, intensity_max;
  /* CIP_LABEL_CONTOURS: the region's border pixels (those with a
   * 4-neighbour outside it) whose border neighbours make a straight run, a
   * diagonal step and a corner (weights 1, sqrt 2 and (1 + sqrt 2) / 2);
   * and four times its Euler number, as bit quads count it */
  uint32_t perimeter_counts[3];
  int32_t euler_quads;
  /* CIP_LABEL_CONVEX: the pixels of its convex hull image, and four times
   * the square of its maximum Feret diameter (an integer: the hull's
   * vertices lie on half pixels) */
  uint32_t area_convex;
  /* CIP_LABEL_FILLED: its pixels and those of its holes */
  uint32_t area_filled;
  uint64_t feret_sq4;
} CipRegion;

/* Region properties, named and defined as scikit-image's regionprops
 * (2-D, rows and columns: docs/regionprops.md), computed from a region's
 * statistics.  The same for both backends: cip_label() and cip_ref_label()
 * gather equal statistics. */
typedef enum
{
  CIP_PROP_LABEL,
  CIP_PROP_AREA,
  CIP_PROP_AREA_BBOX,
  CIP_PROP_AXIS_MAJOR_LENGTH,
  CIP_PROP_AXIS_MINOR_LENGTH,
  CIP_PROP_BBOX,
  CIP_PROP_CENTROID,
  CIP_PROP_ECCENTRICITY,
  CIP_PROP_EQUIVALENT_DIAMETER_AREA,
  CIP_PROP_EXTENT,
  CIP_PROP_INTENSITY_MAX,
  CIP_PROP_INTENSITY_MEAN,
  CIP_PROP_INTENSITY_MIN,
  CIP_PROP_ORIENTATION,
  CIP_PROP_PERIMETER,
  CIP_PROP_EULER_NUMBER,
  CIP_PROP_AREA_CONVEX,
  CIP_PROP_AREA_FILLED,
  CIP_PROP_FERET_DIAMETER_MAX,
  CIP_PROP_SOLIDITY,
  CIP_N_PROPS
} CipRegionProperty;

/* Where cip_label() writes its results, all but @labels in page-locked
 * host memory (cip_host_alloc), which the GPU writes across the bus: the
 * statistics of the first @capacity regions into @regions, and the first
 * @column_capacity regions' values of @props (cip_region_property_row())
 * into @columns, column c from columns + c * column_capacity.  Regions
 * past a capacity are counted but not written.  Each of @props needs its
 * statistics (cip_region_property_statistics()) among the parameters'. */
typedef struct
{
  CipRegion *regions;           /* may be NULL when @capacity is 0 */
  uint32_t capacity;
  uint32_t *count;              /* the number of regions */
  double *columns;              /* may be NULL when @column_capacity is 0 */
  uint32_t column_capacity;
  const CipRegionProperty *props;
  unsigned n_props;
  /* When set, the label image as well: each pixel's final id (0 for
   * background) as a uint32, @labels_stride elements from a row to the
   * next; device memory for cip_label(), host memory for the reference.
   * What cip_track_frame() reads (cip-label.h). */
  uint32_t *labels;
  size_t labels_stride;
  /* With @labels: the frame before (cip-label.h), when this frame is to
   * be tracked from it.  cip_label() then counts the overlaps of the two
   * label images where it writes @labels, and cip_track_frame() of the
   * same two frames, next on the stream, only numbers the regions;
   * cip_ref_label() checks it and leaves the counting to
   * cip_ref_track_frame().  Its labels have @labels_stride. */
  const CipTrackFrame *track_prev;
} CipRegionTable;

/* The colour cip_label() paints region @label with (label > 0): distinct
 * for neighbouring ids, the same on every frame. */
void cip_label_color (uint32_t label, uint8_t * red, uint8_t * green,
    uint8_t * blue);

/* Connected components of the non-zero pixels of the GRAY8 @mask, labelled
 * 1..N in raster order of each region's first pixel (OpenCV's
 * connectedComponents, scikit-image's label) after regions smaller than
 * min_area are dropped.  @intensity (GRAY8 or GRAY16, same size) gives
 * the values averaged per region and their range; NULL averages @mask
 * itself.  @dst, when set, is GRAY16 (label ids, saturated at 65535) or
 * RGBA (cip_label_color() of each id, background black, alpha 255).  The
 * table is valid once the stream is synchronized. */
CipStatus cip_label (const CipImage * mask, const CipImage * intensity,
    const CipLabelParams * params, CipImage * dst, CipRegionTable * table,
    CipStream * stream);

/* scikit-image's name of @prop ("area", "bbox", ...). */
const char *cip_region_property_name (CipRegionProperty prop);
/* The property named @name, or -1. */
int cip_region_property_from_name (const char *name);
/* Values a region has of @prop: 4 for bbox, 2 for centroid, else 1. */
unsigned cip_region_property_columns (CipRegionProperty prop);
/* The CipLabelStatistics that @prop needs gathered. */
uint32_t cip_region_property_statistics (CipRegionProperty prop);
/* The values of @prop for @region, in scikit-image's column order. */
void cip_region_property_values (const CipRegion * region,
    CipRegionProperty prop, double *values);
/* The table of @n_props properties of @n regions: one column of @n values
 * after another, each property's columns in the order of @props, each
 * column in the order of @regions. */
void cip_region_property_table (const CipRegion * regions, unsigned n,
    const CipRegionProperty * props, unsigned n_props, double *columns);

/* The operations of one backend, by the signatures above: the kernels
 * (cip_cuda_ops, asynchronous on a stream) or the reference (cip_ref_ops,
 * on host images, @stream ignored).  A caller picks a table once and
 * states each call once. */
typedef struct
{
  CipStatus (*copy) (const CipImage * src, CipImage * dst,
      CipStream * stream);
  CipStatus (*fill) (CipImage * image, uint8_t value, CipStream * stream);
  CipStatus (*host_alloc) (void **ptr, size_t size, CipStream * stream);
  void (*host_free) (void *ptr, CipStream * stream);
  CipStatus (*gray) (const CipImage * src, CipImage * dst,
      CipGrayMethod method, CipStream * stream);
  CipStatus (*mask) (const CipImage * src, CipImage * dst,
      const CipMaskParams * params, CipStream * stream);
  CipStatus (*equalize) (const CipImage * src, CipImage * dst,
      CipStream * stream);
  CipStatus (*equalize_smoothed) (const CipImage * src, CipImage * dst,
      const CipSmoothing * smoothing, CipStream * stream);
  CipStatus (*buffer_alloc) (void **ptr, size_t size, CipStream * stream);
  void (*buffer_free) (void *ptr, CipStream * stream);
  CipStatus (*otsu) (const CipImage * src, CipImage * dst, bool invert,
      uint8_t * threshold, CipStream * stream);
  CipStatus (*blur) (const CipImage * src, CipImage * dst, double sigma,
      CipStream * stream);
  CipStatus (*morph) (const CipImage * src, CipImage * dst,
      CipMorphOperation operation, CipMorphShape shape, int radius,
      CipStream * stream);
  CipStatus (*label) (const CipImage * mask, const CipImage * intensity,
      const CipLabelParams * params, CipImage * dst, CipRegionTable * table,
      CipStream * stream);
  CipStatus (*otsu16) (const CipImage * src, CipImage * dst, bool invert,
      uint16_t * threshold, CipStream * stream);
  CipStatus (*otsu_smoothed) (const CipImage * src, CipImage * dst,
      bool invert, uint8_t * threshold, const CipSmoothing * smoothing,
      CipStream * stream);
  CipStatus (*otsu16_smoothed) (const CipImage * src, CipImage * dst,
      bool invert, uint16_t * threshold, const CipSmoothing * smoothing,
      CipStream * stream);
} CipOps;

extern const CipOps cip_cuda_ops;
extern const CipOps cip_ref_ops;

#ifdef __cplusplus
}
#endif

#endif /* __CIP_H__ */
