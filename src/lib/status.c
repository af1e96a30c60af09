/* status.c - the library's version, and the names of statuses and
 * diagnostics, from the lists in the header. */
#include "dmltensor.h"

unsigned dmlt_version(void)
{
    return DMLT_VERSION_NUMBER;
}

const char *dmlt_version_string(void)
{
    return DMLT_VERSION_STRING;
}

const char *dmlt_status_name(enum dmlt_status status)
{
    switch (status) {
#define DMLT_X_CASE(name, value, text)                                                             \
    case name:                                                                                     \
        return text;
        DMLT_STATUS_LIST(DMLT_X_CASE)
#undef DMLT_X_CASE
    }
    return "unknown status";
}

const char *dmlt_diag_id_name(enum dmlt_diag_id id)
{
    switch (id) {
#define DMLT_X_CASE(name, value, text, sev)                                                        \
    case name:                                                                                     \
        return text;
        DMLT_DIAG_LIST(DMLT_X_CASE)
#undef DMLT_X_CASE
    case DMLT_DIAG_COUNT:
        break;
    }
    return "unknown";
}

enum dmlt_severity dmlt_diag_severity(enum dmlt_diag_id id)
{
    /* A table, not a switch whose cases would repeat the same few values. */
    static const enum dmlt_severity severity[DMLT_DIAG_COUNT] = {
#define DMLT_X_SEVERITY(name, value, text, sev) [name] = (sev),
        DMLT_DIAG_LIST(DMLT_X_SEVERITY)
#undef DMLT_X_SEVERITY
    };
    return (unsigned)id < DMLT_DIAG_COUNT ? severity[id] : DMLT_INFO;
}
