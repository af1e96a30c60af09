/* cmd_nodes.c - `nodes MODEL.onnx`: where ONNX Runtime's DirectML
 * execution provider runs each node (SPEC section 12). The model is read
 * and its shapes inferred in a model session, as scan and plan do
 * (model_session.h); the decisions are the DML layer's (src/dml/dml_ep.h);
 * nodes_out.c renders. */
#include "cli.h"
#include "nodes_out.h"
#include "parse.h"
#include "input.h"
#include "model_session.h"

#include <stdlib.h>
#include <string.h>

/* --feature-level and --require. */
static bool read_options(struct cli_config *cfg, unsigned *level, struct cli_error *e)
{
    if (!cli_parse_feature_level(cfg->feature_level, level, e))
        return false;
    if (cfg->require && strcmp(cfg->require, "dml") != 0) {
        cli_fail(e, CLI_E_BAD_REQUIRE, "--require", cfg->require, "not dml");
        cli_hint(e, "--require dml fails unless every node is folded or in a fused DirectML "
                    "graph");
        return false;
    }
    return true;
}

/* The model in m read, its shapes inferred (with o's --dim and --shape)
 * and every node placed at level. */
static bool place_model(struct cli_config *cfg, const struct plat_map *m, unsigned level,
                        struct onnx_options *o, struct outbuf *out, struct cli_error *e)
{
    struct onnx_session ses;
    struct onnx_error oe;
    bool oom = false;
    memset(&ses, 0, sizeof ses);
    if (!cli_model_session_open(&ses, m, MODEL_RECORDS_NONE, NULL, NULL, &oe, &oom)) {
        onnx_session_close(&ses);
        return cli_model_session_fail(e, &oe, oom, cfg->input,
                                      "nodes reads an ONNX model (a ModelProto)");
    }
    const struct onnx_model *model = &ses.model;
    bool ok = model->n_graphs > 0 ||
              cli_fail(e, CLI_E_BAD_ONNX, NULL, cfg->input, "the model has no graph");
    ok = ok && cli_model_session_infer(&ses, o, e);
    struct dmlt_ep_result r;
    memset(&r, 0, sizeof r);
    const struct dmlt_ep_options opts = {level, NULL};
    if (ok && !dmlt_ep_run(model, ses.infer, &opts, &r))
        ok = cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    if (ok) {
        cli_onnx_note_unused(cfg, "nodes", model, o);
        ok = cli_nodes_render(cfg, &r, out, e);
        if (ok && (r.placements[DMLT_PLACE_FAILS] ||
                   (cfg->require &&
                    r.n_nodes != r.placements[DMLT_PLACE_FOLDED] + r.placements[DMLT_PLACE_DML])))
            cfg->exit_status = 1;
    }
    dmlt_ep_free(&r);
    onnx_session_close(&ses);
    return ok;
}

static bool run_nodes(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    if (cfg->input == NULL) {
        cli_fail(e, CLI_E_MISSING_ARGUMENT, NULL, NULL, "no model given");
        cli_hint(e, "dmltensor nodes MODEL.onnx (or - for standard input)");
        return false;
    }
    /* The options first: a bad one is refused before the model is read. */
    unsigned level;
    struct onnx_options o;
    memset(&o, 0, sizeof o);
    if (!read_options(cfg, &level, e) || !cli_onnx_options_read(cfg, &o, e)) {
        cli_onnx_options_free(&o);
        return false;
    }
    struct input in;
    if (!cli_input_open(&in, cfg->input, cfg->in, e)) {
        cli_onnx_options_free(&o);
        return false;
    }
    if (!in.model) { /* refused at once: the head cannot start a model */
        cli_fail(e, CLI_E_BAD_ONNX, NULL, in.name, "not an ONNX model: at byte %zu: %s",
                 in.model_error.offset, in.model_error.message);
        cli_hint(e, "nodes reads an ONNX model (a ModelProto), from a file or standard input");
        cli_input_close(&in);
        cli_onnx_options_free(&o);
        return false;
    }
    struct plat_map m;
    memset(&m, 0, sizeof m);
    bool ok = cli_input_whole(&in, &m, e);
    cli_input_close(&in);
    if (ok)
        ok = place_model(cfg, &m, level, &o, out, e);
    cli_plat_unmap_file(&m);
    cli_onnx_options_free(&o);
    return ok;
}

const struct command cli_cmd_nodes = {
    .name = "nodes",
    .id = CMD_NODES,
    .summary = "where ONNX Runtime's DirectML provider runs each node of a model, and why",
    .usage = "dmltensor nodes MODEL.onnx [--dim NAME=VALUE]... [--shape NAME=D1,..]...\n"
             "                     [--feature-level X_Y] [--require dml] [--format FMT]",
    .about = "Reproduces ONNX Runtime's DirectML execution provider (default session\n"
             "options, graph fusion on) node by node: folded (computed when the session\n"
             "is made), dml (in a fused DirectML graph), dml_kernel (on DirectML, outside\n"
             "any fused graph), cpu (the provider takes no kernel: CPU fallback, with\n"
             "copies), fails (session creation fails: a tensor breaks a rule of the\n"
             "DirectML operator or of the provider) or unknown (the reason names the dim\n"
             "or value that decides). Each decision cites its source: the provider's\n"
             "registration table, its support queries, the CPU-preferred pass, graph\n"
             "fusion, DirectML's tensor rules at the feature level. Writes one record\n"
             "per node of every graph, in execution order, then a summary. Exit status\n"
             "1 when a node fails, or with --require dml when a node is neither folded\n"
             "nor dml.\n",
    .examples = "  dmltensor nodes model.onnx --dim batch=1 --format text\n"
                "  dmltensor nodes model.onnx | jq -c 'select(.placement != \"dml\") | .reasons'\n"
                "  dmltensor nodes model.onnx --dim batch=1 --require dml --format csv\n",
    .formats = FMT_BIT(FMT_JSONL) | FMT_BIT(FMT_JSON) | FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_CSV),
    .format_help = "jsonl (default: a JSON object per node, then the summary; json the same), "
                   "text (what to act on first: failures, CPU fallbacks and copies, then the "
                   "counts) or csv (a line per node)",
    .default_format = FMT_JSONL,
    .args = ARGS_FILE,
    .batch = false,
    .run = run_nodes,
};
