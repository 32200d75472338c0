/* fatal-signal: clean up on termination signals and at exit.
 *
 * A daemon leaves files behind that must not outlive it: its pidfile, its
 * control socket, sockets of passive streams.  This module removes them, and
 * runs hooks that modules register, when the process ends by:
 *
 *   - a termination signal: SIGTERM, SIGINT, SIGHUP or SIGALRM (a signal that
 *     is ignored when fatal_signal_init() runs, e.g. under nohup, stays
 *     ignored);
 *   - exit(), or a return from main().
 *
 * A process that ends any other way (SIGKILL, a crash by SIGSEGV or SIGABRT,
 * _exit()) leaves its files; the next instance replaces them.
 *
 * Signals are handled in two steps so that no cleanup code runs inside a
 * signal handler.  The handler only records the signal and sets a latch;
 * the main loop then calls fatal_signal_run(), which logs "terminating with
 * signal N (NAME)", runs the hooks, unlinks the files and re-raises the
 * signal with its default action, so the parent sees the process die by it.
 * A main loop therefore calls fatal_signal_wait() before poll_block() and
 * fatal_signal_run() after it:
 *
 *     for (;;) {
 *         fatal_signal_run();
 *         ...
 *         fatal_signal_wait();
 *         poll_block();
 *     }
 *
 * A second signal that arrives while the first is still unprocessed (a main
 * loop that is stuck) is handled at once, inside the handler, with only
 * async-signal-safe work: the registered files are unlinked, hooks are not
 * run, and the process dies by the signal.
 *
 * fatal_signal_init() also sets SIGPIPE to be ignored, so writes to a closed
 * socket fail with EPIPE instead of killing the process.
 *
 * Threads: the functions other than fatal_signal_run() and
 * fatal_signal_wait() are for the main thread.  A signal delivered to
 * another thread wakes the main thread's poll loop.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef FATAL_SIGNAL_H
#define FATAL_SIGNAL_H 1

#include <stdbool.h>

void fatal_signal_init(void);

/* Registering cleanup. */
void fatal_signal_add_hook(void (*hook_cb)(void *aux),
                           void (*cancel_cb)(void *aux), void *aux,
                           bool run_at_exit);
void fatal_signal_add_file_to_unlink(const char *file);
void fatal_signal_remove_file_to_unlink(const char *file);
int fatal_signal_unlink_file_now(const char *file);

/* Main loop. */
void fatal_signal_run(void);
void fatal_signal_wait(void);
bool fatal_signal_pending(void);

/* Process management. */
void fatal_signal_fork(void);

#endif /* fatal-signal.h */
