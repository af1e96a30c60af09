/* dml_ep_kernel.h - the per-node stages of the DML EP model
 * (dml_ep_kernel.c), which the driver (dml_ep.c) runs in ORT's order. */
#ifndef DMLT_DML_EP_KERNEL_H
#define DMLT_DML_EP_KERNEL_H

#include "dml_ep_int.h"

/* What a stage decides: go on, the CPU takes the node, the node fails,
 * or what decides it is unknown (each but EP_OK records its reason). */
enum ep_verdict { EP_OK, EP_CPU, EP_FAILS, EP_UNKNOWN };

/* ORT's kernel lookup: n->since, n->reg, n->has_kernel. */
enum ep_verdict dmlt_ep__kernel_lookup(struct ep_state *st, struct dmlt_ep_node *n);
/* n->since alone (a folded node's), recording nothing. */
void dmlt_ep__since(struct ep_state *st, struct dmlt_ep_node *n);
/* IsNodeSupportedByDml: the support query, then every tensor's type. */
enum ep_verdict dmlt_ep__supported_by_dml(struct ep_state *st, struct dmlt_ep_node *n);
/* Kernel creation: every tensor's dimension count, DirectML's tensor
 * rules of the operators the provider creates (failures recorded). */
enum ep_verdict dmlt_ep__kernel_creation(struct ep_state *st, struct dmlt_ep_node *n);

#endif
