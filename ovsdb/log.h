/* The OVSDB log file: an append-only sequence of JSON records, each framed
 * by a header line
 *
 *     OVSDB JSON <length> <sha1>\n
 *
 * ("OVSDB CLUSTER ..." in a clustered database's file) followed by exactly <length> bytes: one line of JSON and its newline,
 * whose SHA-1 (hex, written lowercase) is <sha1>.  The framing lets a reader find
 * where a torn or corrupted tail begins.
 *
 * Writes append a whole record with one write() and, on failure, truncate
 * the file back to where the record began.  ovsdb_log_commit_block()
 * makes everything written so far durable; if its fsync fails, it takes
 * back the record written last, so that a refused commit is never
 * replayed when the log is opened again.  ovsdb_log_replace() rewrites
 * the whole log (compaction) through a temporary file that is synced and
 * then renamed over the old one.
 *
 * A log opened for writing holds an fcntl() lock on "<dir>/.<name>.~lock~",
 * as Open vSwitch does, so two programs never write one database.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_LOG_H
#define OVSDB_LOG_H 1

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>
#include "compiler.h"

/* The word after "OVSDB" in each header line: a standalone database's
 * records, or a clustered database's (see raft-file.h).  A log holds one
 * kind only; opening an existing log finds which from its first line. */
#define OVSDB_LOG_JSON "JSON"
#define OVSDB_LOG_CLUSTER "CLUSTER"

struct ds;

enum ovsdb_log_open_mode {
    OVSDB_LOG_READ_ONLY,        /* Existing file, no writes. */
    OVSDB_LOG_READ_WRITE,       /* Existing file, read then append. */
    OVSDB_LOG_CREATE_EXCL,      /* New file; fail if it exists. */
    OVSDB_LOG_CREATE            /* New file; replace any existing one. */
};

struct ovsdb_log;

struct ovsdb_error *ovsdb_log_open(const char *name,
                                   enum ovsdb_log_open_mode,
                                   struct ovsdb_log **)
    DPS_WARN_UNUSED_RESULT;
void ovsdb_log_close(struct ovsdb_log *);
const char *ovsdb_log_get_name(const struct ovsdb_log *);
const char *ovsdb_log_get_magic(const struct ovsdb_log *);
void ovsdb_log_set_magic(struct ovsdb_log *, const char *magic);

struct ovsdb_error *ovsdb_log_read(struct ovsdb_log *, json_t **)
    DPS_WARN_UNUSED_RESULT;
off_t ovsdb_log_get_offset(const struct ovsdb_log *);
off_t ovsdb_log_get_size(const struct ovsdb_log *);
size_t ovsdb_log_get_n_records(const struct ovsdb_log *);
struct ovsdb_error *ovsdb_log_truncate_tail(struct ovsdb_log *,
                                            off_t *n_bytesp)
    DPS_WARN_UNUSED_RESULT;

struct ovsdb_error *ovsdb_log_write(struct ovsdb_log *, const json_t *)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_log_commit_block(struct ovsdb_log *)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_log_replace(struct ovsdb_log *,
                                      json_t *const *records, size_t n)
    DPS_WARN_UNUSED_RESULT;

void ovsdb_log_compose_record(const json_t *, const char *magic,
                              struct ds *header, struct ds *data);

#endif /* log.h */
