/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The reference implementation: each operation of cip.h, in plain C on host
 * memory, with the same signature.  It is the definition the CUDA path is
 * tested against, and the element's backend=cpu.  The stream argument is
 * ignored (NULL is fine); results are ready on return. */

#ifndef __CIP_REF_H__
#define __CIP_REF_H__

#include "cip.h"
#include "cip-label.h"

#ifdef __cplusplus
extern "C" {
#endif

CipStatus cip_ref_fill (CipImage * image, uint8_t value, CipStream * stream);
CipStatus cip_ref_copy (const CipImage * src, CipImage * dst,
    CipStream * stream);
/* Host memory (calloc), for what the cuda backend keeps page-locked. */
CipStatus cip_ref_host_alloc (void **ptr, size_t size, CipStream * stream);
void cip_ref_host_free (void *ptr, CipStream * stream);
/* Host memory (calloc), for what the cuda backend keeps on the device. */
CipStatus cip_ref_buffer_alloc (void **ptr, size_t size, CipStream * stream);
void cip_ref_buffer_free (void *ptr, CipStream * stream);

CipStatus cip_ref_gray (const CipImage * src, CipImage * dst,
    CipGrayMethod method, CipStream * stream);

CipStatus cip_ref_mask (const CipImage * src, CipImage * dst,
    const CipMaskParams * params, CipStream * stream);

CipStatus cip_ref_equalize (const CipImage * src, CipImage * dst,
    CipStream * stream);
CipStatus cip_ref_equalize_smoothed (const CipImage * src, CipImage * dst,
    const CipSmoothing * smoothing, CipStream * stream);
/* Whether @src and @dst are an equalize pair: GRAY8 to GRAY8, GRAY16 to
 * GRAY16, YUYV or UYVY to the same with rows of cip_packed_row_bytes(). */
CipStatus cip_check_equalize_pair (const CipImage * src,
    const CipImage * dst);
CipStatus cip_ref_otsu_smoothed (const CipImage * src, CipImage * dst,
    bool invert, uint8_t * threshold, const CipSmoothing * smoothing,
    CipStream * stream);
CipStatus cip_ref_otsu16_smoothed (const CipImage * src, CipImage * dst,
    bool invert, uint16_t * threshold, const CipSmoothing * smoothing,
    CipStream * stream);

CipStatus cip_ref_otsu (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, CipStream * stream);

CipStatus cip_ref_otsu16 (const CipImage * src, CipImage * dst, bool invert,
    uint16_t * threshold, CipStream * stream);

CipStatus cip_ref_morph (const CipImage * src, CipImage * dst,
    CipMorphOperation operation, CipMorphShape shape, int radius,
    CipStream * stream);

CipStatus cip_ref_label (const CipImage * mask, const CipImage * intensity,
    const CipLabelParams * params, CipImage * dst, CipRegionTable * table,
    CipStream * stream);

/* Track ids of the @n regions of @labels (ids 1 ... @n, 0 background),
 * from the @n_prev regions of the previous frame's @prev_labels (the same
 * size and @stride, in elements) and their ids @prev_ids: region i takes
 * the id of previous region j when j is the previous region i overlaps in
 * the most pixels and i is the region j overlaps in the most pixels, ties
 * to the lower label both ways; any other region takes *@next_id, which
 * then grows by one.  Writes @ids[0 .. @n).  docs/regionprops.md, "Tracks". */
CipStatus cip_ref_track (const uint32_t * prev_labels,
    const uint32_t * labels, int width, int height, size_t stride,
    uint32_t n_prev, const uint32_t * prev_ids, uint32_t n, uint32_t * ids,
    uint32_t * next_id);

/* cip_track_frame() (cip-label.h) on the host: cip_ref_track() of
 * @frame after @prev, or ids 1 .. *@count with @prev NULL; @count, the
 * labels, ids and states in host memory. */
CipStatus cip_ref_track_frame (const CipTrackFrame * prev,
    const CipTrackFrame * frame, const uint32_t * count, int width,
    int height, CipStream * stream);

CipStatus cip_ref_blur (const CipImage * src, CipImage * dst, double sigma,
    CipStream * stream);

/* The 256-bin histogram of a GRAY8 image. */
CipStatus cip_ref_histogram (const CipImage * src, uint32_t * hist);

/* The CIP_HIST16_BINS-bin histogram of a GRAY16 image, a bin per level. */
CipStatus cip_ref_histogram16 (const CipImage * src, uint32_t * hist);

#ifdef __cplusplus
}
#endif

#endif /* __CIP_REF_H__ */
