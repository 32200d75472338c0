/* A server of a clustered OVSDB database: the Raft consensus protocol, as
 * Open vSwitch 3.1 speaks it between its ovsdb-servers (ovsdb(7),
 * "Clustered Database Service Model").
 *
 * The state lives in the clustered file (raft-file.h): the header's
 * snapshot, then log entries, terms, votes, leaders and commit indexes.
 * The servers of the cluster listen on their "local addresses" and connect
 * to each other's; each message is a JSON-RPC notification whose method is
 * the message's name ("hello_request", "append_request", "append_reply",
 * "vote_request", "vote_reply", "add_server_request", "add_server_reply",
 * "remove_server_request", "remove_server_reply",
 * "install_snapshot_request", "install_snapshot_reply",
 * "execute_command_request", "execute_command_reply") and whose one
 * parameter is an object with "from", "to" and "cluster" (server and
 * cluster IDs) and the message's own members.
 *
 * The database in memory is always the snapshot plus the committed entries
 * (the applied ones): a transaction is not applied where it executes but
 * proposed as a new entry (raft_propose()), through the leader, and
 * applied on every server when it commits.  One proposal at a time per
 * server.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_RAFT_H
#define OVSDB_RAFT_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"

struct ds;
struct ovsdb;
struct ovsdb_file;
struct ovsdb_log;
struct raft;
struct uuid;

struct ovsdb_error *raft_open(const char *file_name, struct ovsdb_log *,
                              int flags, struct ovsdb **dbp,
                              struct raft **raftp)
    DPS_WARN_UNUSED_RESULT;
void raft_close(struct raft *);
void raft_attach(struct raft *, struct ovsdb *, struct ovsdb_file *);

void raft_run(struct raft *);
void raft_wait(struct raft *);

/* Proposals. */
enum raft_proposal_state {
    RAFT_PROPOSAL_NONE,         /* Nothing proposed. */
    RAFT_PROPOSAL_PENDING,      /* Not committed and applied yet. */
    RAFT_PROPOSAL_DONE,         /* Committed and applied here. */
    RAFT_PROPOSAL_RETRY,        /* Based on an old state: run it again. */
    RAFT_PROPOSAL_FAILED        /* Not committed (see the reason). */
};
bool raft_is_applying(const struct raft *);
struct ovsdb_error *raft_propose(struct raft *, json_t *schema_json,
                                 json_t *txn_json);
enum raft_proposal_state raft_proposal_state(const struct raft *,
                                             const char **reason);
void raft_proposal_clear(struct raft *);
bool raft_proposal_tag(const struct ovsdb_error *);

/* What clients see ("_Server"). */
bool raft_is_leader(const struct raft *);
bool raft_is_connected(const struct raft *);
bool raft_is_joining(const struct raft *);
void raft_get_ids(const struct raft *, struct uuid *cid, struct uuid *sid);
uint64_t raft_get_applied_index(const struct raft *);
uint64_t raft_get_change_seqno(const struct raft *);
struct ovsdb *raft_take_new_db(struct raft *);

/* Operator commands. */
void raft_format_status(const struct raft *, struct ds *);
char *raft_leave(struct raft *);
bool raft_has_left(const struct raft *);
char *raft_kick(struct raft *, const char *server);
char *raft_change_election_timer(struct raft *, uint64_t ms);

struct ovsdb_error *raft_compact(struct raft *, const struct ovsdb *,
                                 const char *comment)
    DPS_WARN_UNUSED_RESULT;

#endif /* raft.h */
