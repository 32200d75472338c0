/* daemon: the options and start-up sequence every dpswitch daemon shares,
 * with Open vSwitch's option names and behaviour.
 *
 * Options (see daemon_usage() and Documentation/topics/unixctl.rst):
 *
 *   --detach             run in the background; the command returns only
 *                        once the daemon is ready (daemon_complete()).
 *   --no-chdir           with --detach, stay in the current directory
 *                        instead of changing to "/".
 *   --pidfile[=FILE]     write the daemon's pid to FILE, by default
 *                        <rundir>/<program>.pid; a relative FILE is taken
 *                        relative to the run directory.  The file is locked
 *                        (fcntl) while the daemon lives, and removed when it
 *                        ends normally or by a termination signal.
 *   --overwrite-pidfile  start even if a live process holds the pidfile.
 *   --monitor            a monitor process starts the daemon again when it
 *                        dies by a signal that means a bug (SIGABRT,
 *                        SIGALRM, SIGBUS, SIGFPE, SIGILL, SIGPIPE, SIGSEGV,
 *                        SIGXCPU, SIGXFSZ); it exits when the daemon exits
 *                        or dies any other way.  Restarts are limited to one
 *                        every 10 seconds.
 *   --user=USER[:GROUP]  (root only) run as USER and GROUP ("USER" alone:
 *                        USER's primary group; ":GROUP": the current user),
 *                        keeping only CAP_IPC_LOCK, CAP_NET_BIND_SERVICE and
 *                        the capabilities added with daemon_add_capability().
 *   --no-self-confinement  accepted for compatibility; has no effect.
 *
 * A program uses the option macros like those of vlog.h:
 *
 *     enum { DAEMON_OPTION_ENUMS, VLOG_OPTION_ENUMS, ... };
 *     static const struct option long_options[] = {
 *         DAEMON_LONG_OPTIONS, VLOG_LONG_OPTIONS, ...
 *     };
 *     switch (c) {
 *     DAEMON_OPTION_HANDLERS
 *     VLOG_OPTION_HANDLERS
 *     ...
 *     }
 *
 * and starts up in this order, single-threaded until daemon_start() returns:
 *
 *     parse options;
 *     daemon_start();      user switch, fork for --detach and --monitor,
 *                          pidfile; returns in the daemon process only
 *     unixctl_server_create(), open remotes, ...
 *     daemon_complete();   the daemon is ready: "--detach" returns to the
 *                          shell, standard fds go to /dev/null, cwd to "/"
 *     main loop
 *
 * The functions are for the main thread.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DAEMON_H
#define DAEMON_H 1

#include <stdbool.h>
#include <sys/types.h>

#define DAEMON_OPTION_ENUMS                     \
    OPT_DETACH,                                 \
    OPT_NO_SELF_CONFINEMENT,                    \
    OPT_NO_CHDIR,                               \
    OPT_OVERWRITE_PIDFILE,                      \
    OPT_PIDFILE,                                \
    OPT_MONITOR,                                \
    OPT_USER_GROUP

#define DAEMON_LONG_OPTIONS                                                \
    {"detach",              no_argument,       NULL, OPT_DETACH},          \
    {"no-self-confinement", no_argument,       NULL,                       \
                                               OPT_NO_SELF_CONFINEMENT},   \
    {"no-chdir",            no_argument,       NULL, OPT_NO_CHDIR},        \
    {"overwrite-pidfile",   no_argument,       NULL, OPT_OVERWRITE_PIDFILE}, \
    {"pidfile",             optional_argument, NULL, OPT_PIDFILE},         \
    {"monitor",             no_argument,       NULL, OPT_MONITOR},         \
    {"user",                required_argument, NULL, OPT_USER_GROUP}

#define DAEMON_OPTION_HANDLERS                  \
        case OPT_DETACH:                        \
            daemon_set_detach();                \
            break;                              \
        case OPT_NO_SELF_CONFINEMENT:           \
            daemon_disable_self_confinement();  \
            break;                              \
        case OPT_NO_CHDIR:                      \
            daemon_set_no_chdir();              \
            break;                              \
        case OPT_OVERWRITE_PIDFILE:             \
            daemon_set_overwrite_pidfile();     \
            break;                              \
        case OPT_PIDFILE:                       \
            daemon_set_pidfile(optarg);         \
            break;                              \
        case OPT_MONITOR:                       \
            daemon_set_monitor();               \
            break;                              \
        case OPT_USER_GROUP:                    \
            daemon_set_user_group(optarg);      \
            break;

/* Settings, normally from the options above. */
void daemon_set_detach(void);
bool daemon_is_detached(void);
void daemon_set_no_chdir(void);
void daemon_set_pidfile(const char *name);
const char *daemon_get_pidfile(void);
void daemon_set_overwrite_pidfile(void);
void daemon_set_monitor(void);
void daemon_set_user_group(const char *spec);
char *daemon_parse_user_group(const char *spec, uid_t *uid, gid_t *gid);
void daemon_add_capability(int capability);
void daemon_disable_self_confinement(void);
void daemon_save_fd(int fd);
void daemon_usage(void);

/* Start-up. */
void daemon_start(void);
void daemon_complete(void);

/* Pidfiles. */
int daemon_make_pidfile(pid_t *holderp);
pid_t daemon_read_pidfile(const char *pidfile);

#endif /* daemon.h */
