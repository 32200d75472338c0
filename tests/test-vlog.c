/* Unit tests for lib/vlog.c.
 *
 * Each test logs into a log file in a private temporary directory and reads
 * back what was written.  The console is switched off except where a test
 * captures standard error, and syslog goes nowhere ("null").  The tests run
 * in the order listed in main(): the first one checks behaviour before any
 * log file is configured.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(test_vlog);

#define N_THREADS 8
#define N_MESSAGES 400

static char tmp_dir[] = "/tmp/test-vlog.XXXXXX";
static char *log_name;

/* Returns the size of 'name', or 0 if it does not exist. */
static off_t
file_size(const char *name)
{
    struct stat st;

    return stat(name, &st) ? 0 : st.st_size;
}

/* Returns the bytes of 'name' from 'offset' on, as a new string. */
static char *
read_from(const char *name, off_t offset)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    FILE *file = fopen(name, "r");
    int c;

    if (file) {
        fseeko(file, offset, SEEK_SET);
        while ((c = getc(file)) != EOF) {
            ds_put_char(&s, c);
        }
        fclose(file);
    }
    return ds_steal_cstr(&s);
}

/* Puts the default settings back: log file 'log_name' open, default
 * patterns, every module at "info" on the file, console off, no syslog. */
static int
reset(void **state DPS_UNUSED)
{
    assert_int_equal(vlog_set_log_file(log_name), 0);
    vlog_set_pattern(VLF_ANY_DESTINATION, NULL);
    vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_INFO);
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_OFF);
    vlog_set_rate_limits(NULL, true);
    return 0;
}

/* Sets the file pattern to 'pattern', logs 'message' at 'level' and returns
 * what that added to the log file, without the final new-line. */
static char *
log_with_pattern(const char *pattern, enum vlog_level level,
                 const char *message)
{
    off_t offset = file_size(log_name);
    char *text;

    vlog_set_pattern(VLF_FILE, pattern);
    vlog(&this_module, level, "%s", message);
    text = read_from(log_name, offset);
    assert_true(strlen(text) > 0);
    assert_int_equal(text[strlen(text) - 1], '\n');
    text[strlen(text) - 1] = '\0';
    return text;
}

static void
assert_matches(const char *text, const char *regex)
{
    regex_t re;

    assert_int_equal(regcomp(&re, regex, REG_EXTENDED | REG_NOSUB), 0);
    if (regexec(&re, text, 0, NULL, 0)) {
        fail_msg("\"%s\" does not match /%s/", text, regex);
    }
    regfree(&re);
}

static void
assert_spec_error(const char *spec, const char *expected)
{
    char *error = vlog_set_levels_from_string(spec);

    if (!error) {
        fail_msg("spec \"%s\" was accepted", spec);
    }
    assert_string_equal(error, expected);
    free(error);
}

static void
assert_spec_ok(const char *spec)
{
    char *error = vlog_set_levels_from_string(spec);

    if (error) {
        fail_msg("spec \"%s\": %s", spec, error);
    }
}

static void
test_no_log_file(void **state DPS_UNUSED)
{
    assert_null(vlog_get_log_file());
    assert_int_equal(vlog_reopen_log_file(), ENOENT);
    vlog_close_log_file();

    /* The file destination does not count while no file is open. */
    vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_OFF);
    vlog_set_levels(&this_module, VLF_FILE, VLL_DBG);
    assert_false(vlog_is_enabled(&this_module, VLL_DBG));
    assert_false(VLOG_IS_ERR_ENABLED());
}

static void
test_names(void **state DPS_UNUSED)
{
    assert_string_equal(vlog_get_level_name(VLL_DBG), "dbg");
    assert_string_equal(vlog_get_level_name(VLL_OFF), "off");
    assert_int_equal(vlog_get_level_val("WaRn"), VLL_WARN);
    assert_int_equal(vlog_get_level_val("emer"), VLL_EMER);
    assert_int_equal(vlog_get_level_val("debug"), VLL_N_LEVELS);
    assert_string_equal(vlog_get_destination_name(VLF_SYSLOG), "syslog");
    assert_int_equal(vlog_get_destination_val("FILE"), VLF_FILE);
    assert_int_equal(vlog_get_destination_val("any"), VLF_ANY_DESTINATION);
    assert_int_equal(vlog_get_destination_val("disk"), VLF_N_DESTINATIONS);
    assert_ptr_equal(vlog_module_from_name("TEST_VLOG"), &this_module);
    assert_null(vlog_module_from_name("nonexistent_module"));
    assert_string_equal(vlog_get_module_name(&this_module), "test_vlog");
}

static void
test_default_file_format(void **state DPS_UNUSED)
{
    char *line = log_with_pattern(NULL, VLL_INFO, "hello, world");

    assert_matches(line, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:"
                   "[0-9]{2}\\.[0-9]{3}Z\\|[0-9]{5}\\|test_vlog\\|INFO\\|"
                   "hello, world$");
    free(line);

    /* Messages at "dbg" are not logged by default. */
    off_t offset = file_size(log_name);
    VLOG_DBG("invisible");
    assert_int_equal(file_size(log_name), offset);
}

static void
test_default_patterns(void **state DPS_UNUSED)
{
    char *patterns = vlog_get_patterns();

    assert_string_equal(patterns,
        "         prefix                            format\n"
        "         ------                            ------\n"
        "SYSLOG   <%B> %D{%h %e %T} %E %A:          ovs|%05N|%c%T|%p|%m\n"
        "CONSOLE  none                              "
        "%D{%Y-%m-%dT%H:%M:%SZ}|%05N|%c%T|%p|%m\n"
        "FILE     none                              "
        "%D{%Y-%m-%dT%H:%M:%S.###Z}|%05N|%c%T|%p|%m\n");
    free(patterns);

    assert_spec_ok("PATTERN:console:%c:%m x");
    assert_spec_ok("pattern file");
    patterns = vlog_get_patterns();
    assert_non_null(strstr(patterns, "\nCONSOLE  none                    "
                           "          %c:%m x\n"));
    assert_non_null(strstr(patterns, "\nFILE     none                    "
                           "          \n"));
    free(patterns);
}

/* One check of one escape: 'pattern' logged at 'level' gives text that
 * matches 'regex'. */
struct escape_case {
    const char *pattern;
    enum vlog_level level;
    const char *regex;
};

static void
test_pattern_escapes(void **state DPS_UNUSED)
{
    char host[256], pid[32], expected[512];
    char year[8];
    time_t now = time(NULL);
    struct tm tm;
    static const struct escape_case cases[] = {
        { "%A", VLL_INFO, "^test-vlog$" },
        { "%B", VLL_DBG, "^31$" },              /* daemon (3) * 8 + 7. */
        { "%B", VLL_WARN, "^28$" },
        { "%B", VLL_INFO, "^29$" },             /* "info" is NOTICE. */
        { "%B", VLL_EMER, "^25$" },             /* "emer" is ALERT. */
        { "%c", VLL_INFO, "^test_vlog$" },
        { "%d", VLL_INFO, "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:"
                          "[0-9]{2}\\.[0-9]{3}$" },
        { "%D", VLL_INFO, "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:"
                          "[0-9]{2}\\.[0-9]{3}$" },
        { "%D{%H:%M}", VLL_INFO, "^[0-9]{2}:[0-9]{2}$" },
        { "%D{%s.######}", VLL_INFO, "^[0-9]{10}\\.[0-9]{3}000$" },
        { "%m", VLL_INFO, "^the message$" },
        { "%N", VLL_INFO, "^[1-9][0-9]*$" },
        { "a%nb", VLL_INFO, "^a\nb$" },
        { "%p", VLL_WARN, "^WARN$" },
        { "%p", VLL_ERR, "^ERR$" },
        { "%p", VLL_EMER, "^EMER$" },
        { "%p", VLL_DBG, "^DBG$" },
        { "%r", VLL_INFO, "^[0-9]+$" },
        { "%t", VLL_INFO, "^main$" },
        { "[%T]", VLL_INFO, "^\\[\\]$" },
        { "100%%", VLL_INFO, "^100%$" },
        { "%05N", VLL_INFO, "^[0-9]{5}$" },
        { "[%-12c]", VLL_INFO, "^\\[test_vlog   \\]$" },
        { "[%12c]", VLL_INFO, "^\\[   test_vlog\\]$" },
        { "[%3c]", VLL_INFO, "^\\[test_vlog\\]$" },
        { "[%06p]", VLL_DBG, "^\\[000DBG\\]$" },
        { "[%-6p]", VLL_DBG, "^\\[DBG   \\]$" },
        { "[%q][%4]]", VLL_INFO, "^\\[q\\]\\[   \\]\\]$" },
        { "x%", VLL_INFO, "^x$" },
        { "%c%T|%p|%m", VLL_ERR, "^test_vlog\\|ERR\\|the message$" },
        { "", VLL_INFO, "^$" },
    };

    vlog_set_levels(&this_module, VLF_FILE, VLL_DBG);
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *line = log_with_pattern(cases[i].pattern, cases[i].level,
                                      "the message");
        regex_t re;

        assert_int_equal(regcomp(&re, cases[i].regex,
                                 REG_EXTENDED | REG_NOSUB), 0);
        if (regexec(&re, line, 0, NULL, 0)) {
            fail_msg("pattern \"%s\" gave \"%s\", expected /%s/",
                     cases[i].pattern, line, cases[i].regex);
        }
        regfree(&re);
        free(line);
    }

    /* Values that regular expressions cannot pin down. */
    char *line = log_with_pattern("%E", VLL_INFO, "x");
    assert_int_equal(gethostname(host, sizeof host), 0);
    host[sizeof host - 1] = '\0';
    assert_string_equal(line, host);
    free(line);

    line = log_with_pattern("%P", VLL_INFO, "x");
    snprintf(pid, sizeof pid, "%ld", (long int) getpid());
    assert_string_equal(line, pid);
    free(line);

    line = log_with_pattern("%D{%Y}|%d{%Y}", VLL_INFO, "x");
    gmtime_r(&now, &tm);
    strftime(year, sizeof year, "%Y", &tm);
    snprintf(expected, sizeof expected, "%s|", year);
    localtime_r(&now, &tm);
    strftime(year, sizeof year, "%Y", &tm);
    strncat(expected, year, sizeof expected - strlen(expected) - 1);
    assert_string_equal(line, expected);
    free(line);

    /* Consecutive messages get consecutive sequence numbers. */
    char *a = log_with_pattern("%N", VLL_INFO, "x");
    char *b = log_with_pattern("%N", VLL_INFO, "x");
    assert_int_equal(atoi(b), atoi(a) + 1);
    free(a);
    free(b);
}

/* Redirects standard error into a temporary file; returns the saved fd. */
static int
capture_stderr(const char *name)
{
    int saved = dup(STDERR_FILENO);
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);

    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, STDERR_FILENO);
    close(fd);
    return saved;
}

static void
restore_stderr(int saved)
{
    dup2(saved, STDERR_FILENO);
    close(saved);
}

/* Levels filter per destination, and one message has one sequence number
 * on every destination. */
static void
test_levels_per_destination(void **state DPS_UNUSED)
{
    char *console_name = xasprintf("%s/console", tmp_dir);
    off_t offset = file_size(log_name);
    char *console, *file;
    int saved;

    assert_spec_ok("test_vlog:console:dbg");
    assert_spec_ok("test_vlog:file:warn");
    assert_spec_ok("PATTERN:ANY:%N %p %m");
    assert_true(VLOG_IS_DBG_ENABLED());

    saved = capture_stderr(console_name);
    VLOG_DBG("one");
    VLOG_INFO("two");
    VLOG_WARN("three");
    VLOG_ERR("four");
    restore_stderr(saved);

    console = read_from(console_name, 0);
    file = read_from(log_name, offset);
    unsigned int n = atoi(console);
    char *expected = xasprintf("%u DBG one\n%u INFO two\n%u WARN three\n"
                               "%u ERR four\n", n, n + 1, n + 2, n + 3);
    assert_string_equal(console, expected);
    free(expected);
    expected = xasprintf("%u WARN three\n%u ERR four\n", n + 2, n + 3);
    assert_string_equal(file, expected);
    free(expected);
    free(console);
    free(file);

    /* "off" on every destination disables the module entirely. */
    assert_spec_ok("test_vlog:off");
    assert_false(VLOG_IS_ERR_ENABLED());
    offset = file_size(log_name);
    VLOG_EMER("not logged");
    assert_int_equal(file_size(log_name), offset);

    unlink(console_name);
    free(console_name);
}

static void
test_spec_parsing(void **state DPS_UNUSED)
{
    struct vlog_module *vlog_module = vlog_module_from_name("vlog");

    assert_non_null(vlog_module);

    assert_spec_ok("test_vlog:syslog:warn");
    assert_int_equal(vlog_get_level(&this_module, VLF_SYSLOG), VLL_WARN);
    assert_int_equal(vlog_get_level(&this_module, VLF_FILE), VLL_INFO);
    assert_int_equal(vlog_get_level(vlog_module, VLF_SYSLOG), VLL_INFO);

    /* Any order, any case, any separators; missing parts mean all/dbg. */
    assert_spec_ok("ERR, File  TEST_VLOG");
    assert_int_equal(vlog_get_level(&this_module, VLF_FILE), VLL_ERR);
    assert_spec_ok("test_vlog::console");
    assert_int_equal(vlog_get_level(&this_module, VLF_CONSOLE), VLL_DBG);
    assert_spec_ok("ANY:file:emer");
    assert_int_equal(vlog_get_level(vlog_module, VLF_FILE), VLL_EMER);
    assert_int_equal(vlog_get_level(&this_module, VLF_FILE), VLL_EMER);
    assert_spec_ok("any:any:warn");
    for (int d = 0; d < VLF_N_DESTINATIONS; d++) {
        assert_int_equal(vlog_get_level(vlog_module, d), VLL_WARN);
    }
    assert_spec_ok("");
    for (int d = 0; d < VLF_N_DESTINATIONS; d++) {
        assert_int_equal(vlog_get_level(vlog_module, d), VLL_DBG);
    }
    assert_spec_ok("info");

    /* Bad specs, with Open vSwitch's messages; they change nothing. */
    assert_spec_error("nonexistent_module",
                      "no destination, level, or module "
                      "\"nonexistent_module\"");
    assert_spec_error("console:bogus",
                      "no destination, level, or module \"bogus\"");
    assert_spec_error("test_vlog:console:dbg:extra",
                      "no destination, level, or module \"extra\"");
    assert_spec_error("test_vlog:console:dbg:vlog",
                      "cannot specify multiple modules");
    assert_spec_error("info:dbg", "cannot specify multiple levels");
    assert_spec_error("console:file", "cannot specify multiple destinations");
    assert_spec_error("PATTERN", "missing destination");
    assert_spec_error("PATTERN:", "missing destination");
    assert_spec_error("PATTERN:bogus:%m", "unknown destination \"bogus\"");
    assert_spec_error("FACILITY:bogus", "invalid facility");
    assert_spec_error("FACILITY", "invalid facility");
    assert_int_equal(vlog_get_level(&this_module, VLF_CONSOLE), VLL_INFO);
    assert_int_equal(vlog_get_level(&this_module, VLF_FILE), VLL_INFO);
}

static void
test_get_levels(void **state DPS_UNUSED)
{
    char *levels;

    assert_spec_ok("test_vlog:console:dbg");
    assert_spec_ok("test_vlog:syslog:off");
    assert_spec_ok("test_vlog:file:emer");
    levels = vlog_get_levels();
    assert_true(util_str_has_prefix(levels,
        "                 console    syslog    file\n"
        "                 -------    ------    ------\n"));
    assert_non_null(strstr(levels, "\ntest_vlog          DBG        OFF"
                           "       EMER\n"));
    assert_non_null(strstr(levels, "\nvlog               OFF       INFO"
                           "       INFO\n"));
    free(levels);

    vlog_set_rate_limits(&this_module, false);
    levels = vlog_get_levels();
    assert_non_null(strstr(levels, "\ntest_vlog          DBG        OFF"
                           "       EMER    (rate limiting disabled)\n"));
    free(levels);
}

static void
test_rate_limit(void **state DPS_UNUSED)
{
    /* 6000 a minute is one token every 10 ms. */
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(6000, 3);
    off_t offset = file_size(log_name);
    char *text;

    vlog_set_pattern(VLF_FILE, "%m");
    for (int i = 0; i < 10; i++) {
        VLOG_WARN_RL(&rl, "burst %d", i);
    }
    text = read_from(log_name, offset);
    assert_string_equal(text, "burst 0\nburst 1\nburst 2\n");
    free(text);

    usleep(15 * 1000);
    offset = file_size(log_name);
    VLOG_WARN_RL(&rl, "after");
    text = read_from(log_name, offset);
    assert_string_equal(text, "Dropped 7 log messages in last 0 seconds "
                        "(most recently, 0 seconds ago) due to excessive "
                        "rate\nafter\n");
    free(text);

    /* A message below the level does not consume a token. */
    offset = file_size(log_name);
    usleep(15 * 1000);
    VLOG_DBG_RL(&rl, "invisible");
    VLOG_WARN_RL(&rl, "next");
    text = read_from(log_name, offset);
    assert_string_equal(text, "next\n");
    free(text);

    /* Without rate limits, everything goes through. */
    vlog_set_rate_limits(&this_module, false);
    offset = file_size(log_name);
    for (int i = 0; i < 5; i++) {
        VLOG_WARN_RL(&rl, "free %d", i);
    }
    text = read_from(log_name, offset);
    assert_string_equal(text, "free 0\nfree 1\nfree 2\nfree 3\nfree 4\n");
    free(text);
}

static void
test_reopen(void **state DPS_UNUSED)
{
    char *rotated = xasprintf("%s.1", log_name);
    char *text;

    vlog_set_pattern(VLF_FILE, "%c|%m");
    VLOG_INFO("one");

    /* Reopening the file still in place does nothing. */
    off_t offset = file_size(log_name);
    assert_int_equal(vlog_reopen_log_file(), 0);
    assert_int_equal(file_size(log_name), offset);

    /* After a rotation, the old file gets the last words, the new one the
     * rest. */
    assert_int_equal(rename(log_name, rotated), 0);
    VLOG_INFO("two");
    assert_int_equal(vlog_reopen_log_file(), 0);
    VLOG_INFO("three");
    text = read_from(rotated, offset);
    assert_string_equal(text, "test_vlog|two\nvlog|closing log file\n");
    free(text);
    text = read_from(log_name, 0);
    char *expected = xasprintf("vlog|opened log file %s\ntest_vlog|three\n",
                               log_name);
    assert_string_equal(text, expected);
    free(expected);
    free(text);

    /* Closed, nothing is written; reopened, logging resumes. */
    vlog_close_log_file();
    VLOG_INFO("four");
    assert_string_equal(vlog_get_log_file(), log_name);
    assert_int_equal(vlog_reopen_log_file(), 0);
    VLOG_INFO("five");
    text = read_from(log_name, 0);
    expected = xasprintf("vlog|opened log file %s\ntest_vlog|three\n"
                         "vlog|opened log file %s\ntest_vlog|five\n",
                         log_name, log_name);
    assert_string_equal(text, expected);
    free(expected);
    free(text);

    /* A file that cannot be opened is reported and the old one kept. */
    assert_int_equal(vlog_set_log_file("/nonexistent-dir/x.log"), ENOENT);
    assert_string_equal(vlog_get_log_file(), log_name);
    offset = file_size(log_name);
    VLOG_INFO("six");
    text = read_from(log_name, offset);
    assert_string_equal(text, "test_vlog|six\n");
    free(text);

    unlink(rotated);
    free(rotated);
}

struct writer_arg {
    int id;
    pthread_barrier_t *start;
};

static void *
writer_thread(void *arg_)
{
    struct writer_arg *arg = arg_;
    char name[16], body[201];

    snprintf(name, sizeof name, "w%d", arg->id);
    vlog_set_thread_name(name);
    memset(body, 'a' + arg->id, sizeof body - 1);
    body[sizeof body - 1] = '\0';
    pthread_barrier_wait(arg->start);
    for (int i = 0; i < N_MESSAGES; i++) {
        VLOG_INFO("%d %s", i, body);
    }
    return NULL;
}

static int
compare_uints(const void *a_, const void *b_)
{
    const unsigned int *a = a_, *b = b_;

    return *a < *b ? -1 : *a > *b;
}

/* Threads logging at once produce whole lines, each with its own sequence
 * number, in each thread's order. */
static void
test_threads(void **state DPS_UNUSED)
{
    struct writer_arg args[N_THREADS];
    pthread_t threads[N_THREADS];
    int next[N_THREADS] = { 0 };
    pthread_barrier_t start;
    off_t offset = file_size(log_name);
    unsigned int *seqnos = xcalloc(N_THREADS * N_MESSAGES, sizeof *seqnos);
    int n_lines = 0;
    char *text, *save_ptr = NULL;

    vlog_set_pattern(VLF_FILE, "%N|%t|%T|%m");
    pthread_barrier_init(&start, NULL, N_THREADS);
    for (int i = 0; i < N_THREADS; i++) {
        args[i].id = i;
        args[i].start = &start;
        assert_int_equal(pthread_create(&threads[i], NULL, writer_thread,
                                        &args[i]), 0);
    }
    for (int i = 0; i < N_THREADS; i++) {
        pthread_join(threads[i], NULL);
    }
    pthread_barrier_destroy(&start);

    text = read_from(log_name, offset);
    for (char *line = strtok_r(text, "\n", &save_ptr); line;
         line = strtok_r(NULL, "\n", &save_ptr)) {
        unsigned int seqno;
        int id, id2, index, length;
        char body[256];

        if (sscanf(line, "%u|w%d|(w%d)|%d %255s%n", &seqno, &id, &id2,
                   &index, body, &length) != 5
            || line[length] != '\0') {
            fail_msg("torn line: \"%s\"", line);
        }
        assert_true(id >= 0 && id < N_THREADS);
        assert_int_equal(id, id2);
        assert_int_equal(index, next[id]++);
        assert_int_equal(strlen(body), 200);
        assert_int_equal(strspn(body, (char[]) { 'a' + id, '\0' }), 200);
        assert_true(n_lines < N_THREADS * N_MESSAGES);
        seqnos[n_lines++] = seqno;
    }
    assert_int_equal(n_lines, N_THREADS * N_MESSAGES);
    free(text);

    /* Every message has a sequence number of its own. */
    qsort(seqnos, n_lines, sizeof *seqnos, compare_uints);
    for (int i = 1; i < n_lines; i++) {
        assert_int_equal(seqnos[i], seqnos[i - 1] + 1);
    }
    free(seqnos);
}

/* A bad -v spec exits with Open vSwitch's message. */
static void
test_bad_verbosity_exits(void **state DPS_UNUSED)
{
    char *err_name = xasprintf("%s/stderr", tmp_dir);
    int status;
    pid_t pid;

    /* The child must not flush the parent's buffered TAP output again. */
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        capture_stderr(err_name);
        vlog_set_verbosity("console:bogus");
        _exit(99);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    char *text = read_from(err_name, 0);
    assert_string_equal(text, "test-vlog: processing \"console:bogus\": no "
                        "destination, level, or module \"bogus\"\n");
    free(text);

    /* A good one, or none, just sets levels. */
    vlog_set_verbosity("test_vlog:file:err");
    assert_int_equal(vlog_get_level(&this_module, VLF_FILE), VLL_ERR);
    vlog_set_verbosity(NULL);
    assert_int_equal(vlog_get_level(&this_module, VLF_CONSOLE), VLL_DBG);

    unlink(err_name);
    free(err_name);
}

/* Opens a UDP socket on the loopback and returns it; its port goes into
 * '*port'. */
static int
open_udp_listener(int *port)
{
    struct sockaddr_in sin;
    socklen_t length = sizeof sin;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);

    assert_true(fd >= 0);
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *) &sin, sizeof sin), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *) &sin, &length), 0);
    *port = ntohs(sin.sin_port);
    return fd;
}

static char *
receive_datagram(int fd)
{
    char buf[2048];
    ssize_t n = recv(fd, buf, sizeof buf - 1, 0);

    assert_true(n > 0);
    buf[n] = '\0';
    return xstrdup(buf);
}

/* --syslog-method=udp:IP:PORT and --syslog-target=IP:PORT send RFC 3164
 * datagrams: daemon facility by default for the first, local0 for the
 * second. */
static void
test_syslog_udp(void **state DPS_UNUSED)
{
    char *method, *target, *text, *expected;
    int method_fd, target_fd, method_port, target_port;
    char host[256];

    assert_int_equal(gethostname(host, sizeof host), 0);
    host[sizeof host - 1] = '\0';
    method_fd = open_udp_listener(&method_port);
    target_fd = open_udp_listener(&target_port);
    method = xasprintf("udp:127.0.0.1:%d", method_port);
    target = xasprintf("127.0.0.1:%d", target_port);
    vlog_set_syslog_method(method);
    vlog_set_syslog_target(target);
    assert_spec_ok("PATTERN:syslog:%p|%m");

    VLOG_WARN("over udp");
    text = receive_datagram(method_fd);
    expected = xasprintf("^<28> [A-Z][a-z]{2} [ 1-3][0-9] [0-9]{2}:[0-9]{2}:"
                         "[0-9]{2} %s test-vlog: WARN\\|over udp$", host);
    assert_matches(text, expected);
    free(expected);
    free(text);
    text = receive_datagram(target_fd);
    assert_true(util_str_has_prefix(text, "<132> "));
    assert_true(util_str_has_suffix(text, " test-vlog: WARN|over udp"));
    free(text);

    /* An explicit facility applies to both. */
    assert_spec_ok("facility local7");
    VLOG_ERR("again");
    text = receive_datagram(method_fd);
    assert_true(util_str_has_prefix(text, "<187> "));
    free(text);
    text = receive_datagram(target_fd);
    assert_true(util_str_has_prefix(text, "<187> "));
    free(text);

    /* Below the syslog level, nothing is sent. */
    assert_spec_ok("test_vlog:syslog:err");
    VLOG_WARN("quiet");
    VLOG_ERR("loud");
    text = receive_datagram(target_fd);
    assert_true(util_str_has_suffix(text, "ERR|loud"));
    free(text);

    vlog_set_syslog_method("null");
    vlog_set_syslog_target("bogus");     /* Logged and ignored. */
    close(method_fd);
    close(target_fd);
    free(method);
    free(target);
}

static int
setup(void **state DPS_UNUSED)
{
    assert_non_null(mkdtemp(tmp_dir));
    log_name = xasprintf("%s/test.log", tmp_dir);
    vlog_set_syslog_method("null");
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_OFF);
    return 0;
}

static int
teardown(void **state DPS_UNUSED)
{
    vlog_close_log_file();
    unlink(log_name);
    rmdir(tmp_dir);
    free(log_name);
    return 0;
}

int
main(int argc DPS_UNUSED, char *argv[])
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_log_file),
        cmocka_unit_test(test_names),
        cmocka_unit_test_setup(test_default_file_format, reset),
        cmocka_unit_test_setup(test_default_patterns, reset),
        cmocka_unit_test_setup(test_pattern_escapes, reset),
        cmocka_unit_test_setup(test_levels_per_destination, reset),
        cmocka_unit_test_setup(test_spec_parsing, reset),
        cmocka_unit_test_setup(test_get_levels, reset),
        cmocka_unit_test_setup(test_rate_limit, reset),
        cmocka_unit_test_setup(test_reopen, reset),
        cmocka_unit_test_setup(test_threads, reset),
        cmocka_unit_test_setup(test_bad_verbosity_exits, reset),
        cmocka_unit_test_setup(test_syslog_udp, reset),
    };

    util_set_program_name(argv[0]);
    return cmocka_run_group_tests_name("vlog", tests, setup, teardown);
}
