/* view_render.h - what the command `view` (cmd_view.c) and its rendering
 * (view_render.c) share: the parent, the fix and the rendering's state,
 * and the calls that render a view, the parent and the fix. */
#ifndef DMLT_VIEW_RENDER_H
#define DMLT_VIEW_RENDER_H

#include "cli.h"

struct parent_info {
    const struct tensor_desc *td;
    const struct dmlt_dtype_info *info;
    uint64_t total;       /* the parent's TotalTensorSizeInBytes */
    uint64_t buffer_size; /* the whole buffer */
};

struct fix {
    bool pad_found, pitch_found;
    char pad[32]; /* "w=5" */
    uint32_t pitch;
};

struct render {
    struct outbuf *out;
    const struct parent_info *p;
    bool json;
    bool c;           /* --format c */
    const char *name; /* its variables' prefix */
    bool numbered;    /* several views (a split): NAME0, NAME1, ... */
    bool valid;       /* every view so far */
    bool misaligned;  /* some view fails base_offset_16 */
    struct cli_error *e;
    bool failed; /* measure() failed: e says why */
};

/* A view_fn for cli_walk_views (ctx: a struct render): measures the view,
 * checks it and renders it into ctx->out; false (ctx->failed, ctx->e
 * filled) when its offset or size is past 2^64 - 1 bytes. */
bool cli_view_render(void *ctx, const struct dmlt_view *v, unsigned index);
/* The parent, before the views: JSON's "parent" member (and the opening
 * of "views"), or the text's first line. */
void cli_view_parent_json(struct outbuf *b, const struct parent_info *p);
void cli_view_parent_text(struct outbuf *b, const struct parent_info *p);
/* The fix, after the views: JSON's "fix" member, or the text's line. */
void cli_view_fix_render(struct outbuf *b, const struct fix *f, bool json);

#endif
