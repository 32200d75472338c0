/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "unixctl.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dirs.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "jsonrpc.h"
#include "poll-loop.h"
#include "stream.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(unixctl);

/* Requests one connection may process in one unixctl_server_run(), and
 * connections accepted in one, so that no client can starve the others. */
#define UNIXCTL_MAX_BATCH 10

/* A registered command. */
struct unixctl_command {
    char *name;
    char *usage;                /* NULL: not listed. */
    int min_args, max_args;
    unixctl_cb_func *cb;
    void *aux;
};

static struct unixctl_command *commands;
static size_t n_commands, allocated_commands;

/* One client connection. */
struct unixctl_conn {
    struct unixctl_conn *prev, *next;   /* In the server's list. */
    struct unixctl_server *server;      /* NULL once detached (see below). */
    struct jsonrpc *rpc;
    json_t *request_id;         /* Request being processed, or NULL. */
};

/* A control server.  A connection whose stream fails while its command's
 * reply is still pending (a deferred reply) is detached from the server
 * instead of freed, so that the command can still call
 * unixctl_command_reply() on it; that call frees it. */
struct unixctl_server {
    struct pstream *listener;
    struct unixctl_conn conns;          /* List head: a sentinel. */
    char *path;                         /* Absolute path of the socket. */
};

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

static void register_builtin_commands(void);
static void list_commands_cb(struct unixctl_conn *, int argc,
                             const char *argv[], void *aux);
static void version_cb(struct unixctl_conn *, int argc, const char *argv[],
                       void *aux);
static struct unixctl_command *find_command(const char *name);
static int compare_commands(const void *, const void *);
static int run_connection(struct unixctl_conn *);
static void process_request(struct unixctl_conn *, struct jsonrpc_msg *);
static void reply__(struct unixctl_conn *, bool success, const char *body);
static json_t *text_to_json(const char *body);
static void kill_connection(struct unixctl_conn *, int error);
static void free_connection(struct unixctl_conn *);
static int transact__(struct jsonrpc *, struct jsonrpc_msg *request,
                      struct jsonrpc_msg **replyp);

/* Registers command 'name', which takes between 'min_args' and 'max_args'
 * arguments (INT_MAX for no limit), described in "list-commands" by 'usage'
 * (may be ""; NULL leaves the command out of "list-commands", as Open
 * vSwitch does for its deprecated aliases), and handled by 'cb' with
 * 'aux'.  Registering a name
 * twice replaces the first registration.  Call from the main thread. */
void
unixctl_command_register(const char *name, const char *usage,
                         int min_args, int max_args,
                         unixctl_cb_func *cb, void *aux)
{
    struct unixctl_command *command;

    util_assert(min_args >= 0 && min_args <= max_args);
    command = find_command(name);
    if (command) {
        free(command->usage);
    } else {
        if (n_commands >= allocated_commands) {
            allocated_commands = MAX(32, 2 * allocated_commands);
            commands = xrealloc(commands,
                                allocated_commands * sizeof *commands);
        }
        command = &commands[n_commands++];
        command->name = xstrdup(name);
    }
    command->usage = usage ? xstrdup(usage) : NULL;
    command->min_args = min_args;
    command->max_args = max_args;
    command->cb = cb;
    command->aux = aux;
}

/* Answers the request being processed on 'conn' with success and the text
 * 'body' (NULL means empty), to which a new-line is added if it lacks one.
 * Must be called exactly once per request. */
void
unixctl_command_reply(struct unixctl_conn *conn, const char *body)
{
    reply__(conn, true, body);
}

/* Answers the request being processed on 'conn' with an error whose text is
 * 'body' (NULL means empty), to which a new-line is added if it lacks one;
 * ovs-appctl then prints it on stderr and exits with status 2.  Must be
 * called exactly once per request. */
void
unixctl_command_reply_error(struct unixctl_conn *conn, const char *body)
{
    reply__(conn, false, body);
}

/* Creates a control server listening on the Unix socket 'path': by default
 * (NULL) "<rundir>/<program>.<pid>.ctl"; a relative 'path' is taken relative
 * to the run directory; "none" makes no server and stores NULL.  The socket
 * is removed when the server is destroyed or the process exits.  Returns 0
 * and stores the server in '*serverp', or a positive errno value and stores
 * NULL. */
int
unixctl_server_create(const char *path, struct unixctl_server **serverp)
{
    struct unixctl_server *server;
    struct pstream *listener;
    char *abs_path;
    char *name;
    int error;

    *serverp = NULL;
    if (path && !strcmp(path, "none")) {
        return 0;
    }

    register_builtin_commands();
    if (path) {
        abs_path = util_abs_file_name(dirs_rundir(), path);
        if (!abs_path) {
            return errno ? errno : ENOENT;
        }
    } else {
        abs_path = xasprintf("%s/%s.%ld.ctl", dirs_rundir(),
                             util_program_name(), (long int) getpid());
    }

    name = xasprintf("punix:%s", abs_path);
    error = pstream_open(name, &listener);
    free(name);
    if (error) {
        VLOG_WARN("could not initialize control socket %s (%s)",
                  abs_path, util_strerror(error));
        free(abs_path);
        return error;
    }
    fatal_signal_add_file_to_unlink(abs_path);

    server = xzalloc(sizeof *server);
    server->listener = listener;
    server->conns.prev = server->conns.next = &server->conns;
    server->path = abs_path;
    *serverp = server;
    return 0;
}

/* Accepts new connections on 'server' and processes the requests that have
 * arrived, calling the commands' callbacks.  'server' may be NULL. */
void
unixctl_server_run(struct unixctl_server *server)
{
    struct unixctl_conn *conn, *next;

    if (!server) {
        return;
    }

    for (int i = 0; i < UNIXCTL_MAX_BATCH; i++) {
        struct stream *stream;
        int error = pstream_accept(server->listener, &stream);

        if (!error) {
            conn = xzalloc(sizeof *conn);
            conn->server = server;
            conn->rpc = jsonrpc_open(stream);
            conn->next = &server->conns;
            conn->prev = server->conns.prev;
            conn->prev->next = conn;
            conn->next->prev = conn;
        } else {
            if (error != EAGAIN) {
                VLOG_WARN_RL(&rl, "%s: accept failed (%s)",
                             pstream_get_name(server->listener),
                             util_strerror(error));
            }
            break;
        }
    }

    for (conn = server->conns.next; conn != &server->conns; conn = next) {
        int error;

        next = conn->next;
        error = run_connection(conn);
        if (error) {
            kill_connection(conn, error);
        }
    }
}

/* Makes the next poll_block() wake up when 'server' has work to do.
 * 'server' may be NULL. */
void
unixctl_server_wait(struct unixctl_server *server)
{
    struct unixctl_conn *conn;

    if (!server) {
        return;
    }

    pstream_wait(server->listener);
    for (conn = server->conns.next; conn != &server->conns;
         conn = conn->next) {
        jsonrpc_wait(conn->rpc);
        if (!jsonrpc_get_backlog(conn->rpc) && !conn->request_id) {
            jsonrpc_recv_wait(conn->rpc);
        }
    }
}

/* Closes 'server' and its connections and removes its socket.  Commands
 * whose replies are pending may still reply; their connections are freed
 * then.  'server' may be NULL. */
void
unixctl_server_destroy(struct unixctl_server *server)
{
    if (!server) {
        return;
    }

    while (server->conns.next != &server->conns) {
        kill_connection(server->conns.next, 0);
    }
    pstream_close(server->listener);
    fatal_signal_unlink_file_now(server->path);
    free(server->path);
    free(server);
}

/* Returns the absolute path of the socket on which 'server' listens. */
const char *
unixctl_server_get_path(const struct unixctl_server *server)
{
    return server ? server->path : NULL;
}

/* Connects to the control socket 'path' (relative to the run directory if
 * relative), waiting for the connection to complete.  Returns 0 and stores
 * the connection in '*clientp', or a positive errno value (logged) and
 * stores NULL.  Fatal signals (e.g. ovs-appctl's --timeout alarm) are
 * processed while waiting. */
int
unixctl_client_create(const char *path, struct jsonrpc **clientp)
{
    struct stream *stream = NULL;
    char *abs_path;
    char *name;
    int error;

    *clientp = NULL;
    abs_path = util_abs_file_name(dirs_rundir(), path);
    if (!abs_path) {
        return errno ? errno : ENOENT;
    }

    name = xasprintf("unix:%s", abs_path);
    error = stream_open(name, &stream);
    free(name);
    while (!error) {
        error = stream_connect(stream);
        if (error != EAGAIN) {
            break;
        }
        stream_run(stream);
        stream_run_wait(stream);
        stream_connect_wait(stream);
        fatal_signal_wait();
        poll_block();
        fatal_signal_run();
        error = 0;
    }

    if (error) {
        VLOG_WARN("failed to connect to %s", abs_path);
        if (stream) {
            stream_close(stream);
        }
    } else {
        *clientp = jsonrpc_open(stream);
    }
    free(abs_path);
    return error;
}

/* Sends 'command' with the 'argc' arguments in 'argv' on 'client' and waits
 * for the answer, processing fatal signals meanwhile.  On success returns 0
 * and stores in '*result' the server's text if it succeeded (and NULL in
 * '*error'), or in '*error' its error text (and NULL in '*result'); the
 * caller frees both.  On failure to communicate returns a positive errno
 * value (logged), or EOF if the server closed the connection, and stores
 * NULL in both. */
int
unixctl_client_transact(struct jsonrpc *client, const char *command,
                        int argc, char *argv[],
                        char **result, char **error)
{
    struct jsonrpc_msg *request, *reply;
    json_t *params;
    int retval;

    *result = *error = NULL;

    params = json_array();
    for (int i = 0; i < argc; i++) {
        json_t *arg = json_string(argv[i]);
        if (!arg) {
            VLOG_WARN("argument %d is not valid UTF-8", i + 1);
            json_decref(params);
            return EINVAL;
        }
        json_array_append_new(params, arg);
    }

    request = jsonrpc_create_request(command, params, NULL);
    retval = transact__(client, request, &reply);
    if (retval) {
        VLOG_WARN("error communicating with %s: %s",
                  jsonrpc_get_name(client),
                  retval == EOF ? "End of file" : util_strerror(retval));
        return retval;
    }

    if (reply->error) {
        if (json_is_string(reply->error)) {
            *error = xstrdup(json_string_value(reply->error));
        } else {
            VLOG_WARN("%s: unexpected error type in JSON RPC reply",
                      jsonrpc_get_name(client));
            retval = EINVAL;
        }
    } else if (reply->result) {
        if (json_is_string(reply->result)) {
            *result = xstrdup(json_string_value(reply->result));
        } else {
            VLOG_WARN("%s: unexpected result type in JSON RPC reply",
                      jsonrpc_get_name(client));
            retval = EINVAL;
        }
    } else {
        retval = EINVAL;
    }
    jsonrpc_msg_destroy(reply);
    return retval;
}

static void
register_builtin_commands(void)
{
    static bool registered;

    if (!registered) {
        registered = true;
        unixctl_command_register("list-commands", "", 0, 0,
                                 list_commands_cb, NULL);
        unixctl_command_register("version", "", 0, 0, version_cb, NULL);
    }
}

static void
list_commands_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                 const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    const struct unixctl_command **sorted;
    struct ds s = DS_EMPTY_INITIALIZER;

    sorted = xmalloc(n_commands * sizeof *sorted);
    for (size_t i = 0; i < n_commands; i++) {
        sorted[i] = &commands[i];
    }
    qsort(sorted, n_commands, sizeof *sorted, compare_commands);

    ds_put_cstr(&s, "The available commands are:\n");
    for (size_t i = 0; i < n_commands; i++) {
        /* Open vSwitch's layout: the name in a 23-column field, then a
         * space, then the usage, even when the usage is empty. */
        if (sorted[i]->usage) {
            ds_put_format(&s, "  %-23s %s\n", sorted[i]->name,
                          sorted[i]->usage);
        }
    }
    free(sorted);

    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
version_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
           const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    char *version = xasprintf("%s (dpswitch) %s", util_program_name(),
                              util_program_version());

    unixctl_command_reply(conn, version);
    free(version);
}

static struct unixctl_command *
find_command(const char *name)
{
    for (size_t i = 0; i < n_commands; i++) {
        if (!strcmp(commands[i].name, name)) {
            return &commands[i];
        }
    }
    return NULL;
}

static int
compare_commands(const void *a_, const void *b_)
{
    const struct unixctl_command *const *a = a_;
    const struct unixctl_command *const *b = b_;

    return strcmp((*a)->name, (*b)->name);
}

/* Sends what is queued on 'conn' and processes requests that arrived, one at
 * a time: none is read while a reply is pending or still being sent.
 * Returns 0, or an error that means 'conn' must be closed. */
static int
run_connection(struct unixctl_conn *conn)
{
    int error;

    jsonrpc_run(conn->rpc);
    error = jsonrpc_get_status(conn->rpc);
    for (int i = 0; !error && i < UNIXCTL_MAX_BATCH; i++) {
        struct jsonrpc_msg *msg;

        if (conn->request_id || jsonrpc_get_backlog(conn->rpc)) {
            break;
        }

        error = jsonrpc_recv(conn->rpc, &msg);
        if (error == EAGAIN) {
            return 0;
        } else if (error) {
            break;
        }

        if (msg->type == JSONRPC_REQUEST) {
            process_request(conn, msg);
        } else {
            VLOG_WARN_RL(&rl, "%s: received unexpected %s message",
                         jsonrpc_get_name(conn->rpc),
                         jsonrpc_msg_type_to_string(msg->type));
            error = EINVAL;
        }
        jsonrpc_msg_destroy(msg);

        jsonrpc_run(conn->rpc);
        if (!error) {
            error = jsonrpc_get_status(conn->rpc);
        }
    }
    return error;
}

/* Dispatches 'request' to its command, after checking its arguments. */
static void
process_request(struct unixctl_conn *conn, struct jsonrpc_msg *request)
{
    const struct unixctl_command *command;
    size_t n_args = json_array_size(request->params);
    char *error = NULL;

    conn->request_id = json_incref(request->id);

    command = find_command(request->method);
    if (!command) {
        error = xasprintf("\"%s\" is not a valid command (use "
                          "\"list-commands\" to see a list of valid "
                          "commands)", request->method);
    } else if (n_args < (size_t) command->min_args) {
        error = xasprintf("\"%s\" command requires at least %d arguments",
                          request->method, command->min_args);
    } else if (n_args > (size_t) command->max_args) {
        error = xasprintf("\"%s\" command takes at most %d arguments",
                          request->method, command->max_args);
    } else {
        const char **argv = xmalloc((n_args + 2) * sizeof *argv);

        argv[0] = request->method;
        for (size_t i = 0; i < n_args; i++) {
            const json_t *arg = json_array_get(request->params, i);

            if (!json_is_string(arg)) {
                error = xasprintf("\"%s\" command has non-string argument",
                                  request->method);
                break;
            }
            argv[i + 1] = json_string_value(arg);
        }
        argv[n_args + 1] = NULL;
        if (!error) {
            command->cb(conn, n_args + 1, argv, command->aux);
        }
        free(argv);
    }

    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
    }
}

static void
reply__(struct unixctl_conn *conn, bool success, const char *body)
{
    struct jsonrpc_msg *reply;
    json_t *text;

    if (!conn->request_id) {
        VLOG_WARN("reply without a request in progress, ignored");
        return;
    }

    if (!conn->server) {
        /* The client went away while the command ran. */
        free_connection(conn);
        return;
    }

    text = text_to_json(body);
    reply = (success
             ? jsonrpc_create_reply(text, conn->request_id)
             : jsonrpc_create_error(text, conn->request_id));
    json_decref(conn->request_id);
    conn->request_id = NULL;
    jsonrpc_send(conn->rpc, reply);
}

/* Returns 'body' as a JSON string, with a final new-line if it is not empty
 * and lacks one, and with any byte that would make it invalid UTF-8
 * replaced by '?'. */
static json_t *
text_to_json(const char *body)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    json_t *text;

    ds_put_cstr(&s, body ? body : "");
    if (s.length && s.string[s.length - 1] != '\n') {
        ds_put_char(&s, '\n');
    }

    text = json_stringn(ds_cstr(&s), s.length);
    if (!text) {
        for (size_t i = 0; i < s.length; i++) {
            if ((unsigned char) s.string[i] >= 0x80 || !s.string[i]) {
                s.string[i] = '?';
            }
        }
        text = json_stringn(ds_cstr(&s), s.length);
    }
    ds_destroy(&s);
    return text;
}

/* Removes 'conn' from its server, logging 'error' (as a warning if it means
 * the client misbehaved) unless it is 0 or a plain end of file.  A
 * connection with a reply pending is detached rather than freed; reply__()
 * frees it. */
static void
kill_connection(struct unixctl_conn *conn, int error)
{
    if (error == EOF) {
        VLOG_DBG("%s: connection closed", jsonrpc_get_name(conn->rpc));
    } else if (error == EPIPE || error == ECONNRESET) {
        /* The client gave up (e.g. ovs-appctl --timeout): not our fault. */
        VLOG_INFO_RL(&rl, "%s: client went away (%s)",
                     jsonrpc_get_name(conn->rpc), util_strerror(error));
    } else if (error) {
        VLOG_WARN_RL(&rl, "%s: dropping connection (%s)",
                     jsonrpc_get_name(conn->rpc), util_strerror(error));
    }

    conn->prev->next = conn->next;
    conn->next->prev = conn->prev;
    conn->prev = conn->next = NULL;
    conn->server = NULL;
    if (!conn->request_id) {
        free_connection(conn);
    }
}

static void
free_connection(struct unixctl_conn *conn)
{
    jsonrpc_close(conn->rpc);
    json_decref(conn->request_id);
    free(conn);
}

/* Sends 'request' and waits for the reply or error with the same id, which
 * it stores in '*replyp'.  Returns 0 or the connection's error. */
static int
transact__(struct jsonrpc *client, struct jsonrpc_msg *request,
           struct jsonrpc_msg **replyp)
{
    json_t *id = json_incref(request->id);
    int error;

    *replyp = NULL;
    error = jsonrpc_send(client, request);
    while (!error) {
        struct jsonrpc_msg *msg;

        jsonrpc_run(client);
        error = jsonrpc_recv(client, &msg);
        if (!error) {
            if ((msg->type == JSONRPC_REPLY || msg->type == JSONRPC_ERROR)
                && json_equal(msg->id, id)) {
                *replyp = msg;
                break;
            }
            jsonrpc_msg_destroy(msg);
        } else if (error == EAGAIN) {
            jsonrpc_wait(client);
            jsonrpc_recv_wait(client);
            fatal_signal_wait();
            poll_block();
            fatal_signal_run();
            error = 0;
        }
    }
    json_decref(id);
    return error;
}
