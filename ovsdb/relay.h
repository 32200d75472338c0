/* Relay mode of ovsdb-server ("relay:DB:REMOTE"): a database whose contents
 * come from another server, to which its changes are forwarded. */

#ifndef OVSDB_RELAY_H
#define OVSDB_RELAY_H 1

#include <stdbool.h>
#include "json.h"

struct jsonrpc_msg;
struct ovsdb;
struct ovsdb_schema;

/* What the server does for a relay.  'aux' is relay_create()'s.
 *
 * get_db() returns the database that the server serves for the relay.
 * install() gives the server the remote's schema (which it owns): the server
 * serves an empty database of that schema from then on, unless its database
 * has that schema already.
 * set_connected() reports that the relay is in sync with a remote for the
 * first time.
 * reply() sends 'reply' (which it owns), the remote's answer to a request
 * that relay_forward() was given, to 'client'. */
struct relay_ops {
    struct ovsdb *(*get_db)(void *aux);
    void (*install)(void *aux, struct ovsdb_schema *);
    void (*set_connected)(void *aux, bool connected);
    void (*reply)(void *aux, void *client, struct jsonrpc_msg *reply);
};

/* Parses "relay:DB:REMOTE" 'spec' into '*db_namep' and '*remotesp' (which
 * the caller frees).  Returns NULL, or Open vSwitch's error text (which the
 * caller frees). */
char *relay_parse(const char *spec, char **db_namep, char **remotesp);

/* Creates a relay of database 'db_name' from 'remotes', a comma-separated
 * list of active connection methods, tried in turn. */
struct relay *relay_create(const char *db_name, const char *remotes,
                           const struct relay_ops *, void *aux);
void relay_destroy(struct relay *);

void relay_run(struct relay *);
void relay_wait(struct relay *);

/* Whether the relay has been in sync with a remote (then its database has
 * the remote's schema and serves clients, even while the remote is away). */
bool relay_is_ready(const struct relay *);

/* Sends "transact" request 'params' from 'client' to the remote, now or
 * once in sync, and later reply()s with the answer under 'id'. */
void relay_forward(struct relay *, void *client, const json_t *id,
                   const json_t *params);

/* 'client' is gone: its answers are dropped. */
void relay_forget_client(struct relay *, void *client);

#endif /* relay.h */
