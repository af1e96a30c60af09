/* view_ops.h - view's operations (view_ops.c): --slice, --select,
 * --permute, --broadcast-to, --reshape and --split, in command-line order,
 * on a parent tensor, and every view they make (a split makes several). */
#ifndef DMLT_VIEW_OPS_H
#define DMLT_VIEW_OPS_H

#include "cli.h"

/* Called with each view in order; false stops the walk (no error). */
typedef bool (*view_fn)(void *ctx, const struct dmlt_view *v, unsigned index);

/* Runs cfg's operations on the parent, calling fn with each view. False
 * with e filled when an operation's text is wrong for the view it meets,
 * or a split makes more than 4096 views. */
bool cli_walk_views(const struct cli_config *cfg, const struct dmlt_tensor *parent, view_fn fn,
                    void *ctx, struct cli_error *e);

#endif
