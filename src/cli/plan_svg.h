/* plan_svg.h - what plan's picture (plan_svg.c) takes from its colour
 * table (plan_svg_ops.c): a fixed colour for each op, the same in every
 * model, by op family. */
#ifndef DMLT_PLAN_SVG_H
#define DMLT_PLAN_SVG_H

#include <stdint.h>

#define PLAN_NO_OP_COLOUR "#a0a0a0" /* a tensor without an op */
#define PLAN_UNLISTED     100u      /* an op no family lists */
#define PLAN_NO_FAMILY    101u      /* no op */

/* The family of op (its part after the last '.', so "com.microsoft.
 * FusedConv" is FusedConv's): an index into the table, in the legend's
 * order, or PLAN_UNLISTED, or PLAN_NO_FAMILY for NULL. */
unsigned cli_plan_op_family(const char *op);
const char *cli_plan_family_name(unsigned family);

/* "#rrggbb": the family's hue, shaded by the op's place in its list; an
 * unlisted op a grey by a hash of its name; NULL PLAN_NO_OP_COLOUR. */
void cli_plan_op_colour(const char *op, char out[8]);

#endif
