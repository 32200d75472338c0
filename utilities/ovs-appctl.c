/* ovs-appctl: sends one command to a running daemon's control socket and
 * prints the answer.  Behaves as Open vSwitch's ovs-appctl does: same
 * options, messages and exit codes (see ovs-appctl(8) and
 * Documentation/topics/unixctl.rst).
 *
 * Exit status: 0 when the daemon answered with success, 2 when it answered
 * with an error, 1 for any other failure; killed by SIGALRM when --timeout
 * expires.
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
#include "daemon.h"
#include "dirs.h"
#include "fatal-signal.h"
#include "jsonrpc.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

/* The daemon to talk to when -t is not given. */
#define APPCTL_DEFAULT_TARGET "ovs-vswitchd"

static void parse_options(int argc, char *argv[], const char **targetp);
static void usage(void) DPS_NO_RETURN;
static void print_options(const struct option *);
static char *target_to_socket(const char *target);

int
main(int argc, char *argv[])
{
    const char *target = APPCTL_DEFAULT_TARGET;
    struct jsonrpc *client;
    char *socket_name;
    char *result, *error_text;
    int error;

    util_set_program_name(argv[0]);
    /* Problems worth a warning go to stderr; the rest only with -v. */
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    fatal_signal_init();

    parse_options(argc, argv, &target);
    if (optind >= argc) {
        util_fatal(0, "at least one non-option argument is required "
                   "(use --help for help)");
    }

    socket_name = target_to_socket(target);
    error = unixctl_client_create(socket_name, &client);
    if (error) {
        util_fatal(error, "cannot connect to \"%s\"", socket_name);
    }

    error = unixctl_client_transact(client, argv[optind],
                                    argc - optind - 1, argv + optind + 1,
                                    &result, &error_text);
    if (error) {
        util_fatal(error, "%s: transaction error", target);
    }

    if (error_text) {
        fputs(error_text, stderr);
        fprintf(stderr, "%s: %s: server returned an error\n",
                util_program_name(), target);
        exit(2);
    }
    fputs(result, stdout);

    jsonrpc_close(client);
    free(result);
    free(socket_name);
    return 0;
}

static void
parse_options(int argc, char *argv[], const char **targetp)
{
    enum {
        OPT_FIRST = UCHAR_MAX,      /* Long-only options come after this. */
        VLOG_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"target", required_argument, NULL, 't'},
        {"execute", no_argument, NULL, 'e'},
        {"help", no_argument, NULL, 'h'},
        {"option", no_argument, NULL, 'o'},
        {"version", no_argument, NULL, 'V'},
        {"timeout", required_argument, NULL, 'T'},
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    /* "+": stop at the command, whose arguments may look like options. */
    static const char short_options[] = "+t:ehoVT:v::";
    bool target_set = false;

    for (;;) {
        int timeout;
        int c;

        c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }

        switch (c) {
        case 't':
            if (target_set) {
                util_fatal(0, "-t or --target may be specified only once");
            }
            target_set = true;
            *targetp = optarg;
            break;

        case 'e':
            /* Once needed before the command; accepted and ignored. */
            break;

        case 'h':
            usage();

        case 'o':
            print_options(long_options);
            exit(EXIT_SUCCESS);

        case 'V':
            util_print_version();
            exit(EXIT_SUCCESS);

        case 'T':
            if (!util_str_to_int(optarg, 10, &timeout) || timeout <= 0) {
                util_fatal(0, "value %s on -T or --timeout is invalid",
                           optarg);
            }
            /* The alarm kills us by SIGALRM through fatal-signal, which
             * logs "terminating with signal 14". */
            alarm(timeout);
            break;

        VLOG_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
}

/* Returns the socket to connect to for 'target': 'target' itself if it is
 * an absolute path, otherwise "<rundir>/TARGET.<pid>.ctl" with the pid read
 * from "<rundir>/TARGET.pid".  Exits with a message if the pidfile cannot be
 * read.  The caller frees the result. */
static char *
target_to_socket(const char *target)
{
    char *pidfile;
    char *socket_name;
    pid_t pid;

    if (target[0] == '/') {
        return xstrdup(target);
    }

    pidfile = xasprintf("%s/%s.pid", dirs_rundir(), target);
    pid = daemon_read_pidfile(pidfile);
    if (pid < 0) {
        util_fatal(-pid, "cannot read pidfile \"%s\"", pidfile);
    }
    free(pidfile);

    socket_name = xasprintf("%s/%s.%ld.ctl", dirs_rundir(), target,
                            (long int) pid);
    return socket_name;
}

static void
usage(void)
{
    printf("%s: send a command to a running dpswitch (or Open vSwitch) "
           "daemon\n"
           "usage: %s [OPTIONS] COMMAND [ARG...]\n"
           "\n"
           "Choosing the daemon:\n"
           "  -t, --target=TARGET  program name (its pidfile in %s tells "
           "the pid)\n"
           "                       or absolute path of a control socket "
           "(default: %s)\n"
           "\n"
           "Commands every daemon answers:\n"
           "  list-commands      show the commands this daemon accepts\n"
           "  version            show the daemon's version\n"
           "  vlog/list          show the log level of each module\n"
           "  vlog/list-pattern  show the log line format of each "
           "destination\n"
           "  vlog/set [SPEC]    change log levels; SPEC words: a module,\n"
           "                     console|syslog|file, "
           "off|emer|err|warn|info|dbg\n"
           "  vlog/reopen        reopen the log file (after rotation)\n"
           "\n"
           "Other options:\n"
           "  -T, --timeout=SECS give up after SECS seconds\n"
           "  -h, --help         show this text\n"
           "  -V, --version      show the version of %s\n",
           util_program_name(), util_program_name(), dirs_rundir(),
           APPCTL_DEFAULT_TARGET, util_program_name());
    exit(EXIT_SUCCESS);
}

/* Prints each option of 'options', long form then short form, one a line,
 * for shell completion scripts. */
static void
print_options(const struct option *options)
{
    for (const struct option *o = options; o->name; o++) {
        const char *arg = (o->has_arg == required_argument ? "ARG"
                           : o->has_arg == optional_argument ? "[ARG]"
                           : NULL);

        printf("--%s%s%s\n", o->name, arg ? "=" : "", arg ? arg : "");
        if (!o->flag && o->val > 0 && o->val <= UCHAR_MAX) {
            printf("-%c %s\n", o->val, arg ? arg : "");
        }
    }
}
