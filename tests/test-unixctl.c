/* Unit tests for lib/unixctl.c: a server in a forked child, driven by the
 * client functions and by raw JSON-RPC connections that misbehave.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "jsonrpc.h"
#include "poll-loop.h"
#include "stream.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

/* The test's private run directory. */
static char tmp_dir[] = "/tmp/test-unixctl.XXXXXX";

/* A server running in a child process. */
struct test_server {
    pid_t pid;
    char *path;
};

/* Server-side state, in the child. */
static bool server_exiting;
static struct unixctl_conn *deferred_conn;
static long long int deferred_until;

static void
echo_cb(struct unixctl_conn *conn, int argc, const char *argv[],
        void *aux DPS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    for (int i = 1; i < argc; i++) {
        ds_put_format(&s, "%s%s", i > 1 ? " " : "", argv[i]);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
fail_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
        const char *argv[] DPS_UNUSED, void *aux)
{
    unixctl_command_reply_error(conn, aux);
}

static void
defer_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
         const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    /* Answered 200 ms later, from the main loop. */
    deferred_conn = conn;
    deferred_until = time_msec() + 200;
}

static void
exit_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
        const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    server_exiting = true;
    unixctl_command_reply(conn, NULL);
}

static void
register_test_commands(void)
{
    unixctl_command_register("echo", "[ARG...]", 0, INT_MAX, echo_cb, NULL);
    unixctl_command_register("two", "A B", 2, 2, echo_cb, NULL);
    unixctl_command_register("fail", "", 0, 0, fail_cb, "it failed");
    unixctl_command_register("defer", "", 0, 0, defer_cb, NULL);
    unixctl_command_register("exit", "", 0, 0, exit_cb, NULL);
}

/* Runs a server on 'path' (NULL: the default) in the child until "exit". */
static void
run_server(const char *path, int ready_fd)
{
    struct unixctl_server *server;

    if (unixctl_server_create(path, &server)) {
        _exit(1);
    }
    register_test_commands();
    if (write(ready_fd, "", 1) != 1) {
        _exit(1);
    }
    close(ready_fd);

    while (!server_exiting) {
        if (deferred_conn && time_msec() >= deferred_until) {
            unixctl_command_reply(deferred_conn, "deferred");
            deferred_conn = NULL;
        }
        unixctl_server_run(server);
        if (server_exiting) {
            break;
        }
        unixctl_server_wait(server);
        if (deferred_conn) {
            poll_timer_wait_until(deferred_until);
        }
        poll_block();
    }
    unixctl_server_destroy(server);
    _exit(0);
}

/* Starts a server in a child process, listening on 'name' in the temporary
 * directory (NULL: the default path), and returns once it listens. */
static struct test_server
start_server(const char *name)
{
    struct test_server ts;
    int fds[2];
    char c;

    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    ts.pid = fork();
    assert_true(ts.pid >= 0);
    if (!ts.pid) {
        close(fds[0]);
        run_server(name, fds[1]);
    }
    close(fds[1]);
    assert_int_equal(read(fds[0], &c, 1), 1);
    close(fds[0]);

    ts.path = (name
               ? util_abs_file_name(tmp_dir, name)
               : xasprintf("%s/%s.%ld.ctl", tmp_dir, util_program_name(),
                           (long int) ts.pid));
    return ts;
}

/* Sends "exit" to 'ts' and checks that it exits with status 0 and removes
 * its socket. */
static void
stop_server(struct test_server *ts)
{
    struct jsonrpc *client;
    char *result, *error;
    int status;

    assert_int_equal(unixctl_client_create(ts->path, &client), 0);
    assert_int_equal(unixctl_client_transact(client, "exit", 0, NULL,
                                             &result, &error), 0);
    assert_string_equal(result, "");
    assert_null(error);
    free(result);
    jsonrpc_close(client);

    assert_int_equal(waitpid(ts->pid, &status, 0), ts->pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(access(ts->path, F_OK), -1);
    free(ts->path);
}

/* Runs 'command' with 'argc' arguments on 'path'; returns the result or
 * "ERROR: " and the error text, which the caller frees. */
static char *
transact(const char *path, const char *command, int argc, char *argv[])
{
    struct jsonrpc *client;
    char *result, *error;
    char *answer;

    assert_int_equal(unixctl_client_create(path, &client), 0);
    assert_int_equal(unixctl_client_transact(client, command, argc, argv,
                                             &result, &error), 0);
    assert_true(!result != !error);
    answer = result ? result : xasprintf("ERROR: %s", error);
    if (error) {
        free(error);
    }
    jsonrpc_close(client);
    return answer;
}

static void
check_transact(const char *path, const char *expected,
               const char *command, int argc, char *argv[])
{
    char *answer = transact(path, command, argc, argv);

    assert_string_equal(answer, expected);
    free(answer);
}

/* Opens a raw connection to 'path', for tests that misbehave. */
static struct stream *
open_raw(const char *path)
{
    struct stream *stream;
    char *name = xasprintf("unix:%s", path);

    assert_int_equal(stream_open_block(stream_open(name, &stream), 5000,
                                       &stream), 0);
    free(name);
    return stream;
}

/* Sends all of 'data' on 'stream'. */
static void
send_raw(struct stream *stream, const char *data)
{
    size_t len = strlen(data);

    while (len) {
        ssize_t n = stream_send(stream, data, len);
        if (n == -EAGAIN) {
            stream_send_wait(stream);
            poll_block();
            continue;
        }
        assert_true(n > 0);
        data += n;
        len -= n;
    }
}

/* Reads from 'stream' until the server closes it; returns what arrived. */
static char *
recv_until_eof(struct stream *stream)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    long long int deadline = time_msec() + 5000;

    for (;;) {
        char buf[4096];
        ssize_t n = stream_recv(stream, buf, sizeof buf);

        if (n > 0) {
            ds_put_buffer(&s, buf, n);
        } else if (n == -EAGAIN) {
            assert_true(time_msec() < deadline);
            stream_recv_wait(stream);
            poll_timer_wait_until(deadline);
            poll_block();
        } else {
            break;
        }
    }
    return ds_steal_cstr(&s);
}

/* Sends 'data' on a new connection to 'path' and checks that the server
 * closes the connection without answering. */
static void
check_dropped(const char *path, const char *data)
{
    struct stream *stream = open_raw(path);
    char *received;

    send_raw(stream, data);
    received = recv_until_eof(stream);
    assert_string_equal(received, "");
    free(received);
    stream_close(stream);
}

static void
test_reply_and_arguments(void **state DPS_UNUSED)
{
    struct test_server ts = start_server("a.ctl");
    char *args[] = { "x", "y z", "-v", "\"quoted\"\n" };

    check_transact(ts.path, "x y z -v \"quoted\"\n", "echo", 4, args);
    check_transact(ts.path, "", "echo", 0, NULL);
    check_transact(ts.path, "x y z\n", "two", 2, args);
    check_transact(ts.path, "ERROR: it failed\n", "fail", 0, NULL);
    check_transact(ts.path, "deferred\n", "defer", 0, NULL);
    stop_server(&ts);
}

static void
test_large_reply(void **state DPS_UNUSED)
{
    struct test_server ts = start_server("big.ctl");
    size_t size = 4 * 1024 * 1024;
    char *big = xmalloc(size + 1);
    char *answer;

    /* Far more than a socket buffer holds, both ways. */
    for (size_t i = 0; i < size; i++) {
        big[i] = 'a' + i % 26;
    }
    big[size] = '\0';
    answer = transact(ts.path, "echo", 1, &big);
    assert_int_equal(strlen(answer), size + 1);
    assert_memory_equal(answer, big, size);
    assert_int_equal(answer[size], '\n');
    free(answer);
    free(big);
    stop_server(&ts);
}

static void
test_builtin_commands(void **state DPS_UNUSED)
{
    struct test_server ts = start_server("b.ctl");
    char *expected;

    expected = xasprintf("%s (dpswitch) %s\n", util_program_name(),
                         util_program_version());
    check_transact(ts.path, expected, "version", 0, NULL);
    free(expected);

    check_transact(ts.path,
                   "The available commands are:\n"
                   "  defer                   \n"
                   "  echo                    [ARG...]\n"
                   "  exit                    \n"
                   "  fail                    \n"
                   "  list-commands           \n"
                   "  two                     A B\n"
                   "  version                 \n",
                   "list-commands", 0, NULL);
    stop_server(&ts);
}

static void
test_command_errors(void **state DPS_UNUSED)
{
    struct test_server ts = start_server("c.ctl");
    char *args[] = { "1", "2", "3" };

    check_transact(ts.path,
                   "ERROR: \"nosuch\" is not a valid command (use "
                   "\"list-commands\" to see a list of valid commands)\n",
                   "nosuch", 0, NULL);
    check_transact(ts.path,
                   "ERROR: \"two\" command requires at least 2 arguments\n",
                   "two", 1, args);
    check_transact(ts.path,
                   "ERROR: \"two\" command takes at most 2 arguments\n",
                   "two", 3, args);
    check_transact(ts.path,
                   "ERROR: \"version\" command takes at most 0 arguments\n",
                   "version", 1, args);
    stop_server(&ts);
}

static void
test_non_string_params(void **state DPS_UNUSED)
{
    struct test_server ts = start_server("d.ctl");
    struct stream *stream = open_raw(ts.path);
    struct jsonrpc *rpc = jsonrpc_open(stream);
    struct jsonrpc_msg *request, *reply;
    json_t *params = json_pack("[s, i]", "a", 5);

    request = jsonrpc_create_request("echo", params, NULL);
    assert_int_equal(jsonrpc_transact_block(rpc, request, &reply), 0);
    assert_int_equal(reply->type, JSONRPC_ERROR);
    assert_string_equal(json_string_value(reply->error),
                        "\"echo\" command has non-string argument\n");
    jsonrpc_msg_destroy(reply);

    /* The argument count is checked first, as Open vSwitch does. */
    params = json_pack("[i, i, i]", 1, 2, 3);
    request = jsonrpc_create_request("two", params, NULL);
    assert_int_equal(jsonrpc_transact_block(rpc, request, &reply), 0);
    assert_string_equal(json_string_value(reply->error),
                        "\"two\" command takes at most 2 arguments\n");
    jsonrpc_msg_destroy(reply);

    /* The connection is still usable. */
    request = jsonrpc_create_request("echo", json_pack("[s]", "ok"), NULL);
    assert_int_equal(jsonrpc_transact_block(rpc, request, &reply), 0);
    assert_int_equal(reply->type, JSONRPC_REPLY);
    assert_string_equal(json_string_value(reply->result), "ok\n");
    jsonrpc_msg_destroy(reply);

    jsonrpc_close(rpc);
    stop_server(&ts);
}

static void
test_garbage_is_dropped(void **state DPS_UNUSED)
{
    struct test_server ts = start_server("e.ctl");

    /* Not JSON at all. */
    check_dropped(ts.path, "}}}garbage{{{");
    /* JSON, but not a JSON-RPC message. */
    check_dropped(ts.path, "[1, 2, 3]");
    /* A notification or a reply is not a request. */
    check_dropped(ts.path, "{\"method\": \"echo\", \"params\": [], "
                  "\"id\": null}");
    check_dropped(ts.path, "{\"result\": \"x\", \"error\": null, \"id\": 1}");

    /* The server is still there. */
    check_transact(ts.path, "", "echo", 0, NULL);
    stop_server(&ts);
}

static void
test_client_disconnects(void **state DPS_UNUSED)
{
    struct test_server ts = start_server("f.ctl");
    struct stream *stream;

    /* In the middle of a request. */
    stream = open_raw(ts.path);
    send_raw(stream, "{\"method\": \"echo\", \"par");
    stream_close(stream);

    /* With a deferred reply pending: the server must reply into the void
     * later without touching freed memory. */
    stream = open_raw(ts.path);
    send_raw(stream, "{\"method\": \"defer\", \"params\": [], \"id\": 7}");
    /* Let the server read the request before the connection goes. */
    usleep(50 * 1000);
    stream_close(stream);
    usleep(300 * 1000);

    /* Before the answer has been read. */
    stream = open_raw(ts.path);
    send_raw(stream, "{\"method\": \"list-commands\", \"params\": [], "
             "\"id\": 8}");
    stream_close(stream);

    check_transact(ts.path, "still here\n", "echo", 1,
                   (char *[]) { "still here" });
    stop_server(&ts);
}

static void
test_many_clients(void **state DPS_UNUSED)
{
    enum { N_CLIENTS = 25 };
    struct test_server ts = start_server("g.ctl");
    struct jsonrpc *rpcs[N_CLIENTS];

    /* All connect and send before any reads its answer. */
    for (int i = 0; i < N_CLIENTS; i++) {
        char *arg = xasprintf("%d", i);

        rpcs[i] = jsonrpc_open(open_raw(ts.path));
        assert_int_equal(jsonrpc_send_block(rpcs[i],
            jsonrpc_create_request("echo", json_pack("[s]", arg), NULL)),
            0);
        free(arg);
    }
    for (int i = 0; i < N_CLIENTS; i++) {
        struct jsonrpc_msg *reply;
        char *expected = xasprintf("%d\n", i);

        assert_int_equal(jsonrpc_recv_block(rpcs[i], &reply), 0);
        assert_int_equal(reply->type, JSONRPC_REPLY);
        assert_string_equal(json_string_value(reply->result), expected);
        jsonrpc_msg_destroy(reply);
        jsonrpc_close(rpcs[i]);
        free(expected);
    }

    /* Two requests in one write on one connection: answered in order. */
    {
        struct jsonrpc *rpc = jsonrpc_open(open_raw(ts.path));
        struct jsonrpc_msg *reply;

        assert_int_equal(jsonrpc_send_block(rpc,
            jsonrpc_create_request("echo", json_pack("[s]", "one"), NULL)),
            0);
        assert_int_equal(jsonrpc_send_block(rpc,
            jsonrpc_create_request("echo", json_pack("[s]", "two"), NULL)),
            0);
        assert_int_equal(jsonrpc_recv_block(rpc, &reply), 0);
        assert_string_equal(json_string_value(reply->result), "one\n");
        jsonrpc_msg_destroy(reply);
        assert_int_equal(jsonrpc_recv_block(rpc, &reply), 0);
        assert_string_equal(json_string_value(reply->result), "two\n");
        jsonrpc_msg_destroy(reply);
        jsonrpc_close(rpc);
    }
    stop_server(&ts);
}

static void
test_server_paths(void **state DPS_UNUSED)
{
    struct unixctl_server *server;
    struct test_server ts;
    char *expected;

    /* The default: <rundir>/<program>.<pid>.ctl. */
    ts = start_server(NULL);
    check_transact(ts.path, "", "echo", 0, NULL);
    stop_server(&ts);

    /* Relative to the run directory, not the working directory. */
    assert_int_equal(unixctl_server_create("rel.ctl", &server), 0);
    expected = xasprintf("%s/rel.ctl", tmp_dir);
    assert_string_equal(unixctl_server_get_path(server), expected);
    assert_int_equal(access(expected, F_OK), 0);
    unixctl_server_destroy(server);
    assert_int_equal(access(expected, F_OK), -1);
    free(expected);

    /* "none": no server at all, and the functions accept NULL. */
    assert_int_equal(unixctl_server_create("none", &server), 0);
    assert_null(server);
    unixctl_server_run(server);
    unixctl_server_wait(server);
    unixctl_server_destroy(server);

    /* A directory that does not exist. */
    assert_int_not_equal(unixctl_server_create("nodir/x.ctl", &server), 0);
    assert_null(server);
}

static void
test_client_errors(void **state DPS_UNUSED)
{
    struct jsonrpc *client;
    char *path = xasprintf("%s/absent.ctl", tmp_dir);

    assert_int_equal(unixctl_client_create(path, &client), ENOENT);
    assert_null(client);
    /* Relative names are in the run directory too. */
    assert_int_equal(unixctl_client_create("absent.ctl", &client), ENOENT);
    free(path);
}

static void
test_server_closes_mid_transaction(void **state DPS_UNUSED)
{
    struct test_server ts = start_server("h.ctl");
    struct jsonrpc *client;
    char *result, *error;
    int status;

    assert_int_equal(unixctl_client_create(ts.path, &client), 0);
    kill(ts.pid, SIGKILL);
    assert_int_equal(waitpid(ts.pid, &status, 0), ts.pid);
    assert_int_not_equal(unixctl_client_transact(client, "echo", 0, NULL,
                                                 &result, &error), 0);
    assert_null(result);
    assert_null(error);
    jsonrpc_close(client);

    /* The dead server's socket file is still there, but nobody listens. */
    assert_int_equal(access(ts.path, F_OK), 0);
    assert_int_equal(unixctl_client_create(ts.path, &client), ECONNREFUSED);
    assert_null(client);
    unlink(ts.path);
    free(ts.path);
}

static int
setup(void **state DPS_UNUSED)
{
    util_set_program_name("test-unixctl");
    if (!mkdtemp(tmp_dir)) {
        return -1;
    }
    setenv("OVS_RUNDIR", tmp_dir, 1);
    fatal_signal_init();
    return 0;
}

static int
teardown(void **state DPS_UNUSED)
{
    char *cmd = xasprintf("rm -rf '%s'", tmp_dir);
    int retval = system(cmd);

    free(cmd);
    return retval ? -1 : 0;
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reply_and_arguments),
        cmocka_unit_test(test_large_reply),
        cmocka_unit_test(test_builtin_commands),
        cmocka_unit_test(test_command_errors),
        cmocka_unit_test(test_non_string_params),
        cmocka_unit_test(test_garbage_is_dropped),
        cmocka_unit_test(test_client_disconnects),
        cmocka_unit_test(test_many_clients),
        cmocka_unit_test(test_server_paths),
        cmocka_unit_test(test_client_errors),
        cmocka_unit_test(test_server_closes_mid_transaction),
    };

    return cmocka_run_group_tests_name("unixctl", tests, setup, teardown);
}
