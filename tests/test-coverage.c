/* Unit tests for lib/coverage.c and lib/memory.c.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "coverage.h"
#include "jsonrpc.h"
#include "memory.h"
#include "poll-loop.h"
#include "unixctl.h"
#include "util.h"

COVERAGE_DEFINE(test_single);
COVERAGE_DEFINE(test_threads);
COVERAGE_DEFINE(test_show_hit);
COVERAGE_DEFINE(test_show_never);
COVERAGE_DEFINE(test_rates);

#define N_THREADS 8
#define N_INCREMENTS 100000

static unsigned long long int
read_counter(const char *name)
{
    unsigned long long int total = 0;

    assert_true(coverage_read(name, &total));
    return total;
}

/* Returns the line of 'report' that starts with 'prefix', as a new string
 * without its new-line, or NULL. */
static char *
find_line(const char *report, const char *prefix)
{
    for (const char *p = report; *p; ) {
        const char *end = strchr(p, '\n');
        size_t length = end ? (size_t) (end - p) : strlen(p);

        if (!strncmp(p, prefix, strlen(prefix))) {
            return xmemdup0(p, length);
        }
        p += length + (end != NULL);
    }
    return NULL;
}

static void
test_inc_add_read(void **state DPS_UNUSED)
{
    unsigned long long int before = read_counter("test_single");
    unsigned long long int total;

    COVERAGE_INC(test_single);
    COVERAGE_INC(test_single);
    COVERAGE_ADD(test_single, 40);
    assert_int_equal(read_counter("test_single"), before + 42);

    total = 12345;
    assert_false(coverage_read("no_such_counter", &total));
    assert_int_equal(total, 12345);
    assert_false(coverage_read("", &total));
}

struct thread_arg {
    pthread_barrier_t *counted;     /* Reached after counting. */
    pthread_barrier_t *read;        /* Reached after the main thread read. */
};

static void *
count_thread(void *arg_)
{
    struct thread_arg *arg = arg_;

    for (int i = 0; i < N_INCREMENTS; i++) {
        COVERAGE_INC(test_threads);
    }
    COVERAGE_ADD(test_threads, 7);
    pthread_barrier_wait(arg->counted);
    pthread_barrier_wait(arg->read);
    return NULL;
}

/* Counts from several threads; the totals must be exact both while the
 * threads are alive and after they exit (when their counts are folded into
 * those of exited threads). */
static void
test_threads_summed(void **state DPS_UNUSED)
{
    const unsigned long long int per_thread = N_INCREMENTS + 7;
    pthread_barrier_t counted, read;
    struct thread_arg arg = { &counted, &read };
    pthread_t threads[N_THREADS];

    pthread_barrier_init(&counted, NULL, N_THREADS + 1);
    pthread_barrier_init(&read, NULL, N_THREADS + 1);
    for (int i = 0; i < N_THREADS; i++) {
        assert_int_equal(pthread_create(&threads[i], NULL, count_thread,
                                        &arg), 0);
    }
    pthread_barrier_wait(&counted);
    assert_int_equal(read_counter("test_threads"), N_THREADS * per_thread);
    pthread_barrier_wait(&read);
    for (int i = 0; i < N_THREADS; i++) {
        pthread_join(threads[i], NULL);
    }
    assert_int_equal(read_counter("test_threads"), N_THREADS * per_thread);

    /* A second generation of threads adds to the exited ones' counts. */
    pthread_barrier_init(&counted, NULL, 2);
    pthread_barrier_init(&read, NULL, 2);
    assert_int_equal(pthread_create(&threads[0], NULL, count_thread, &arg),
                     0);
    pthread_barrier_wait(&counted);
    pthread_barrier_wait(&read);
    pthread_join(threads[0], NULL);
    assert_int_equal(read_counter("test_threads"),
                     (N_THREADS + 1) * per_thread);
    COVERAGE_INC(test_threads);
    assert_int_equal(read_counter("test_threads"),
                     (N_THREADS + 1) * per_thread + 1);
    pthread_barrier_destroy(&counted);
    pthread_barrier_destroy(&read);
}

/* The layout of "coverage/show": header, one line per hit counter, count of
 * counters never hit. */
static void
test_show_layout(void **state DPS_UNUSED)
{
    unsigned int n_never = 0, n_lines = 0;
    char *report, *line;
    char last[64] = "";
    unsigned int hash;
    char tail;

    COVERAGE_ADD(test_show_hit, 5);
    report = coverage_show();

    assert_int_equal(sscanf(report, "Event coverage, avg rate over last: "
                            "5 seconds, last minute, last hour,  "
                            "hash=%8x:%c", &hash, &tail), 2);
    assert_int_equal(tail, '\n');
    assert_true(util_str_has_prefix(report,
                                    "Event coverage, avg rate over last: 5 "
                                    "seconds, last minute, last hour,  "
                                    "hash="));

    /* No sample has been taken yet: rates are zero, the line is exact. */
    line = find_line(report, "test_show_hit ");
    assert_non_null(line);
    assert_string_equal(line, "test_show_hit              0.0/sec     "
                        "0.000/sec        0.0000/sec   total: 5");
    free(line);
    assert_null(find_line(report, "test_show_never"));

    /* Counter lines are sorted by name; the last line counts the rest. */
    for (const char *p = strchr(report, '\n') + 1; *p;
         p = strchr(p, '\n') + 1) {
        char name[64];
        unsigned long long int total;

        if (sscanf(p, "%u events never hit\n", &n_never) == 1) {
            assert_string_equal(strchr(p, '\n'), "\n");
            break;
        }
        assert_int_equal(sscanf(p, "%63s", name), 1);
        assert_true(strcmp(last, name) < 0);
        snprintf(last, sizeof last, "%s", name);
        total = strtoull(strstr(p, "total: ") + 7, NULL, 10);
        assert_true(total > 0);
        n_lines++;
    }
    assert_true(n_never >= 1);      /* At least test_show_never. */
    assert_true(n_lines >= 2);      /* test_show_hit, test_single, ... */
    free(report);

    /* The hash covers the names of the counters hit: hitting one more
     * changes it. */
    COVERAGE_INC(test_show_never);
    report = coverage_show();
    unsigned int hash2;
    assert_int_equal(sscanf(report, "Event coverage, avg rate over last: "
                            "5 seconds, last minute, last hour,  "
                            "hash=%8x:", &hash2), 1);
    assert_true(hash != hash2);
    assert_non_null(strstr(report, "\ntest_show_never "));
    free(report);
}

/* Rates: after one sample, the 5-second rate is the second's delta over 5
 * and the minute rate over 60; the hour has no complete minute yet. */
static void
test_rates(void **state DPS_UNUSED)
{
    char *report, *line;

    coverage_run();             /* Starts sampling if not started yet. */
    usleep(1100 * 1000);
    coverage_run();             /* Absorb earlier counts into a sample. */
    COVERAGE_ADD(test_rates, 60);
    usleep(1100 * 1000);
    coverage_run();             /* This sample holds the 60 events. */

    report = coverage_show();
    line = find_line(report, "test_rates ");
    assert_non_null(line);
    assert_string_equal(line, "test_rates                12.0/sec     "
                        "1.000/sec        0.0000/sec   total: 60");
    free(line);
    free(report);
}

static void
report_a(struct memory_report *report, void *aux)
{
    memory_report_add(report, "monitors", *(int *) aux);
    memory_report_add(report, "cells", 100);
}

static void
report_b(struct memory_report *report, void *aux DPS_UNUSED)
{
    memory_report_add(report, "cells", 23);
    memory_report_add(report, "atoms", 14);
}

static void
test_memory_report(void **state DPS_UNUSED)
{
    static int n_monitors = 2;
    char *report;

    report = memory_get_report();
    assert_string_equal(report, "");
    free(report);

    memory_register_reporter(report_a, &n_monitors);
    report = memory_get_report();
    assert_string_equal(report, "cells:100 monitors:2");
    free(report);

    /* Keys are sorted; a key two reporters give is summed. */
    memory_register_reporter(report_b, NULL);
    n_monitors = 0;
    report = memory_get_report();
    assert_string_equal(report, "atoms:14 cells:123 monitors:0");
    free(report);
}

static void
exit_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
        const char *argv[] DPS_UNUSED, void *exiting_)
{
    bool *exiting = exiting_;

    *exiting = true;
    unixctl_command_reply(conn, NULL);
}

/* Serves 'path' until told "exit", in a child process.  (A child process
 * rather than a thread: a thread would leave its poll-loop state behind,
 * which the leak checker reports.) */
static void DPS_NO_RETURN
run_server(const char *path)
{
    struct unixctl_server *server;
    bool exiting = false;

    /* If the test fails before it says "exit", do not linger: an orphan
     * holding the test's output pipe would hang "make check". */
    alarm(30);
    if (unixctl_server_create(path, &server)) {
        _exit(1);
    }
    coverage_register_unixctl_commands();
    coverage_register_unixctl_commands();     /* Idempotent. */
    memory_register_unixctl_commands();
    memory_register_unixctl_commands();
    unixctl_command_register("exit", "", 0, 0, exit_cb, &exiting);
    for (;;) {
        unixctl_server_run(server);
        if (exiting) {
            break;
        }
        unixctl_server_wait(server);
        poll_block();
    }
    unixctl_server_destroy(server);
    _exit(0);
}

/* Runs 'command' with optional argument 'arg' on 'client'; stores the
 * result or the error in '*result' and '*error'. */
static void
transact(struct jsonrpc *client, const char *command, const char *arg,
         char **result, char **error)
{
    char *argv[] = { (char *) arg };

    assert_int_equal(unixctl_client_transact(client, command, arg ? 1 : 0,
                                             argv, result, error), 0);
}

/* The unixctl commands, through a real server and client. */
static void
test_unixctl_commands(void **state DPS_UNUSED)
{
    char dir[] = "/tmp/test-coverage.XXXXXX";
    unsigned long long int total;
    struct jsonrpc *client;
    char *result, *error, *path, *expected;
    struct stat st;
    int status;
    pid_t pid;

    assert_non_null(mkdtemp(dir));
    path = xasprintf("%s/ctl", dir);
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        run_server(path);
    }
    for (int i = 0; stat(path, &st) && i < 500; i++) {
        usleep(10 * 1000);
    }
    assert_int_equal(unixctl_client_create(path, &client), 0);

    assert_true(coverage_read("test_single", &total));
    expected = xasprintf("%llu\n", total);
    transact(client, "coverage/read-counter", "test_single", &result, &error);
    assert_string_equal(result, expected);
    assert_null(error);
    free(result);
    free(expected);

    transact(client, "coverage/read-counter", "no_such_counter",
             &result, &error);
    assert_null(result);
    assert_string_equal(error, "No such counter\n");
    free(error);

    transact(client, "coverage/show", NULL, &result, &error);
    assert_true(util_str_has_prefix(result, "Event coverage, "));
    assert_non_null(strstr(result, "\ntest_single "));
    free(result);

    transact(client, "memory/show", NULL, &result, &error);
    assert_string_equal(result, "atoms:14 cells:123 monitors:0\n");
    free(result);

    transact(client, "exit", NULL, &result, &error);
    free(result);
    jsonrpc_close(client);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    rmdir(dir);
    free(path);
}

int
main(int argc DPS_UNUSED, char *argv[])
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inc_add_read),
        cmocka_unit_test(test_threads_summed),
        cmocka_unit_test(test_show_layout),
        cmocka_unit_test(test_rates),
        cmocka_unit_test(test_memory_report),
        cmocka_unit_test(test_unixctl_commands),
    };

    util_set_program_name(argv[0]);
    return cmocka_run_group_tests_name("coverage", tests, NULL, NULL);
}
