/* dml_ep_queries.h - the DML EP's support queries (dml_ep_queries.c),
 * which IsNodeSupportedByDml asks first (dml_ep_checks.c). */
#ifndef DMLT_DML_EP_QUERIES_H
#define DMLT_DML_EP_QUERIES_H

#include "dml_ep_kernel.h"

/* The support query of node n's registration (n->reg), answered as the
 * provider's callback does; node index at for its reasons. */
enum ep_verdict dmlt_ep__support_query(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at);

#endif
