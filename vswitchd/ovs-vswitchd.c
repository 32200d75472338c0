/* ovs-vswitchd: the switch daemon.
 *
 * Connects to ovsdb-server (by default unix:<rundir>/db.sock), takes the
 * database lock "ovs_vswitchd", and keeps the userspace datapath and its
 * bridges in line with the database (vswitchd/bridge.c).  The main loop
 * also serves unixctl (ovs-appctl) and the datapath's main-thread work;
 * PMD threads forward packets on their own.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include "bridge.h"
#include "compiler.h"
#include "coverage.h"
#include "daemon.h"
#include "dirs.h"
#include "fatal-signal.h"
#include "memory.h"
#include "netdev.h"
#include "netdev-linux.h"
#include "ovs-numa.h"
#include "poll-loop.h"
#include "stream-ssl.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"
#include "vlog-compat.h"

VLOG_DEFINE_THIS_MODULE(vswitchd);

/* Set by "exit"; 'cleanup' by "exit --cleanup". */
static bool exiting;
static bool cleanup;

/* Options. */
static bool want_mlockall;
static enum netdev_dummy_mode dummy_mode = NETDEV_DUMMY_OFF;
static char *dummy_numa;

/* A time/warp in progress: its connection (NULL if none), the
 * milliseconds still to go and the step. */
static struct unixctl_conn *warp_conn;
static long long int warp_left;
static long long int warp_step;

static char *parse_options(int argc, char *argv[], char **unixctl_pathp);
static void usage(void) DPS_NO_RETURN;
static unixctl_cb_func exit_cb;
static unixctl_cb_func time_stop_cb;
static unixctl_cb_func time_warp_cb;
static void time_warp_step(void);
static void time_warp_finish(void);

int
main(int argc, char *argv[])
{
    struct unixctl_server *unixctl;
    char *unixctl_path = NULL;
    struct bridge_options bopts;
    char *remote;
    int error;

    util_set_program_name(argv[0]);
    vlog_init();
    vlog_add_module_names(vlog_compat_vswitchd);
    fatal_signal_init();
    remote = parse_options(argc, argv, &unixctl_path);

    /* With --user, the datapath's ports still need these, as in Open
     * vSwitch 3.1 (which keeps the same set with and without DPDK, and
     * never CAP_SYS_RAWIO): creating tap and internal devices, raw and
     * broadcast sockets. */
    daemon_add_capability(CAP_NET_ADMIN);
    daemon_add_capability(CAP_NET_RAW);
    daemon_add_capability(CAP_NET_BROADCAST);
    daemon_start();

    if (want_mlockall) {
        if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
            VLOG_ERR("mlockall failed: %s", util_strerror(errno));
        }
    }

    error = unixctl_server_create(unixctl_path, &unixctl);
    if (error) {
        util_fatal(error, "could not create the control socket");
    }
    coverage_register_unixctl_commands();
    memory_register_unixctl_commands();
    unixctl_command_register("exit", "[--cleanup]", 0, 1, exit_cb, NULL);
    unixctl_command_register("time/stop", "", 0, 0, time_stop_cb, NULL);
    unixctl_command_register("time/warp", "[large_msecs] msecs", 1, 2,
                             time_warp_cb, NULL);

    netdev_dummy_register(dummy_mode);
    netdev_linux_register();
    if (dummy_numa) {
        char *msg = ovs_numa_set_dummy(dummy_numa);
        if (msg) {
            util_fatal(0, "--dummy-numa: %s", msg);
        }
    }
    bopts.dummy = dummy_mode != NETDEV_DUMMY_OFF;
    bopts.dummy_override = dummy_mode == NETDEV_DUMMY_OVERRIDE;
    bridge_init(remote, &bopts);

    bool started = false;
    while (!exiting) {
        fatal_signal_run();
        coverage_run();
        unixctl_server_run(unixctl);
        time_warp_step();
        bridge_run();
        time_warp_finish();
        if (!started && bridge_initial_config_done()) {
            /* As Open vSwitch's: whoever started us with --detach gets
             * control back once the database's configuration is in
             * place, so that the next command sees the bridges. */
            started = true;
            daemon_complete();
            VLOG_INFO("%s (dpswitch) %s", util_program_name(),
                      util_program_version());
        }

        fatal_signal_wait();
        unixctl_server_wait(unixctl);
        bridge_wait();
        if (exiting) {
            poll_immediate_wake();
        }
        poll_block();
    }

    bridge_exit(cleanup);
    unixctl_server_destroy(unixctl);
    free(unixctl_path);
    free(remote);
    free(dummy_numa);
    return 0;
}

static void
exit_cb(struct unixctl_conn *conn, int argc, const char *argv[],
        void *aux DPS_UNUSED)
{
    if (argc > 1 && strcmp(argv[1], "--cleanup")) {
        unixctl_command_reply_error(conn, "unknown option (use --cleanup "
                                    "or nothing)");
        return;
    }
    cleanup = argc > 1;
    exiting = true;
    unixctl_command_reply(conn, NULL);
}

/* time/stop: the monotonic clock stops; only time/warp moves it. */
static void
time_stop_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
             const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    time_stop();
    unixctl_command_reply(conn, NULL);
}

/* time/warp [LARGE_MSECS] MSECS: moves the clocks MSECS ahead, or
 * LARGE_MSECS ahead in steps of MSECS, the main loop running once after
 * each step, as Open vSwitch's does; answers "warped" once done. */
static void
time_warp_cb(struct unixctl_conn *conn, int argc, const char *argv[],
             void *aux DPS_UNUSED)
{
    long long int total = argc > 2 ? atoll(argv[1]) : 0;
    long long int step = atoll(argv[argc - 1]);

    if (step <= 0 || total < 0) {
        unixctl_command_reply_error(conn, "invalid MSECS");
        return;
    }
    if (warp_conn) {
        unixctl_command_reply_error(conn, "a time/warp is in progress");
        return;
    }
    warp_conn = conn;
    warp_left = total ? total : step;
    warp_step = step;
    poll_immediate_wake();
}

/* The next step of a time/warp in progress, before the main loop's work. */
static void
time_warp_step(void)
{
    if (warp_conn && warp_left) {
        long long int d = MIN(warp_step, warp_left);

        time_warp(d);
        warp_left -= d;
        poll_immediate_wake();
    }
}

/* Answers a time/warp whose last step the main loop has run. */
static void
time_warp_finish(void)
{
    if (warp_conn && !warp_left) {
        unixctl_command_reply(warp_conn, "warped");
        warp_conn = NULL;
    }
}

/* Parses the command line; returns the database remote (malloc()ed). */
static char *
parse_options(int argc, char *argv[], char **unixctl_pathp)
{
    enum {
        OPT_UNIXCTL = UCHAR_MAX + 1,
        OPT_MLOCKALL,
        OPT_ENABLE_DUMMY,
        OPT_DUMMY_NUMA,
        OPT_DISABLE_SYSTEM,
        OPT_DISABLE_SYSTEM_ROUTE,
        STREAM_SSL_OPTION_ENUMS,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS,
    };
    static const struct option long_options[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"mlockall", no_argument, NULL, OPT_MLOCKALL},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        {"enable-dummy", optional_argument, NULL, OPT_ENABLE_DUMMY},
        {"dummy-numa", required_argument, NULL, OPT_DUMMY_NUMA},
        {"disable-system", no_argument, NULL, OPT_DISABLE_SYSTEM},
        {"disable-system-route", no_argument, NULL,
         OPT_DISABLE_SYSTEM_ROUTE},
        STREAM_SSL_LONG_OPTIONS,
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };

    for (;;) {
        int c = getopt_long(argc, argv, "hVv::p:c:C:", long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case 'h':
            usage();

        case 'V':
            util_print_version();
            exit(EXIT_SUCCESS);

        case OPT_MLOCKALL:
            want_mlockall = true;
            break;

        case OPT_UNIXCTL:
            free(*unixctl_pathp);
            *unixctl_pathp = xstrdup(optarg);
            break;

        case OPT_ENABLE_DUMMY:
            if (!optarg || !strcmp(optarg, "system")) {
                dummy_mode = NETDEV_DUMMY_ON;
            } else if (!strcmp(optarg, "override")) {
                dummy_mode = NETDEV_DUMMY_OVERRIDE;
            } else {
                util_fatal(0, "--enable-dummy takes \"system\" or "
                           "\"override\", not \"%s\"", optarg);
            }
            break;

        case OPT_DUMMY_NUMA:
            free(dummy_numa);
            dummy_numa = xstrdup(optarg);
            break;

        case OPT_DISABLE_SYSTEM:
        case OPT_DISABLE_SYSTEM_ROUTE:
            /* The userspace datapath never uses the kernel's datapath or
             * routing table: nothing to disable. */
            break;

        STREAM_SSL_OPTION_HANDLERS
        DAEMON_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }

    argc -= optind;
    argv += optind;
    switch (argc) {
    case 0:
        return xasprintf("unix:%s/db.sock", dirs_rundir());

    case 1:
        return xstrdup(argv[0]);

    default:
        util_fatal(0, "at most one non-option argument accepted; "
                   "use --help for usage");
    }
}

static void
usage(void)
{
    printf("%s: Open vSwitch compatible switch daemon (dpswitch)\n"
           "usage: %s [OPTIONS] [DATABASE]\n"
           "where DATABASE is a socket on which ovsdb-server is listening\n"
           "      (default: \"unix:%s/db.sock\").\n"
           "\nActive DATABASE connection methods:\n"
           "  tcp:HOST:PORT           PORT at remote HOST\n"
           "  ssl:HOST:PORT           SSL PORT at remote HOST\n"
           "  unix:FILE               Unix domain socket named FILE\n"
           "\nPKI configuration (required to use SSL):\n"
           "  -p, --private-key=FILE  file with private key\n"
           "  -c, --certificate=FILE  file with certificate for private key\n"
           "  -C, --ca-cert=FILE      file with peer CA certificate\n"
           "  --bootstrap-ca-cert=FILE  file with peer CA certificate to "
           "read or create\n"
           "  --ssl-protocols=PROTOS  list of SSL protocols to enable\n"
           "  --ssl-ciphers=CIPHERS   list of SSL ciphers to enable\n",
           util_program_name(), util_program_name(), dirs_rundir());
    daemon_usage();
    vlog_usage();
    printf("\nDPDK options:\n"
           "DPDK is configured through the database "
           "(Open_vSwitch other_config:dpdk-*).\n"
           "\nOther options:\n"
           "  --unixctl=SOCKET        override default control socket name\n"
           "  --mlockall              lock all memory into RAM\n"
           "  --enable-dummy[=override]  add the dummy port types "
           "(override: they\n"
           "                          replace the others), for tests\n"
           "  --dummy-numa=LIST       fake CPU cores on these NUMA nodes, "
           "for tests\n"
           "  -h, --help              display this help message\n"
           "  -V, --version           display version information\n");
    exit(EXIT_SUCCESS);
}
