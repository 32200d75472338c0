/* Execution of RFC 7047 "transact" requests against a database.
 *
 * ovsdb_execute() runs the operations of one request in one transaction:
 * insert, select, update, mutate, delete, wait, commit, abort, comment and
 * assert.  The result is the RFC's array, one element per operation: the
 * operation's result, or an error object for the first operation that
 * failed followed by nulls for the operations not run.  If every operation
 * succeeds but the commit fails (a constraint that only the whole
 * transaction can break), the commit's error is appended as an extra
 * element.  Any error rolls the whole transaction back.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_EXECUTION_H
#define OVSDB_EXECUTION_H 1

#include <jansson.h>
#include <stdbool.h>

struct ovsdb;

struct ovsdb_execute_options {
    /* Run the operations, then roll them back instead of committing. */
    bool dry_run;

    /* Refuse the operations that change the database ("insert", "update",
     * "mutate", "delete", "commit"), as Open vSwitch does for a client of
     * a read-only remote: "not allowed". */
    bool read_only;

    /* How long the request has already waited, for "wait" timeouts. */
    long long int elapsed_msec;

    /* Returns true if the client holds lock 'name'; NULL means no client
     * holds any lock ("assert" then always fails). */
    bool (*lock_held)(const char *name, void *aux);
    void *aux;

    /* If nonnull, '*resultsp' points, while the transaction commits (that
     * is, during the database's commit callback), to the results array
     * that ovsdb_execute() will return: a server may send that reply from
     * the callback.  NULL at other times. */
    json_t **resultsp;
};

json_t *ovsdb_execute(struct ovsdb *, const json_t *params,
                      const struct ovsdb_execute_options *,
                      long long int *timeout_msec);

#endif /* execution.h */
