/* Memory usage reports: "memory/show".
 *
 * Modules that hold sizeable state register a reporter once:
 *
 *     static void
 *     my_report(struct memory_report *report, void *aux)
 *     {
 *         memory_report_add(report, "cells", n_cells);
 *     }
 *     ...
 *     memory_register_reporter(my_report, NULL);
 *
 * "memory/show" calls every reporter and answers with all the pairs on one
 * line, sorted by key and separated by spaces, as Open vSwitch does:
 * "cells:123 monitors:2".  Values that two reporters give for one key are
 * added up.  memory_get_report() returns the same line, for a daemon to
 * log.
 *
 * Reporters are called from the thread that asks for the report (for
 * "memory/show", the main thread, from unixctl_server_run()), so they must
 * read their module's state in a way that is safe from that thread.
 * Registration is thread-safe.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef MEMORY_H
#define MEMORY_H 1

/* The report being built.  Only memory.c looks inside. */
struct memory_report;

/* A reporter: adds its pairs to 'report' with memory_report_add(). */
typedef void memory_report_func(struct memory_report *report, void *aux);

void memory_register_reporter(memory_report_func *, void *aux);
void memory_report_add(struct memory_report *, const char *key,
                       unsigned long long int value);
char *memory_get_report(void);
void memory_register_unixctl_commands(void);

#endif /* memory.h */
