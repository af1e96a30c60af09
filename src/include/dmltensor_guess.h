/* dmltensor_guess.h - what the library answers for the command beyond the
 * installed API (dmltensor.h): validate's strides_overlap and the strides a
 * mistake meant. Not installed, not exported from the shared library (no
 * DMLT_API): for code that links the static library, as the command does. */
#ifndef DMLTENSOR_GUESS_H
#define DMLTENSOR_GUESS_H

#include "dmltensor.h"

/* The same with broadcast dims (size > 1, stride 0) as size 1. */
enum dmlt_tristate dmlt__overlapping_outside_broadcast(const struct dmlt_tensor *t,
                                                       unsigned long work_cap);
/* Classic stride mistakes: BYTES, every stride of a size > 1 dim a multiple
 * of an element of 2+ bytes and, divided, no overlap; MEMORY_ORDER, the
 * strides overlap outside broadcast dims and a reordering (broadcast dims
 * keep 0) does not; both bits: both. No overlap by the sorted-stride test;
 * packed first, then fewest changes. meant gets the strides (an undividable
 * size-1 stride: 0). NONE when nothing fits. Up to rank! orders tried. */
#define DMLT_GUESS_NONE         0u
#define DMLT_GUESS_BYTES        1u
#define DMLT_GUESS_MEMORY_ORDER 2u
unsigned dmlt__strides_guess(const struct dmlt_tensor *t, uint32_t meant[DMLT_MAX_RANK]);

#endif
