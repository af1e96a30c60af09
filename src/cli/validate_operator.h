/* validate_operator.h - `validate --operator NAME --tensor NAME
 * [--feature-level X_Y]`: the descriptor checked against one DirectML
 * operator's tensor support (src/dml/dml_operators.h): its dimension count,
 * its data type, and the feature level that introduced the operator. */
#ifndef DMLT_VALIDATE_OPERATOR_H
#define DMLT_VALIDATE_OPERATOR_H

#include "cli.h"
#include "dml_operators.h"

enum { OPERATOR_CHECK_COUNT = 3 };

struct operator_check {
    const char *id; /* operator_dimension_count, operator_data_type, operator_feature_level */
    bool passed;
    char message[400];
    char rule[240];
};

struct operator_result {
    bool asked; /* --operator given: the rest is filled */
    const struct dmlt_dml_operator *op;
    const char *tensor;                      /* the desc field as the tables spell it */
    unsigned level;                          /* the level checked at (0xMm00) */
    const struct dmlt_dml_tensor_rule *rule; /* in force at level, or NULL */
    struct operator_check checks[OPERATOR_CHECK_COUNT];
    unsigned failed;
};

/* Looks up --operator/--tensor/--feature-level and runs the checks on td
 * (r->asked false when --operator is not given). A name that is not in
 * the tables, a malformed level, or --tensor/--feature-level without
 * --operator is a usage error (exit 2) naming what exists. */
bool cli_validate_operator_run(const struct cli_config *cfg, const struct tensor_desc *td,
                               struct operator_result *r, struct cli_error *e);

/* Renderers, each a no-op when !r->asked. JSON: the "operator" member
 * (with its leading comma), and the checks as items of validate's "checks"
 * array (*first: no item written yet; checks_shown as cfg's). */
void cli_validate_operator_text(struct outbuf *out, const struct operator_result *r);
void cli_validate_operator_json(struct outbuf *out, const struct operator_result *r);
void cli_validate_operator_json_checks(struct outbuf *out, const struct operator_result *r,
                                       int checks_shown, bool *first);
/* --format c: each failed check as a comment. */
void cli_validate_operator_c(struct outbuf *out, const struct operator_result *r);

#endif
