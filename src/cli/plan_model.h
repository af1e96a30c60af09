/* plan_model.h - `plan MODEL.onnx` (plan_model.c): a model's activations,
 * their sizes from shape inference at the --dim/--shape values given and
 * their lifetimes by section 10's rule (src/onnx/lifetime.c), handed to
 * cli_plan_tensors() as JSON Lines' tensors are. */
#ifndef DMLT_PLAN_MODEL_H
#define DMLT_PLAN_MODEL_H

#include "cli.h"
#include "platform.h"

/* Plans the model in m (a file's bytes). False with e filled: bad_onnx,
 * a tensor of unknown size (its error, naming it; exit 2) unless
 * --skip-unknown, out_of_memory. */
bool cli_plan_model(struct cli_config *cfg, const struct plat_map *m, struct outbuf *out,
                    struct cli_error *e);

#endif
