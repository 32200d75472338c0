/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "log.h"
#include "ovsdb-json.h"
#include "raft-file.h"
#include "raft.h"
#include "schema.h"
#include "ovsdb-error.h"
#include "ovsdb.h"
#include "timeval.h"
#include "transaction.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_file);

struct ovsdb_file {
    struct ovsdb_log *log;
    struct raft *raft;          /* NULL for a standalone database. */
};

static json_t *row_to_json(const struct ovsdb_row *old,
                           const struct ovsdb_row *new,
                           const bool *changed);
static struct ovsdb_error *replay_row(struct ovsdb_txn *,
                                      struct ovsdb_table *,
                                      const char *uuid_string,
                                      const json_t *, bool is_diff);
static struct ovsdb_error *truncate_bad_tail(const char *file_name,
                                             struct ovsdb_log *, int flags,
                                             struct ovsdb_error *);
static struct ovsdb_error *open_standalone(const char *file_name,
                                           enum ovsdb_log_open_mode,
                                           struct ovsdb_log **);
static struct ovsdb_error *read_schema(struct ovsdb_log *,
                                       struct ovsdb_schema **);
static struct ovsdb_error *write_new_file(const char *file_name,
                                          const struct ovsdb_schema *,
                                          const json_t *snapshot);

/* Creates 'file_name', which must not exist, as an empty database with
 * 'schema'. */
struct ovsdb_error *
ovsdb_file_create(const char *file_name, const struct ovsdb_schema *schema)
{
    return write_new_file(file_name, schema, NULL);
}

/* Reads the database in 'file_name' into a new '*dbp'.  Without
 * OVSDB_FILE_READ_ONLY in 'flags' the file stays open, locked, as the
 * database's file, so that commits append to it. */
struct ovsdb_error *
ovsdb_file_open(const char *file_name, int flags, struct ovsdb **dbp)
{
    bool read_only = flags & OVSDB_FILE_READ_ONLY;
    bool bad_tail = false;
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    struct ovsdb *db;

    *dbp = NULL;
    if (flags & OVSDB_FILE_CLUSTERED) {
        error = ovsdb_log_open(file_name, (read_only ? OVSDB_LOG_READ_ONLY
                                           : OVSDB_LOG_READ_WRITE), &log);
        if (!error && !strcmp(ovsdb_log_get_magic(log), OVSDB_LOG_CLUSTER)) {
            struct raft *raft;

            error = raft_open(file_name, log, flags, dbp, &raft);
            if (error || read_only) {
                ovsdb_log_close(log);
            } else {
                (*dbp)->file = xzalloc(sizeof *(*dbp)->file);
                (*dbp)->file->log = log;
                (*dbp)->file->raft = raft;
                raft_attach(raft, *dbp, (*dbp)->file);
            }
            return error;
        }
    } else {
        error = open_standalone(file_name, (read_only ? OVSDB_LOG_READ_ONLY
                                            : OVSDB_LOG_READ_WRITE), &log);
    }
    if (error) {
        return error;
    }
    error = read_schema(log, &schema);
    if (error) {
        ovsdb_log_close(log);
        return error;
    }

    db = ovsdb_create(schema);
    for (;;) {
        json_t *record;

        error = ovsdb_log_read(log, &record);
        if (error) {
            bad_tail = true;
            break;
        } else if (!record) {
            break;
        }
        error = ovsdb_file_replay(db, record);
        json_decref(record);
        if (error) {
            error = ovsdb_wrap_error(error, "%s: replaying record %zu "
                                     "failed", file_name,
                                     ovsdb_log_get_n_records(log) - 1);
            break;
        }
    }

    if (error && bad_tail) {
        error = truncate_bad_tail(file_name, log, flags, error);
    }
    if (error) {
        ovsdb_destroy(db);
        ovsdb_log_close(log);
        return error;
    }

    if (read_only) {
        ovsdb_log_close(log);
    } else {
        db->file = xzalloc(sizeof *db->file);
        db->file->log = log;
    }
    *dbp = db;
    return NULL;
}

/* Reads only the schema of the database in 'file_name'. */
struct ovsdb_error *
ovsdb_file_read_schema(const char *file_name, struct ovsdb_schema **schemap)
{
    struct ovsdb_error *error;
    struct ovsdb_log *log;

    *schemap = NULL;
    error = open_standalone(file_name, OVSDB_LOG_READ_ONLY, &log);
    if (!error) {
        error = read_schema(log, schemap);
        ovsdb_log_close(log);
    }
    return error;
}

/* Closes 'file' (which may be NULL), releasing its lock. */
void
ovsdb_file_close(struct ovsdb_file *file)
{
    if (file) {
        raft_close(file->raft);
        ovsdb_log_close(file->log);
        free(file);
    }
}

/* Appends the changes of precommitted 'txn' to 'file', and syncs them to
 * disk if 'durable'.  A transaction that changes nothing writes nothing. */
struct ovsdb_error *
ovsdb_file_commit(struct ovsdb_file *file, const struct ovsdb_txn *txn,
                  bool durable)
{
    struct ovsdb_error *error;
    json_t *json;

    if (file->raft && raft_is_applying(file->raft)) {
        return NULL;            /* Stored already: a committed entry. */
    }
    json = ovsdb_file_txn_to_json(txn);
    if (!json) {
        return NULL;
    } else if (file->raft) {
        return raft_propose(file->raft, NULL, json);
    }
    error = ovsdb_log_write(file->log, json);
    json_decref(json);
    if (!error && durable) {
        error = ovsdb_log_commit_block(file->log);
    }
    return error;
}

/* Rewrites the file of 'db' as its schema and one snapshot of its rows,
 * with 'comment' (may be NULL), atomically. */
struct ovsdb_error *
ovsdb_file_compact(struct ovsdb *db, const char *comment)
{
    json_t *records[2];
    struct ovsdb_error *error;

    if (!db->file) {
        return ovsdb_error("ovsdb error", "database has no file");
    } else if (db->file->raft) {
        return raft_compact(db->file->raft, db, comment);
    }
    records[0] = ovsdb_schema_to_json(db->schema);
    records[1] = ovsdb_file_snapshot_to_json(db, comment);
    error = ovsdb_log_replace(db->file->log, records, records[1] ? 2 : 1);
    json_decref(records[0]);
    if (records[1]) {
        json_decref(records[1]);
    }
    return error;
}

/* Writes a new database file 'file_name' (which must not exist) with the
 * schema and a snapshot of the rows of 'db'. */
struct ovsdb_error *
ovsdb_file_save_copy(const char *file_name, const struct ovsdb *db,
                     const char *comment)
{
    json_t *snapshot = ovsdb_file_snapshot_to_json(db, comment);
    struct ovsdb_error *error = write_new_file(file_name, db->schema,
                                               snapshot);

    if (snapshot) {
        json_decref(snapshot);
    }
    return error;
}

/* Stores in '*namep' the name of the database in 'file_name', standalone
 * (its schema's) or clustered (its header's).  The caller must free() it. */
struct ovsdb_error *
ovsdb_file_read_db_name(const char *file_name, char **namep)
{
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    json_t *json;

    *namep = NULL;
    error = ovsdb_log_open(file_name, OVSDB_LOG_READ_ONLY, &log);
    if (error) {
        return error;
    }
    if (strcmp(ovsdb_log_get_magic(log), OVSDB_LOG_CLUSTER)) {
        struct ovsdb_schema *schema;

        error = read_schema(log, &schema);
        if (!error) {
            *namep = xstrdup(schema->name);
            ovsdb_schema_destroy(schema);
        }
    } else {
        error = ovsdb_log_read(log, &json);
        if (!error && !json) {
            error = ovsdb_io_error(EOF, "%s: unexpected end of file",
                                   file_name);
        } else if (!error) {
            struct raft_file_header h;

            error = raft_file_header_from_json(json, &h);
            if (!error) {
                *namep = xstrdup(h.name);
            }
            raft_file_header_destroy(&h);
            json_decref(json);
        }
    }
    ovsdb_log_close(log);
    return error;
}

/* Returns the Raft server of 'file' (which may be NULL), or NULL if it is
 * not a clustered database's. */
struct raft *
ovsdb_file_get_raft(const struct ovsdb_file *file)
{
    return file ? file->raft : NULL;
}

/* Returns the number of records in 'file' so far. */
size_t
ovsdb_file_get_n_records(const struct ovsdb_file *file)
{
    return ovsdb_log_get_n_records(file->log);
}

/* Returns the size of 'file' in bytes, up to its last good record. */
off_t
ovsdb_file_get_size(const struct ovsdb_file *file)
{
    return ovsdb_log_get_offset(file->log);
}

/* Returns the record that stores the changes of precommitted 'txn', or
 * NULL if it changes nothing that is stored. */
json_t *
ovsdb_file_txn_to_json(const struct ovsdb_txn *txn)
{
    const struct ovsdb_txn_row *txr;
    json_t *record = json_object();
    size_t n_rows = 0;

    for (txr = ovsdb_txn_first_row(txn); txr; txr = txr->next) {
        const struct ovsdb_table_schema *ts = txr->table->schema;
        bool *changed = xcalloc(ts->n_columns, sizeof *changed);
        const struct ovsdb_row *row = txr->new ? txr->new : txr->old;
        char uuid[UUID_LEN + 1];
        json_t *row_json, *table_json;

        if (!ovsdb_txn_row_changed(txr, changed)) {
            free(changed);
            continue;
        }
        row_json = row_to_json(txr->old, txr->new, changed);
        free(changed);
        if (row_json && !json_is_null(row_json)
            && txr->old && !json_object_size(row_json)) {
            /* Only ephemeral columns changed. */
            json_decref(row_json);
            continue;
        }

        table_json = json_object_get(record, ts->name);
        if (!table_json) {
            table_json = json_object();
            json_object_set_new(record, ts->name, table_json);
        }
        uuid_to_string(ovsdb_row_get_uuid(row), uuid);
        json_object_set_new(table_json, uuid, row_json);
        n_rows++;
    }
    if (!n_rows) {
        json_decref(record);
        return NULL;
    }
    json_object_set_new(record, "_date", json_integer(time_wall_msec()));
    if (ovsdb_txn_get_comment(txn)) {
        json_object_set_new(record, "_comment",
                            json_string(ovsdb_txn_get_comment(txn)));
    }
    json_object_set_new(record, "_is_diff", json_true());
    return record;
}

/* Returns a record that recreates every row of 'db' (not a diff), with
 * 'comment' (may be NULL), or NULL if 'db' is empty and 'comment' is
 * NULL. */
json_t *
ovsdb_file_snapshot_to_json(const struct ovsdb *db, const char *comment)
{
    json_t *record = json_object();
    size_t i;

    for (i = 0; i < db->schema->n_tables; i++) {
        const struct ovsdb_table *table = &db->tables[i];
        const struct ovsdb_table_schema *ts = table->schema;
        bool *changed = xcalloc(ts->n_columns, sizeof *changed);
        struct ovsdb_row *row;
        json_t *table_json;

        if (!ohmap_count(&table->rows)) {
            free(changed);
            continue;
        }
        table_json = json_object();
        OHMAP_FOR_EACH (row, node, &table->rows) {
            char uuid[UUID_LEN + 1];

            uuid_to_string(ovsdb_row_get_uuid(row), uuid);
            json_object_set_new(table_json, uuid,
                                row_to_json(NULL, row, changed));
        }
        json_object_set_new(record, ts->name, table_json);
        free(changed);
    }
    if (!json_object_size(record) && !comment) {
        json_decref(record);
        return NULL;
    }
    json_object_set_new(record, "_date", json_integer(time_wall_msec()));
    if (comment) {
        json_object_set_new(record, "_comment", json_string(comment));
    }
    return record;
}

/* Applies the transaction 'record' (see file.h) to 'db' and commits it
 * (to 'db''s file too, if it has one). */
struct ovsdb_error *
ovsdb_file_replay(struct ovsdb *db, const json_t *record)
{
    return ovsdb_file_replay_txnid(db, record, NULL);
}

/* As ovsdb_file_replay(), giving the transaction id 'txnid' (if nonnull)
 * for the database's transaction history. */
struct ovsdb_error *
ovsdb_file_replay_txnid(struct ovsdb *db, const json_t *record,
                        const struct uuid *txnid)
{
    const json_t *is_diff_json, *table_json;
    struct ovsdb_error *error = NULL;
    struct ovsdb_txn *txn;
    const char *name;
    bool is_diff;

    if (!json_is_object(record)) {
        return ovsdb_syntax_error(record, NULL, "object expected");
    }
    is_diff_json = json_object_get(record, "_is_diff");
    is_diff = is_diff_json && json_is_true(is_diff_json);

    txn = ovsdb_txn_create(db);
    if (txnid) {
        ovsdb_txn_set_txnid(txn, txnid);
    }
    json_object_foreach ((json_t *) record, name, table_json) {
        struct ovsdb_table *table;
        const char *uuid;
        json_t *row_json;

        if (name[0] == '_') {
            if (!strcmp(name, "_comment") && json_is_string(table_json)) {
                ovsdb_txn_add_comment(txn, json_string_value(table_json));
            }
            continue;
        }
        table = ovsdb_get_table(db, name);
        if (!table) {
            error = ovsdb_syntax_error(record, NULL, "No table named %s.",
                                       name);
            break;
        }
        if (!json_is_object(table_json)) {
            error = ovsdb_syntax_error(table_json, NULL,
                                       "object expected");
            break;
        }
        json_object_foreach ((json_t *) table_json, uuid, row_json) {
            error = replay_row(txn, table, uuid, row_json, is_diff);
            if (error) {
                break;
            }
        }
        if (error) {
            break;
        }
    }
    if (error) {
        ovsdb_txn_abort(txn);
        return error;
    }
    return ovsdb_txn_commit(txn, false);
}

static json_t *
row_to_json(const struct ovsdb_row *old, const struct ovsdb_row *new,
            const bool *changed)
{
    const struct ovsdb_table_schema *ts;
    json_t *json;
    size_t i;

    if (!new) {
        return json_null();
    }
    ts = new->table->schema;
    json = json_object();
    for (i = OVSDB_N_HIDDEN_COLUMNS; i < ts->n_columns; i++) {
        const struct ovsdb_column *column = ts->columns[i];
        const struct ovsdb_datum *datum = &new->fields[i];

        if (!column->persistent) {
            continue;
        }
        if (!old) {
            if (!ovsdb_datum_is_default(datum, &column->type)) {
                json_object_set_new(json, column->name,
                                    ovsdb_datum_to_json(datum,
                                                        &column->type));
            }
        } else if (changed[i]) {
            if (column->type.n_max > 1) {
                struct ovsdb_datum diff;

                ovsdb_datum_diff(&diff, &old->fields[i], datum,
                                 &column->type);
                json_object_set_new(json, column->name,
                                    ovsdb_datum_to_json(&diff,
                                                        &column->type));
                ovsdb_datum_destroy(&diff, &column->type);
            } else {
                json_object_set_new(json, column->name,
                                    ovsdb_datum_to_json(datum,
                                                        &column->type));
            }
        }
    }
    return json;
}

static struct ovsdb_error *
replay_row(struct ovsdb_txn *txn, struct ovsdb_table *table,
           const char *uuid_string, const json_t *json, bool is_diff)
{
    const struct ovsdb_table_schema *ts = table->schema;
    struct ovsdb_row *row;
    struct uuid uuid;
    bool inserting;
    const char *name;
    json_t *value;

    if (!uuid_from_string(&uuid, uuid_string)) {
        return ovsdb_error("syntax error", "\"%s\" is not a valid UUID",
                           uuid_string);
    }
    row = ovsdb_table_get_row(table, &uuid);
    if (json_is_null(json)) {
        if (!row) {
            return ovsdb_error("consistency violation", "transaction "
                               "deletes row %s that does not exist",
                               uuid_string);
        }
        ovsdb_txn_row_delete(txn, row);
        return NULL;
    } else if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL, "row must be JSON object");
    }

    inserting = !row;
    if (inserting) {
        row = ovsdb_row_create(table);
        ovsdb_row_set_uuid(row, &uuid);
    } else {
        ovsdb_txn_row_modify(txn, row);
    }
    json_object_foreach ((json_t *) json, name, value) {
        const struct ovsdb_column *column;
        struct ovsdb_error *error;
        struct ovsdb_datum datum;

        column = ovsdb_table_schema_find_column(ts, name);
        if (!column || column->index < OVSDB_N_HIDDEN_COLUMNS) {
            error = ovsdb_syntax_error(json, "unknown column", "No column %s "
                                       "in table %s.", name, ts->name);
        } else if (is_diff && !inserting && column->type.n_max > 1) {
            struct ovsdb_type diff_type = column->type;

            diff_type.n_min = 0;
            diff_type.n_max = OVSDB_UNLIMITED;
            error = ovsdb_datum_from_json(&datum, &diff_type, value, NULL);
            if (!error) {
                error = ovsdb_datum_apply_diff(&row->fields[column->index],
                                               &datum, &column->type);
                ovsdb_datum_destroy(&datum, &column->type);
            }
        } else {
            error = ovsdb_datum_from_json(&datum, &column->type, value,
                                          NULL);
            if (!error) {
                ovsdb_datum_swap(&row->fields[column->index], &datum);
                ovsdb_datum_destroy(&datum, &column->type);
            }
        }
        if (error) {
            if (inserting) {
                ovsdb_row_destroy(row);
            }
            return error;
        }
    }
    if (inserting) {
        if (!ovsdb_txn_may_create_row(txn, table, &uuid)) {
            ovsdb_row_destroy(row);
            return ovsdb_error("consistency violation", "transaction "
                               "inserts row %s twice", uuid_string);
        }
        ovsdb_txn_row_insert(txn, row);
    }
    return NULL;
}

/* Opens the log 'file_name' in 'mode', which must hold a standalone
 * database. */
static struct ovsdb_error *
open_standalone(const char *file_name, enum ovsdb_log_open_mode mode,
                struct ovsdb_log **logp)
{
    struct ovsdb_error *error = ovsdb_log_open(file_name, mode, logp);

    if (!error && strcmp(ovsdb_log_get_magic(*logp), OVSDB_LOG_JSON)) {
        ovsdb_log_close(*logp);
        *logp = NULL;
        error = ovsdb_error("ovsdb error", "%s: cannot apply this operation "
                            "to clustered database file", file_name);
    }
    return error;
}

static struct ovsdb_error *
read_schema(struct ovsdb_log *log, struct ovsdb_schema **schemap)
{
    struct ovsdb_error *error;
    json_t *json;

    *schemap = NULL;
    error = ovsdb_log_read(log, &json);
    if (error) {
        return error;
    }
    if (!json) {
        return ovsdb_io_error(EOF, "%s: unexpected end of file",
                              ovsdb_log_get_name(log));
    }
    error = ovsdb_schema_from_json(json, schemap);
    json_decref(json);
    if (error) {
        return ovsdb_wrap_error(error, "failed to parse \"%s\" as ovsdb "
                                "schema", ovsdb_log_get_name(log));
    }
    return NULL;
}

/* Writes 'file_name', which must not exist, with the 'schema' record and,
 * if nonnull, the 'snapshot' record, and syncs it.  On error no file is
 * left behind. */
static struct ovsdb_error *
write_new_file(const char *file_name, const struct ovsdb_schema *schema,
               const json_t *snapshot)
{
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    json_t *json;

    error = ovsdb_log_open(file_name, OVSDB_LOG_CREATE_EXCL, &log);
    if (error) {
        return error;
    }
    json = ovsdb_schema_to_json(schema);
    error = ovsdb_log_write(log, json);
    json_decref(json);
    if (!error && snapshot) {
        error = ovsdb_log_write(log, snapshot);
    }
    if (!error) {
        error = ovsdb_log_commit_block(log);
    }
    ovsdb_log_close(log);
    if (error) {
        unlink(file_name);
    }
    return error;
}

/* Handles 'error', the damage ovsdb_log_read() found in 'log' (of
 * 'file_name'): with OVSDB_FILE_TRUNCATE_TAIL in 'flags' (and not
 * OVSDB_FILE_READ_ONLY), cuts the file after its last good record, logs
 * it, and returns NULL (or the truncation's error); otherwise returns
 * 'error'. */
static struct ovsdb_error *
truncate_bad_tail(const char *file_name, struct ovsdb_log *log, int flags,
                  struct ovsdb_error *error)
{
    char *s;
    off_t n_bytes;

    if (!(flags & OVSDB_FILE_TRUNCATE_TAIL) || flags & OVSDB_FILE_READ_ONLY) {
        return error;
    }
    s = ovsdb_error_to_string(error);
    ovsdb_error_destroy(error);
    error = ovsdb_log_truncate_tail(log, &n_bytes);
    if (!error) {
        VLOG_WARN("%s: kept %zu good records, truncated %lld bytes of torn "
                  "or corrupt data after them (%s)", file_name,
                  ovsdb_log_get_n_records(log), (long long) n_bytes, s);
    }
    free(s);
    return error;
}
