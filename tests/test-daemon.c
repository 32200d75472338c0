/* Unit tests for lib/daemon.c (pidfiles, --user parsing), lib/fatal-signal.c
 * and the directory overrides of lib/dirs.c that daemons rely on.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "daemon.h"
#include "dirs.h"
#include "fatal-signal.h"
#include "poll-loop.h"
#include "util.h"

static char tmp_dir[] = "/tmp/test-daemon.XXXXXX";

/* Returns a new string "<tmp_dir>/NAME". */
static char *
tmp_file(const char *name)
{
    return xasprintf("%s/%s", tmp_dir, name);
}

static bool
file_exists(const char *name)
{
    return access(name, F_OK) == 0;
}

/* Returns the contents of 'name' (at most 255 bytes), which the caller
 * frees. */
static char *
read_file(const char *name)
{
    char buf[256];
    int fd = open(name, O_RDONLY);
    ssize_t n;

    assert_true(fd >= 0);
    n = read(fd, buf, sizeof buf - 1);
    assert_true(n >= 0);
    close(fd);
    return xmemdup0(buf, n);
}

static void
write_file(const char *name, const char *contents)
{
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);

    assert_true(fd >= 0);
    assert_int_equal(write(fd, contents, strlen(contents)),
                     (ssize_t) strlen(contents));
    close(fd);
}

/* Forks a child that runs 'func' with 'aux', tells the parent through a
 * pipe that it is ready, then waits to be killed.  Returns its pid. */
static pid_t
fork_holder(void (*func)(const void *aux), const void *aux)
{
    int fds[2];
    pid_t pid;
    char c;

    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        close(fds[0]);
        func(aux);
        if (write(fds[1], "", 1) != 1) {
            _exit(1);
        }
        for (;;) {
            pause();
        }
    }
    close(fds[1]);
    assert_int_equal(read(fds[0], &c, 1), 1);
    close(fds[0]);
    return pid;
}

static void
kill_and_reap(pid_t pid)
{
    int status;

    kill(pid, SIGKILL);
    assert_int_equal(waitpid(pid, &status, 0), pid);
}

static void
make_pidfile_or_die(const void *aux DPS_UNUSED)
{
    pid_t holder;

    if (daemon_make_pidfile(&holder)) {
        _exit(1);
    }
}

static void
lock_file_or_die(const void *name_)
{
    const char *name = name_;
    struct flock lck = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    int fd = open(name, O_RDWR);

    if (fd < 0 || fcntl(fd, F_SETLK, &lck) < 0) {
        _exit(1);
    }
}

static void
test_dirs_env_overrides(void **state DPS_UNUSED)
{
    setenv("OVS_RUNDIR", "/x/run", 1);
    setenv("OVS_LOGDIR", "/x/log", 1);
    setenv("OVS_SYSCONFDIR", "/x/etc", 1);
    setenv("OVS_DBDIR", "/x/db", 1);
    assert_string_equal(dirs_rundir(), "/x/run");
    assert_string_equal(dirs_logdir(), "/x/log");
    assert_string_equal(dirs_sysconfdir(), "/x/etc");
    assert_string_equal(dirs_dbdir(), "/x/db");

    /* Without OVS_DBDIR, the database lives under OVS_SYSCONFDIR. */
    unsetenv("OVS_DBDIR");
    assert_string_equal(dirs_dbdir(), "/x/etc/openvswitch");

    /* Empty means unset. */
    setenv("OVS_RUNDIR", "", 1);
    assert_string_not_equal(dirs_rundir(), "");

    setenv("OVS_RUNDIR", tmp_dir, 1);
    unsetenv("OVS_LOGDIR");
    unsetenv("OVS_SYSCONFDIR");
}

static void
test_pidfile_names(void **state DPS_UNUSED)
{
    char *expected;

    daemon_set_pidfile(NULL);
    expected = tmp_file("test-daemon.pid");
    assert_string_equal(daemon_get_pidfile(), expected);
    free(expected);

    daemon_set_pidfile("sub/x.pid");
    expected = tmp_file("sub/x.pid");
    assert_string_equal(daemon_get_pidfile(), expected);
    free(expected);

    daemon_set_pidfile("/abs/y.pid");
    assert_string_equal(daemon_get_pidfile(), "/abs/y.pid");
}

static void
test_pidfile_lifecycle(void **state DPS_UNUSED)
{
    char *name = tmp_file("life.pid");
    char *contents, *expected;
    pid_t holder, child;

    daemon_set_pidfile(name);

    /* Nothing there yet. */
    assert_int_equal(daemon_read_pidfile(name), -ENOENT);

    /* A live child holds it. */
    child = fork_holder(make_pidfile_or_die, NULL);
    assert_int_equal(daemon_read_pidfile(name), child);
    contents = read_file(name);
    expected = xasprintf("%ld\n", (long int) child);
    assert_string_equal(contents, expected);
    free(contents);
    free(expected);

    /* So we may not take it. */
    assert_int_equal(daemon_make_pidfile(&holder), EBUSY);
    assert_int_equal(holder, child);
    contents = read_file(name);
    expected = xasprintf("%ld\n", (long int) child);
    assert_string_equal(contents, expected);
    free(contents);
    free(expected);

    /* Once it dies without cleaning up, the file is stale... */
    kill_and_reap(child);
    assert_true(file_exists(name));
    assert_int_equal(daemon_read_pidfile(name), -ESRCH);

    /* ...and may be taken over. */
    assert_int_equal(daemon_make_pidfile(&holder), 0);
    assert_int_equal(daemon_read_pidfile(name), getpid());
    /* Reading our own pidfile does not drop our lock: a child still sees
     * it held. */
    assert_int_equal(daemon_read_pidfile(name), getpid());
    fflush(NULL);
    child = fork();
    assert_true(child >= 0);
    if (!child) {
        _exit(daemon_read_pidfile(name) == getppid() ? 0 : 1);
    } else {
        int status;

        assert_int_equal(waitpid(child, &status, 0), child);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }

    /* No temporary files are left behind. */
    {
        char *cmd = xasprintf("test `ls '%s' | grep -c tmp` = 0", tmp_dir);
        assert_int_equal(system(cmd), 0);
        free(cmd);
    }

    fatal_signal_unlink_file_now(name);
    assert_false(file_exists(name));
    free(name);
}

static void
test_pidfile_bad_contents(void **state DPS_UNUSED)
{
    char *name = tmp_file("bad.pid");
    pid_t child;

    /* Unlocked: stale, whatever it holds. */
    write_file(name, "garbage\n");
    assert_int_equal(daemon_read_pidfile(name), -ESRCH);
    write_file(name, "");
    assert_int_equal(daemon_read_pidfile(name), -ESRCH);

    /* Locked but not a pid. */
    write_file(name, "garbage\n");
    child = fork_holder(lock_file_or_die, name);
    assert_int_equal(daemon_read_pidfile(name), -EINVAL);
    kill_and_reap(child);

    /* Locked, but by someone else than the pid it names: the lock holder
     * is the live one. */
    write_file(name, "1\n");
    child = fork_holder(lock_file_or_die, name);
    assert_int_equal(daemon_read_pidfile(name), child);
    kill_and_reap(child);

    unlink(name);
    free(name);
}

static void
test_pidfile_overwrite(void **state DPS_UNUSED)
{
    char *name = tmp_file("over.pid");
    pid_t holder, child;

    daemon_set_pidfile(name);
    child = fork_holder(make_pidfile_or_die, NULL);
    assert_int_equal(daemon_make_pidfile(&holder), EBUSY);

    daemon_set_overwrite_pidfile();
    assert_int_equal(daemon_make_pidfile(&holder), 0);
    assert_int_equal(daemon_read_pidfile(name), getpid());

    kill_and_reap(child);
    fatal_signal_unlink_file_now(name);
    free(name);
}

static void
test_parse_user_group(void **state DPS_UNUSED)
{
    uid_t uid;
    gid_t gid;
    char *error;

    assert_null(daemon_parse_user_group("root", &uid, &gid));
    assert_int_equal(uid, 0);
    assert_int_equal(gid, 0);

    assert_null(daemon_parse_user_group("root:root", &uid, &gid));
    assert_int_equal(uid, 0);
    assert_int_equal(gid, 0);

    assert_null(daemon_parse_user_group(":root", &uid, &gid));
    assert_int_equal(uid, getuid());
    assert_int_equal(gid, 0);

    error = daemon_parse_user_group("no-such-user-dps", &uid, &gid);
    assert_non_null(error);
    assert_non_null(strstr(error, "no-such-user-dps"));
    free(error);

    error = daemon_parse_user_group("root:no-such-group-dps", &uid, &gid);
    assert_non_null(error);
    assert_non_null(strstr(error, "no-such-group-dps"));
    free(error);

    error = daemon_parse_user_group(":", &uid, &gid);
    assert_non_null(error);
    free(error);
}

/* Hook for the fatal-signal tests: creates the file named 'aux'. */
static void
touch_hook(void *aux)
{
    write_file(aux, "");
}

/* Forks a child that registers 'victim' to be unlinked and two hooks that
 * create 'marker_always' (on signals and at exit) and 'marker_signal' (on
 * signals only), then runs 'body'.  Returns the child's wait status. */
static int
run_fatal_child(const char *victim, char *marker_always, char *marker_signal,
                void (*body)(void))
{
    pid_t pid;
    int status;

    write_file(victim, "x");
    unlink(marker_always);
    unlink(marker_signal);

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        fatal_signal_fork();
        fatal_signal_add_file_to_unlink(victim);
        fatal_signal_add_hook(touch_hook, NULL, marker_always, true);
        fatal_signal_add_hook(touch_hook, NULL, marker_signal, false);
        body();
        _exit(99);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

/* The main loop a daemon runs, until a signal ends it. */
static void
main_loop_until_signal(void)
{
    raise(SIGTERM);
    for (;;) {
        fatal_signal_run();
        fatal_signal_wait();
        poll_block();
    }
}

static void
exit_normally(void)
{
    exit(0);
}

/* A main loop that is stuck: only a second signal gets through. */
static void
stuck_after_two_signals(void)
{
    raise(SIGINT);
    assert_true(fatal_signal_pending());
    raise(SIGINT);
    for (;;) {
        pause();
    }
}

static void
test_fatal_signal_cleanup(void **state DPS_UNUSED)
{
    char *victim = tmp_file("victim");
    char *always = tmp_file("always");
    char *on_signal = tmp_file("on-signal");
    int status;

    /* A signal: hooks run, the file goes, the process dies by it. */
    status = run_fatal_child(victim, always, on_signal,
                             main_loop_until_signal);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    assert_false(file_exists(victim));
    assert_true(file_exists(always));
    assert_true(file_exists(on_signal));

    /* exit(): only the at-exit hooks run; the file goes. */
    status = run_fatal_child(victim, always, on_signal, exit_normally);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_false(file_exists(victim));
    assert_true(file_exists(always));
    assert_false(file_exists(on_signal));

    /* A stuck main loop: the second signal unlinks and kills, without
     * hooks. */
    status = run_fatal_child(victim, always, on_signal,
                             stuck_after_two_signals);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGINT);
    assert_false(file_exists(victim));
    assert_false(file_exists(always));

    unlink(always);
    free(victim);
    free(always);
    free(on_signal);
}

static void
test_fatal_signal_files(void **state DPS_UNUSED)
{
    char *kept = tmp_file("kept");
    char *gone = tmp_file("gone");
    pid_t pid;
    int status;

    write_file(kept, "");
    write_file(gone, "");
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        pid_t grandchild;

        fatal_signal_fork();
        fatal_signal_add_file_to_unlink(kept);
        fatal_signal_add_file_to_unlink(gone);
        fatal_signal_add_file_to_unlink(gone);
        fatal_signal_remove_file_to_unlink(kept);

        /* A forked child does not clean up its parent's files. */
        grandchild = fork();
        if (!grandchild) {
            fatal_signal_fork();
            exit(0);
        }
        waitpid(grandchild, NULL, 0);
        if (!file_exists(gone)) {
            _exit(2);
        }
        exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(file_exists(kept));
    assert_false(file_exists(gone));

    /* Unlinking now, and a file that is already gone. */
    fatal_signal_add_file_to_unlink(kept);
    assert_int_equal(fatal_signal_unlink_file_now(kept), 0);
    assert_false(file_exists(kept));
    assert_int_equal(fatal_signal_unlink_file_now(kept), 0);

    free(kept);
    free(gone);
}

static int
setup(void **state DPS_UNUSED)
{
    util_set_program_name("test-daemon");
    if (!mkdtemp(tmp_dir)) {
        return -1;
    }
    setenv("OVS_RUNDIR", tmp_dir, 1);
    fatal_signal_init();
    return 0;
}

static int
teardown(void **state DPS_UNUSED)
{
    char *cmd = xasprintf("rm -rf '%s'", tmp_dir);
    int retval = system(cmd);

    free(cmd);
    return retval ? -1 : 0;
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dirs_env_overrides),
        cmocka_unit_test(test_pidfile_names),
        cmocka_unit_test(test_pidfile_lifecycle),
        cmocka_unit_test(test_pidfile_bad_contents),
        cmocka_unit_test(test_pidfile_overwrite),
        cmocka_unit_test(test_parse_user_group),
        cmocka_unit_test(test_fatal_signal_cleanup),
        cmocka_unit_test(test_fatal_signal_files),
    };

    return cmocka_run_group_tests_name("daemon", tests, setup, teardown);
}
