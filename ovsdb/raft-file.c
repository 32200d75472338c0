/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "raft-file.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "dynamic-string.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "ovsdb-parser.h"
#include "socket-util.h"
#include "util.h"

static uint64_t parse_uint64(struct ovsdb_parser *, const char *name);
static bool parse_optional_uint64(struct ovsdb_parser *, const char *name,
                                  uint64_t *);
static bool parse_uuid(struct ovsdb_parser *, const char *name, bool optional,
                       struct uuid *);
static const char *parse_string(struct ovsdb_parser *, const char *name,
                                bool optional);
static json_t *parse_servers(struct ovsdb_parser *, const char *name,
                             bool optional);
static void parse_remote_addresses(struct ovsdb_parser *,
                                   struct raft_file_header *);

/* Parses 'json', the first record of a clustered database file, into
 * '*h', which the caller must later raft_file_header_destroy() (also on
 * error). */
struct ovsdb_error *
raft_file_header_from_json(const json_t *json, struct raft_file_header *h)
{
    struct ovsdb_parser p;
    const char *s;

    memset(h, 0, sizeof *h);
    ovsdb_parser_init(&p, json, "raft header");

    parse_uuid(&p, "server_id", false, &h->sid);
    s = parse_string(&p, "name", false);
    h->name = s ? xstrdup(s) : NULL;
    s = parse_string(&p, "local_address", false);
    h->local_address = s ? xstrdup(s) : NULL;

    h->joining = json_object_get(json, "remote_addresses") != NULL;
    if (h->joining) {
        parse_remote_addresses(&p, h);
        parse_uuid(&p, "cluster_id", true, &h->cid);
    } else {
        parse_uuid(&p, "cluster_id", true, &h->cid);
        h->prev_term = parse_uint64(&p, "prev_term");
        h->prev_index = parse_uint64(&p, "prev_index");
        h->prev_servers = parse_servers(&p, "prev_servers", false);
        parse_optional_uint64(&p, "prev_election_timer",
                              &h->prev_election_timer);
        h->prev_data = json_incref((json_t *) ovsdb_parser_member(
                                       &p, "prev_data", OP_ANY));
        parse_uuid(&p, "prev_eid", false, &h->prev_eid);
    }
    return ovsdb_parser_finish(&p);
}

/* Returns the JSON record for 'h'. */
json_t *
raft_file_header_to_json(const struct raft_file_header *h)
{
    json_t *json = json_object();

    raft_file_put_uuid(json, "server_id", &h->sid);
    json_object_set_new(json, "name", json_string(h->name));
    json_object_set_new(json, "local_address",
                        json_string(h->local_address));
    if (!uuid_is_zero(&h->cid)) {
        raft_file_put_uuid(json, "cluster_id", &h->cid);
    }
    if (h->joining) {
        json_t *remotes = json_array();
        size_t i;

        for (i = 0; i < h->n_remote_addresses; i++) {
            json_array_append_new(remotes,
                                  json_string(h->remote_addresses[i]));
        }
        json_object_set_new(json, "remote_addresses", remotes);
    } else {
        raft_file_put_uint64(json, "prev_term", h->prev_term);
        raft_file_put_uint64(json, "prev_index", h->prev_index);
        json_object_set(json, "prev_servers", h->prev_servers);
        if (h->prev_election_timer) {
            raft_file_put_uint64(json, "prev_election_timer",
                                 h->prev_election_timer);
        }
        json_object_set(json, "prev_data",
                        h->prev_data ? h->prev_data : json_null());
        raft_file_put_uuid(json, "prev_eid", &h->prev_eid);
    }
    return json;
}

/* Frees what 'h' holds (not 'h' itself). */
void
raft_file_header_destroy(struct raft_file_header *h)
{
    size_t i;

    free(h->name);
    free(h->local_address);
    for (i = 0; i < h->n_remote_addresses; i++) {
        free(h->remote_addresses[i]);
    }
    free(h->remote_addresses);
    json_decref(h->prev_servers);
    json_decref(h->prev_data);
    memset(h, 0, sizeof *h);
}

/* Adds 'address' to the remote addresses of 'h', after those it has,
 * unless it is one of them. */
void
raft_file_header_add_remote(struct raft_file_header *h, const char *address)
{
    size_t i;

    for (i = 0; i < h->n_remote_addresses; i++) {
        if (!strcmp(h->remote_addresses[i], address)) {
            return;
        }
    }
    h->remote_addresses = xrealloc(h->remote_addresses,
                                   (i + 1) * sizeof *h->remote_addresses);
    h->remote_addresses[h->n_remote_addresses++] = xstrdup(address);
}

/* Parses 'json', a record after the header, into '*r', which the caller
 * must later raft_file_record_destroy() (also on error).  Which members
 * are present says what kind of record it is: "note", else
 * "commit_index", else (all others have a "term") "index" for an entry,
 * "vote", "leader", or none of these for the start of a term. */
struct ovsdb_error *
raft_file_record_from_json(const json_t *json, struct raft_file_record *r)
{
    struct ovsdb_parser p;
    const char *s;

    memset(r, 0, sizeof *r);
    ovsdb_parser_init(&p, json, "raft log record");
    s = parse_string(&p, "comment", true);
    r->comment = s ? xstrdup(s) : NULL;

    if (json_object_get(json, "note")) {
        r->type = RAFT_FILE_NOTE;
        s = parse_string(&p, "note", false);
        r->note = s ? xstrdup(s) : NULL;
    } else if (json_object_get(json, "commit_index")) {
        r->type = RAFT_FILE_COMMIT_INDEX;
        r->commit_index = parse_uint64(&p, "commit_index");
    } else {
        r->term = parse_uint64(&p, "term");
        if (json_object_get(json, "index")) {
            const json_t *data;

            r->type = RAFT_FILE_ENTRY;
            r->entry.index = parse_uint64(&p, "index");
            r->entry.servers = parse_servers(&p, "servers", true);
            parse_optional_uint64(&p, "election_timer",
                                  &r->entry.election_timer);
            data = ovsdb_parser_member(&p, "data", OP_ANY | OP_OPTIONAL);
            if (data) {
                r->entry.data = json_incref((json_t *) data);
                parse_uuid(&p, "eid", false, &r->entry.eid);
            } else if (json_object_get(json, "eid")) {
                ovsdb_parser_raise_error(&p, "eid without data");
            }
        } else if (json_object_get(json, "vote")) {
            r->type = RAFT_FILE_VOTE;
            parse_uuid(&p, "vote", false, &r->sid);
        } else if (json_object_get(json, "leader")) {
            r->type = RAFT_FILE_LEADER;
            parse_uuid(&p, "leader", false, &r->sid);
        } else {
            r->type = RAFT_FILE_TERM;
        }
    }
    return ovsdb_parser_finish(&p);
}

/* Returns the JSON record for 'r'. */
json_t *
raft_file_record_to_json(const struct raft_file_record *r)
{
    json_t *json = json_object();

    if (r->comment) {
        json_object_set_new(json, "comment", json_string(r->comment));
    }
    switch (r->type) {
    case RAFT_FILE_ENTRY:
        raft_file_put_uint64(json, "term", r->term);
        raft_file_put_uint64(json, "index", r->entry.index);
        if (r->entry.servers) {
            json_object_set(json, "servers", r->entry.servers);
        }
        if (r->entry.election_timer) {
            raft_file_put_uint64(json, "election_timer",
                                 r->entry.election_timer);
        }
        if (r->entry.data) {
            json_object_set(json, "data", r->entry.data);
            raft_file_put_uuid(json, "eid", &r->entry.eid);
        }
        break;
    case RAFT_FILE_TERM:
        raft_file_put_uint64(json, "term", r->term);
        break;
    case RAFT_FILE_VOTE:
    case RAFT_FILE_LEADER:
        raft_file_put_uint64(json, "term", r->term);
        raft_file_put_uuid(json, r->type == RAFT_FILE_VOTE ? "vote" : "leader",
                 &r->sid);
        break;
    case RAFT_FILE_COMMIT_INDEX:
        raft_file_put_uint64(json, "commit_index", r->commit_index);
        break;
    case RAFT_FILE_NOTE:
        json_object_set_new(json, "note", json_string(r->note));
        break;
    }
    return json;
}

/* Frees what 'r' holds (not 'r' itself). */
void
raft_file_record_destroy(struct raft_file_record *r)
{
    free(r->comment);
    if (r->type == RAFT_FILE_ENTRY) {
        json_decref(r->entry.servers);
        json_decref(r->entry.data);
    } else if (r->type == RAFT_FILE_NOTE) {
        free(r->note);
    }
    memset(r, 0, sizeof *r);
}

/* Checks that 'address' is a server address Open vSwitch's clusters take:
 * "unix:PATH", or "tcp:" or "ssl:" and an IP address (IPv6 in brackets)
 * with a port.  A bad IP address or port is also logged, as
 * sock_parse_active() does. */
struct ovsdb_error *
raft_file_address_validate(const char *address)
{
    struct sockaddr_storage ss;

    if (!strncmp(address, "unix:", 5)) {
        return NULL;
    } else if (!strncmp(address, "tcp:", 4) || !strncmp(address, "ssl:", 4)) {
        return (sock_parse_active(address + 4, -1, &ss)
                ? ovsdb_error("ovsdb error", "%s: syntax error in address", address)
                : NULL);
    }
    return ovsdb_error("ovsdb error", "%s: expected \"tcp\" or \"ssl\" address",
                       address);
}

/* Checks that 'servers' is a <servers> object with at least one server,
 * each a valid UUID with an address. */
struct ovsdb_error *
raft_file_servers_validate(const json_t *servers)
{
    const char *sid_s;
    json_t *address;

    if (!json_is_object(servers)) {
        return ovsdb_syntax_error(servers, NULL, "servers must be JSON "
                                  "object");
    } else if (!json_object_size(servers)) {
        return ovsdb_syntax_error(servers, NULL, "must have at least one "
                                  "server");
    }
    json_object_foreach ((json_t *) servers, sid_s, address) {
        struct uuid sid;

        if (!uuid_from_string(&sid, sid_s)) {
            return ovsdb_syntax_error(servers, NULL, "%s is not a UUID",
                                      sid_s);
        } else if (!json_is_string(address)) {
            return ovsdb_syntax_error(servers, NULL, "%s server address is "
                                      "not a string", sid_s);
        }
    }
    return NULL;
}

/* Appends 'servers' (valid, see above) to 'ds' the way "ovsdb-tool
 * show-log" prints them: 'abcd("ADDRESS"), ...' with the first 4 hex
 * digits of each server ID, in the order of Open vSwitch's hash map of
 * servers (which hashes a server by the first 32 bits of its ID). */
void
raft_file_servers_format(const json_t *servers, struct ds *ds)
{
    size_t n = json_object_size(servers), i;
    const char **sids = xmalloc((n + 1) * sizeof *sids);
    uint32_t *hashes = xmalloc((n + 1) * sizeof *hashes);
    size_t *order = xmalloc((n + 1) * sizeof *order);
    const char *sid_s;
    json_t *address;

    i = 0;
    json_object_foreach ((json_t *) servers, sid_s, address) {
        struct uuid sid;

        uuid_from_string(&sid, sid_s);
        sids[i] = sid_s;
        hashes[i++] = sid.parts[0];
    }
    ovsdb_json_ovs_hmap_order(hashes, n, order);
    for (i = 0; i < n; i++) {
        const char *s = sids[order[i]];

        ds_put_format(ds, "%s%.4s(\"%s\")", i ? ", " : "", s,
                      json_string_value(json_object_get(servers, s)));
    }
    free(sids);
    free(hashes);
    free(order);
}

/* Sets member 'name' of JSON 'object' to 'value', as the clustered file and
 * the Raft messages write numbers (from 2**63 up as negative integers). */
void
raft_file_put_uint64(json_t *object, const char *name, uint64_t value)
{
    json_object_set_new(object, name, json_integer((json_int_t) value));
}

/* Sets member 'name' of JSON 'object' to 'uuid', as a string. */
void
raft_file_put_uuid(json_t *object, const char *name, const struct uuid *uuid)
{
    char s[UUID_LEN + 1];

    uuid_to_string(uuid, s);
    json_object_set_new(object, name, json_string(s));
}

static uint64_t
parse_uint64(struct ovsdb_parser *p, const char *name)
{
    const json_t *json = ovsdb_parser_member(p, name, OP_INTEGER);

    return json ? (uint64_t) json_integer_value(json) : 0;
}

static bool
parse_optional_uint64(struct ovsdb_parser *p, const char *name,
                      uint64_t *value)
{
    const json_t *json = ovsdb_parser_member(p, name,
                                             OP_INTEGER | OP_OPTIONAL);

    if (json) {
        *value = json_integer_value(json);
    }
    return json != NULL;
}

static bool
parse_uuid(struct ovsdb_parser *p, const char *name, bool optional,
           struct uuid *uuid)
{
    const char *s = parse_string(p, name, optional);

    if (!s) {
        return false;
    } else if (!uuid_from_string(uuid, s)) {
        ovsdb_parser_raise_error(p, "%s is not a valid UUID", name);
        return false;
    }
    return true;
}

static const char *
parse_string(struct ovsdb_parser *p, const char *name, bool optional)
{
    const json_t *json = ovsdb_parser_member(p, name, (OP_STRING
                                                       | (optional
                                                          ? OP_OPTIONAL
                                                          : 0)));
    return json ? json_string_value(json) : NULL;
}

static json_t *
parse_servers(struct ovsdb_parser *p, const char *name, bool optional)
{
    const json_t *json = ovsdb_parser_member(p, name, (OP_OBJECT
                                                       | (optional
                                                          ? OP_OPTIONAL
                                                          : 0)));
    struct ovsdb_error *error;

    if (!json) {
        return NULL;
    }
    error = raft_file_servers_validate(json);
    if (error) {
        if (!ovsdb_parser_has_error(p)) {
            p->error = error;
        } else {
            ovsdb_error_destroy(error);
        }
        return NULL;
    }
    return json_incref((json_t *) json);
}

static void
parse_remote_addresses(struct ovsdb_parser *p, struct raft_file_header *h)
{
    const json_t *array = ovsdb_parser_member(p, "remote_addresses",
                                              OP_ARRAY);
    size_t i, n;

    if (!array) {
        return;
    }
    n = json_array_size(array);
    for (i = 0; i < n; i++) {
        const json_t *address = json_array_get(array, i);

        if (!json_is_string(address)) {
            ovsdb_parser_raise_error(p, "remote_addresses must be an array "
                                     "of strings");
            return;
        }
        /* In the file's order, which show-log's order derives from, as Open
         * vSwitch's set of strings is filled in that order. */
        raft_file_header_add_remote(h, json_string_value(address));
    }
}
