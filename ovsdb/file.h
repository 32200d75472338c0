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

/* A clustered database (raft-file.h) opens, with OVSDB_FILE_CLUSTERED, as
 * a Raft server (raft.h) that keeps the file: commits become proposals to
 * the cluster, and the database changes as entries commit. */
struct raft;
struct uuid;

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
struct raft *ovsdb_file_get_raft(const struct ovsdb_file *);

size_t ovsdb_file_get_n_records(const struct ovsdb_file *);
off_t ovsdb_file_get_size(const struct ovsdb_file *);

json_t *ovsdb_file_txn_to_json(const struct ovsdb_txn *);
json_t *ovsdb_file_snapshot_to_json(const struct ovsdb *,
                                    const char *comment);
struct ovsdb_error *ovsdb_file_replay(struct ovsdb *, const json_t *record)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_file_replay_txnid(struct ovsdb *,
                                            const json_t *record,
                                            const struct uuid *txnid)
    DPS_WARN_UNUSED_RESULT;

#endif /* file.h */
