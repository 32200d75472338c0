/* dps-testd: a small daemon for the integration tests of the daemon,
 * fatal-signal, unixctl and vlog libraries and of ovs-appctl.
 *
 * It takes the standard daemon and logging options and --unixctl=PATH,
 * serves the standard commands (list-commands, version, vlog/..., coverage/...,
 * memory/show), and adds:
 *
 *   exit                 replies, then exits normally (status 0).
 *   test/echo [ARG...]   replies with its arguments, joined by spaces.
 *   test/fail [TEXT]     replies with an error, TEXT or a fixed one.
 *   test/crash           aborts (SIGABRT), for --monitor tests.
 *   test/sleep SECS      blocks the main loop SECS seconds, then replies;
 *                        a stalled daemon, for --timeout tests.
 *   test/defer           replies on a later main loop iteration.
 *   test/pid             replies with the pid of this process.
 *   test/cwd             replies with the working directory.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "coverage.h"
#include "daemon.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "memory.h"
#include "poll-loop.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(dps_testd);

static bool exiting;
static struct unixctl_conn *deferred_conn;

static char *parse_options(int argc, char *argv[]);
static void usage(void) DPS_NO_RETURN;
static unixctl_cb_func exit_cb, echo_cb, fail_cb, crash_cb, sleep_cb,
    defer_cb, pid_cb, cwd_cb;

int
main(int argc, char *argv[])
{
    struct unixctl_server *server;
    char *unixctl_path;
    int error;

    util_set_program_name(argv[0]);
    vlog_init();
    unixctl_path = parse_options(argc, argv);

    daemon_start();

    error = unixctl_server_create(unixctl_path, &server);
    if (error) {
        util_fatal(error, "could not create the control socket");
    }
    coverage_register_unixctl_commands();
    memory_register_unixctl_commands();
    unixctl_command_register("exit", "", 0, 0, exit_cb, NULL);
    unixctl_command_register("test/echo", "[ARG...]", 0, INT_MAX,
                             echo_cb, NULL);
    unixctl_command_register("test/fail", "[TEXT]", 0, 1, fail_cb, NULL);
    unixctl_command_register("test/crash", "", 0, 0, crash_cb, NULL);
    unixctl_command_register("test/sleep", "SECS", 1, 1, sleep_cb, NULL);
    unixctl_command_register("test/defer", "", 0, 0, defer_cb, NULL);
    unixctl_command_register("test/pid", "", 0, 0, pid_cb, NULL);
    unixctl_command_register("test/cwd", "", 0, 0, cwd_cb, NULL);

    /* Log the start-up line before telling the shell we are ready, so that
     * a test that reads the log right after --detach returns sees it. */
    VLOG_INFO("%s (dpswitch) %s", util_program_name(),
              util_program_version());
    daemon_complete();

    for (;;) {
        fatal_signal_run();
        coverage_run();
        if (deferred_conn) {
            unixctl_command_reply(deferred_conn, "deferred reply");
            deferred_conn = NULL;
        }
        unixctl_server_run(server);
        if (exiting) {
            break;
        }

        fatal_signal_wait();
        unixctl_server_wait(server);
        if (deferred_conn) {
            poll_immediate_wake();
        }
        poll_block();
    }

    unixctl_server_destroy(server);
    free(unixctl_path);
    return 0;
}

/* Parses the command line; returns the --unixctl path or NULL. */
static char *
parse_options(int argc, char *argv[])
{
    enum {
        OPT_UNIXCTL = UCHAR_MAX + 1,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS,
    };
    static const struct option long_options[] = {
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    char *unixctl_path = NULL;

    for (;;) {
        int c = getopt_long(argc, argv, "hVv::", long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case OPT_UNIXCTL:
            free(unixctl_path);
            unixctl_path = xstrdup(optarg);
            break;

        case 'h':
            usage();

        case 'V':
            util_print_version();
            exit(EXIT_SUCCESS);

        DAEMON_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
    if (optind < argc) {
        util_fatal(0, "this program takes no non-option arguments");
    }
    return unixctl_path;
}

static void
usage(void)
{
    printf("%s: a daemon for the dpswitch tests\n"
           "usage: %s [OPTIONS]\n"
           "\n"
           "  --unixctl=PATH          control socket (default: "
           "<rundir>/%s.<pid>.ctl)\n",
           util_program_name(), util_program_name(), util_program_name());
    daemon_usage();
    vlog_usage();
    printf("\nOther options:\n"
           "  -h, --help              show this text\n"
           "  -V, --version           show the version\n");
    exit(EXIT_SUCCESS);
}

static void
exit_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
        const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    exiting = true;
    unixctl_command_reply(conn, NULL);
}

static void
echo_cb(struct unixctl_conn *conn, int argc, const char *argv[],
        void *aux DPS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    for (int i = 1; i < argc; i++) {
        if (i > 1) {
            ds_put_char(&s, ' ');
        }
        ds_put_cstr(&s, argv[i]);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
fail_cb(struct unixctl_conn *conn, int argc, const char *argv[],
        void *aux DPS_UNUSED)
{
    unixctl_command_reply_error(conn, argc > 1 ? argv[1] : "test failure");
}

static void
crash_cb(struct unixctl_conn *conn DPS_UNUSED, int argc DPS_UNUSED,
         const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    VLOG_INFO("crashing on request");
    abort();
}

static void
sleep_cb(struct unixctl_conn *conn, int argc DPS_UNUSED, const char *argv[],
         void *aux DPS_UNUSED)
{
    unsigned int secs;

    if (!util_str_to_uint(argv[1], 10, &secs)) {
        unixctl_command_reply_error(conn, "SECS must be a number");
        return;
    }
    while (secs) {
        secs = sleep(secs);
        fatal_signal_run();
    }
    unixctl_command_reply(conn, NULL);
}

static void
defer_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
         const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    deferred_conn = conn;
}

static void
pid_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
       const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    char *pid = xasprintf("%ld", (long int) getpid());

    unixctl_command_reply(conn, pid);
    free(pid);
}

static void
cwd_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
       const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    char *cwd = getcwd(NULL, 0);

    if (cwd) {
        unixctl_command_reply(conn, cwd);
        free(cwd);
    } else {
        unixctl_command_reply_error(conn, util_strerror(errno));
    }
}
