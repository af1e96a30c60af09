/* records.h - splits a stream into JSON records for `batch`: JSON Lines (one
 * record per line) or one JSON array (one record per element), told apart by
 * the first byte that is not white space. Memory is one input block plus the
 * longest record, whatever the number of records: an array is split while it
 * is read, never loaded whole. */
#ifndef DMLT_RECORDS_H
#define DMLT_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RECORD_MAX ((size_t)1 << 20) /* a longer record ends the reading */

enum record_status {
    RECORD_OK,        /* text/len/line hold one record */
    RECORD_END,       /* no more records */
    RECORD_TOO_LONG,  /* the record passed RECORD_MAX bytes: reading stops there */
    RECORD_MALFORMED, /* the array is broken (text after ']', or no ']') */
    RECORD_IO_ERROR,  /* reading failed (errno says why) */
    RECORD_NO_MEMORY  /* no memory for the record: the caller stops, exit 2 */
};

struct record_reader {
    FILE *f;
    const char *pre; /* bytes already taken from f, read first (cli_record_reader_prefix) */
    size_t pre_len;
    unsigned long long total;  /* bytes read so far, pre included */
    bool stopped;              /* a record too long: nothing more is read */
    char block[64 * 1024 + 1]; /* + 1: a '\n' sentinel after the data */
    size_t pos, end;
    bool eof, io_error, no_memory;
    unsigned long line; /* 1-based line of the next byte */
    int mode;           /* 0 not yet known, 1 JSON Lines, 2 array, 3 array ended */
    bool comma;         /* the last array element ended with ',' */
    char *rec;          /* the record being read */
    size_t len, cap;
};

void cli_record_reader_init(struct record_reader *r, FILE *f);
void cli_record_reader_free(struct record_reader *r);
/* The first p[0..n) bytes of the input, already taken from f (they must
 * outlive the reader): read before f. */
void cli_record_reader_prefix(struct record_reader *r, const void *p, size_t n);

/* The next record: *text (NUL-terminated, valid until the next call), its
 * length and the line it starts on. Blank lines are skipped and a trailing
 * CR is dropped. After RECORD_TOO_LONG and RECORD_MALFORMED, *line says
 * where. RECORD_TOO_LONG comes as soon as a record passes RECORD_MAX, the
 * rest of it unread (an endless line, as /dev/zero's, is not read to its
 * end), and ends the reading: RECORD_END follows. After RECORD_MALFORMED
 * reading goes on (it ends an array). An array
 * element is passed on as it is, so "[1,,2]" gives an empty record. */
enum record_status cli_record_next(struct record_reader *r, const char **text, size_t *len,
                                   unsigned long *line);

#endif
