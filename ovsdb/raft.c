/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "raft.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "file.h"
#include "jsonrpc.h"
#include "log.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "ovsdb.h"
#include "poll-loop.h"
#include "raft-file.h"
#include "schema.h"
#include "stream.h"
#include "timeval.h"
#include "transaction.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(raft);

/* The tag of the error that says a transaction was proposed. */
static const char proposal_tag[] = "cluster proposal";

/* Most entries one append_request carries. */
#define MAX_ENTRIES_PER_APPEND 64

enum raft_role { RAFT_FOLLOWER, RAFT_CANDIDATE, RAFT_LEADER };

struct raft_entry {
    uint64_t term;
    json_t *data;               /* <cluster-txn>, or NULL. */
    struct uuid eid;            /* If 'data'. */
    json_t *servers;            /* A new configuration, or NULL. */
    uint64_t election_timer;    /* A new election timer, or 0. */
};

/* A server of the configuration, or one being added, as the leader sees
 * it. */
struct raft_server {
    struct uuid sid;
    char *address;
    uint64_t next_index;        /* Next entry to send it. */
    uint64_t match_index;       /* Last entry known to be in its log. */
    long long int last_msg;     /* When we last heard from it (0 never). */
    bool voted;                 /* Voted for us in this election. */
};

/* A connection to another server: outgoing to an address (that we keep
 * reconnecting), or incoming. */
struct raft_conn {
    struct jsonrpc_session *js;
    struct uuid sid;            /* All-zeros until known. */
    char *address;              /* Outgoing: where to; else NULL. */
    unsigned int seqno;         /* Of 'js', at the last hello. */
};

/* A server's own transaction, proposed as an entry. */
struct raft_proposal {
    enum raft_proposal_state state;
    struct uuid eid;
    uint64_t index;             /* Leader: the entry's index; else 0. */
    struct uuid leader;         /* Follower: whom it was sent to. */
    long long int deadline;     /* Follower: give up unanswered then. */
    bool replied;               /* Follower: the leader has answered. */
    const char *reason;         /* RAFT_PROPOSAL_FAILED. */
};

/* A follower's execute_command_request that the leader appended. */
struct raft_waiter {
    struct uuid sid;            /* Who asked. */
    struct uuid eid;
    uint64_t index;
};

struct raft {
    char *file_name;
    struct ovsdb_log *log;      /* Not owned (the file's). */
    struct raft_file_header h;  /* As last written; the snapshot. */

    /* Persistent state. */
    uint64_t term;
    struct uuid vote;           /* All-zeros if none in 'term'. */
    struct raft_entry *entries; /* Index h.prev_index + 1 + i. */
    size_t n_entries, allocated_entries;

    /* Volatile state. */
    enum raft_role role;
    struct uuid leader;         /* All-zeros if unknown. */
    uint64_t commit_index;
    uint64_t applied;           /* Last entry applied to 'db'. */
    struct uuid applied_eid;    /* Of the last applied entry with data. */
    json_t *servers;            /* The latest configuration. */
    struct raft_server *peers;  /* Those of 'servers', but us. */
    size_t n_peers;
    struct raft_server *adding; /* Leader: a server joining, or NULL. */
    uint64_t adding_index;      /* Its configuration entry, 0 if none. */
    long long int adding_started;
    uint64_t election_timer;    /* ms. */
    long long int election_deadline;
    long long int ping_deadline; /* Leader: next heartbeat. */
    long long int last_leader_msg;
    long long int election_started, election_won;
    uint64_t leader_next_index; /* The log's end when we became leader. */
    const char *election_reason;
    size_t n_votes;

    /* Joining: the servers to ask, and when to ask again. */
    bool joining;
    long long int join_deadline;
    bool leaving, left;
    struct uuid leave_to;       /* Leaving: the leader asked. */
    long long int leave_deadline;

    /* Connections. */
    struct pstream *listener;
    long long int listen_retry;
    struct raft_conn **conns;
    size_t n_conns;
    unsigned int n_disconnections;

    /* The database. */
    struct ovsdb *db;
    struct ovsdb_file *file;
    struct ovsdb *new_db;       /* Replaces 'db' (a snapshot, a schema). */
    bool applying;
    struct raft_proposal proposal;
    struct raft_waiter *waiters;
    size_t n_waiters;
    uint64_t change_seqno;
};

static struct ovsdb_error *apply_cluster_txn(struct raft *, struct ovsdb **,
                                             const struct uuid *eid,
                                             const json_t *data);
static void raft_entry_destroy(struct raft_entry *);
static uint64_t log_start(const struct raft *);
static uint64_t log_end(const struct raft *);
static uint64_t entry_term(const struct raft *, uint64_t index);
static const struct raft_entry *get_entry(const struct raft *, uint64_t);
static struct ovsdb_error *write_record(struct raft *,
                                        const struct raft_file_record *);
static void write_and_sync(struct raft *, struct raft_file_record *);
static void append_entry(struct raft *, uint64_t term, json_t *data,
                         const struct uuid *eid, json_t *servers,
                         uint64_t election_timer);
static void set_term(struct raft *, uint64_t term, const struct uuid *vote);
static void update_config(struct raft *);
static void become_leader(struct raft *);
static void become_follower(struct raft *);
static void start_election(struct raft *, const char *reason);
static void reset_election_timer(struct raft *);
static void send_appends(struct raft *, struct raft_server *,
                         const char *comment);
static void advance_commit(struct raft *);
static void apply_committed(struct raft *);
static void handle_msg(struct raft *, struct raft_conn *,
                       const struct jsonrpc_msg *);
static void send_msg(struct raft *, const struct uuid *to,
                     const char *method, json_t *args);
static void send_on(struct raft *, struct raft_conn *, const struct uuid *to,
                    const char *method, json_t *args);
static char *nickname(const struct raft *, const struct uuid *sid);
static const char *server_address(const struct raft *, const struct uuid *);
static bool address_nickname(const char *address, char *b, size_t size);

/* A server as cluster/status lists it. */
struct status_server {
    struct uuid sid;
    const char *key;
    json_t *value;
    size_t rank;                /* In the configuration. */
    uint32_t bucket;
};
static void status_order(struct status_server *, size_t n);
static int compare_status_servers(const void *, const void *);

static bool is_self(const struct raft *raft, const struct uuid *sid);
static void transfer_leadership(struct raft *raft);
static void write_entry(struct raft *raft, uint64_t index);
static bool in_config(const struct raft *raft, const struct uuid *sid);
static struct raft_server *find_peer(struct raft *raft,
                                     const struct uuid *sid);
static void send_heartbeats(struct raft *raft);
static void remove_from_config(struct raft *raft, const struct uuid *sid);
static void run_listener(struct raft *raft);
static void run_conns(struct raft *raft);

/* ------------------------------------------------------------------------
 * Opening and closing.
 * ------------------------------------------------------------------------ */

/* Reads the clustered 'log' of 'file_name' (positioned at its start) into a
 * new '*dbp': the header's snapshot and the committed entries.  Without
 * OVSDB_FILE_READ_ONLY in 'flags' also returns, in '*raftp', the server
 * that keeps 'log' (which it does not close) and starts serving. */
struct ovsdb_error *
raft_open(const char *file_name, struct ovsdb_log *log, int flags,
          struct ovsdb **dbp, struct raft **raftp)
{
    struct raft *raft = xzalloc(sizeof *raft);
    struct ovsdb_error *error;
    uint64_t last_commit = 0;
    json_t *json;

    *dbp = NULL;
    *raftp = NULL;
    raft->file_name = xstrdup(file_name);
    raft->log = log;
    error = ovsdb_log_read(log, &json);
    if (!error && !json) {
        error = ovsdb_io_error(EOF, "%s: unexpected end of file", file_name);
    } else if (!error) {
        error = raft_file_header_from_json(json, &raft->h);
        json_decref(json);
    }
    if (error) {
        goto fail;
    }
    raft->election_timer = (raft->h.prev_election_timer
                            ? raft->h.prev_election_timer
                            : RAFT_FILE_ELECTION_TIMER_DEFAULT);
    if (raft->h.joining) {
        json_t *schema_json = json_pack("{s:s, s:{}}", "name", raft->h.name,
                                        "tables");
        struct ovsdb_schema *schema;

        error = ovsdb_schema_from_json(schema_json, &schema);
        json_decref(schema_json);
        if (error) {
            goto fail;
        }
        *dbp = ovsdb_create(schema);
        ovsdb_txn_history_init(*dbp, true);
        raft->joining = true;
        raft->servers = json_object();
    } else {
        raft->servers = json_incref(raft->h.prev_servers);
        raft->commit_index = raft->applied = raft->h.prev_index;
        raft->applied_eid = raft->h.prev_eid;
        error = apply_cluster_txn(raft, dbp, &raft->h.prev_eid,
                                  raft->h.prev_data);
        if (error) {
            goto fail;
        }
    }

    for (;;) {
        struct raft_file_record r;

        error = ovsdb_log_read(log, &json);
        if (error) {
            if (flags & OVSDB_FILE_TRUNCATE_TAIL
                && !(flags & OVSDB_FILE_READ_ONLY)) {
                char *s = ovsdb_error_to_string(error);
                off_t n;

                ovsdb_error_destroy(error);
                error = ovsdb_log_truncate_tail(log, &n);
                if (!error) {
                    VLOG_WARN("%s: kept %zu good records, truncated %lld "
                              "bytes of torn or corrupt data after them (%s)",
                              file_name, ovsdb_log_get_n_records(log),
                              (long long) n, s);
                }
                free(s);
            }
            if (error) {
                goto fail;
            }
            break;
        } else if (!json) {
            break;
        }
        error = raft_file_record_from_json(json, &r);
        json_decref(json);
        if (error) {
            raft_file_record_destroy(&r);
            goto fail;
        }
        if (r.type != RAFT_FILE_COMMIT_INDEX && r.type != RAFT_FILE_NOTE
            && r.term > raft->term) {
            raft->term = r.term;
            uuid_zero(&raft->vote);
        }
        switch (r.type) {
        case RAFT_FILE_COMMIT_INDEX:
            last_commit = MAX(last_commit, r.commit_index);
            break;
        case RAFT_FILE_VOTE:
            if (r.term == raft->term) {
                raft->vote = r.sid;
            }
            break;
        case RAFT_FILE_NOTE:
            if (!strcmp(r.note, "left")) {
                raft->left = true;
            }
            break;
        case RAFT_FILE_ENTRY: {
            uint64_t index = r.entry.index;

            if (index < log_start(raft) || index > log_end(raft)) {
                error = ovsdb_error("ovsdb error", "%s: log entry %"PRIu64
                                    " does not follow entry %"PRIu64,
                                    file_name, index, log_end(raft) - 1);
                raft_file_record_destroy(&r);
                goto fail;
            }
            while (log_end(raft) > index) {
                raft_entry_destroy(&raft->entries[--raft->n_entries]);
            }
            append_entry(raft, r.term, r.entry.data, &r.entry.eid,
                         r.entry.servers, r.entry.election_timer);
            break;
        }
        case RAFT_FILE_TERM:
        case RAFT_FILE_LEADER:
            break;
        }
        raft_file_record_destroy(&r);
    }
    update_config(raft);

    /* A server alone in its cluster knows that all it has is committed. */
    if (json_object_size(raft->servers) == 1 && raft->n_peers == 0
        && !raft->joining) {
        last_commit = log_end(raft) - 1;
    }
    raft->commit_index = MAX(raft->commit_index,
                             MIN(last_commit, log_end(raft) - 1));
    raft->db = *dbp;
    raft->applying = true;
    apply_committed(raft);
    raft->applying = false;
    if (raft->new_db) {
        *dbp = raft->new_db;
        raft->new_db = NULL;
        raft->db = *dbp;
    }
    if (flags & OVSDB_FILE_READ_ONLY) {
        raft->log = NULL;
        raft_close(raft);
        return NULL;
    }

    raft->role = RAFT_FOLLOWER;
    raft->election_started = raft->election_won = 0;
    reset_election_timer(raft);
    if (!raft->joining && raft->n_peers == 0 && !raft->left) {
        /* The only server: elected at once, as Open vSwitch does. */
        start_election(raft, "timeout");
    }
    raft->join_deadline = time_msec();
    *raftp = raft;
    return NULL;

fail:
    raft->log = NULL;
    if (*dbp) {
        ovsdb_destroy(*dbp);
        *dbp = NULL;
    }
    raft_close(raft);
    return error;
}

/* Frees 'raft' (which may be NULL) and closes its connections. */
void
raft_close(struct raft *raft)
{
    size_t i;

    if (!raft) {
        return;
    }
    if (raft->role == RAFT_LEADER && raft->log) {
        transfer_leadership(raft);
    }
    for (i = 0; i < raft->n_conns; i++) {
        jsonrpc_session_close(raft->conns[i]->js);
        free(raft->conns[i]->address);
        free(raft->conns[i]);
    }
    free(raft->conns);
    pstream_close(raft->listener);
    for (i = 0; i < raft->n_entries; i++) {
        raft_entry_destroy(&raft->entries[i]);
    }
    free(raft->entries);
    for (i = 0; i < raft->n_peers; i++) {
        free(raft->peers[i].address);
    }
    free(raft->peers);
    if (raft->adding) {
        free(raft->adding->address);
        free(raft->adding);
    }
    free(raft->waiters);
    json_decref(raft->servers);
    raft_file_header_destroy(&raft->h);
    if (raft->new_db) {
        raft->new_db->file = NULL;
        ovsdb_destroy(raft->new_db);
    }
    free(raft->file_name);
    free(raft);
}

/* Makes 'db', stored in 'file', the database that 'raft' applies committed
 * entries to. */
void
raft_attach(struct raft *raft, struct ovsdb *db, struct ovsdb_file *file)
{
    raft->db = db;
    raft->file = file;
}

/* ------------------------------------------------------------------------
 * Running.
 * ------------------------------------------------------------------------ */

void
raft_run(struct raft *raft)
{
    long long int now;

    run_listener(raft);
    run_conns(raft);
    apply_committed(raft);
    now = time_msec();
    if (raft->left) {
        return;
    }
    if (raft->joining) {
        if (now >= raft->join_deadline) {
            size_t i;

            for (i = 0; i < raft->n_conns; i++) {
                struct raft_conn *c = raft->conns[i];

                if (c->address && jsonrpc_session_is_connected(c->js)) {
                    json_t *args = json_object();

                    json_object_set_new(args, "address",
                                        json_string(raft->h.local_address));
                    send_on(raft, c, NULL, "add_server_request", args);
                }
            }
            raft->join_deadline = now + raft->election_timer;
        }
        return;
    }
    if (raft->role == RAFT_LEADER) {
        if (raft->adding && !raft->adding_index
            && now >= (MAX(raft->adding->last_msg, raft->adding_started)
                       + 10 * (long long int) raft->election_timer)) {
            /* The server being added went quiet before it caught up:
             * give up, so that others may join (it will ask again). */
            VLOG_INFO("adding server %s (%s) timed out",
                      nickname(raft, &raft->adding->sid),
                      raft->adding->address);
            free(raft->adding->address);
            free(raft->adding);
            raft->adding = NULL;
        }
        if (now >= raft->ping_deadline) {
            send_heartbeats(raft);
        }
        if (!in_config(raft, &raft->h.sid)
            && raft->commit_index >= log_end(raft) - 1) {
            /* Removed from the configuration (kicked, or left). */
            become_follower(raft);
        }
    } else if (now >= raft->election_deadline) {
        start_election(raft, "timeout");
    }
    if (raft->leaving && !raft->left && now >= raft->leave_deadline) {
        json_t *args = json_object();

        raft_file_put_uuid(args, "server_id", &raft->h.sid);
        if (raft->role == RAFT_LEADER) {
            remove_from_config(raft, &raft->h.sid);
            json_decref(args);
        } else if (!uuid_is_zero(&raft->leader)) {
            send_msg(raft, &raft->leader, "remove_server_request", args);
        } else {
            json_decref(args);
        }
        raft->leave_deadline = now + raft->election_timer;
    }
    if (raft->leaving && !in_config(raft, &raft->h.sid)
        && raft->commit_index >= log_end(raft) - 1) {
        raft->left = true;
    }
    if (raft->proposal.state == RAFT_PROPOSAL_PENDING
        && !raft->proposal.index && !raft->proposal.replied
        && !uuid_equals(&raft->leader, &raft->proposal.leader)) {
        raft->proposal.state = RAFT_PROPOSAL_FAILED;
        raft->proposal.reason = "lost leadership";
    }
    if (raft->proposal.state == RAFT_PROPOSAL_PENDING
        && !raft->proposal.index && !raft->proposal.replied
        && now >= raft->proposal.deadline) {
        /* The request or its answer was lost (Raft sends them once). */
        raft->proposal.state = RAFT_PROPOSAL_FAILED;
        raft->proposal.reason = "timeout";
    }
    apply_committed(raft);
}

void
raft_wait(struct raft *raft)
{
    size_t i;

    if (raft->listener) {
        pstream_wait(raft->listener);
    } else {
        poll_timer_wait_until(raft->listen_retry);
    }
    for (i = 0; i < raft->n_conns; i++) {
        jsonrpc_session_wait(raft->conns[i]->js);
        jsonrpc_session_recv_wait(raft->conns[i]->js);
    }
    if (raft->left) {
        return;
    }
    if (raft->joining) {
        poll_timer_wait_until(raft->join_deadline);
    } else if (raft->role == RAFT_LEADER) {
        poll_timer_wait_until(raft->ping_deadline);
    } else {
        poll_timer_wait_until(raft->election_deadline);
    }
    if (raft->leaving) {
        poll_timer_wait_until(raft->leave_deadline);
    }
    if (raft->proposal.state == RAFT_PROPOSAL_PENDING
        && !raft->proposal.index && !raft->proposal.replied) {
        poll_timer_wait_until(raft->proposal.deadline);
    }
}

/* ------------------------------------------------------------------------
 * Proposals.
 * ------------------------------------------------------------------------ */

/* True while 'raft' applies a committed entry to its database (whose
 * commit must not propose it again). */
bool
raft_is_applying(const struct raft *raft)
{
    return raft->applying;
}

/* Proposes transaction record 'txn_json' (taken) as a new entry, with
 * 'schema_json' (taken; NULL for none) for a schema change: then
 * 'txn_json' has every row of the converted database, and each server
 * replaces its database when the entry commits (raft_take_new_db()), as
 * an Open vSwitch cluster does for "convert".  Returns an error whose tag
 * raft_proposal_tag() recognizes if it was proposed (the transaction must
 * not commit here now: it is applied when the entry commits), or another
 * error. */
struct ovsdb_error *
raft_propose(struct raft *raft, json_t *schema_json, json_t *txn_json)
{
    struct raft_proposal *p = &raft->proposal;
    json_t *data = ovsdb_json_pair(schema_json ? schema_json : json_null(),
                                   txn_json);
    const char *problem = NULL;

    if (raft->joining || raft->left || raft->leaving) {
        problem = "not a cluster member";
    } else if (p->state == RAFT_PROPOSAL_PENDING) {
        problem = "another transaction is in progress";
    } else if (raft->role != RAFT_LEADER && uuid_is_zero(&raft->leader)) {
        problem = "not leader";
    }
    if (problem) {
        json_decref(data);
        return ovsdb_error("cluster error", "%s", problem);
    }
    memset(p, 0, sizeof *p);
    p->state = RAFT_PROPOSAL_PENDING;
    uuid_generate(&p->eid);
    if (raft->role == RAFT_LEADER) {
        size_t i;

        append_entry(raft, raft->term, data, &p->eid, NULL, 0);
        p->index = log_end(raft) - 1;
        write_entry(raft, p->index);
        advance_commit(raft);
        for (i = 0; i < raft->n_peers; i++) {
            send_appends(raft, &raft->peers[i], "execute command");
        }
    } else {
        json_t *args = json_object();

        p->leader = raft->leader;
        p->deadline = time_msec() + 5 * raft->election_timer;
        json_object_set(args, "data", data);
        raft_file_put_uuid(args, "prereq", &raft->applied_eid);
        raft_file_put_uuid(args, "result", &p->eid);
        send_msg(raft, &raft->leader, "execute_command_request", args);
    }
    json_decref(data);
    return ovsdb_error(proposal_tag, "proposed to the cluster");
}

enum raft_proposal_state
raft_proposal_state(const struct raft *raft, const char **reason)
{
    if (reason) {
        *reason = raft->proposal.reason;
    }
    return raft->proposal.state;
}

void
raft_proposal_clear(struct raft *raft)
{
    memset(&raft->proposal, 0, sizeof raft->proposal);
}

bool
raft_proposal_tag(const struct ovsdb_error *error)
{
    return !strcmp(ovsdb_error_get_tag(error), proposal_tag);
}

/* ------------------------------------------------------------------------
 * Status.
 * ------------------------------------------------------------------------ */

bool
raft_is_leader(const struct raft *raft)
{
    return raft->role == RAFT_LEADER && !raft->left;
}

/* Connected to the cluster, as "_Server" says: a member that knows a
 * leader (or is it). */
bool
raft_is_connected(const struct raft *raft)
{
    return (!raft->joining && !raft->left && !raft->leaving
            && raft->role != RAFT_CANDIDATE && !uuid_is_zero(&raft->leader));
}

bool
raft_is_joining(const struct raft *raft)
{
    return raft->joining;
}

void
raft_get_ids(const struct raft *raft, struct uuid *cid, struct uuid *sid)
{
    *cid = raft->h.cid;
    *sid = raft->h.sid;
}

uint64_t
raft_get_applied_index(const struct raft *raft)
{
    return raft->applied;
}

uint64_t
raft_get_change_seqno(const struct raft *raft)
{
    return raft->change_seqno;
}

/* Returns the database that replaces the one attached (a snapshot or a
 * conversion), or NULL; the caller serves it and calls raft_attach(). */
struct ovsdb *
raft_take_new_db(struct raft *raft)
{
    struct ovsdb *db = raft->new_db;

    raft->new_db = NULL;
    return db;
}

/* cluster/status, in Open vSwitch 3.1's layout. */
void
raft_format_status(const struct raft *raft, struct ds *ds)
{
    static const char *const roles[] = { "follower", "candidate", "leader" };
    char cid[UUID_LEN + 1], sid[UUID_LEN + 1];
    long long int now = time_msec();
    struct status_server *order;
    const char *key;
    json_t *value;
    size_t i, n;

    uuid_to_string(&raft->h.cid, cid);
    uuid_to_string(&raft->h.sid, sid);
    ds_put_format(ds, "%s\n", nickname(raft, &raft->h.sid));
    ds_put_format(ds, "Name: %s\n", raft->h.name);
    if (uuid_is_zero(&raft->h.cid)) {
        ds_put_cstr(ds, "Cluster ID: not yet known\n");
    } else {
        ds_put_format(ds, "Cluster ID: %.4s (%s)\n", cid, cid);
    }
    ds_put_format(ds, "Server ID: %.4s (%s)\n", sid, sid);
    ds_put_format(ds, "Address: %s\n", raft->h.local_address);
    ds_put_format(ds, "Status: %s\n",
                  raft->joining ? "joining cluster"
                  : raft->left ? "left cluster"
                  : raft->leaving ? "leaving cluster"
                  : "cluster member");
    if (raft->joining) {
        ds_put_cstr(ds, "Remotes for joining:");
        for (i = 0; i < raft->h.n_remote_addresses; i++) {
            ds_put_format(ds, " %s", raft->h.remote_addresses[i]);
        }
        ds_put_char(ds, '\n');
    }
    ds_put_format(ds, "Role: %s\n", roles[raft->role]);
    ds_put_format(ds, "Term: %"PRIu64"\n", raft->term);
    ds_put_format(ds, "Leader: %s\n",
                  uuid_is_zero(&raft->leader) ? "unknown"
                  : is_self(raft, &raft->leader) ? "self"
                  : nickname(raft, &raft->leader));
    ds_put_format(ds, "Vote: %s\n\n",
                  uuid_is_zero(&raft->vote) ? "unknown"
                  : is_self(raft, &raft->vote) ? "self"
                  : nickname(raft, &raft->vote));
    if (raft->election_started) {
        ds_put_format(ds, "Last Election started %lld ms ago, reason: %s\n",
                      now - raft->election_started, raft->election_reason);
    }
    if (raft->election_won) {
        ds_put_format(ds, "Last Election won: %lld ms ago\n",
                      now - raft->election_won);
    }
    ds_put_format(ds, "Election timer: %"PRIu64"\n", raft->election_timer);
    ds_put_format(ds, "Log: [%"PRIu64", %"PRIu64"]\n", log_start(raft),
                  log_end(raft));
    ds_put_format(ds, "Entries not yet committed: %"PRIu64"\n",
                  log_end(raft) - 1 - raft->commit_index);
    ds_put_format(ds, "Entries not yet applied: %"PRIu64"\n",
                  log_end(raft) - 1 - raft->applied);
    ds_put_cstr(ds, "Connections:");
    for (i = 0; i < raft->n_conns; i++) {
        const struct raft_conn *c = raft->conns[i];
        char name[64];

        if (!uuid_is_zero(&c->sid)) {
            snprintf(name, sizeof name, "%s", nickname(raft, &c->sid));
        } else if (!c->address) {
            continue;
        } else if (!address_nickname(c->address, name, sizeof name)) {
            snprintf(name, sizeof name, "%s", c->address);
        }
        ds_put_format(ds, " %s%s%s%s",
                      jsonrpc_session_is_connected(c->js) ? "" : "(",
                      c->address ? "->" : "<-", name,
                      jsonrpc_session_is_connected(c->js) ? "" : ")");
    }
    ds_put_format(ds, "\nDisconnections: %u\n", raft->n_disconnections);
    ds_put_cstr(ds, "Servers:\n");
    n = 0;
    order = xmalloc((json_object_size(raft->servers) + 1) * sizeof *order);
    json_object_foreach (raft->servers, key, value) {
        if (uuid_from_string(&order[n].sid, key)) {
            order[n].key = key;
            order[n].value = value;
            order[n].rank = n;
            n++;
        }
    }
    status_order(order, n);
    for (i = 0; i < n; i++) {
        const struct uuid s = order[i].sid;

        key = order[i].key;
        value = order[i].value;
        ds_put_format(ds, "    %s (%.4s at %s)", nickname(raft, &s), key,
                      json_string_value(value));
        if (is_self(raft, &s)) {
            ds_put_cstr(ds, " (self)");
        }
        if (raft->role == RAFT_LEADER) {
            const struct raft_server *p = find_peer((struct raft *) raft, &s);

            if (p) {
                ds_put_format(ds, " next_index=%"PRIu64" match_index=%"PRIu64,
                              p->next_index, p->match_index);
            } else {
                ds_put_format(ds, " next_index=%"PRIu64" match_index=%"PRIu64,
                              raft->leader_next_index, log_end(raft) - 1);
            }
        }
        if (!is_self(raft, &s)) {
            const struct raft_server *p = find_peer((struct raft *) raft, &s);

            if (p && p->last_msg) {
                ds_put_format(ds, " last msg %lld ms ago",
                              now - p->last_msg);
            }
        }
        ds_put_char(ds, '\n');
    }
    free(order);
}

/* ------------------------------------------------------------------------
 * Operator commands.
 * ------------------------------------------------------------------------ */

/* cluster/leave: asks the leader to remove this server.  Returns an error
 * message, or NULL. */
char *
raft_leave(struct raft *raft)
{
    if (raft->joining) {
        return xstrdup("can't leave while join in progress");
    } else if (raft->leaving || raft->left) {
        return xstrdup("already in progress");
    }
    raft->leaving = true;
    raft->leave_deadline = time_msec();
    raft->change_seqno++;
    return NULL;
}

bool
raft_has_left(const struct raft *raft)
{
    return raft->left;
}

/* cluster/kick: removes 'server' (an ID, its 4-digit prefix, or a
 * nickname) through the leader. */
char *
raft_kick(struct raft *raft, const char *server)
{
    const char *key;
    json_t *value, *args;
    struct uuid sid;
    bool found = false;

    json_object_foreach (raft->servers, key, value) {
        struct uuid s;

        if (uuid_from_string(&s, key)
            && (!strcmp(key, server)
                || (strlen(server) >= 4 && !strncmp(key, server,
                                                    strlen(server)))
                || !strcmp(nickname(raft, &s), server))) {
            sid = s;
            found = true;
            break;
        }
    }
    if (!found) {
        return xasprintf("unknown server %s", server);
    }
    if (raft->role == RAFT_LEADER) {
        remove_from_config(raft, &sid);
    } else if (!uuid_is_zero(&raft->leader)) {
        args = json_object();
        raft_file_put_uuid(args, "server_id", &sid);
        send_msg(raft, &raft->leader, "remove_server_request", args);
    } else {
        return xstrdup("no leader");
    }
    return NULL;
}

/* cluster/change-election-timer: on the leader, appends an entry with the
 * new timer (at most doubling it at a time, as Open vSwitch allows). */
char *
raft_change_election_timer(struct raft *raft, uint64_t ms)
{
    size_t i;

    if (raft->role != RAFT_LEADER) {
        return xstrdup("election timer must be changed through leader.");
    } else if (ms < RAFT_FILE_ELECTION_TIMER_MIN
               || ms > RAFT_FILE_ELECTION_TIMER_MAX) {
        return xasprintf("election timer must be between %d and %d, in "
                         "msec.", RAFT_FILE_ELECTION_TIMER_MIN,
                         RAFT_FILE_ELECTION_TIMER_MAX);
    } else if (ms > raft->election_timer * 2) {
        return xasprintf("election timer increase should not exceed the "
                         "current value x 2.");
    }
    append_entry(raft, raft->term, NULL, NULL, NULL, ms);
    raft->election_timer = ms;
    write_entry(raft, log_end(raft) - 1);
    advance_commit(raft);
    for (i = 0; i < raft->n_peers; i++) {
        send_appends(raft, &raft->peers[i], "execute command");
    }
    return NULL;
}

/* Rewrites the file as a header whose snapshot is 'db' (the applied
 * state), then the entries after it, this term and vote. */
struct ovsdb_error *
raft_compact(struct raft *raft, const struct ovsdb *db, const char *comment)
{
    struct raft_file_header h = raft->h;
    struct raft_file_record r;
    uint64_t index = raft->applied, i;
    struct ovsdb_error *error;
    json_t **records, *txn;
    size_t n = 0, keep;

    if (raft->joining || index < log_start(raft)) {
        return NULL;
    }
    txn = ovsdb_file_snapshot_to_json(db, comment);
    if (!txn) {
        txn = json_object();
    }
    json_object_set_new(txn, "_is_diff", json_true());
    h.prev_index = index;
    h.prev_term = entry_term(raft, index);
    h.prev_eid = raft->applied_eid;
    /* The configuration and timer as of 'index'. */
    h.prev_servers = raft->h.prev_servers;
    h.prev_election_timer = raft->h.prev_election_timer;
    for (i = log_start(raft); i <= index; i++) {
        const struct raft_entry *e = get_entry(raft, i);

        if (e->servers) {
            h.prev_servers = e->servers;
        }
        if (e->election_timer) {
            h.prev_election_timer = e->election_timer;
        }
    }
    h.prev_data = ovsdb_json_pair(ovsdb_schema_to_json(db->schema), txn);

    records = xmalloc((log_end(raft) - index + 2) * sizeof *records);
    records[n++] = raft_file_header_to_json(&h);
    memset(&r, 0, sizeof r);
    r.term = raft->term;
    r.type = RAFT_FILE_TERM;
    if (!uuid_is_zero(&raft->vote)) {
        r.type = RAFT_FILE_VOTE;
        r.sid = raft->vote;
    }
    records[n++] = raft_file_record_to_json(&r);
    for (i = index + 1; i < log_end(raft); i++) {
        const struct raft_entry *e = get_entry(raft, i);

        memset(&r, 0, sizeof r);
        r.type = RAFT_FILE_ENTRY;
        r.term = e->term;
        r.entry.index = i;
        r.entry.data = e->data;
        r.entry.eid = e->eid;
        r.entry.servers = e->servers;
        r.entry.election_timer = e->election_timer;
        records[n++] = raft_file_record_to_json(&r);
    }
    error = ovsdb_log_replace(raft->log, records, n);
    for (i = 0; i < n; i++) {
        json_decref(records[i]);
    }
    free(records);
    if (error) {
        json_decref(h.prev_data);
        return error;
    }
    keep = log_end(raft) - (index + 1);
    json_incref(h.prev_servers);
    json_decref(raft->h.prev_servers);
    json_decref(raft->h.prev_data);
    raft->h.prev_index = h.prev_index;
    raft->h.prev_term = h.prev_term;
    raft->h.prev_eid = h.prev_eid;
    raft->h.prev_servers = h.prev_servers;
    raft->h.prev_election_timer = h.prev_election_timer;
    raft->h.prev_data = h.prev_data;
    for (i = 0; i < raft->n_entries - keep; i++) {
        raft_entry_destroy(&raft->entries[i]);
    }
    memmove(raft->entries, &raft->entries[raft->n_entries - keep],
            keep * sizeof *raft->entries);
    raft->n_entries = keep;
    return NULL;
}

static uint64_t
get_u64(const json_t *o, const char *name)
{
    const json_t *v = json_object_get(o, name);

    return json_is_integer(v) ? (uint64_t) json_integer_value(v) : 0;
}

static bool
get_uuid(const json_t *o, const char *name, struct uuid *u)
{
    const json_t *v = json_object_get(o, name);

    if (!json_is_string(v) || !uuid_from_string(u, json_string_value(v))) {
        uuid_zero(u);
        return false;
    }
    return true;
}

static bool
is_self(const struct raft *raft, const struct uuid *sid)
{
    return uuid_equals(sid, &raft->h.sid);
}

/* A leader that shuts down hands over to the most up-to-date follower it
 * is connected to, as Open vSwitch's does ("become_leader"), and gives the
 * message a moment to leave. */
static void
transfer_leadership(struct raft *raft)
{
    struct raft_server *best = NULL;
    struct raft_conn *conn = NULL;
    long long int deadline;
    json_t *args;
    size_t i, j;

    for (i = 0; i < raft->n_peers; i++) {
        struct raft_server *p = &raft->peers[i];

        for (j = 0; j < raft->n_conns; j++) {
            struct raft_conn *c = raft->conns[j];

            if (uuid_equals(&c->sid, &p->sid)
                && jsonrpc_session_is_connected(c->js)
                && (!best || p->match_index > best->match_index)) {
                best = p;
                conn = c;
            }
        }
    }
    if (!best) {
        return;
    }
    args = json_object();
    json_object_set_new(args, "comment",
                        json_string("this server is shutting down"));
    raft_file_put_uint64(args, "term", raft->term);
    send_on(raft, conn, &best->sid, "become_leader", args);
    deadline = time_msec() + 100;
    while (jsonrpc_session_get_backlog(conn->js)
           && jsonrpc_session_is_connected(conn->js)
           && time_msec() < deadline) {
        jsonrpc_session_run(conn->js);
        jsonrpc_session_wait(conn->js);
        poll_timer_wait_until(deadline);
        poll_block();
    }
}

/* ------------------------------------------------------------------------
 * The log.
 * ------------------------------------------------------------------------ */

static uint64_t
log_start(const struct raft *raft)
{
    return raft->h.prev_index + 1;
}

static uint64_t
log_end(const struct raft *raft)
{
    return log_start(raft) + raft->n_entries;
}

static const struct raft_entry *
get_entry(const struct raft *raft, uint64_t index)
{
    return (index >= log_start(raft) && index < log_end(raft)
            ? &raft->entries[index - log_start(raft)] : NULL);
}

/* The term of entry 'index', the snapshot's for the one just before the
 * log, 0 if unknown. */
static uint64_t
entry_term(const struct raft *raft, uint64_t index)
{
    const struct raft_entry *e = get_entry(raft, index);

    return e ? e->term : index == raft->h.prev_index ? raft->h.prev_term : 0;
}

static void
raft_entry_destroy(struct raft_entry *e)
{
    json_decref(e->data);
    json_decref(e->servers);
}

/* Appends an entry to the log in memory (taking new references). */
static void
append_entry(struct raft *raft, uint64_t term, json_t *data,
             const struct uuid *eid, json_t *servers, uint64_t timer)
{
    struct raft_entry *e;

    if (raft->n_entries >= raft->allocated_entries) {
        raft->allocated_entries = 2 * raft->allocated_entries + 16;
        raft->entries = xrealloc(raft->entries, (raft->allocated_entries
                                                 * sizeof *raft->entries));
    }
    e = &raft->entries[raft->n_entries++];
    memset(e, 0, sizeof *e);
    e->term = term;
    e->data = data ? json_incref(data) : NULL;
    if (data && eid) {
        e->eid = *eid;
    }
    e->servers = servers ? json_incref(servers) : NULL;
    e->election_timer = timer;
    if (servers) {
        update_config(raft);
    }
}

static struct ovsdb_error *
write_record(struct raft *raft, const struct raft_file_record *r)
{
    json_t *json = raft_file_record_to_json(r);
    struct ovsdb_error *error = ovsdb_log_write(raft->log, json);

    json_decref(json);
    return error;
}

/* Writes 'r' and syncs the file: Raft promises nothing that is not on
 * disk.  A server that cannot write its log cannot go on. */
static void
write_and_sync(struct raft *raft, struct raft_file_record *r)
{
    struct ovsdb_error *error = write_record(raft, r);

    if (!error) {
        error = ovsdb_log_commit_block(raft->log);
    }
    if (error) {
        char *s = ovsdb_error_to_string(error);

        util_fatal(0, "%s: writing the log failed (%s)", raft->file_name, s);
    }
}

static void
write_entry(struct raft *raft, uint64_t index)
{
    const struct raft_entry *e = get_entry(raft, index);
    struct raft_file_record r;

    memset(&r, 0, sizeof r);
    r.type = RAFT_FILE_ENTRY;
    r.term = e->term;
    r.entry.index = index;
    r.entry.data = e->data;
    r.entry.eid = e->eid;
    r.entry.servers = e->servers;
    r.entry.election_timer = e->election_timer;
    write_and_sync(raft, &r);
}

static void
write_commit_index(struct raft *raft)
{
    struct raft_file_record r;

    memset(&r, 0, sizeof r);
    r.type = RAFT_FILE_COMMIT_INDEX;
    r.commit_index = raft->commit_index;
    write_and_sync(raft, &r);
}

/* Enters 'term' (newer than ours), voting for 'vote' if nonnull: a "term"
 * or a "vote" record. */
static void
set_term(struct raft *raft, uint64_t term, const struct uuid *vote)
{
    struct raft_file_record r;

    memset(&r, 0, sizeof r);
    r.term = term;
    if (term > raft->term) {
        raft->term = term;
        uuid_zero(&raft->vote);
        uuid_zero(&raft->leader);
        raft->change_seqno++;
        if (!vote) {
            r.type = RAFT_FILE_TERM;
            write_and_sync(raft, &r);
        }
    }
    if (vote) {
        raft->vote = *vote;
        r.type = RAFT_FILE_VOTE;
        r.sid = *vote;
        write_and_sync(raft, &r);
    }
}

/* Records that 'sid' leads this term. */
static void
set_leader(struct raft *raft, const struct uuid *sid)
{
    struct raft_file_record r;

    if (uuid_equals(&raft->leader, sid)) {
        return;
    }
    raft->leader = *sid;
    raft->change_seqno++;
    memset(&r, 0, sizeof r);
    r.type = RAFT_FILE_LEADER;
    r.term = raft->term;
    r.sid = *sid;
    write_and_sync(raft, &r);
    VLOG_INFO("server %s is leader for term %"PRIu64,
              is_self(raft, sid) ? "self" : nickname(raft, sid), raft->term);
}

/* The configuration is the latest in the log (or the snapshot's): rebuilds
 * 'peers', keeping what we knew of servers that stay. */
static void
update_config(struct raft *raft)
{
    const json_t *servers = raft->h.joining ? NULL : raft->h.prev_servers;
    struct raft_server *peers = NULL;
    size_t n = 0, i;
    const char *key;
    json_t *value;

    for (i = raft->n_entries; i > 0; i--) {
        if (raft->entries[i - 1].servers) {
            servers = raft->entries[i - 1].servers;
            break;
        }
    }
    for (i = raft->n_entries; i > 0; i--) {
        if (raft->entries[i - 1].election_timer) {
            raft->election_timer = raft->entries[i - 1].election_timer;
            break;
        }
    }
    if (!servers) {
        return;
    }
    json_decref(raft->servers);
    raft->servers = json_incref((json_t *) servers);
    json_object_foreach ((json_t *) servers, key, value) {
        struct raft_server *p;
        struct uuid sid;

        if (!uuid_from_string(&sid, key) || is_self(raft, &sid)) {
            continue;
        }
        peers = xrealloc(peers, (n + 1) * sizeof *peers);
        p = &peers[n++];
        memset(p, 0, sizeof *p);
        p->sid = sid;
        p->address = xstrdup(json_string_value(value));
        p->next_index = log_end(raft);
        for (i = 0; i < raft->n_peers; i++) {
            if (uuid_equals(&raft->peers[i].sid, &sid)) {
                p->next_index = raft->peers[i].next_index;
                p->match_index = raft->peers[i].match_index;
                p->last_msg = raft->peers[i].last_msg;
                p->voted = raft->peers[i].voted;
            }
        }
        if (raft->adding && uuid_equals(&raft->adding->sid, &sid)) {
            p->next_index = raft->adding->next_index;
            p->match_index = raft->adding->match_index;
            p->last_msg = raft->adding->last_msg;
        }
    }
    for (i = 0; i < raft->n_peers; i++) {
        free(raft->peers[i].address);
    }
    free(raft->peers);
    raft->peers = peers;
    raft->n_peers = n;
    raft->change_seqno++;
}

static bool
in_config(const struct raft *raft, const struct uuid *sid)
{
    char s[UUID_LEN + 1];

    uuid_to_string(sid, s);
    return json_object_get(raft->servers, s) != NULL;
}

static struct raft_server *
find_peer(struct raft *raft, const struct uuid *sid)
{
    size_t i;

    for (i = 0; i < raft->n_peers; i++) {
        if (uuid_equals(&raft->peers[i].sid, sid)) {
            return &raft->peers[i];
        }
    }
    if (raft->adding && uuid_equals(&raft->adding->sid, sid)) {
        return raft->adding;
    }
    return NULL;
}

/* Cuts the log from 'index' on (entries that a new leader replaced). */
static void
truncate_log(struct raft *raft, uint64_t index)
{
    bool config = false;

    util_assert(index > raft->commit_index);
    while (log_end(raft) > index) {
        struct raft_entry *e = &raft->entries[--raft->n_entries];

        config |= e->servers != NULL;
        raft_entry_destroy(e);
    }
    if (config) {
        update_config(raft);
    }
    if (raft->proposal.state == RAFT_PROPOSAL_PENDING
        && raft->proposal.index >= index) {
        raft->proposal.state = RAFT_PROPOSAL_FAILED;
        raft->proposal.reason = "lost leadership";
    }
}

/* ------------------------------------------------------------------------
 * Applying committed entries.
 * ------------------------------------------------------------------------ */

/* Applies <cluster-txn> 'data' ("[schema, txn]") of entry 'eid' to '*dbp':
 * a schema starts the database anew (a conversion), then the transaction
 * record, if any, is replayed, under 'eid' for the database's transaction
 * history. */
static struct ovsdb_error *
apply_cluster_txn(struct raft *raft, struct ovsdb **dbp,
                  const struct uuid *eid, const json_t *data)
{
    const json_t *schema_json, *txn;
    struct ovsdb_error *error;
    struct ovsdb *target = *dbp;

    if (!json_is_array(data) || json_array_size(data) != 2) {
        return ovsdb_syntax_error(data, NULL, "cluster data must be an "
                                  "array of 2 elements");
    }
    schema_json = json_array_get(data, 0);
    txn = json_array_get(data, 1);
    if (!json_is_null(schema_json)) {
        struct ovsdb_schema *schema;
        struct ovsdb *db;

        error = ovsdb_schema_from_json(schema_json, &schema);
        if (error) {
            return error;
        }
        db = ovsdb_create(schema);
        ovsdb_txn_history_init(db, true);
        if (raft->file) {
            /* A running server's database is replaced by the server
             * (raft_take_new_db()). */
            if (raft->new_db) {
                raft->new_db->file = NULL;
                ovsdb_destroy(raft->new_db);
            }
            db->file = raft->file;
            raft->new_db = db;
        } else {
            ovsdb_destroy(*dbp);
            *dbp = db;
        }
        target = db;
    } else if (!target) {
        return ovsdb_syntax_error(data, NULL, "cluster data lacks a schema");
    }
    return (json_is_null(txn) ? NULL
            : ovsdb_file_replay_txnid(target, txn, eid));
}

static void
apply_committed(struct raft *raft)
{
    while (raft->applied < raft->commit_index) {
        uint64_t index = raft->applied + 1;
        const struct raft_entry *e = get_entry(raft, index);

        if (e && e->data) {
            struct ovsdb **dbp = raft->new_db ? &raft->new_db : &raft->db;
            struct ovsdb_error *error;
            bool applying = raft->applying;

            raft->applying = true;
            error = apply_cluster_txn(raft, dbp, &e->eid, e->data);
            raft->applying = applying;
            if (error) {
                char *s = ovsdb_error_to_string(error);

                VLOG_ERR("%s: applying log entry %"PRIu64" failed (%s)",
                         raft->file_name, index, s);
                free(s);
                ovsdb_error_destroy(error);
            }
            raft->applied_eid = e->eid;
            if (raft->proposal.state == RAFT_PROPOSAL_PENDING) {
                if (uuid_equals(&e->eid, &raft->proposal.eid)) {
                    raft->proposal.state = RAFT_PROPOSAL_DONE;
                } else if (raft->proposal.index == index) {
                    raft->proposal.state = RAFT_PROPOSAL_FAILED;
                    raft->proposal.reason = "lost leadership";
                }
            }
        }
        raft->applied = index;
        raft->change_seqno++;
    }
}

/* ------------------------------------------------------------------------
 * Roles and elections.
 * ------------------------------------------------------------------------ */

static void
reset_election_timer(struct raft *raft)
{
    raft->election_deadline = (time_msec() + raft->election_timer
                               + random() % raft->election_timer);
}

static size_t
n_servers(const struct raft *raft)
{
    return json_object_size(raft->servers);
}

static void
start_election(struct raft *raft, const char *reason)
{
    size_t i;

    if (raft->joining || raft->left || !in_config(raft, &raft->h.sid)) {
        reset_election_timer(raft);
        return;
    }
    raft->role = RAFT_CANDIDATE;
    set_term(raft, raft->term + 1, &raft->h.sid);
    raft->election_started = time_msec();
    raft->election_reason = reason;
    raft->n_votes = 1;
    raft->change_seqno++;
    for (i = 0; i < raft->n_peers; i++) {
        raft->peers[i].voted = false;
    }
    VLOG_INFO("term %"PRIu64": starting election (%s)", raft->term, reason);
    reset_election_timer(raft);
    if (raft->n_votes * 2 > n_servers(raft)) {
        become_leader(raft);
        return;
    }
    for (i = 0; i < raft->n_peers; i++) {
        json_t *args = json_object();

        raft_file_put_uint64(args, "term", raft->term);
        raft_file_put_uint64(args, "last_log_index", log_end(raft) - 1);
        raft_file_put_uint64(args, "last_log_term",
                             entry_term(raft, log_end(raft) - 1));
        if (!strcmp(reason, "leadership_transfer")) {
            json_object_set_new(args, "leadership_transfer", json_true());
        }
        send_msg(raft, &raft->peers[i].sid, "vote_request", args);
    }
}

static void
become_leader(struct raft *raft)
{
    size_t i;

    raft->role = RAFT_LEADER;
    raft->election_won = time_msec();
    raft->leader_next_index = log_end(raft);
    set_leader(raft, &raft->h.sid);
    VLOG_INFO("term %"PRIu64": elected leader by %zu+ of %zu servers",
              raft->term, raft->n_votes, n_servers(raft));
    for (i = 0; i < raft->n_peers; i++) {
        raft->peers[i].next_index = log_end(raft);
        raft->peers[i].match_index = 0;
    }
    /* The term's first entry, with no data, commits the earlier ones. */
    append_entry(raft, raft->term, NULL, NULL, NULL, 0);
    write_entry(raft, log_end(raft) - 1);
    advance_commit(raft);
    for (i = 0; i < raft->n_peers; i++) {
        send_appends(raft, &raft->peers[i], NULL);
    }
    raft->ping_deadline = time_msec() + raft->election_timer / 3;
}

static void
become_follower(struct raft *raft)
{
    size_t i;

    if (raft->role != RAFT_FOLLOWER) {
        raft->role = RAFT_FOLLOWER;
        raft->change_seqno++;
    }
    if (raft->adding) {
        free(raft->adding->address);
        free(raft->adding);
        raft->adding = NULL;
        raft->adding_index = 0;
    }
    for (i = 0; i < raft->n_waiters; i++) {
        json_t *args = json_object();

        raft_file_put_uuid(args, "result", &raft->waiters[i].eid);
        json_object_set_new(args, "status", json_string("lost leadership"));
        send_msg(raft, &raft->waiters[i].sid, "execute_command_reply", args);
    }
    raft->n_waiters = 0;
    reset_election_timer(raft);
}

/* A message from another server says 'term': a newer term makes us its
 * follower.  Returns false if 'term' is older than ours (stale). */
static bool
receive_term(struct raft *raft, uint64_t term)
{
    if (term > raft->term) {
        set_term(raft, term, NULL);
        become_follower(raft);
    }
    return term >= raft->term;
}

/* ------------------------------------------------------------------------
 * Replication (leader).
 * ------------------------------------------------------------------------ */

static json_t *
entry_to_json(const struct raft_entry *e)
{
    json_t *j = json_object();

    raft_file_put_uint64(j, "term", e->term);
    if (e->data) {
        json_object_set(j, "data", e->data);
        raft_file_put_uuid(j, "eid", &e->eid);
    }
    if (e->servers) {
        json_object_set(j, "servers", e->servers);
    }
    if (e->election_timer) {
        raft_file_put_uint64(j, "election_timer", e->election_timer);
    }
    return j;
}

static void
send_snapshot(struct raft *raft, struct raft_server *s)
{
    json_t *args = json_object();

    VLOG_INFO("sending snapshot to server %s, %"PRIu64":%"PRIu64".",
              nickname(raft, &s->sid), raft->h.prev_term, raft->h.prev_index);
    raft_file_put_uint64(args, "term", raft->term);
    raft_file_put_uint64(args, "last_index", raft->h.prev_index);
    raft_file_put_uint64(args, "last_term", raft->h.prev_term);
    json_object_set(args, "last_servers", raft->h.prev_servers);
    json_object_set(args, "data", raft->h.prev_data);
    raft_file_put_uuid(args, "last_eid", &raft->h.prev_eid);
    raft_file_put_uint64(args, "election_timer", (raft->h.prev_election_timer
                                     ? raft->h.prev_election_timer
                                     : raft->election_timer));
    send_msg(raft, &s->sid, "install_snapshot_request", args);
}

/* Sends 's' the entries from its 'next_index' on (none: a heartbeat), or
 * the snapshot if it needs entries before the log. */
static void
send_appends(struct raft *raft, struct raft_server *s, const char *comment)
{
    uint64_t prev = s->next_index - 1, i;
    json_t *args, *entries;

    if (s->next_index < log_start(raft)) {
        send_snapshot(raft, s);
        return;
    }
    if (s->next_index > log_end(raft)) {
        s->next_index = log_end(raft);
        prev = s->next_index - 1;
    }
    args = json_object();
    entries = json_array();
    for (i = s->next_index; i < log_end(raft)
             && i < s->next_index + MAX_ENTRIES_PER_APPEND; i++) {
        json_array_append_new(entries, entry_to_json(get_entry(raft, i)));
    }
    if (comment) {
        json_object_set_new(args, "comment", json_string(comment));
    }
    raft_file_put_uint64(args, "term", raft->term);
    raft_file_put_uint64(args, "prev_log_index", prev);
    raft_file_put_uint64(args, "prev_log_term", entry_term(raft, prev));
    raft_file_put_uint64(args, "leader_commit", raft->commit_index);
    json_object_set_new(args, "log", entries);
    send_msg(raft, &s->sid, "append_request", args);
}

static void
send_heartbeats(struct raft *raft)
{
    size_t i;

    for (i = 0; i < raft->n_peers; i++) {
        send_appends(raft, &raft->peers[i], "heartbeat");
    }
    if (raft->adding) {
        send_appends(raft, raft->adding, "heartbeat");
    }
    raft->ping_deadline = time_msec() + raft->election_timer / 3;
}

static void
send_add_server_reply(struct raft *raft, const struct uuid *to,
                      bool success, const char *comment)
{
    json_t *args = json_object(), *addresses = json_array();
    size_t i;

    if (comment) {
        json_object_set_new(args, "comment", json_string(comment));
    }
    json_object_set_new(args, "success", json_boolean(success));
    for (i = 0; i < raft->n_peers; i++) {
        json_array_append_new(addresses,
                              json_string(raft->peers[i].address));
    }
    json_object_set_new(args, "remote_addresses", addresses);
    if (!success && !uuid_is_zero(&raft->leader)
        && !is_self(raft, &raft->leader)) {
        const char *address = server_address(raft, &raft->leader);

        raft_file_put_uuid(args, "leader_sid", &raft->leader);
        if (address) {
            json_object_set_new(args, "leader_address", json_string(address));
        }
    }
    send_msg(raft, to, "add_server_reply", args);
}

/* Commits what a majority of the servers has, of this term. */
static void
advance_commit(struct raft *raft)
{
    uint64_t n;

    if (raft->role != RAFT_LEADER) {
        return;
    }
    for (n = log_end(raft) - 1; n > raft->commit_index; n--) {
        size_t count = in_config(raft, &raft->h.sid) ? 1 : 0, i;

        if (entry_term(raft, n) != raft->term) {
            break;
        }
        for (i = 0; i < raft->n_peers; i++) {
            count += raft->peers[i].match_index >= n;
        }
        if (count * 2 > n_servers(raft)) {
            break;
        }
    }
    if (n <= raft->commit_index || entry_term(raft, n) != raft->term) {
        return;
    }
    raft->commit_index = n;
    write_commit_index(raft);
    raft->change_seqno++;
    poll_immediate_wake();      /* raft_run() applies it. */

    /* Report the commands that committed. */
    for (size_t i = 0; i < raft->n_waiters; ) {
        struct raft_waiter *w = &raft->waiters[i];

        if (w->index <= raft->commit_index) {
            json_t *args = json_object();

            raft_file_put_uuid(args, "result", &w->eid);
            json_object_set_new(args, "status", json_string("success"));
            raft_file_put_uint64(args, "commit_index", raft->commit_index);
            send_msg(raft, &w->sid, "execute_command_reply", args);
            *w = raft->waiters[--raft->n_waiters];
        } else {
            i++;
        }
    }

    /* A server being added is in once its configuration entry commits. */
    if (raft->adding && raft->adding_index
        && raft->adding_index <= raft->commit_index) {
        struct uuid sid = raft->adding->sid;

        VLOG_INFO("adding %s (%s) to cluster succeeded (completed)",
                  nickname(raft, &sid), raft->adding->address);
        free(raft->adding->address);
        free(raft->adding);
        raft->adding = NULL;
        raft->adding_index = 0;
        send_add_server_reply(raft, &sid, true, "completed");
    }
}

/* Once the server being added has caught up, the leader appends the
 * configuration that includes it. */
static void
maybe_add_to_config(struct raft *raft)
{
    struct raft_server *s = raft->adding;
    char sid[UUID_LEN + 1];
    json_t *servers;

    if (!s || raft->adding_index || s->match_index + 1 < log_end(raft)) {
        return;
    }
    servers = json_deep_copy(raft->servers);
    uuid_to_string(&s->sid, sid);
    json_object_set_new(servers, sid, json_string(s->address));
    append_entry(raft, raft->term, NULL, NULL, servers, 0);
    json_decref(servers);
    raft->adding_index = log_end(raft) - 1;
    write_entry(raft, raft->adding_index);
    advance_commit(raft);
    for (size_t i = 0; i < raft->n_peers; i++) {
        send_appends(raft, &raft->peers[i], "execute command");
    }
}

/* Appends a configuration without 'sid' (leader). */
static void
remove_from_config(struct raft *raft, const struct uuid *sid)
{
    char s[UUID_LEN + 1];
    json_t *servers;

    servers = json_deep_copy(raft->servers);
    uuid_to_string(sid, s);
    json_object_del(servers, s);
    append_entry(raft, raft->term, NULL, NULL, servers, 0);
    json_decref(servers);
    write_entry(raft, log_end(raft) - 1);
    advance_commit(raft);
    for (size_t i = 0; i < raft->n_peers; i++) {
        send_appends(raft, &raft->peers[i], "execute command");
    }
}

/* ------------------------------------------------------------------------
 * Message handlers.
 * ------------------------------------------------------------------------ */

static void
handle_append_request(struct raft *raft, const struct uuid *from,
                      const json_t *a)
{
    uint64_t term = get_u64(a, "term");
    uint64_t prev = get_u64(a, "prev_log_index");
    uint64_t prev_term = get_u64(a, "prev_log_term");
    uint64_t leader_commit = get_u64(a, "leader_commit");
    const json_t *log = json_object_get(a, "log");
    const char *result = "OK", *comment = "log updated";
    size_t n = json_array_size(log), i;
    json_t *reply;

    if (!receive_term(raft, term)) {
        result = "inconsistency";
        comment = "stale term";
        goto reply;
    }
    if (raft->role != RAFT_FOLLOWER) {
        become_follower(raft);
    }
    if (raft->joining && uuid_is_zero(&raft->h.cid)) {
        get_uuid(a, "cluster", &raft->h.cid);
    }
    set_leader(raft, from);
    raft->last_leader_msg = time_msec();
    reset_election_timer(raft);

    if (prev >= log_end(raft)) {
        result = "inconsistency";
        comment = "mismatch past end of log";
        goto reply;
    }
    if (prev >= raft->h.prev_index && entry_term(raft, prev) != prev_term) {
        result = "inconsistency";
        comment = "term mismatch";
        goto reply;
    }
    for (i = 0; i < n; i++) {
        const json_t *ej = json_array_get(log, i);
        uint64_t index = prev + 1 + i;
        uint64_t eterm = get_u64(ej, "term");
        const json_t *data = json_object_get(ej, "data");
        const json_t *servers = json_object_get(ej, "servers");
        struct uuid eid;

        if (index < log_start(raft)) {
            continue;           /* In our snapshot. */
        } else if (index < log_end(raft)) {
            if (entry_term(raft, index) == eterm) {
                continue;
            }
            truncate_log(raft, index);
        }
        get_uuid(ej, "eid", &eid);
        append_entry(raft, eterm, (json_t *) data, &eid, (json_t *) servers,
                     get_u64(ej, "election_timer"));
        write_entry(raft, index);
    }
    if (n == 0) {
        comment = "heartbeat";
    }
    if (leader_commit > raft->commit_index) {
        uint64_t new_commit = MIN(leader_commit, prev + n);

        if (new_commit > raft->commit_index) {
            raft->commit_index = new_commit;
            write_commit_index(raft);
            raft->change_seqno++;
            apply_committed(raft);
        }
    }

reply:
    reply = json_object();
    json_object_set_new(reply, "comment", json_string(comment));
    raft_file_put_uint64(reply, "term", raft->term);
    raft_file_put_uint64(reply, "log_end", log_end(raft));
    raft_file_put_uint64(reply, "prev_log_index", prev);
    raft_file_put_uint64(reply, "prev_log_term", prev_term);
    raft_file_put_uint64(reply, "n_entries", n);
    json_object_set_new(reply, "result", json_string(result));
    send_msg(raft, from, "append_reply", reply);
}

static void
handle_append_reply(struct raft *raft, const struct uuid *from,
                    const json_t *a)
{
    struct raft_server *s;
    const char *result = json_string_value(json_object_get(a, "result"));

    if (!receive_term(raft, get_u64(a, "term"))
        || raft->role != RAFT_LEADER) {
        return;
    }
    s = find_peer(raft, from);
    if (!s) {
        return;
    }
    s->last_msg = time_msec();
    if (result && !strcmp(result, "OK")) {
        uint64_t match = (get_u64(a, "prev_log_index")
                          + get_u64(a, "n_entries"));

        if (match > s->match_index) {
            s->match_index = match;
        }
        if (match + 1 > s->next_index) {
            s->next_index = match + 1;
        }
        advance_commit(raft);
        maybe_add_to_config(raft);
        if (s->next_index < log_end(raft)) {
            send_appends(raft, s, NULL);
        }
    } else {
        uint64_t end = get_u64(a, "log_end");

        if (s->next_index > 1) {
            s->next_index--;
        }
        if (end && end < s->next_index) {
            s->next_index = end;
        }
        send_appends(raft, s, NULL);
    }
}

static void
handle_vote_request(struct raft *raft, const struct uuid *from,
                    const json_t *a)
{
    uint64_t term = get_u64(a, "term");
    uint64_t last_index = get_u64(a, "last_log_index");
    uint64_t last_term = get_u64(a, "last_log_term");
    uint64_t my_last = log_end(raft) - 1;
    bool transfer = json_is_true(json_object_get(a, "leadership_transfer"));
    json_t *reply;

    /* A server that hears from its leader ignores candidates (it would
     * only disrupt the cluster), unless the leader hands over. */
    if (!transfer && raft->role == RAFT_FOLLOWER
        && !uuid_is_zero(&raft->leader) && raft->last_leader_msg
        && time_msec() < (raft->last_leader_msg
                          + (long long int) raft->election_timer)) {
        return;
    }
    if (raft->role == RAFT_LEADER && term <= raft->term) {
        return;
    }
    if (!receive_term(raft, term)) {
        return;
    }
    if (uuid_is_zero(&raft->vote)
        && (last_term > entry_term(raft, my_last)
            || (last_term == entry_term(raft, my_last)
                && last_index >= my_last))) {
        set_term(raft, raft->term, from);
        reset_election_timer(raft);
    }
    if (uuid_is_zero(&raft->vote)) {
        return;
    }
    reply = json_object();
    raft_file_put_uint64(reply, "term", raft->term);
    raft_file_put_uuid(reply, "vote", &raft->vote);
    send_msg(raft, from, "vote_reply", reply);
}

static void
handle_vote_reply(struct raft *raft, const struct uuid *from,
                  const json_t *a)
{
    struct raft_server *s;
    struct uuid vote;

    if (!receive_term(raft, get_u64(a, "term"))
        || raft->role != RAFT_CANDIDATE
        || get_u64(a, "term") != raft->term
        || !get_uuid(a, "vote", &vote) || !is_self(raft, &vote)) {
        return;
    }
    s = find_peer(raft, from);
    if (s && !s->voted) {
        s->voted = true;
        raft->n_votes++;
        if (raft->n_votes * 2 > n_servers(raft)) {
            become_leader(raft);
        }
    }
}

static void
handle_add_server_request(struct raft *raft, const struct uuid *from,
                          const json_t *a)
{
    const char *address = json_string_value(json_object_get(a, "address"));

    if (!address) {
        return;
    }
    if (raft->role != RAFT_LEADER) {
        send_add_server_reply(raft, from, false, "not leader");
        return;
    }
    if (in_config(raft, from)) {
        send_add_server_reply(raft, from, true, "already in cluster");
        return;
    }
    if (raft->adding) {
        if (!uuid_equals(&raft->adding->sid, from)) {
            send_add_server_reply(raft, from, false, "in progress");
        }
        return;
    }
    raft->adding = xzalloc(sizeof *raft->adding);
    raft->adding->sid = *from;
    raft->adding->address = xstrdup(address);
    raft->adding->next_index = log_end(raft);
    raft->adding_started = time_msec();
    VLOG_INFO("starting to add server %s (%s) to cluster",
              nickname(raft, from), address);
    send_appends(raft, raft->adding, "initialize new server");
}

static void
handle_add_server_reply(struct raft *raft, const json_t *a)
{
    if (!raft->joining) {
        return;
    }
    if (json_is_true(json_object_get(a, "success"))) {
        raft->joining = false;
        raft->h.joining = false;
        raft->change_seqno++;
        VLOG_INFO("%s: joined cluster", raft->file_name);
    }
}

static void
handle_remove_server_request(struct raft *raft, const struct uuid *from,
                             const json_t *a)
{
    json_t *reply = json_object();
    struct uuid sid;
    bool success = false;

    get_uuid(a, "server_id", &sid);
    if (raft->role != RAFT_LEADER) {
        json_object_set_new(reply, "comment", json_string("not leader"));
    } else if (!in_config(raft, &sid)) {
        json_object_set_new(reply, "comment", json_string("not in cluster"));
        success = true;
    } else {
        remove_from_config(raft, &sid);
        success = true;
    }
    json_object_set_new(reply, "success", json_boolean(success));
    send_msg(raft, from, "remove_server_reply", reply);
}

/* Installs the snapshot in 'a' (from the leader): the file starts anew
 * with it, and the database is the snapshot's. */
static void
handle_install_snapshot_request(struct raft *raft, const struct uuid *from,
                                const json_t *a)
{
    uint64_t last_index = get_u64(a, "last_index");
    uint64_t last_term = get_u64(a, "last_term");
    struct raft_file_header h;
    struct raft_file_record term_record;
    json_t *records[2], *reply;
    struct ovsdb_error *error;
    struct ovsdb *db = NULL;
    size_t i;

    if (!receive_term(raft, get_u64(a, "term"))) {
        return;
    }
    set_leader(raft, from);
    raft->last_leader_msg = time_msec();
    reset_election_timer(raft);
    if (raft->joining && uuid_is_zero(&raft->h.cid)) {
        get_uuid(a, "cluster", &raft->h.cid);
    }

    h = raft->h;
    h.joining = false;
    h.remote_addresses = NULL;
    h.n_remote_addresses = 0;
    h.prev_index = last_index;
    h.prev_term = last_term;
    h.prev_servers = json_object_get(a, "last_servers");
    h.prev_election_timer = get_u64(a, "election_timer");
    h.prev_data = json_object_get(a, "data");
    get_uuid(a, "last_eid", &h.prev_eid);

    error = apply_cluster_txn(raft, &db, &h.prev_eid, h.prev_data);
    if (!error && raft->new_db) {
        db = raft->new_db;
        raft->new_db = NULL;
    }
    if (error || !db) {
        char *s = error ? ovsdb_error_to_string(error) : xstrdup("no data");

        VLOG_WARN("%s: bad snapshot from %s (%s)", raft->file_name,
                  nickname(raft, from), s);
        free(s);
        ovsdb_error_destroy(error);
        return;
    }

    records[0] = raft_file_header_to_json(&h);
    memset(&term_record, 0, sizeof term_record);
    term_record.type = RAFT_FILE_TERM;
    term_record.term = raft->term;
    if (!uuid_is_zero(&raft->vote)) {
        term_record.type = RAFT_FILE_VOTE;
        term_record.sid = raft->vote;
    }
    records[1] = raft_file_record_to_json(&term_record);
    error = ovsdb_log_replace(raft->log, records, 2);
    json_decref(records[0]);
    json_decref(records[1]);
    if (error) {
        char *s = ovsdb_error_to_string(error);

        util_fatal(0, "%s: installing a snapshot failed (%s)",
                   raft->file_name, s);
    }

    /* The new header. */
    json_incref(h.prev_servers);
    json_incref(h.prev_data);
    for (i = 0; i < raft->h.n_remote_addresses; i++) {
        free(raft->h.remote_addresses[i]);
    }
    free(raft->h.remote_addresses);
    if (!raft->h.joining) {
        json_decref(raft->h.prev_servers);
        json_decref(raft->h.prev_data);
    }
    raft->h = h;
    for (i = 0; i < raft->n_entries; i++) {
        raft_entry_destroy(&raft->entries[i]);
    }
    raft->n_entries = 0;
    if (h.prev_election_timer) {
        raft->election_timer = h.prev_election_timer;
    }
    update_config(raft);
    raft->commit_index = raft->applied = last_index;
    raft->applied_eid = h.prev_eid;
    if (raft->file) {
        db->file = raft->file;
        if (raft->new_db) {
            raft->new_db->file = NULL;
            ovsdb_destroy(raft->new_db);
        }
        raft->new_db = db;
    } else {
        ovsdb_destroy(db);
    }
    raft->change_seqno++;
    VLOG_INFO("%s: installed snapshot up to %"PRIu64":%"PRIu64" from %s",
              raft->file_name, last_term, last_index, nickname(raft, from));

    reply = json_object();
    raft_file_put_uint64(reply, "term", raft->term);
    raft_file_put_uint64(reply, "last_index", last_index);
    raft_file_put_uint64(reply, "last_term", last_term);
    send_msg(raft, from, "install_snapshot_reply", reply);
}

static void
handle_install_snapshot_reply(struct raft *raft, const struct uuid *from,
                              const json_t *a)
{
    struct raft_server *s;

    if (!receive_term(raft, get_u64(a, "term"))
        || raft->role != RAFT_LEADER) {
        return;
    }
    s = find_peer(raft, from);
    if (s) {
        s->last_msg = time_msec();
        s->match_index = MAX(s->match_index, get_u64(a, "last_index"));
        s->next_index = get_u64(a, "last_index") + 1;
        VLOG_INFO("installed snapshot on server %s up to %"PRIu64":%"PRIu64,
                  nickname(raft, from), get_u64(a, "last_term"),
                  get_u64(a, "last_index"));
        send_appends(raft, s, "snapshot installed");
    }
}

/* The eid of the last entry with data in the log, or the snapshot's. */
static const struct uuid *
last_eid(const struct raft *raft)
{
    size_t i;

    for (i = raft->n_entries; i > 0; i--) {
        if (raft->entries[i - 1].data) {
            return &raft->entries[i - 1].eid;
        }
    }
    return &raft->h.prev_eid;
}

static void
handle_execute_command_request(struct raft *raft, const struct uuid *from,
                               const json_t *a)
{
    const json_t *data = json_object_get(a, "data");
    struct uuid prereq, result;
    const char *status = NULL;

    get_uuid(a, "prereq", &prereq);
    get_uuid(a, "result", &result);
    if (raft->role != RAFT_LEADER) {
        status = "not leader";
    } else if (!data) {
        status = "I/O error";
    } else if (json_object_get(a, "prereq")
               && !uuid_equals(&prereq, last_eid(raft))) {
        status = "prerequisite check failed";
    }
    if (status) {
        json_t *reply = json_object();

        raft_file_put_uuid(reply, "result", &result);
        json_object_set_new(reply, "status", json_string(status));
        send_msg(raft, from, "execute_command_reply", reply);
        return;
    }
    append_entry(raft, raft->term, (json_t *) data, &result, NULL, 0);
    write_entry(raft, log_end(raft) - 1);
    raft->waiters = xrealloc(raft->waiters, ((raft->n_waiters + 1)
                                             * sizeof *raft->waiters));
    raft->waiters[raft->n_waiters].sid = *from;
    raft->waiters[raft->n_waiters].eid = result;
    raft->waiters[raft->n_waiters].index = log_end(raft) - 1;
    raft->n_waiters++;
    advance_commit(raft);
    for (size_t i = 0; i < raft->n_peers; i++) {
        send_appends(raft, &raft->peers[i], "execute command");
    }
}

static void
handle_execute_command_reply(struct raft *raft, const json_t *a)
{
    const char *status = json_string_value(json_object_get(a, "status"));
    struct raft_proposal *p = &raft->proposal;
    struct uuid eid;

    get_uuid(a, "result", &eid);
    if (p->state != RAFT_PROPOSAL_PENDING || !uuid_equals(&eid, &p->eid)
        || !status) {
        return;
    }
    p->replied = true;
    if (!strcmp(status, "success")) {
        /* Done once applied here too (read your writes). */
    } else if (!strcmp(status, "prerequisite check failed")) {
        p->state = RAFT_PROPOSAL_RETRY;
    } else {
        p->state = RAFT_PROPOSAL_FAILED;
        p->reason = "lost leadership";
    }
}

static void
handle_msg(struct raft *raft, struct raft_conn *conn,
           const struct jsonrpc_msg *msg)
{
    const json_t *a = json_array_get(msg->params, 0);
    struct uuid from, to, cid;

    if (msg->type != JSONRPC_NOTIFY || !json_is_object(a)) {
        return;
    }
    if (!get_uuid(a, "from", &from) || is_self(raft, &from)) {
        return;
    }
    if (get_uuid(a, "to", &to) && !is_self(raft, &to)) {
        return;
    }
    if (get_uuid(a, "cluster", &cid) && !uuid_is_zero(&raft->h.cid)
        && !uuid_equals(&cid, &raft->h.cid)) {
        return;
    }
    if (uuid_is_zero(&conn->sid)) {
        conn->sid = from;
    }
    if (!strcmp(msg->method, "hello_request")) {
        /* Identifies the connection; nothing else to do. */
    } else if (!strcmp(msg->method, "append_request")) {
        handle_append_request(raft, &from, a);
    } else if (!strcmp(msg->method, "append_reply")) {
        handle_append_reply(raft, &from, a);
    } else if (!strcmp(msg->method, "vote_request")) {
        handle_vote_request(raft, &from, a);
    } else if (!strcmp(msg->method, "vote_reply")) {
        handle_vote_reply(raft, &from, a);
    } else if (!strcmp(msg->method, "add_server_request")) {
        handle_add_server_request(raft, &from, a);
    } else if (!strcmp(msg->method, "add_server_reply")) {
        handle_add_server_reply(raft, a);
    } else if (!strcmp(msg->method, "remove_server_request")) {
        handle_remove_server_request(raft, &from, a);
    } else if (!strcmp(msg->method, "remove_server_reply")) {
        if (raft->leaving && json_is_true(json_object_get(a, "success"))) {
            raft->left = true;
        }
    } else if (!strcmp(msg->method, "install_snapshot_request")) {
        handle_install_snapshot_request(raft, &from, a);
    } else if (!strcmp(msg->method, "install_snapshot_reply")) {
        handle_install_snapshot_reply(raft, &from, a);
    } else if (!strcmp(msg->method, "execute_command_request")) {
        handle_execute_command_request(raft, &from, a);
    } else if (!strcmp(msg->method, "execute_command_reply")) {
        handle_execute_command_reply(raft, a);
    } else if (!strcmp(msg->method, "become_leader")) {
        /* The leader hands over to us: the others vote for us even
         * though they heard from it just now. */
        if (receive_term(raft, get_u64(a, "term"))) {
            start_election(raft, "leadership_transfer");
        }
    }
    if (strcmp(msg->method, "hello_request")) {
        /* For cluster/status's "last msg" (a hello does not count). */
        struct raft_server *s = find_peer(raft, &from);

        if (s) {
            s->last_msg = time_msec();
        }
    }
}

/* ------------------------------------------------------------------------
 * Connections.
 * ------------------------------------------------------------------------ */

static void
send_on(struct raft *raft, struct raft_conn *conn, const struct uuid *to,
        const char *method, json_t *args)
{
    if (!uuid_is_zero(&raft->h.cid)) {
        raft_file_put_uuid(args, "cluster", &raft->h.cid);
    }
    if (to && !uuid_is_zero(to)) {
        raft_file_put_uuid(args, "to", to);
    }
    raft_file_put_uuid(args, "from", &raft->h.sid);
    jsonrpc_session_send(conn->js, jsonrpc_create_notify(
                             method, json_pack("[o]", args)));
}

/* Sends 'args' ('method') to server 'to' over a connection to it, if any
 * is up (Raft retransmits what is lost). */
static void
send_msg(struct raft *raft, const struct uuid *to, const char *method,
         json_t *args)
{
    struct raft_conn *best = NULL;
    size_t i;

    for (i = 0; i < raft->n_conns; i++) {
        struct raft_conn *c = raft->conns[i];

        if (uuid_equals(&c->sid, to) && jsonrpc_session_is_connected(c->js)
            && (!best || c->address)) {
            best = c;
        }
    }
    if (best) {
        send_on(raft, best, to, method, args);
    } else {
        json_decref(args);
    }
}

static void
add_conn(struct raft *raft, struct jsonrpc_session *js, const char *address,
         const struct uuid *sid)
{
    struct raft_conn *c = xzalloc(sizeof *c);

    c->js = js;
    c->address = address ? xstrdup(address) : NULL;
    if (sid) {
        c->sid = *sid;
    }
    raft->conns = xrealloc(raft->conns,
                           (raft->n_conns + 1) * sizeof *raft->conns);
    raft->conns[raft->n_conns++] = c;
}

/* Keeps an outgoing connection open to each server of the configuration
 * (and, joining, to each remote address), and only those. */
static void
update_conns(struct raft *raft)
{
    size_t i, j;

    for (i = 0; i < raft->n_conns; ) {
        struct raft_conn *c = raft->conns[i];
        bool keep = !c->address;

        for (j = 0; !keep && j < raft->n_peers; j++) {
            keep = !strcmp(raft->peers[j].address, c->address);
        }
        for (j = 0; raft->joining && !keep
                 && j < raft->h.n_remote_addresses; j++) {
            keep = !strcmp(raft->h.remote_addresses[j], c->address);
        }
        if (raft->adding && c->address
            && !strcmp(raft->adding->address, c->address)) {
            keep = true;
        }
        if (!keep || (!c->address && !jsonrpc_session_is_alive(c->js))) {
            jsonrpc_session_close(c->js);
            free(c->address);
            free(c);
            raft->conns[i] = raft->conns[--raft->n_conns];
        } else {
            i++;
        }
    }
    for (j = 0; j < raft->n_peers + (raft->joining
                                     ? raft->h.n_remote_addresses : 0); j++) {
        const char *address = (j < raft->n_peers ? raft->peers[j].address
                               : raft->h.remote_addresses[j - raft->n_peers]);
        bool found = false;

        if (!strcmp(address, raft->h.local_address)) {
            continue;
        }
        for (i = 0; !found && i < raft->n_conns; i++) {
            found = (raft->conns[i]->address
                     && !strcmp(raft->conns[i]->address, address));
        }
        if (!found) {
            struct jsonrpc_session *js = jsonrpc_session_open(address, true);

            jsonrpc_session_set_max_backoff(js, 2000);
            add_conn(raft, js, address,
                     j < raft->n_peers ? &raft->peers[j].sid : NULL);
        }
    }
}

/* The passive form of a "tcp:IP:PORT" or "unix:PATH" local address. */
static char *
passive_address(const char *address)
{
    if (!strncmp(address, "tcp:", 4) || !strncmp(address, "ssl:", 4)) {
        const char *port = strrchr(address, ':');
        char *host = xmemdup0(address + 4, port - (address + 4));
        char *p = xasprintf("p%.3s:%s:%s", address, port + 1, host);

        free(host);
        return p;
    }
    return xasprintf("p%s", address);
}

static void
run_listener(struct raft *raft)
{
    struct stream *stream;

    if (!raft->listener && time_msec() >= raft->listen_retry) {
        char *p = passive_address(raft->h.local_address);
        int error = pstream_open(p, &raft->listener);

        if (error) {
            VLOG_WARN("%s: listening failed (%s)", p, strerror(error));
            raft->listen_retry = time_msec() + 1000;
        }
        free(p);
    }
    while (raft->listener && !pstream_accept(raft->listener, &stream)) {
        add_conn(raft, jsonrpc_session_open_unreliably(jsonrpc_open(stream)),
                 NULL, NULL);
    }
}

static void
run_conns(struct raft *raft)
{
    size_t i;

    update_conns(raft);
    for (i = 0; i < raft->n_conns; i++) {
        struct raft_conn *c = raft->conns[i];
        unsigned int seqno;
        int n;

        jsonrpc_session_run(c->js);
        seqno = jsonrpc_session_get_seqno(c->js);
        if (seqno != c->seqno) {
            if (c->seqno && !jsonrpc_session_is_connected(c->js)) {
                raft->n_disconnections++;
            }
            c->seqno = seqno;
            if (c->address && jsonrpc_session_is_connected(c->js)) {
                if (raft->joining) {
                    raft->join_deadline = time_msec();
                } else {
                    json_t *args = json_object();

                    json_object_set_new(args, "address",
                                        json_string(raft->h.local_address));
                    send_on(raft, c, &c->sid, "hello_request", args);
                }
            }
        }
        for (n = 0; n < 50; n++) {
            struct jsonrpc_msg *msg = jsonrpc_session_recv(c->js);

            if (!msg) {
                break;
            }
            handle_msg(raft, c, msg);
            jsonrpc_msg_destroy(msg);
            if (i >= raft->n_conns || raft->conns[i] != c) {
                break;
            }
        }
    }
}

static const char *
server_address(const struct raft *raft, const struct uuid *sid)
{
    char s[UUID_LEN + 1];

    uuid_to_string(sid, s);
    return json_string_value(json_object_get(raft->servers, s));
}

/* A server's nickname, as Open vSwitch makes it: the file name of a
 * "unix:" address up to its extension, otherwise the first 4 hex digits
 * of its ID.  (Returns a static buffer.) */
static char *
nickname(const struct raft *raft, const struct uuid *sid)
{
    static char buf[8][64];
    static int next;
    const char *address = server_address(raft, sid);
    char *b = buf[next++ % 8];
    char s[UUID_LEN + 1];

    if (!address && is_self(raft, sid)) {
        address = raft->h.local_address;
    }
    if (!address && raft->adding && uuid_equals(&raft->adding->sid, sid)) {
        address = raft->adding->address;
    }
    uuid_to_string(sid, s);
    if (!address_nickname(address, b, 64)) {
        snprintf(b, 64, "%.4s", s);
    }
    return b;
}

/* Puts in 'b' the nickname of a "unix:" 'address' (may be NULL): its file
 * name up to the extension.  Returns false for other addresses. */
static bool
address_nickname(const char *address, char *b, size_t size)
{
    const char *base, *dot;
    size_t len;

    if (!address || strncmp(address, "unix:", 5)) {
        return false;
    }
    base = strrchr(address, '/');
    base = base ? base + 1 : address + 5;
    dot = strrchr(base, '.');
    len = dot ? (size_t) (dot - base) : strlen(base);
    snprintf(b, size, "%.*s", (int) MIN(len, size - 1), base);
    return true;
}

/* Orders the 'n' servers of cluster/status as Open vSwitch lists them: in
 * the order of its hash map of servers, that is by bucket (the first 32
 * bits of the ID, masked as a map of 'n' entries masks them), then as
 * they came. */
static void
status_order(struct status_server *servers, size_t n)
{
    uint32_t mask = 0;
    size_t i;

    for (i = 1; i <= n; i++) {
        if (i / 2 > mask) {
            uint32_t m = i / 2;

            m |= m >> 1;
            m |= m >> 2;
            m |= m >> 4;
            m |= m >> 8;
            m |= m >> 16;
            m |= (m & 1) << 1;
            mask = m;
        }
    }
    for (i = 0; i < n; i++) {
        servers[i].bucket = servers[i].sid.parts[0] & mask;
    }
    qsort(servers, n, sizeof *servers, compare_status_servers);
}

static int
compare_status_servers(const void *a_, const void *b_)
{
    const struct status_server *a = a_, *b = b_;

    return (a->bucket != b->bucket ? (a->bucket < b->bucket ? -1 : 1)
            : a->rank < b->rank ? -1 : a->rank > b->rank);
}
