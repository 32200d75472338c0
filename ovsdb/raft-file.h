/* The records of a clustered OVSDB database file, as Open vSwitch 3.1 writes
 * them (ovsdb(5), "Clustered Format").
 *
 * The file is a log (log.h) of "OVSDB CLUSTER" records.  The first, the
 * header, names the server (server ID, local address), the database (schema
 * name) and the cluster (cluster ID), and holds the snapshot the Raft log
 * starts from: the term, index, server set and election timer just before
 * the log's first entry, and the data there, a <cluster-txn>
 *
 *     [<schema>, <transaction record as in a standalone file>]
 *
 * with its entry ID.  A file that "ovsdb-tool join-cluster" made, for a
 * server that has not joined yet, has only a header, with the addresses of
 * the servers to ask ("remote_addresses") instead of a snapshot, and a
 * cluster ID only if one was given.
 *
 * Every later record is one of the Raft state changes of raft_file_type:
 * a log entry, the start of a term, a vote, the leader a server learnt of,
 * a new commit index, or a note.
 *
 * Numbers are unsigned 64-bit; the file writes those from 2**63 up as
 * negative JSON integers, as Open vSwitch does.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_RAFT_FILE_H
#define OVSDB_RAFT_FILE_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"
#include "uuid.h"

struct ds;

/* The election timer a cluster has when nothing says otherwise, and the
 * range "ovsdb-tool create-cluster --election-timer" accepts (ms). */
#define RAFT_FILE_ELECTION_TIMER_DEFAULT 1000
#define RAFT_FILE_ELECTION_TIMER_MIN 100
#define RAFT_FILE_ELECTION_TIMER_MAX 600000

/* The first record of a clustered database file. */
struct raft_file_header {
    struct uuid sid;            /* This server's ID. */
    struct uuid cid;            /* The cluster's ID; all-zeros if unknown
                                 * (a server that has not joined yet). */
    char *name;                 /* The database's schema name. */
    char *local_address;        /* Where this server listens for others. */

    /* A server that has not joined its cluster yet: the servers to ask. */
    bool joining;
    char **remote_addresses;    /* Without duplicates. */
    size_t n_remote_addresses;

    /* A member of its cluster: the snapshot the log starts from. */
    uint64_t prev_term;
    uint64_t prev_index;
    json_t *prev_servers;       /* <servers>: {"<uuid>": "<address>"}. */
    uint64_t prev_election_timer; /* 0 if the header has none. */
    json_t *prev_data;          /* <cluster-txn>. */
    struct uuid prev_eid;
};

struct ovsdb_error *raft_file_header_from_json(const json_t *,
                                               struct raft_file_header *)
    DPS_WARN_UNUSED_RESULT;
json_t *raft_file_header_to_json(const struct raft_file_header *);
void raft_file_header_destroy(struct raft_file_header *);
void raft_file_header_add_remote(struct raft_file_header *,
                                 const char *address);

enum raft_file_type {
    RAFT_FILE_ENTRY,            /* A Raft log entry. */
    RAFT_FILE_TERM,             /* The start of a new term. */
    RAFT_FILE_VOTE,             /* This server's vote in a term. */
    RAFT_FILE_LEADER,           /* The leader of a term (informational). */
    RAFT_FILE_COMMIT_INDEX,     /* A new commit index (informational). */
    RAFT_FILE_NOTE              /* An event ("left", ...). */
};

/* A record after the header. */
struct raft_file_record {
    enum raft_file_type type;
    char *comment;              /* May be NULL. */
    uint64_t term;              /* All but COMMIT_INDEX and NOTE. */
    union {
        struct {                /* RAFT_FILE_ENTRY. */
            uint64_t index;
            json_t *servers;    /* A new server set, or NULL. */
            uint64_t election_timer; /* A new election timer, or 0. */
            json_t *data;       /* <cluster-txn>, or NULL. */
            struct uuid eid;    /* Entry ID, if 'data'. */
        } entry;
        struct uuid sid;        /* RAFT_FILE_VOTE, RAFT_FILE_LEADER. */
        uint64_t commit_index;  /* RAFT_FILE_COMMIT_INDEX. */
        char *note;             /* RAFT_FILE_NOTE. */
    };
};

struct ovsdb_error *raft_file_record_from_json(const json_t *,
                                               struct raft_file_record *)
    DPS_WARN_UNUSED_RESULT;
json_t *raft_file_record_to_json(const struct raft_file_record *);
void raft_file_record_destroy(struct raft_file_record *);

struct ovsdb_error *raft_file_address_validate(const char *address)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *raft_file_servers_validate(const json_t *servers)
    DPS_WARN_UNUSED_RESULT;
void raft_file_servers_format(const json_t *servers, struct ds *);
void raft_file_put_uint64(json_t *object, const char *name, uint64_t);
void raft_file_put_uuid(json_t *object, const char *name,
                        const struct uuid *);

#endif /* raft-file.h */
