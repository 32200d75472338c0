/* Active-backup replication: the backup side of ovsdb-server. */

#ifndef OVSDB_REPLICATION_H
#define OVSDB_REPLICATION_H 1

#include <stdbool.h>
#include <stddef.h>

#include "json.h"

struct ovsdb;
struct ovsdb_error;
struct ovsdb_schema;
struct uuid;

/* Returns the database that the server serves under 'name', or NULL. */
typedef struct ovsdb *replication_find_db_func(const char *name);

void replication_set_find_db(replication_find_db_func *);

/* Starts replicating the databases named in 'db_names' (which the server
 * serves; "_Server" is never replicated) from 'sync_from', an active
 * connection method, reconnecting with back-off.  Stops any replication
 * first. */
void replication_start(const char *sync_from, char *const *db_names,
                       size_t n_db_names);
void replication_stop(void);

/* Does the work of replication.  Returns false if replication has failed
 * (the server should become active then), true otherwise. */
bool replication_run(void);
void replication_wait(void);

/* The lines of "ovsdb-server/sync-status" that follow "state: backup". */
char *replication_status(void);

/* "DB:TABLE[,DB:TABLE]..." tables left out of replication. */
void replication_set_excluded(const char *spec);
char *replication_get_excluded(void);

void replication_set_probe_interval(int msec);

/* Helpers that relay mode (relay.c) shares.  With 'all' true, excluded
 * tables are not left out.
 *
 * replication_monitor_requests() returns the <monitor-requests> object that
 * monitors every column of every table of 'schema'.
 * replication_reset_db() deletes every row of 'db', in one transaction.
 * replication_apply_updates() applies monitor <table-updates> to 'db', in
 * one transaction; replication_apply_updates2() <table-updates2>, in one
 * transaction with id 'txnid'. */
json_t *replication_monitor_requests(const struct ovsdb_schema *, bool all);
struct ovsdb_error *replication_reset_db(struct ovsdb *, bool all);
struct ovsdb_error *replication_apply_updates(struct ovsdb *,
                                              const json_t *updates);
struct ovsdb_error *replication_apply_updates2(struct ovsdb *,
                                               const json_t *updates2,
                                               const struct uuid *txnid);

#endif /* replication.h */
