/* txn-log: the transaction log that "ovsdb-server/tlog-set DB:TABLE on"
 * turns on for a table.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_TXN_LOG_H
#define OVSDB_TXN_LOG_H 1

struct ovsdb_txn;

/* Logs, at INFO level in the "transaction" module (rate-limited), each row
 * that committed transaction 'txn' inserted, updated or deleted in a table
 * whose 'log' is set, as Open vSwitch's ovsdb-server does:
 *
 *     table:Bridge,op:inserted,name:br0,...,_uuid:...,_version:...
 *
 * every column, in Open vSwitch's order, in ovs-vsctl's notation; the new
 * row for an insertion or update, the old one for a deletion. */
void ovsdb_txn_log(const struct ovsdb_txn *);

#endif /* txn-log.h */
