/* perf-ovsdb: load generator for an OVSDB server (ours or Open vSwitch's).
 *
 * Usage:
 *   perf-ovsdb txn SERVER N_CLIENTS N_TXNS
 *       N_CLIENTS connections each run N_TXNS small transactions (an
 *       insert, then an update of the row it inserted) on table "A" of
 *       database "T" (see ovsdb-bench.sh for the schema), all clients
 *       concurrently; prints transactions per second.
 *   perf-ovsdb fanout SERVER N_MONITORS N_TXNS
 *       N_MONITORS connections monitor table "A"; one more connection
 *       runs N_TXNS transactions; prints transactions per second counted
 *       until every monitor has received every update.
 *   perf-ovsdb ready SERVER
 *       waits until SERVER answers "list_dbs" and prints how long that
 *       took, in milliseconds.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jsonrpc.h"
#include "poll-loop.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"

struct client {
    struct jsonrpc *rpc;
    int done;                   /* Transactions completed. */
    int pending;                /* 0 or 1 request in flight. */
    char uuid[64];              /* Row inserted by the last insert. */
    long long int updates;      /* Monitor updates received. */
};

static struct jsonrpc *
connect_to(const char *server)
{
    struct stream *stream;
    int error = stream_open_block(stream_open(server, &stream), 10000,
                                  &stream);

    if (error) {
        util_fatal(error, "%s: connect failed", server);
    }
    return jsonrpc_open(stream);
}

static json_t *
json_or_die(const char *s)
{
    json_error_t error;
    json_t *json = json_loads(s, 0, &error);

    if (!json) {
        util_fatal(0, "bad JSON %s: %s", s, error.text);
    }
    return json;
}

static void
send_txn(struct client *c, int serial)
{
    char buf[512];

    if (serial % 2 == 0) {
        snprintf(buf, sizeof buf,
                 "[\"T\",{\"op\":\"insert\",\"table\":\"A\",\"row\":"
                 "{\"name\":\"r%p-%d\",\"n\":%d}}]", (void *) c, serial,
                 serial);
    } else {
        snprintf(buf, sizeof buf,
                 "[\"T\",{\"op\":\"update\",\"table\":\"A\",\"where\":"
                 "[[\"_uuid\",\"==\",[\"uuid\",\"%s\"]]],\"row\":"
                 "{\"n\":%d}}]", c->uuid, serial);
    }
    jsonrpc_send(c->rpc, jsonrpc_create_request("transact", json_or_die(buf),
                                                NULL));
    c->pending = 1;
}

/* Handles one message for 'c'; returns true if it completed a
 * transaction. */
static bool
handle(struct client *c, struct jsonrpc_msg *msg)
{
    bool completed = false;

    if (msg->type == JSONRPC_REPLY && c->pending) {
        const json_t *first = json_array_get(msg->result, 0);
        const json_t *uuid = json_object_get(first, "uuid");

        if (json_object_get(first, "error")) {
            util_fatal(0, "transaction failed");
        }
        if (uuid) {
            snprintf(c->uuid, sizeof c->uuid, "%s",
                     json_string_value(json_array_get(uuid, 1)));
        }
        c->pending = 0;
        c->done++;
        completed = true;
    } else if (msg->type == JSONRPC_NOTIFY
               && !strcmp(msg->method, "update")) {
        const json_t *tables = json_array_get(msg->params, 1);

        c->updates += json_object_size(json_object_get(tables, "A"));
    } else if (msg->type == JSONRPC_REQUEST
               && !strcmp(msg->method, "echo")) {
        jsonrpc_send(c->rpc, jsonrpc_create_reply(json_deep_copy(
                                                      msg->params),
                                                  msg->id));
    } else if (msg->type == JSONRPC_ERROR) {
        util_fatal(0, "server returned an error");
    }
    jsonrpc_msg_destroy(msg);
    return completed;
}

static void
run_clients(struct client *clients, int n, int n_txns, int n_writers,
            long long int expected_updates)
{
    for (;;) {
        bool finished = true;
        int i;

        for (i = 0; i < n; i++) {
            struct client *c = &clients[i];
            struct jsonrpc_msg *msg;

            jsonrpc_run(c->rpc);
            while (!jsonrpc_recv(c->rpc, &msg)) {
                handle(c, msg);
            }
            if (jsonrpc_get_status(c->rpc)) {
                util_fatal(0, "connection failed");
            }
            if (i < n_writers && !c->pending && c->done < n_txns) {
                send_txn(c, c->done);
            }
            if (i < n_writers ? c->done < n_txns
                : c->updates < expected_updates) {
                finished = false;
            }
        }
        if (finished) {
            return;
        }
        for (i = 0; i < n; i++) {
            jsonrpc_wait(clients[i].rpc);
            jsonrpc_recv_wait(clients[i].rpc);
        }
        poll_block();
    }
}

int
main(int argc, char *argv[])
{
    struct client *clients;
    long long int start, elapsed;
    int n, n_txns, i;

    util_set_program_name(argv[0]);
    if (argc == 3 && !strcmp(argv[1], "ready")) {
        start = time_msec();
        for (;;) {
            struct stream *stream;

            if (!stream_open_block(stream_open(argv[2], &stream), 100,
                                   &stream)) {
                struct jsonrpc *rpc = jsonrpc_open(stream);
                struct jsonrpc_msg *reply;

                if (!jsonrpc_transact_block(
                        rpc, jsonrpc_create_request("list_dbs", json_array(),
                                                    NULL), &reply)) {
                    jsonrpc_msg_destroy(reply);
                    jsonrpc_close(rpc);
                    break;
                }
                jsonrpc_close(rpc);
            }
            usleep(1000);
        }
        printf("%lld\n", time_msec() - start);
        return 0;
    }
    if (argc != 5 || (strcmp(argv[1], "txn") && strcmp(argv[1], "fanout"))
        || !util_str_to_int(argv[3], 10, &n) || n < 1
        || !util_str_to_int(argv[4], 10, &n_txns) || n_txns < 1) {
        fprintf(stderr, "usage: %s txn|fanout SERVER N N_TXNS\n"
                "       %s ready SERVER\n", argv[0], argv[0]);
        return 1;
    }

    if (!strcmp(argv[1], "txn")) {
        clients = xcalloc(n, sizeof *clients);
        for (i = 0; i < n; i++) {
            clients[i].rpc = connect_to(argv[2]);
        }
        start = time_msec();
        run_clients(clients, n, n_txns, n, 0);
        elapsed = time_msec() - start;
        printf("%.0f\n", (double) n * n_txns * 1000.0
               / (elapsed ? elapsed : 1));
    } else {
        /* Client 0 writes; the others monitor. */
        clients = xcalloc(n + 1, sizeof *clients);
        for (i = 0; i <= n; i++) {
            clients[i].rpc = connect_to(argv[2]);
            if (i) {
                struct jsonrpc_msg *reply;
                json_t *params = json_or_die(
                    "[\"T\",null,{\"A\":{\"columns\":[\"name\",\"n\"],"
                    "\"select\":{\"initial\":false}}}]");

                if (jsonrpc_transact_block(
                        clients[i].rpc,
                        jsonrpc_create_request("monitor", params, NULL),
                        &reply)) {
                    util_fatal(0, "monitor failed");
                }
                jsonrpc_msg_destroy(reply);
            }
        }
        start = time_msec();
        run_clients(clients, n + 1, n_txns, 1, n_txns);
        elapsed = time_msec() - start;
        printf("%.0f\n", (double) n_txns * 1000.0 / (elapsed ? elapsed : 1));
    }
    for (i = 0; i < (strcmp(argv[1], "txn") ? n + 1 : n); i++) {
        jsonrpc_close(clients[i].rpc);
    }
    free(clients);
    return 0;
}
