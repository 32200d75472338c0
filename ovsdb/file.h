/* OVSDB databases stored in OVS's standalone file format.
 *
 * The file is a log (log.h) whose first record is the schema and whose
 * other records are transactions:
 *
 *     {"<table>": {"<uuid>": null | {<column>: <value>, ...}, ...}, ...,
 *      "_date": <ms since the epoch>, "_comment": "...", "_is_diff": true}
 *
 * A null row deletes it.  A row object inserts the row (omitted columns
 * take their defaults) or, for an existing row, changes the columns it
 * names.  With "_is_diff", the value of a column that may hold more than
 * one element is a difference to apply (ovsdb_datum_apply_diff()); other
 * values, and all values in records without "_is_diff" (older files and
 * compacted snapshots), replace the old ones.  Ephemeral columns are never
 * written.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_FILE_H
#define OVSDB_FILE_H 1

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>
#include "compiler.h"
#include "uuid.h"

struct ovsdb;
struct ovsdb_file;
struct ovsdb_log;
struct ovsdb_schema;
struct ovsdb_txn;

enum {
    OVSDB_FILE_READ_ONLY = 1 << 0,   /* Do not open for appending. */
    OVSDB_FILE_TRUNCATE_TAIL = 1 << 1, /* Drop a bad tail (logged) instead
                                      * of failing. */
    OVSDB_FILE_CLUSTERED = 1 << 2    /* Also open a clustered database
                                      * (see below); without this flag one
                                      * is refused. */
};

/* A clustered database (raft-file.h) opens as the only server of its
 * cluster, which is all this implementation does so far: opening replays
 * the snapshot and every entry of the log, starts a new term in which the
 * server votes for itself and leads, and appends that term's first entry;
 * each commit is then a log entry and a commit index; compaction rewrites
 * the header with a new snapshot.  Files of clusters of several servers,
 * and of servers that have not joined yet, are refused. */
struct ovsdb_file_cluster_status {
    struct uuid sid, cid;
    const char *name;           /* Database name. */
    const char *local_address;
    uint64_t term;
    uint64_t log_start, log_end; /* First index in the log, last + 1. */
    uint64_t commit_index;
    uint64_t next_index;        /* The log's end when this term began. */
    uint64_t election_timer;
    long long int elected;      /* When this term began (msec, monotonic). */
};

struct ovsdb_error *ovsdb_file_create(const char *file_name,
                                      const struct ovsdb_schema *)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_file_open(const char *file_name, int flags,
                                    struct ovsdb **dbp)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_file_read_schema(const char *file_name,
                                           struct ovsdb_schema **)
    DPS_WARN_UNUSED_RESULT;
void ovsdb_file_close(struct ovsdb_file *);

struct ovsdb_error *ovsdb_file_commit(struct ovsdb_file *,
                                      const struct ovsdb_txn *, bool durable)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_file_compact(struct ovsdb *, const char *comment)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_file_save_copy(const char *file_name,
                                         const struct ovsdb *,
                                         const char *comment)
    DPS_WARN_UNUSED_RESULT;

struct ovsdb_error *ovsdb_file_read_db_name(const char *file_name,
                                            char **namep)
    DPS_WARN_UNUSED_RESULT;
bool ovsdb_file_get_cluster_status(const struct ovsdb_file *,
                                   struct ovsdb_file_cluster_status *);

size_t ovsdb_file_get_n_records(const struct ovsdb_file *);
off_t ovsdb_file_get_size(const struct ovsdb_file *);

json_t *ovsdb_file_txn_to_json(const struct ovsdb_txn *);
json_t *ovsdb_file_snapshot_to_json(const struct ovsdb *,
                                    const char *comment);
struct ovsdb_error *ovsdb_file_replay(struct ovsdb *, const json_t *record)
    DPS_WARN_UNUSED_RESULT;

#endif /* file.h */
