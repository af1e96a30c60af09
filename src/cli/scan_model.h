/* scan_model.h - what scan's summary says of an ONNX model as a whole
 * (scan_model.c): its IR version, producer, opset imports and the
 * operators its graphs use, counted. DirectML's support depends on the
 * operators and their opsets, so a conversion script reads them here. */
#ifndef DMLT_SCAN_MODEL_H
#define DMLT_SCAN_MODEL_H

#include "onnx_model.h"
#include "outbuf.h"

#include <stdbool.h>

/* Lists the summary keeps whole up to this many entries (the rest are
 * counted in "..._more"). */
#define SCAN_MODEL_LIST_MAX 100

/* ,"model":{"ir_version":..,"producer_name":..,"producer_version":..,
 * "opset_import":{domain: version},"operators":{op: count}}. False when
 * memory ran out (nothing is written then). */
bool cli_scan_model_json(struct outbuf *out, const struct onnx_model *m);

/* The same for people: "model  IR 8, pytorch 2.1, opset 17 (+ com.microsoft 1)"
 * and "operators  Conv 53, Relu 49, ..." lines, labels padded to column 19. */
bool cli_scan_model_text(struct outbuf *out, const struct onnx_model *m);

#endif
