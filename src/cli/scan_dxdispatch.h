/* scan_dxdispatch.h - how a DxDispatch model binds its resources to the
 * tensors of its DirectML operators (docs/batch.md, "scan"), for `scan`.
 *
 * A model has "resources" (buffers), "dispatchables" (an operator's "desc",
 * whose tensor fields hold DataType and Sizes) and "commands". Each
 * "dispatch" command's "bindings", and a dispatchable's own "bindings"
 * (bound at initialization), map a tensor field to a resource: by name
 * ("InputTensor": "A"), as a range ({"name": "A", "elementOffset": 4,
 * "elementCount": 5}), or a list of those for a list of tensors
 * ("InputTensors": [...]). Each binding becomes the DML_BUFFER_BINDING
 * dmltensor checks:
 *
 *   the buffer's size   sizeInBytes, else initialValuesOffsetInBytes + the
 *                       initial values (a list, or valueCount) x the size of
 *                       initialValuesDataType, rounded up to 4 as DxDispatch
 *                       does; unknown for values read from a file, deferred
 *                       values or an UNKNOWN data type without sizeInBytes;
 *   Offset              elementOffset x the element size;
 *   SizeInBytes         elementCount x the element size, else the rest of
 *                       the buffer (unknown when the buffer's size is);
 *   the element size    elementSizeInBytes, else the size of the resource's
 *                       initialValuesDataType, else of the tensor's DataType.
 *
 * Dispatchables of type hlsl, onnx and dmlSerializedGraph bind shader
 * registers or graph inputs, not tensor fields: their bindings are not
 * read. */
#ifndef DMLT_SCAN_DXDISPATCH_H
#define DMLT_SCAN_DXDISPATCH_H

#include "errors.h"
#include "onnx_common.h" /* enum onnx_step: what a walk's callback answers */

#include <cjson/cJSON.h>

struct dxd_binding {
    const char *path;        /* the binding: $.commands[0].bindings.InputTensors[2] */
    const char *tensor_path; /* the tensor: $.dispatchables.join.desc.InputTensors[2] */
    const cJSON *tensor;     /* its description (DataType, Sizes, ...) */
    const char *resource;    /* the resource's name */
    uint64_t offset;         /* DML_BUFFER_BINDING::Offset */
    bool has_size;           /* SizeInBytes is known */
    uint64_t size;           /* DML_BUFFER_BINDING::SizeInBytes */
    bool has_buffer_size;    /* the resource's size is known */
    uint64_t buffer_size;
};

/* Called for each bound tensor with e NULL, or for a binding that cannot be
 * checked (a missing resource or dispatchable, a bad number, a field that
 * is no tensor) with e saying why; then only b->path is set (and
 * b->resource, b->tensor_path when known). */
typedef enum onnx_step (*dxd_binding_fn)(void *ctx, const struct dxd_binding *b,
                                         const struct cli_error *e);

/* Whether root is a DxDispatch model: an object with "resources" and
 * "dispatchables" objects and a "commands" list. */
bool cli_dxd_is_model(const cJSON *root);

/* Calls fn for every binding of a tensor field, in document order: each
 * dispatchable's own bindings, then each dispatch command's, until fn
 * answers other than ONNX_STEP_GO (the ONNX walk's answers, which scan's
 * callbacks all give). fn's last answer; ONNX_STEP_FAIL when out of
 * memory too. */
enum onnx_step cli_dxd_scan_bindings(const cJSON *root, dxd_binding_fn fn, void *ctx);

#endif
