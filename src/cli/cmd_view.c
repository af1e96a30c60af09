/* cmd_view.c - `view`: the descriptor and binding of views of a tensor that
 * lives in a buffer (docs/views.md). The operations make the views
 * (view_ops.c); each is measured, checked as validate does and rendered
 * (view_render.c); this file reads the parent, runs the walk, and looks for
 * the parent padding that would align every view on 16 bytes. */
#include "cli.h"
#include "parse.h"
#include "render_c.h"
#include "view_ops.h"
#include "view_render.h"

#include <stdio.h>
#include <string.h>

#define MAX_FIX_PAD 64 /* pads tried for a fix: 16 bytes hold at most 32 elements */

/* ---- the fix: padding that aligns every view on 16 bytes ------------------- */

struct align_probe {
    const struct parent_info *p;
    bool all_aligned;
};

static bool probe_view(void *ctx, const struct dmlt_view *v, unsigned index)
{
    (void)index;
    struct align_probe *a = ctx;
    uint64_t off, size;
    bool whole;
    if (dmlt_view_bytes(v, &off, &whole, &size) != DMLT_OK || !whole ||
        (a->p->td->base_offset + off) % 16 != 0)
        a->all_aligned = false;
    return a->all_aligned; /* stop at the first that is not */
}

/* Whether the parent with these options puts every view on 16 bytes. */
static bool aligns(const struct cli_config *cfg, const struct tensor_args *a,
                   const struct parent_info *p)
{
    struct tensor_desc td;
    struct cli_error ignored;
    if (!cli_describe_tensor(a, &td, &ignored))
        return false;
    struct parent_info p2 = *p;
    p2.td = &td;
    struct align_probe probe = {&p2, true};
    return cli_walk_views(cfg, &td.t, probe_view, &probe, &ignored) && probe.all_aligned;
}

/* The smallest --pad DIM=N (N from 1, dims from the innermost out) and
 * whether --row-pitch-align 16 make every view start on 16 bytes. Only for
 * a parent given by a layout, bound on 16 bytes itself. */
static void find_fix(const struct cli_config *cfg, const struct parent_info *p, struct fix *f)
{
    memset(f, 0, sizeof *f);
    const struct tensor_desc *td = p->td;
    if (td->strides_given || td->base_offset % 16 != 0)
        return;
    struct tensor_args a = cfg->t;
    if (a.n_pad < MAX_REPEAT) {
        for (unsigned n = 1; n <= MAX_FIX_PAD && !f->pad_found; n++) {
            for (unsigned k = td->t.rank; k-- > 1 && !f->pad_found;) {
                char dn[8];
                cli_dim_name(dn, td->t.rank, td->order[k]);
                snprintf(f->pad, sizeof f->pad, "%s=%u", dn, n);
                a.pad[a.n_pad] = f->pad;
                a.n_pad = cfg->t.n_pad + 1;
                f->pad_found = aligns(cfg, &a, p);
            }
        }
    }
    a = cfg->t;
    if (a.row_pitch_align == NULL && td->t.rank >= 2) {
        a.row_pitch_align = "16";
        f->pitch_found = aligns(cfg, &a, p);
        f->pitch = 16;
    }
}

static bool run_view(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    struct tensor_desc td;
    if (!cli_describe_tensor(&cfg->t, &td, e))
        return false;
    struct parent_info p;
    p.td = &td;
    p.info = dmlt_dtype_get(td.t.dtype);
    struct dmlt_view whole = DMLT_VIEW_INIT;
    struct dmlt_error err;
    uint64_t zero, minimum;
    bool w;
    if (dmlt_view_init(&whole, &td.t, &err) != DMLT_OK ||
        dmlt_view_bytes(&whole, &zero, &w, &minimum) != DMLT_OK)
        return cli_fail(e, CLI_E_OUT_OF_RANGE, "--sizes", cfg->t.sizes,
                        "the tensor's minimum implied size is past 2^64 - 1 bytes "
                        "(DML_BUFFER_BINDING sizes are UINT64)");
    p.total = td.has_total ? td.total : minimum;
    if (cfg->t.buffer_size) {
        if (!cli_parse_uint(cfg->t.buffer_size, strlen(cfg->t.buffer_size), 0, UINT64_MAX,
                            &p.buffer_size, e, "--buffer-size", cfg->t.buffer_size,
                            "the buffer size", NULL))
            return false;
    } else if (p.total > UINT64_MAX - td.base_offset) {
        return cli_fail(e, CLI_E_OUT_OF_RANGE, "--base-offset", cfg->t.base_offset,
                        "the base offset plus the tensor's size is past 2^64 - 1 bytes");
    } else {
        p.buffer_size = td.base_offset + p.total;
    }

    struct render rd = {
        out, &p, cfg->format == FMT_JSON, cfg->format == FMT_C, NULL, false, true, false, e, false};
    rd.name = cfg->c_name ? cfg->c_name : "view";
    for (unsigned i = 0; i < cfg->n_ops; i++)
        rd.numbered = rd.numbered || cfg->op_kind[i] == VOP_SPLIT;
    if (rd.json) {
        cli_json_open(cfg, out);
        cli_view_parent_json(out, &p);
    } else if (!rd.c) {
        cli_view_parent_text(out, &p);
    }
    if (!cli_walk_views(cfg, &td.t, cli_view_render, &rd, e) || rd.failed)
        return false;
    struct fix f;
    memset(&f, 0, sizeof f);
    if (rd.misaligned)
        find_fix(cfg, &p, &f);
    if (rd.json) {
        ob_puts(out, rd.valid ? "],\"valid\":true" : "],\"valid\":false");
        cli_view_fix_render(out, &f, true);
        ob_puts(out, "}\n");
    } else if (rd.c) {
        if (f.pad_found || f.pitch_found) {
            struct outbuf fix;
            cli_ob_init(&fix);
            cli_view_fix_render(&fix, &f, false); /* "\nfix: ...\n" */
            if (!fix.failed && fix.len > 2) {
                fix.data[fix.len - 1] = '\0';
                cli_c_comment(out, fix.data + 1);
            }
            cli_ob_free(&fix);
        }
    } else {
        cli_view_fix_render(out, &f, false);
        ob_puts(out, rd.valid ? "\nvalid\n" : "\nINVALID: a view breaks a DirectML rule\n");
    }
    if (!rd.valid)
        cfg->exit_status = CLI_EXIT_RULE;
    return true;
}

const struct command cli_cmd_view = {
    .name = "view",
    .id = CMD_VIEW,
    .summary = "slice, select, permute, broadcast, reshape or split a bound tensor",
    .usage = "dmltensor view --sizes LIST [OPTIONS] [OPERATIONS]",
    .about = "The DML_BUFFER_TENSOR_DESC and DML_BUFFER_BINDING of views of a tensor that\n"
             "lives in a buffer, as NumPy makes views: slices, an index, a transpose,\n"
             "broadcast_to, a reshape without copy, and parts of a split. For each view:\n"
             "its descriptor (TotalTensorSizeInBytes its own minimum implied size), its\n"
             "binding (Offset = where the parent is bound + the view's byte offset), the\n"
             "parent coordinate of its first element, and the checks: validate's of the\n"
             "view's descriptor and binding (base_offset_16, base_offset_alignment,\n"
             "binding_size, binding_in_buffer against --buffer-size, by default where\n"
             "the parent ends), then view_offset_whole_byte (4-bit types). A view that\n"
             "breaks a rule is printed all the same, with the smallest --pad or\n"
             "--row-pitch-align of the parent that would fix it; exit status 1. A\n"
             "negative step or an empty slice is exit status 2.\n",
    .examples = "  dmltensor view --dtype float16 --sizes 8,3,64,64 --slice n=2:4\n"
                "  dmltensor view --sizes 2,3,4 --permute 0,2,1 --format json\n"
                "  dmltensor view --dtype float16 --sizes 1,128,2304 --split w=3\n"
                "  dmltensor view --sizes 64 --reshape 1,64,1,1 --broadcast-to 2,64,7,7\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON) | FMT_BIT(FMT_C),
    .c_variables = "Sizes, Strides, BufferDesc, Binding",
    .format_help =
        "text (default), json (one line) or c (C snippets: each view's DML_BUFFER_TENSOR_DESC "
        "and DML_BUFFER_BINDING; failed checks as comments)",
    .batch = true,
    .tensor = true,
    .run = run_view,
};
