/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "memory.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "unixctl.h"
#include "util.h"

/* One key and its value. */
struct memory_pair {
    char *key;
    unsigned long long int value;
};

struct memory_report {
    struct memory_pair *pairs;
    size_t n_pairs;
    size_t allocated_pairs;
};

/* A registered reporter. */
struct memory_reporter {
    memory_report_func *func;
    void *aux;
};

/* Guards the reporters.  Reporters run without it held, so that one may
 * register another. */
static pthread_mutex_t memory_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct memory_reporter *memory_reporters;
static size_t memory_n_reporters;

static int memory_compare_pairs(const void *, const void *);
static void memory_unixctl_show(struct unixctl_conn *, int argc,
                                const char *argv[], void *aux);

/* Adds 'func', called with 'aux', to the reporters that memory/show
 * calls. */
void
memory_register_reporter(memory_report_func *func, void *aux)
{
    pthread_mutex_lock(&memory_mutex);
    memory_reporters = xrealloc(memory_reporters,
                                (memory_n_reporters + 1)
                                * sizeof *memory_reporters);
    memory_reporters[memory_n_reporters].func = func;
    memory_reporters[memory_n_reporters].aux = aux;
    memory_n_reporters++;
    pthread_mutex_unlock(&memory_mutex);
}

/* Adds 'value' under 'key' to 'report'.  For a reporter to call. */
void
memory_report_add(struct memory_report *report, const char *key,
                  unsigned long long int value)
{
    for (size_t i = 0; i < report->n_pairs; i++) {
        if (!strcmp(report->pairs[i].key, key)) {
            report->pairs[i].value += value;
            return;
        }
    }
    if (report->n_pairs >= report->allocated_pairs) {
        report->allocated_pairs = MAX(8, 2 * report->allocated_pairs);
        report->pairs = xrealloc(report->pairs, report->allocated_pairs
                                                * sizeof *report->pairs);
    }
    report->pairs[report->n_pairs].key = xstrdup(key);
    report->pairs[report->n_pairs].value = value;
    report->n_pairs++;
}

/* Calls every reporter and returns their pairs as one line, "key:value"
 * pairs sorted by key and separated by single spaces, with no new-line; an
 * empty string if there is nothing to report.  The caller must free it. */
char *
memory_get_report(void)
{
    struct memory_report report = { NULL, 0, 0 };
    struct memory_reporter *reporters;
    struct ds s = DS_EMPTY_INITIALIZER;
    size_t n;

    pthread_mutex_lock(&memory_mutex);
    n = memory_n_reporters;
    reporters = xmemdup(memory_reporters, n * sizeof *reporters);
    pthread_mutex_unlock(&memory_mutex);

    for (size_t i = 0; i < n; i++) {
        reporters[i].func(&report, reporters[i].aux);
    }
    free(reporters);

    if (report.n_pairs) {
        qsort(report.pairs, report.n_pairs, sizeof *report.pairs,
              memory_compare_pairs);
    }
    for (size_t i = 0; i < report.n_pairs; i++) {
        ds_put_format(&s, "%s%s:%llu", i ? " " : "", report.pairs[i].key,
                      report.pairs[i].value);
        free(report.pairs[i].key);
    }
    free(report.pairs);
    return ds_steal_cstr(&s);
}

/* Registers the unixctl command "memory/show".  Idempotent. */
void
memory_register_unixctl_commands(void)
{
    static int registered;

    if (!__atomic_exchange_n(&registered, 1, __ATOMIC_ACQ_REL)) {
        unixctl_command_register("memory/show", "", 0, 0,
                                 memory_unixctl_show, NULL);
    }
}

static int
memory_compare_pairs(const void *a_, const void *b_)
{
    const struct memory_pair *a = a_;
    const struct memory_pair *b = b_;

    return strcmp(a->key, b->key);
}

/* "memory/show". */
static void
memory_unixctl_show(struct unixctl_conn *conn, int argc DPS_UNUSED,
                    const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    char *report = memory_get_report();

    unixctl_command_reply(conn, report);
    free(report);
}
