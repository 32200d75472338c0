/* txn-log: see txn-log.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "txn-log.h"

#include "dynamic-string.h"
#include "ovsdb-data.h"
#include "ovsdb.h"
#include "schema.h"
#include "transaction.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(transaction);

static void log_row(const struct ovsdb_txn_row *);

void
ovsdb_txn_log(const struct ovsdb_txn *txn)
{
    const struct ovsdb_txn_row *txr;

    for (txr = ovsdb_txn_first_row(txn); txr; txr = txr->next) {
        if (txr->table->log) {
            log_row(txr);
        }
    }
}

static void
log_row(const struct ovsdb_txn_row *txr)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(60, 120);
    const struct ovsdb_table_schema *ts = txr->table->schema;
    const struct ovsdb_row *row;
    const char *op;

    if (txr->old && txr->new) {
        if (!ovsdb_txn_row_changed(txr, NULL)) {
            return;
        }
        op = "updated";
        row = txr->new;
    } else if (txr->new) {
        op = "inserted";
        row = txr->new;
    } else if (txr->old) {
        op = "deleted";
        row = txr->old;
    } else {
        return;                 /* Inserted and deleted again. */
    }

    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_format(&s, "table:%s,op:%s", ts->name, op);
    for (size_t i = 0; i < ts->n_columns; i++) {
        const struct ovsdb_column *c = ts->columns[ts->ovs_order[i]];

        ds_put_format(&s, ",%s:", c->name);
        ovsdb_datum_to_string(&row->fields[c->index], &c->type, &s);
    }
    VLOG_INFO_RL(&rl, "%s", ds_cstr(&s));
    ds_destroy(&s);
}
