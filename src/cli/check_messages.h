/* check_messages.h - validate's checks as the commands that show them
 * word them (validate, view, scan's text table): the descriptor a tensor
 * stands for, and the sentence for each check's outcome (check_messages.c).
 * Below the commands: it calls none of them. */
#ifndef DMLT_CHECK_MESSAGES_H
#define DMLT_CHECK_MESSAGES_H

#include "cli.h"

/* The DML_BUFFER_TENSOR_DESC and binding validate checks for td. */
void cli_validate_desc_of(const struct tensor_desc *td, struct dmlt_desc *d);
/* The sentence for one check's outcome, with its numbers, into msg
 * (cut at size - 1 bytes, always NUL-terminated). */
void cli_check_message(char *msg, size_t size, const struct dmlt_check *c,
                       const struct tensor_desc *d);

#endif
