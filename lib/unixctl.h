/* unixctl: the control channel every daemon serves and ovs-appctl talks to.
 *
 * Server side.  A daemon creates a server, by default listening on
 * "<rundir>/<program>.<pid>.ctl", and runs it from its main loop:
 *
 *     struct unixctl_server *server;
 *     error = unixctl_server_create(NULL, &server);
 *     for (;;) {
 *         unixctl_server_run(server);
 *         ...
 *         unixctl_server_wait(server);
 *         poll_block();
 *     }
 *
 * Modules register commands once, before or after the server exists, with
 * unixctl_command_register().  A command's callback is called from
 * unixctl_server_run() in the daemon's main thread with 'argc' and 'argv'
 * holding the command name followed by its arguments; it must eventually
 * answer with exactly one call of unixctl_command_reply() or
 * unixctl_command_reply_error() on 'conn' (possibly later, from a later
 * iteration of the main loop).  A connection handles one request at a time.
 *
 * The wire protocol is JSON-RPC 1.0 over the stream: a request
 * {"method": COMMAND, "params": [ARG, ...], "id": ID} whose params are all
 * strings, answered by {"result": TEXT, "error": null, "id": ID} or
 * {"result": null, "error": TEXT, "id": ID}.
 *
 * Built-in commands: "list-commands", "version"; the program adds "exit" and
 * the modules theirs ("vlog/...", "coverage/show", "memory/show").
 *
 * Client side (ovs-appctl): unixctl_client_create() connects,
 * unixctl_client_transact() sends one command and waits for its answer.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef UNIXCTL_H
#define UNIXCTL_H 1

#include <stdbool.h>

struct jsonrpc;
struct unixctl_conn;
struct unixctl_server;

/* A command's callback.  'argv[0]' is the command's name, 'argv[1]' through
 * 'argv[argc - 1]' its arguments; 'aux' is as registered. */
typedef void unixctl_cb_func(struct unixctl_conn *conn, int argc,
                             const char *argv[], void *aux);

void unixctl_command_register(const char *name, const char *usage,
                              int min_args, int max_args,
                              unixctl_cb_func *cb, void *aux);
void unixctl_command_reply(struct unixctl_conn *, const char *body);
void unixctl_command_reply_error(struct unixctl_conn *, const char *body);

int unixctl_server_create(const char *path, struct unixctl_server **);
void unixctl_server_run(struct unixctl_server *);
void unixctl_server_wait(struct unixctl_server *);
void unixctl_server_destroy(struct unixctl_server *);
const char *unixctl_server_get_path(const struct unixctl_server *);

int unixctl_client_create(const char *path, struct jsonrpc **client);
int unixctl_client_transact(struct jsonrpc *client, const char *command,
                            int argc, char *argv[],
                            char **result, char **error);

#endif /* unixctl.h */
