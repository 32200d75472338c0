/* OVSDB monitors: what a client of ovsdb-server asked to be told about
 * (RFC 7047 "monitor", and Open vSwitch's "monitor_cond" and
 * "monitor_cond_since"), and the JSON that tells it.
 *
 * A monitor covers some tables of one database; per table, some columns,
 * which kinds of change ("initial", "insert", "delete", "modify") and, for
 * the conditional kinds, a "where" condition.  Version 1 reports changes
 * as RFC 7047 <table-updates> ({"old": ..., "new": ...}); versions 2 and 3
 * as <table-updates2> ({"initial"|"insert"|"modify": ...} or
 * {"delete": null}), where "modify" carries only changed columns and sets
 * and maps as differences.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_MONITOR_H
#define OVSDB_MONITOR_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"

struct ovsdb;
struct ovsdb_monitor;
struct ovsdb_txn;
struct ovsdb_txn_history_entry;

enum ovsdb_monitor_version {
    OVSDB_MONITOR_V1 = 1,       /* "monitor": "update" notifications. */
    OVSDB_MONITOR_V2 = 2,       /* "monitor_cond": "update2". */
    OVSDB_MONITOR_V3 = 3        /* "monitor_cond_since": "update3". */
};

struct ovsdb_error *ovsdb_monitor_create(struct ovsdb *, const json_t *id,
                                         const json_t *requests,
                                         enum ovsdb_monitor_version,
                                         struct ovsdb_monitor **)
    DPS_WARN_UNUSED_RESULT;
void ovsdb_monitor_destroy(struct ovsdb_monitor *);
const json_t *ovsdb_monitor_get_id(const struct ovsdb_monitor *);
struct ovsdb *ovsdb_monitor_get_db(const struct ovsdb_monitor *);
enum ovsdb_monitor_version ovsdb_monitor_get_version(
    const struct ovsdb_monitor *);
void ovsdb_monitor_set_id(struct ovsdb_monitor *, const json_t *id);

uint32_t ovsdb_monitor_hash(const struct ovsdb_monitor *);
bool ovsdb_monitor_same_updates(const struct ovsdb_monitor *,
                                const struct ovsdb_monitor *);

json_t *ovsdb_monitor_get_initial(const struct ovsdb_monitor *);
json_t *ovsdb_monitor_get_changes(const struct ovsdb_monitor *,
                                  const struct ovsdb_txn *);
json_t *ovsdb_monitor_get_changes_since(
    const struct ovsdb_monitor *,
    struct ovsdb_txn_history_entry *const *entries, size_t n_entries);
struct ovsdb_error *ovsdb_monitor_change_conditions(struct ovsdb_monitor *,
                                                    const json_t *requests,
                                                    json_t **updatesp)
    DPS_WARN_UNUSED_RESULT;

#endif /* monitor.h */
