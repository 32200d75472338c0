/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "fatal-signal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "latch.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(fatal_signal);

/* The signals this module turns into an orderly exit. */
static const int fatal_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGALRM };

/* A registered cleanup hook. */
struct fatal_signal_hook {
    void (*hook_cb)(void *aux);     /* Runs the cleanup. */
    void (*cancel_cb)(void *aux);   /* In a forked child; may be NULL. */
    void *aux;
    bool run_at_exit;               /* Also run at exit(), not only on a
                                     * signal. */
};

static struct fatal_signal_hook *hooks;
static size_t n_hooks, allocated_hooks;

/* Files to unlink.  Changed only with the fatal signals blocked, so that the
 * handler's emergency path sees a consistent array. */
static char **files;
static size_t n_files, allocated_files;

/* Set by the handler, read by fatal_signal_run(). */
static volatile sig_atomic_t stored_sig_nr;
static struct latch signal_latch;

static bool inited;
static bool cleaned_up;
static bool files_hook_added;

static void signal_handler(int sig_nr);
static void atexit_handler(void);
static void run_cleanup(bool at_exit);
static void unlink_files_cb(void *aux);
static void cancel_files_cb(void *aux);
static void block_fatal_signals(sigset_t *oldset);
static void restore_signals(const sigset_t *oldset);
static void die_by_signal(int sig_nr) DPS_NO_RETURN;

/* Installs the handlers for the fatal signals, the exit-time cleanup, and
 * ignores SIGPIPE.  Idempotent; every other function calls it. */
void
fatal_signal_init(void)
{
    if (inited) {
        return;
    }
    inited = true;

    latch_init(&signal_latch);
    for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
        int sig_nr = fatal_signals[i];
        struct sigaction old_sa;
        struct sigaction sa;

        if (sigaction(sig_nr, NULL, &old_sa)) {
            util_fatal(errno, "sigaction(%d) failed", sig_nr);
        }
        if (old_sa.sa_handler == SIG_IGN) {
            /* Whoever started us wants this signal ignored (nohup). */
            continue;
        }

        memset(&sa, 0, sizeof sa);
        sa.sa_handler = signal_handler;
        sigemptyset(&sa.sa_mask);
        /* No SA_RESTART: a blocking call such as waitpid() returns EINTR, so
         * its caller gets to run fatal_signal_run(). */
        sa.sa_flags = 0;
        if (sigaction(sig_nr, &sa, NULL)) {
            util_fatal(errno, "sigaction(%d) failed", sig_nr);
        }
    }
    signal(SIGPIPE, SIG_IGN);
    atexit(atexit_handler);
}

/* Registers 'hook_cb' to be called with 'aux' when the process ends by a
 * fatal signal, and also at exit() if 'run_at_exit'.  'cancel_cb', if
 * nonnull, is called with 'aux' instead in the child of a fork (see
 * fatal_signal_fork()), to release what 'aux' holds.  Hooks run in the order
 * they were registered, at most once. */
void
fatal_signal_add_hook(void (*hook_cb)(void *aux),
                      void (*cancel_cb)(void *aux), void *aux,
                      bool run_at_exit)
{
    sigset_t oldset;

    fatal_signal_init();
    block_fatal_signals(&oldset);
    if (n_hooks >= allocated_hooks) {
        allocated_hooks = MAX(8, 2 * allocated_hooks);
        hooks = xrealloc(hooks, allocated_hooks * sizeof *hooks);
    }
    hooks[n_hooks++] = (struct fatal_signal_hook) {
        .hook_cb = hook_cb,
        .cancel_cb = cancel_cb,
        .aux = aux,
        .run_at_exit = run_at_exit,
    };
    restore_signals(&oldset);
}

/* Registers 'file' (copied) to be unlinked when the process ends by a fatal
 * signal or by exit().  Registering a file twice has no further effect. */
void
fatal_signal_add_file_to_unlink(const char *file)
{
    sigset_t oldset;

    fatal_signal_init();
    if (!files_hook_added) {
        files_hook_added = true;
        fatal_signal_add_hook(unlink_files_cb, cancel_files_cb, NULL, true);
    }

    block_fatal_signals(&oldset);
    for (size_t i = 0; i < n_files; i++) {
        if (!strcmp(files[i], file)) {
            restore_signals(&oldset);
            return;
        }
    }
    if (n_files >= allocated_files) {
        allocated_files = MAX(8, 2 * allocated_files);
        files = xrealloc(files, allocated_files * sizeof *files);
    }
    files[n_files++] = xstrdup(file);
    restore_signals(&oldset);
}

/* Forgets 'file', which fatal_signal_add_file_to_unlink() registered, without
 * unlinking it. */
void
fatal_signal_remove_file_to_unlink(const char *file)
{
    sigset_t oldset;

    fatal_signal_init();
    block_fatal_signals(&oldset);
    for (size_t i = 0; i < n_files; i++) {
        if (!strcmp(files[i], file)) {
            free(files[i]);
            files[i] = files[--n_files];
            break;
        }
    }
    restore_signals(&oldset);
}

/* Unlinks 'file' now and forgets it.  Returns 0 on success (or if 'file'
 * did not exist), otherwise a positive errno value, which is also logged. */
int
fatal_signal_unlink_file_now(const char *file)
{
    int error = unlink(file) && errno != ENOENT ? errno : 0;

    if (error) {
        VLOG_WARN("could not unlink \"%s\" (%s)", file, util_strerror(error));
    }
    fatal_signal_remove_file_to_unlink(file);
    return error;
}

/* If a fatal signal has arrived, logs it, runs every hook, unlinks the
 * registered files and dies by the signal; otherwise does nothing.  Call it
 * from the main loop (see the comment at the top of fatal-signal.h). */
void
fatal_signal_run(void)
{
    int sig_nr;

    fatal_signal_init();
    sig_nr = stored_sig_nr;
    if (!sig_nr) {
        return;
    }

    VLOG_WARN("terminating with signal %d (%s)", sig_nr, strsignal(sig_nr));
    run_cleanup(false);
    die_by_signal(sig_nr);
}

/* Makes the next poll_block() wake up when a fatal signal arrives. */
void
fatal_signal_wait(void)
{
    fatal_signal_init();
    latch_wait(&signal_latch);
}

/* Returns true if a fatal signal has arrived that fatal_signal_run() has not
 * yet processed. */
bool
fatal_signal_pending(void)
{
    return stored_sig_nr != 0;
}

/* Called in the child after fork(): the hooks and files registered so far
 * belong to the parent, so each hook's cancel callback is called and the
 * hooks and files are forgotten.  The child gets its own latch, since an
 * eventfd would otherwise be shared with the parent. */
void
fatal_signal_fork(void)
{
    sigset_t oldset;

    if (!inited) {
        return;
    }
    block_fatal_signals(&oldset);
    for (size_t i = 0; i < n_hooks; i++) {
        if (hooks[i].cancel_cb) {
            hooks[i].cancel_cb(hooks[i].aux);
        }
    }
    n_hooks = 0;
    files_hook_added = false;
    stored_sig_nr = 0;
    cleaned_up = false;
    latch_destroy(&signal_latch);
    latch_init(&signal_latch);
    restore_signals(&oldset);
}

static void
signal_handler(int sig_nr)
{
    if (stored_sig_nr && !cleaned_up) {
        /* The first signal was never processed: the main loop is stuck.
         * Do what is async-signal-safe and die. */
        for (size_t i = 0; i < n_files; i++) {
            unlink(files[i]);
        }
        die_by_signal(sig_nr);
    }
    stored_sig_nr = sig_nr;
    latch_set(&signal_latch);
}

static void
atexit_handler(void)
{
    run_cleanup(true);
}

/* Runs the hooks (only those to run at exit if 'at_exit'), once. */
static void
run_cleanup(bool at_exit)
{
    if (cleaned_up) {
        return;
    }
    cleaned_up = true;
    for (size_t i = 0; i < n_hooks; i++) {
        if (!at_exit || hooks[i].run_at_exit) {
            hooks[i].hook_cb(hooks[i].aux);
        }
    }
}

static void
unlink_files_cb(void *aux DPS_UNUSED)
{
    for (size_t i = 0; i < n_files; i++) {
        if (unlink(files[i]) && errno != ENOENT) {
            VLOG_WARN("could not unlink \"%s\" (%s)",
                      files[i], util_strerror(errno));
        }
    }
}

static void
cancel_files_cb(void *aux DPS_UNUSED)
{
    for (size_t i = 0; i < n_files; i++) {
        free(files[i]);
    }
    n_files = 0;
}

static void
block_fatal_signals(sigset_t *oldset)
{
    sigset_t set;

    sigemptyset(&set);
    for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
        sigaddset(&set, fatal_signals[i]);
    }
    pthread_sigmask(SIG_BLOCK, &set, oldset);
}

static void
restore_signals(const sigset_t *oldset)
{
    pthread_sigmask(SIG_SETMASK, oldset, NULL);
}

/* Restores the default action of 'sig_nr', unblocks it and raises it, so
 * that the process's parent sees it die by that signal.  Async-signal-safe:
 * the handler uses it too (where 'sig_nr' is blocked until unblocked
 * here). */
static void
die_by_signal(int sig_nr)
{
    sigset_t set;

    signal(sig_nr, SIG_DFL);
    sigemptyset(&set);
    sigaddset(&set, sig_nr);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig_nr);

    /* Not reached for the signals this module handles. */
    _exit(128 + sig_nr);
}
