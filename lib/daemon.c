/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "daemon.h"

#include <cap-ng.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "dirs.h"
#include "fatal-signal.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

/* Open vSwitch logs these messages under "daemon_unix"; so do we, so that
 * "-vdaemon_unix:file:dbg" and log filters written for it keep working. */
VLOG_DEFINE_THIS_MODULE(daemon_unix);

/* Least time between two restarts by the monitor, in milliseconds. */
#define DAEMON_RESTART_INTERVAL 10000

/* Settings. */
static bool detach;
static bool no_chdir;
static bool monitor;
static bool overwrite_pidfile;
static char *pidfile;
static bool switch_user;
static uid_t new_uid;
static gid_t new_gid;
static int *extra_caps;
static size_t n_extra_caps;
static bool saved_fds[3];       /* Standard fds --detach leaves alone. */

/* Write end of the pipe on which the process that waits for this daemon to
 * be ready (the --detach parent or the monitor) reads one byte, or -1. */
static int ready_fd = -1;
static bool completed;

/* The pidfile this process holds locked: its fd and identity, and the pid
 * that holds the lock (fcntl locks are not inherited across fork()). */
static int pidfile_fd = -1;
static pid_t pidfile_pid;
static dev_t pidfile_dev;
static ino_t pidfile_ino;

/* In the monitor process: the daemon it watches, or 0. */
static pid_t monitored_pid;

static void wait_for_ready_child(pid_t, int fd) DPS_NO_RETURN;
static void run_monitor(void);
static void sleep_until(long long int when);
static bool read_ready_byte(int fd);
static void notify_ready(int *fdp);
static int wait_for_child(pid_t);
static char *status_to_string(int status);
static bool status_is_crash(int status);
static void forward_signal_cb(void *aux);
static void redirect_standard_fds(void);
static void change_to_root_dir(void);
static void become_user(void);
static pid_t read_pidfile(const char *file, bool quiet_enoent);
static void make_pipe(int fds[2]);
static pid_t fork_or_die(void);

/* Makes daemon_start() fork into the background (--detach). */
void
daemon_set_detach(void)
{
    detach = true;
}

/* Returns true if --detach was given. */
bool
daemon_is_detached(void)
{
    return detach;
}

/* Makes a detached daemon stay in its working directory (--no-chdir). */
void
daemon_set_no_chdir(void)
{
    no_chdir = true;
}

/* Makes daemon_start() create a pidfile named 'name' (--pidfile): if 'name'
 * is NULL, "<rundir>/<program>.pid"; if it is relative, relative to the run
 * directory.  The run directory and program name are read now. */
void
daemon_set_pidfile(const char *name)
{
    free(pidfile);
    if (name) {
        pidfile = util_abs_file_name(dirs_rundir(), name);
    } else {
        pidfile = xasprintf("%s/%s.pid", dirs_rundir(), util_program_name());
    }
}

/* Returns the absolute name of the pidfile, or NULL if there is none. */
const char *
daemon_get_pidfile(void)
{
    return pidfile;
}

/* Makes the daemon take over a pidfile that a live process holds
 * (--overwrite-pidfile). */
void
daemon_set_overwrite_pidfile(void)
{
    overwrite_pidfile = true;
}

/* Makes daemon_start() run a monitor process that restarts the daemon when
 * it crashes (--monitor). */
void
daemon_set_monitor(void)
{
    monitor = true;
}

/* Makes daemon_start() switch to the user and group in 'spec' (--user),
 * "USER[:GROUP]" or ":GROUP".  Exits with a message if 'spec' is invalid or
 * the process is not root. */
void
daemon_set_user_group(const char *spec)
{
    char *error;

    if (geteuid() != 0) {
        util_fatal(0, "only root can use --user option");
    }
    error = daemon_parse_user_group(spec, &new_uid, &new_gid);
    if (error) {
        util_fatal(0, "%s", error);
    }
    switch_user = true;
}

/* Parses 'spec', "USER", "USER:GROUP" or ":GROUP", into '*uid' and '*gid'.
 * A missing USER means the current real user; a missing GROUP, USER's
 * primary group (or the current real group if USER is missing too).  Returns
 * NULL on success, otherwise an error message that the caller frees. */
char *
daemon_parse_user_group(const char *spec, uid_t *uid, gid_t *gid)
{
    const char *colon = strchr(spec, ':');
    char *user = colon ? xmemdup0(spec, colon - spec) : xstrdup(spec);
    const char *group = colon ? colon + 1 : "";
    char *error = NULL;

    *uid = getuid();
    *gid = getgid();
    if (user[0]) {
        struct passwd *pw;

        errno = 0;
        pw = getpwnam(user);
        if (!pw) {
            error = xasprintf("user %s not found, aborting.", user);
            goto out;
        }
        *uid = pw->pw_uid;
        *gid = pw->pw_gid;
    }
    if (group[0]) {
        struct group *gr;

        errno = 0;
        gr = getgrnam(group);
        if (!gr) {
            error = xasprintf("group %s not found, aborting.", group);
            goto out;
        }
        *gid = gr->gr_gid;
    } else if (!user[0]) {
        error = xasprintf("--user: \"%s\" names neither a user nor a "
                          "group", spec);
    }

out:
    free(user);
    return error;
}

/* Adds 'capability' (a CAP_* value from <linux/capability.h>) to those the
 * daemon keeps when --user makes it drop privileges.  Call before
 * daemon_start(). */
void
daemon_add_capability(int capability)
{
    extra_caps = xrealloc(extra_caps, (n_extra_caps + 1) * sizeof *extra_caps);
    extra_caps[n_extra_caps++] = capability;
}

/* Accepts --no-self-confinement, which Open vSwitch daemons take; dpswitch
 * does not confine itself, so there is nothing to disable. */
void
daemon_disable_self_confinement(void)
{
}

/* Keeps standard fd 'fd' (STDOUT_FILENO or STDERR_FILENO) as it is when
 * the daemon detaches, as Open vSwitch's daemon_save_fd(): for a program
 * whose output the user redirects (ovs-ofctl monitor). */
void
daemon_save_fd(int fd)
{
    if (fd >= STDIN_FILENO && fd <= STDERR_FILENO) {
        saved_fds[fd] = true;
    }
}

/* Prints the help text for the daemon options on stdout. */
void
daemon_usage(void)
{
    printf("\nDaemon options:\n"
           "  --detach                fork into the background once ready\n"
           "  --no-chdir              with --detach, keep the working "
           "directory\n"
           "  --pidfile[=FILE]        write the pid to FILE (default: "
           "%s/%s.pid)\n"
           "  --overwrite-pidfile     with --pidfile, start even if the "
           "pidfile is held\n"
           "  --monitor               restart the daemon if it crashes\n"
           "  --user=USER[:GROUP]     run as USER (and GROUP), root only\n",
           dirs_rundir(), util_program_name());
}

/* Starts the daemon as the settings say: switches user (--user), forks into
 * the background (--detach; the parent stays until daemon_complete() in the
 * child, then exits with status 0, or with the child's status if it dies
 * first), starts the monitor (--monitor), and creates the pidfile
 * (--pidfile), exiting with "already running as pid N" if a live process
 * holds it.  Returns only in the daemon process.  Call it while the process
 * is single-threaded. */
void
daemon_start(void)
{
    pid_t holder;
    int error;

    fatal_signal_init();
    if (switch_user) {
        become_user();
    }

    if (detach) {
        int fds[2];
        pid_t pid;

        make_pipe(fds);
        pid = fork_or_die();
        if (pid > 0) {
            close(fds[1]);
            wait_for_ready_child(pid, fds[0]);
        }
        close(fds[0]);
        ready_fd = fds[1];
        fatal_signal_fork();
        setsid();
    }

    if (monitor) {
        run_monitor();
    }

    error = daemon_make_pidfile(&holder);
    if (error == EBUSY) {
        VLOG_FATAL("%s: already running as pid %ld, aborting",
                   pidfile, (long int) holder);
    } else if (error) {
        VLOG_FATAL("%s: could not create pidfile (%s)",
                   pidfile, util_strerror(error));
    }
}

/* Tells whoever waits for this daemon that it is ready: the shell that ran
 * it with --detach gets its prompt back, the monitor knows that the start
 * succeeded.  With --detach, also turns console logging off (as Open
 * vSwitch does: nobody reads a detached daemon's stderr, and "vlog/list"
 * shows it), points the standard file descriptors to /dev/null and, unless
 * --no-chdir, changes to the root directory.  Only the first call does
 * anything. */
void
daemon_complete(void)
{
    if (completed) {
        return;
    }
    completed = true;

    if (detach) {
        vlog_set_levels(NULL, VLF_CONSOLE, VLL_OFF);
        redirect_standard_fds();
        if (!no_chdir) {
            change_to_root_dir();
        }
    }
    notify_ready(&ready_fd);
}

/* Creates the pidfile, if one was set: writes this process's pid to a
 * temporary file, locks it and renames it into place, so that readers never
 * see a partial file, and registers it to be removed at exit.  Returns 0 on
 * success or if no pidfile was set; EBUSY, with the holder's pid in
 * '*holderp', if a live process holds the pidfile and --overwrite-pidfile
 * was not given; otherwise a positive errno value. */
int
daemon_make_pidfile(pid_t *holderp)
{
    struct flock lck;
    struct stat st;
    char *tmp;
    char buf[32];
    int error = 0;
    int len;
    int fd;

    *holderp = 0;
    if (!pidfile) {
        return 0;
    }

    tmp = xasprintf("%s.tmp%ld", pidfile, (long int) getpid());
    unlink(tmp);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = errno;
        VLOG_ERR("%s: create failed (%s)", tmp, util_strerror(error));
        free(tmp);
        return error;
    }

    memset(&lck, 0, sizeof lck);
    lck.l_type = F_WRLCK;
    lck.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &lck) < 0) {
        error = errno;
        VLOG_ERR("%s: fcntl lock failed (%s)", tmp, util_strerror(error));
        goto error;
    }

    if (!overwrite_pidfile) {
        pid_t pid = read_pidfile(pidfile, true);
        if (pid > 0 && pid != getpid()) {
            *holderp = pid;
            error = EBUSY;
            goto error;
        }
    }

    len = snprintf(buf, sizeof buf, "%ld\n", (long int) getpid());
    if (write(fd, buf, len) != len) {
        error = errno ? errno : EIO;
        VLOG_ERR("%s: write failed (%s)", tmp, util_strerror(error));
        goto error;
    }
    if (fstat(fd, &st)) {
        error = errno;
        VLOG_ERR("%s: fstat failed (%s)", tmp, util_strerror(error));
        goto error;
    }
    if (rename(tmp, pidfile)) {
        error = errno;
        VLOG_ERR("failed to rename \"%s\" to \"%s\" (%s)",
                 tmp, pidfile, util_strerror(error));
        goto error;
    }

    if (pidfile_fd >= 0) {
        close(pidfile_fd);
    }
    pidfile_fd = fd;
    pidfile_pid = getpid();
    pidfile_dev = st.st_dev;
    pidfile_ino = st.st_ino;
    fatal_signal_add_file_to_unlink(pidfile);
    free(tmp);
    return 0;

error:
    close(fd);
    unlink(tmp);
    free(tmp);
    return error;
}

/* Returns the pid of the live process that holds 'pidfile' locked, or a
 * negative errno value: -ENOENT if there is no such file, -ESRCH if no
 * process holds it (a stale pidfile), -EINVAL if it does not hold a pid.
 * Failures other than -ESRCH are also logged as warnings. */
pid_t
daemon_read_pidfile(const char *file)
{
    return read_pidfile(file, false);
}

/* Waits, in the --detach parent, until the child 'pid' writes a byte to
 * 'fd' (it is ready: exit 0) or dies (exit with its status). */
static void
wait_for_ready_child(pid_t pid, int fd)
{
    int status;

    if (read_ready_byte(fd)) {
        _exit(0);
    }
    status = wait_for_child(pid);
    if (WIFEXITED(status)) {
        _exit(WEXITSTATUS(status));
    } else {
        char *msg = status_to_string(status);
        fprintf(stderr, "%s: fork child died before signaling startup (%s)\n",
                util_program_name(), msg);
        free(msg);
        _exit(1);
    }
}

/* Runs the monitor (--monitor): forks the daemon, restarts it when it
 * crashes, and exits when it exits.  Returns only in a daemon child. */
static void
run_monitor(void)
{
    long long int last_restart = LLONG_MIN;
    int outer_ready_fd = ready_fd;
    bool ever_ready = false;
    int n_crashes = 0;

    fatal_signal_add_hook(forward_signal_cb, NULL, NULL, false);
    /* The monitor's log lines read "daemon_unix(monitor)|...", as Open
     * vSwitch's do. */
    vlog_set_thread_name("monitor");
    for (;;) {
        bool ready;
        int status;
        char *msg;
        int fds[2];
        pid_t pid;

        make_pipe(fds);
        pid = fork_or_die();
        if (!pid) {
            /* The daemon. */
            close(fds[0]);
            if (outer_ready_fd >= 0) {
                close(outer_ready_fd);
            }
            ready_fd = fds[1];
            fatal_signal_fork();
            vlog_set_thread_name("");
            return;
        }

        monitored_pid = pid;
        close(fds[1]);
        ready = read_ready_byte(fds[0]);
        close(fds[0]);
        if (ready && !ever_ready) {
            ever_ready = true;
            if (detach) {
                redirect_standard_fds();
                if (!no_chdir) {
                    change_to_root_dir();
                }
            }
            notify_ready(&outer_ready_fd);
        }

        status = wait_for_child(pid);
        monitored_pid = 0;
        msg = status_to_string(status);
        if (!ever_ready) {
            VLOG_ERR("pid %ld died before it was ready, %s, exiting",
                     (long int) pid, msg);
            free(msg);
            exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
        } else if (status_is_crash(status)) {
            n_crashes++;
            VLOG_ERR("%d crashes: pid %ld died, %s, restarting",
                     n_crashes, (long int) pid, msg);
            free(msg);
            if (last_restart != LLONG_MIN) {
                /* Crashing again and again: at most one restart every
                 * DAEMON_RESTART_INTERVAL. */
                sleep_until(last_restart + DAEMON_RESTART_INTERVAL);
            }
            last_restart = time_msec();
        } else {
            VLOG_INFO("pid %ld died, %s, exiting", (long int) pid, msg);
            free(msg);
            exit(0);
        }
    }
}

/* Sleeps until time_msec() reaches 'when', processing fatal signals. */
static void
sleep_until(long long int when)
{
    long long int now;

    while ((now = time_msec()) < when) {
        struct timespec ts;

        time_msec_to_timespec(when - now, &ts);
        nanosleep(&ts, NULL);
        fatal_signal_run();
    }
}

/* Reads from 'fd' until a byte arrives (returns true) or end of file
 * (false), processing fatal signals meanwhile. */
static bool
read_ready_byte(int fd)
{
    for (;;) {
        char c;
        ssize_t n = read(fd, &c, 1);

        if (n == 1) {
            return true;
        } else if (n < 0 && errno == EINTR) {
            fatal_signal_run();
        } else {
            return false;
        }
    }
}

/* Writes the readiness byte to '*fdp', if it is open, and closes it. */
static void
notify_ready(int *fdp)
{
    if (*fdp >= 0) {
        ssize_t n;

        do {
            n = write(*fdp, "", 1);
        } while (n < 0 && errno == EINTR);
        close(*fdp);
        *fdp = -1;
    }
}

/* Waits for child 'pid' to end, processing fatal signals meanwhile, and
 * returns its wait status. */
static int
wait_for_child(pid_t pid)
{
    int status;

    while (waitpid(pid, &status, 0) < 0) {
        if (errno == EINTR) {
            fatal_signal_run();
        } else {
            VLOG_FATAL("waitpid failed (%s)", util_strerror(errno));
        }
    }
    return status;
}

/* Returns a description of wait status 'status', e.g. "exit status 1" or
 * "killed (Segmentation fault), core dumped".  The caller frees it. */
static char *
status_to_string(int status)
{
    if (WIFEXITED(status)) {
        return xasprintf("exit status %d", WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        return xasprintf("killed (%s)%s", strsignal(WTERMSIG(status)),
                         WCOREDUMP(status) ? ", core dumped" : "");
    } else {
        return xasprintf("terminated abnormally (status %#x)", status);
    }
}

/* Returns true if 'status' says the process died of a signal that means a
 * bug rather than a request to stop. */
static bool
status_is_crash(int status)
{
    static const int crash_signals[] = {
        SIGABRT, SIGALRM, SIGBUS, SIGFPE, SIGILL, SIGPIPE, SIGSEGV,
        SIGXCPU, SIGXFSZ,
    };

    if (WIFSIGNALED(status)) {
        for (size_t i = 0; i < ARRAY_SIZE(crash_signals); i++) {
            if (WTERMSIG(status) == crash_signals[i]) {
                return true;
            }
        }
    }
    return false;
}

/* Fatal-signal hook of the monitor: a monitor that is told to stop takes its
 * daemon with it. */
static void
forward_signal_cb(void *aux DPS_UNUSED)
{
    if (monitored_pid > 0) {
        kill(monitored_pid, SIGTERM);
    }
}

static void
redirect_standard_fds(void)
{
    int fd = open("/dev/null", O_RDWR);

    if (fd < 0) {
        VLOG_FATAL("could not open /dev/null (%s)", util_strerror(errno));
    }
    for (int i = STDIN_FILENO; i <= STDERR_FILENO; i++) {
        if (!saved_fds[i]) {
            dup2(fd, i);
        }
    }
    if (fd > STDERR_FILENO) {
        close(fd);
    }
}

static void
change_to_root_dir(void)
{
    if (chdir("/")) {
        VLOG_WARN("could not change to the root directory (%s)",
                  util_strerror(errno));
    }
}

/* Drops to the user and group of --user, keeping only the capabilities the
 * daemon needs. */
static void
become_user(void)
{
    int error;

    if (geteuid() != 0) {
        VLOG_FATAL("--user: only root can switch to another user");
    }

    capng_clear(CAPNG_SELECT_BOTH);
    error = (capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED,
                          CAP_IPC_LOCK)
             || capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED,
                             CAP_NET_BIND_SERVICE));
    for (size_t i = 0; !error && i < n_extra_caps; i++) {
        error = capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED,
                             extra_caps[i]);
    }
    if (error) {
        VLOG_FATAL("--user: libcap-ng could not select capabilities");
    }

    error = capng_change_id(new_uid, new_gid,
                            CAPNG_DROP_SUPP_GRP | CAPNG_CLEAR_BOUNDING);
    if (error) {
        VLOG_FATAL("--user: libcap-ng could not switch to uid %ld gid %ld "
                   "(error %d)", (long int) new_uid, (long int) new_gid,
                   error);
    }
    if (getuid() != new_uid || geteuid() != new_uid
        || getgid() != new_gid || getegid() != new_gid) {
        VLOG_FATAL("--user: switching to uid %ld gid %ld did not take effect",
                   (long int) new_uid, (long int) new_gid);
    }
    VLOG_INFO("running as uid %ld, gid %ld",
              (long int) new_uid, (long int) new_gid);
}

/* Implements daemon_read_pidfile(); with 'quiet_enoent', a missing file is
 * not worth a warning. */
static pid_t
read_pidfile(const char *file, bool quiet_enoent)
{
    struct flock lck;
    struct stat st;
    char buf[32];
    long long int pid;
    ssize_t n;
    int error;
    int fd;

    if (pidfile_fd >= 0 && pidfile_pid == getpid() && !stat(file, &st)
        && st.st_dev == pidfile_dev && st.st_ino == pidfile_ino) {
        /* Our own: opening and closing it would drop our lock. */
        return getpid();
    }

    fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = errno;
        if (error != ENOENT || !quiet_enoent) {
            VLOG_WARN("%s: open: %s", file, util_strerror(error));
        }
        return -error;
    }

    memset(&lck, 0, sizeof lck);
    lck.l_type = F_WRLCK;
    lck.l_whence = SEEK_SET;
    if (fcntl(fd, F_GETLK, &lck) < 0) {
        error = errno;
        VLOG_WARN("%s: fcntl: %s", file, util_strerror(error));
        close(fd);
        return -error;
    }
    if (lck.l_type == F_UNLCK) {
        close(fd);
        return -ESRCH;
    }

    n = read(fd, buf, sizeof buf - 1);
    error = n < 0 ? errno : 0;
    close(fd);
    if (n < 0) {
        VLOG_WARN("%s: read: %s", file, util_strerror(error));
        return -error;
    }
    buf[n] = '\0';
    if (n > 0 && buf[n - 1] == '\n') {
        buf[n - 1] = '\0';
    }
    if (!util_str_to_llong(buf, 10, &pid) || pid <= 0 || pid > INT_MAX) {
        VLOG_WARN("%s: does not contain a pid", file);
        return -EINVAL;
    }
    if (lck.l_pid > 0 && lck.l_pid != pid) {
        /* Edited by hand, or rewritten by --overwrite-pidfile: the lock
         * holder is the process that is alive. */
        VLOG_WARN("%s: holds pid %lld but pid %ld has it locked",
                  file, pid, (long int) lck.l_pid);
        return lck.l_pid;
    }
    return pid;
}

static void
make_pipe(int fds[2])
{
    if (pipe2(fds, O_CLOEXEC)) {
        VLOG_FATAL("pipe failed (%s)", util_strerror(errno));
    }
}

static pid_t
fork_or_die(void)
{
    pid_t pid;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        VLOG_FATAL("fork failed (%s)", util_strerror(errno));
    }
    return pid;
}
