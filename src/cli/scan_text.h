/* scan_text.h - `scan --format text`: an ONNX model as a table for people.
 * The NAME column is as wide as the widest name of the model (its label:
 * the name, or the path of a value without one, escaped by cli_ob_quoted_text
 * and counted in characters), at least "NAME" and at most SCAN_NAME_MAX;
 * a longer label is shortened in the middle ("abc...xyz"), the JSON
 * records keep it whole. The other columns follow at fixed widths. */
#ifndef DMLT_SCAN_TEXT_H
#define DMLT_SCAN_TEXT_H

#include "cli.h"
#include "outbuf.h"
#include "source_onnx.h"

#include <stdbool.h>
#include <stddef.h>

enum { SCAN_NAME_MIN = 4, SCAN_NAME_MAX = 32 };

/* label escaped into out (cli_ob_quoted_text), shortened in the middle to max
 * characters when longer: the head, "...", the tail (where names differ:
 * "encoder.layer.11...attention.output"). Shared by plan's table. tmp is
 * scratch space. */
void cli_text_cut_middle(struct outbuf *out, struct outbuf *tmp, const char *label, size_t max);

/* The characters label takes in the table (at most SCAN_NAME_MAX); tmp is
 * scratch space. */
size_t cli_scan_text_width(struct outbuf *tmp, const char *label);

/* The header line of a table whose NAME column is name_width wide. */
void cli_scan_text_header(struct outbuf *out, size_t name_width);

/* One row: label (as given, escaped here), kind, then facts' type, td's
 * sizes (td NULL when the tensor is not described), bytes (NULL when
 * unknown), and the status: err's id for an error record, INVALID and the
 * first failed error-level check when broken, else ok. tmp is scratch. */
void cli_scan_text_row(struct outbuf *out, struct outbuf *tmp, size_t name_width, const char *label,
                       const char *kind, const struct onnx_facts *facts,
                       const struct tensor_desc *td, const dmlt_u128 *bytes,
                       const struct cli_error *err, bool broken);

#endif
