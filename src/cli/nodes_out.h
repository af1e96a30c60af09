/* nodes_out.h - `nodes`' output (nodes_out.c): a record per node of every
 * graph in execution order (a node's subgraphs right after it), then the
 * summary; as JSON Lines, a text report for people or CSV. */
#ifndef DMLT_NODES_OUT_H
#define DMLT_NODES_OUT_H

#include "cli.h"
#include "dml_ep.h"
#include "outbuf.h"
#include "source_onnx.h"

/* Renders r in cfg->format into out. False with e filled (out of memory). */
bool cli_nodes_render(struct cli_config *cfg, const struct dmlt_ep_result *r, struct outbuf *out,
                      struct cli_error *e);

#endif
