/* Licensed under the Apache License, Version 2.0 (see LICENSE).
 *
 * Locking.  'vlog_rwlock' guards the settings: the module list, the
 * patterns, the log file, the syslog set-up.  Logging a message holds it for
 * reading while it formats and writes, so settings cannot change under a
 * message; changing a setting holds it for writing and never logs while
 * doing so (messages about the change are logged after unlocking).
 * 'vlog_output_mutex' serialises the write() calls themselves so that lines
 * from concurrent threads never interleave.  'vlog_file_mutex' serialises
 * whole log file switches (open, reopen, close), which log as they go. */

#include <config.h>
#include "vlog.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>
#include "dirs.h"
#include "dynamic-string.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(vlog);

/* Lower-case level names, as specs and vlog_get_level_name() use them. */
static const char *const vlog_level_names[VLL_N_LEVELS] = {
#define VLOG_LEVEL(NAME, SYSLOG_LEVEL, TEXT) TEXT,
    VLOG_LEVELS
#undef VLOG_LEVEL
};

/* Upper-case level names, as log lines and "vlog/list" show them. */
static const char *const vlog_level_labels[VLL_N_LEVELS] = {
#define VLOG_LEVEL(NAME, SYSLOG_LEVEL, TEXT) #NAME,
    VLOG_LEVELS
#undef VLOG_LEVEL
};

/* The syslog severity of each level. */
static const int vlog_syslog_severities[VLL_N_LEVELS] = {
#define VLOG_LEVEL(NAME, SYSLOG_LEVEL, TEXT) SYSLOG_LEVEL,
    VLOG_LEVELS
#undef VLOG_LEVEL
};

static const char *const vlog_destination_names[VLF_N_DESTINATIONS] = {
#define VLOG_DESTINATION(NAME, TEXT) TEXT,
    VLOG_DESTINATIONS
#undef VLOG_DESTINATION
};

static const char *const vlog_destination_labels[VLF_N_DESTINATIONS] = {
#define VLOG_DESTINATION(NAME, TEXT) #NAME,
    VLOG_DESTINATIONS
#undef VLOG_DESTINATION
};

/* Open vSwitch's default line formats. */
static const char *const vlog_default_patterns[VLF_N_DESTINATIONS] = {
    [VLF_CONSOLE] = "%D{%Y-%m-%dT%H:%M:%SZ}|%05N|%c%T|%p|%m",
    [VLF_SYSLOG] = "ovs|%05N|%c%T|%p|%m",
    [VLF_FILE] = "%D{%Y-%m-%dT%H:%M:%S.###Z}|%05N|%c%T|%p|%m",
};

/* What precedes a syslog message sent over a socket (not through libc,
 * which adds its own header): an RFC 3164 header. */
#define VLOG_SYSLOG_PREFIX "<%B> %D{%h %e %T} %E %A:"

/* The time format of "%d" and "%D" without braces. */
#define VLOG_DEFAULT_TIME_FORMAT "%Y-%m-%d %H:%M:%S.###"

/* Syslog facilities (RFC 5424 codes), for "FACILITY:name". */
#define VLOG_FACILITIES                                                 \
    VLOG_FACILITY(0, "kern") VLOG_FACILITY(1, "user")                   \
    VLOG_FACILITY(2, "mail") VLOG_FACILITY(3, "daemon")                 \
    VLOG_FACILITY(4, "auth") VLOG_FACILITY(5, "syslog")                 \
    VLOG_FACILITY(6, "lpr") VLOG_FACILITY(7, "news")                    \
    VLOG_FACILITY(8, "uucp") VLOG_FACILITY(9, "clock")                  \
    VLOG_FACILITY(11, "ftp") VLOG_FACILITY(12, "ntp")                   \
    VLOG_FACILITY(13, "audit") VLOG_FACILITY(14, "alert")               \
    VLOG_FACILITY(15, "clock2") VLOG_FACILITY(16, "local0")             \
    VLOG_FACILITY(17, "local1") VLOG_FACILITY(18, "local2")             \
    VLOG_FACILITY(19, "local3") VLOG_FACILITY(20, "local4")             \
    VLOG_FACILITY(21, "local5") VLOG_FACILITY(22, "local6")             \
    VLOG_FACILITY(23, "local7")
#define VLOG_FACILITY_DAEMON 3
#define VLOG_FACILITY_LOCAL0 16

struct vlog_facility {
    int code;
    const char *name;
};

static const struct vlog_facility vlog_facilities[] = {
#define VLOG_FACILITY(CODE, NAME) { CODE, NAME },
    VLOG_FACILITIES
#undef VLOG_FACILITY
};

/* How messages for the syslog destination leave the process. */
enum vlog_syslog_method {
    VLOG_SYSLOG_LIBC,           /* libc syslog(). */
    VLOG_SYSLOG_NULL,           /* Discarded. */
    VLOG_SYSLOG_SOCKET,         /* Datagram socket, "unix:" or "udp:". */
};

static pthread_rwlock_t vlog_rwlock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t vlog_output_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t vlog_file_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Guarded by 'vlog_rwlock'. */
static struct vlog_module *vlog_modules;
static char *vlog_patterns[VLF_N_DESTINATIONS];   /* NULL means default. */
static char *vlog_file_name;                      /* NULL if never set. */
static int vlog_file_fd = -1;                     /* -1 if closed. */
static int vlog_facility = -1;                    /* -1 means default. */
static enum vlog_syslog_method vlog_syslog_method = VLOG_SYSLOG_LIBC;
static int vlog_syslog_fd = -1;                   /* For SOCKET method. */
static int vlog_target_fd = -1;                   /* --syslog-target. */

/* The sequence number of the last message logged (atomic). */
static unsigned int vlog_seqno;

/* Set once by vlog_init__(). */
static long long int vlog_start_msec;
static pthread_t vlog_main_thread;
static char vlog_hostname[256];

/* The current thread's name as set by vlog_set_thread_name(), or empty. */
static __thread char vlog_thread_name[32];

static void vlog_init__(void);
static void vlog_set_levels__(const struct vlog_module *, const char *name,
                              enum vlog_destination, enum vlog_level);
static void vlog_send(int fd, const struct ds *);
static bool vlog_destination_enabled(const struct vlog_module *,
                                     enum vlog_destination,
                                     enum vlog_level);
static void vlog_emit(const struct vlog_module *, enum vlog_level,
                      const char *message);
static void vlog_format(struct ds *, const char *pattern,
                        const struct vlog_module *, enum vlog_level,
                        int facility, const char *message,
                        unsigned int seqno, long long int now);
static const char *vlog_put_time(struct ds *, const char *p,
                                 long long int now, bool utc);
static void vlog_pad(struct ds *, size_t start, size_t width, char pad,
                     bool left);
static const char *vlog_current_thread_name(bool *is_main);
static void vlog_write(int fd, const char *buf, size_t size);
static void vlog_update_min_level(struct vlog_module *);
static void vlog_update_all_min_levels(void);
static struct vlog_module *vlog_find_module(const char *name);
static int vlog_facility_from_name(const char *name);
static char *vlog_set_facility_from_spec(const char *name);
static char *vlog_set_pattern_from_spec(char *save_ptr);
static int vlog_open_datagram(const char *name, int family,
                              const char *target);
static void vlog_replace_fd(int *fdp, int fd);
static bool vlog_same_file(int fd, const char *name);
static void vlog_unixctl_set(struct unixctl_conn *, int argc,
                             const char *argv[], void *aux);
static void vlog_unixctl_list(struct unixctl_conn *, int argc,
                              const char *argv[], void *aux);
static void vlog_unixctl_list_pattern(struct unixctl_conn *, int argc,
                                      const char *argv[], void *aux);
static void vlog_unixctl_reopen(struct unixctl_conn *, int argc,
                                const char *argv[], void *aux);
static void vlog_unixctl_close(struct unixctl_conn *, int argc,
                               const char *argv[], void *aux);
static void vlog_unixctl_rate_limit(struct unixctl_conn *, int argc,
                                    const char *argv[], void *aux);

static void
vlog_emer_everywhere(const struct vlog_module *module, const char *format,
                     va_list args);

/* Returns the lower-case name of 'level' ("dbg"), or "unknown". */
const char *
vlog_get_level_name(enum vlog_level level)
{
    return (unsigned int) level < VLL_N_LEVELS
           ? vlog_level_names[level] : "unknown";
}

/* Returns the level named 'name', in any case, or VLL_N_LEVELS if there is
 * none. */
enum vlog_level
vlog_get_level_val(const char *name)
{
    for (int i = 0; i < VLL_N_LEVELS; i++) {
        if (!strcasecmp(name, vlog_level_names[i])) {
            return i;
        }
    }
    return VLL_N_LEVELS;
}

/* Returns the lower-case name of 'destination' ("console"), or "any" for
 * VLF_ANY_DESTINATION. */
const char *
vlog_get_destination_name(enum vlog_destination destination)
{
    return (destination >= 0 && destination < VLF_N_DESTINATIONS
            ? vlog_destination_names[destination] : "any");
}

/* Returns the destination named 'name', in any case: VLF_ANY_DESTINATION for
 * "any", VLF_N_DESTINATIONS if there is none. */
enum vlog_destination
vlog_get_destination_val(const char *name)
{
    if (!strcasecmp(name, "any")) {
        return VLF_ANY_DESTINATION;
    }
    for (int i = 0; i < VLF_N_DESTINATIONS; i++) {
        if (!strcasecmp(name, vlog_destination_names[i])) {
            return i;
        }
    }
    return VLF_N_DESTINATIONS;
}

/* Adds 'module' to the list of modules, in name order.  Called by the
 * constructor that VLOG_DEFINE_THIS_MODULE defines. */
void
vlog_insert_module(struct vlog_module *module)
{
    struct vlog_module **p;

    pthread_rwlock_wrlock(&vlog_rwlock);
    for (p = &vlog_modules; *p; p = &(*p)->next) {
        if (strcmp((*p)->name, module->name) > 0) {
            break;
        }
    }
    module->next = *p;
    *p = module;
    vlog_update_min_level(module);
    pthread_rwlock_unlock(&vlog_rwlock);
}

/* Registers a module for each name in the NULL-terminated 'names' that no
 * module has yet, with the default levels, for programs that must accept
 * module names they have no code for (see vlog-compat.h). */
void
vlog_add_module_names(const char *const *names)
{
    for (; *names; names++) {
        if (!vlog_module_from_name(*names)) {
            struct vlog_module *m = xzalloc(sizeof *m);

            m->name = *names;
            for (int d = 0; d < VLF_N_DESTINATIONS; d++) {
                m->levels[d] = VLL_INFO;
            }
            m->min_level = VLL_INFO;
            m->honor_rate_limits = true;
            vlog_insert_module(m);
        }
    }
}

/* Returns the module named 'name' (in any case), or NULL. */
struct vlog_module *
vlog_module_from_name(const char *name)
{
    struct vlog_module *module;

    pthread_rwlock_rdlock(&vlog_rwlock);
    module = vlog_find_module(name);
    pthread_rwlock_unlock(&vlog_rwlock);
    return module;
}

/* Returns the name of 'module'. */
const char *
vlog_get_module_name(const struct vlog_module *module)
{
    return module->name;
}

/* Returns true if a message from 'module' at 'level' would be written to at
 * least one destination. */
bool
vlog_is_enabled(const struct vlog_module *module, enum vlog_level level)
{
    return level != VLL_OFF
           && __atomic_load_n(&module->min_level, __ATOMIC_RELAXED) >= (int) level;
}

/* Decides whether a rate-limited message from 'module' at 'level' must be
 * dropped: true if the level is disabled or 'rl' has no token left, in which
 * case the drop is counted.  When a message is let through after some were
 * dropped, first logs how many were, at the same level. */
bool
vlog_should_drop(const struct vlog_module *module, enum vlog_level level,
                 struct vlog_rate_limit *rl)
{
    unsigned int n_dropped;
    long long int first_dropped, last_dropped, now;

    if (!vlog_is_enabled(module, level)) {
        return true;
    }
    if (!__atomic_load_n(&module->honor_rate_limits, __ATOMIC_RELAXED)) {
        return false;
    }

    pthread_mutex_lock(&rl->mutex);
    now = time_msec();
    if (!rl->last_fill) {
        rl->last_fill = now;
    } else if (now > rl->last_fill) {
        unsigned long long max = rl->burst * VLOG_MSG_TOKENS;
        unsigned long long elapsed = now - rl->last_fill;

        /* Capping 'elapsed' first keeps the product from overflowing. */
        elapsed = MIN(elapsed, 3600ULL * 1000 * 24);
        rl->tokens = MIN(max, rl->tokens + elapsed * rl->rate);
        rl->last_fill = now;
    }
    if (rl->tokens < VLOG_MSG_TOKENS) {
        long long int wall = time_wall_msec();

        if (!rl->n_dropped) {
            rl->first_dropped = wall;
        }
        rl->last_dropped = wall;
        rl->n_dropped++;
        pthread_mutex_unlock(&rl->mutex);
        return true;
    }
    rl->tokens -= VLOG_MSG_TOKENS;
    n_dropped = rl->n_dropped;
    first_dropped = rl->first_dropped;
    last_dropped = rl->last_dropped;
    rl->n_dropped = 0;
    pthread_mutex_unlock(&rl->mutex);

    if (n_dropped) {
        long long int wall = time_wall_msec();

        vlog(module, level, "Dropped %u log messages in last %lld seconds "
             "(most recently, %lld seconds ago) due to excessive rate",
             n_dropped, (wall - first_dropped) / 1000,
             (wall - last_dropped) / 1000);
    }
    return false;
}

/* Logs a message from 'module' at 'level', formatted from 'format' and its
 * arguments, to every destination enabled for it. */
void
vlog(const struct vlog_module *module, enum vlog_level level,
     const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_valist(module, level, format, args);
    va_end(args);
}

/* Like vlog(), with a va_list. */
void
vlog_valist(const struct vlog_module *module, enum vlog_level level,
            const char *format, va_list args)
{
    struct ds message = DS_EMPTY_INITIALIZER;

    if (!vlog_is_enabled(module, level)) {
        return;
    }
    vlog_init__();
    ds_put_format_valist(&message, format, args);
    vlog_emit(module, level, ds_cstr(&message));
    ds_destroy(&message);
}

/* Logs a message like vlog(), unless rate limiter 'rl' says to drop it (see
 * vlog_should_drop()). */
void
vlog_rate_limit(const struct vlog_module *module, enum vlog_level level,
                struct vlog_rate_limit *rl, const char *format, ...)
{
    if (!vlog_should_drop(module, level, rl)) {
        va_list args;

        va_start(args, format);
        vlog_valist(module, level, format, args);
        va_end(args);
    }
}

/* Logs a message at "emer" level and exits with status 1.  When the console
 * would not show it, also writes "program: message" to standard error. */
void
vlog_fatal(const struct vlog_module *module, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_emer_everywhere(module, format, args);
    va_end(args);
    exit(EXIT_FAILURE);
}

/* Like vlog_fatal(), but aborts (dumping core) instead of exiting. */
void
vlog_abort(const struct vlog_module *module, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_emer_everywhere(module, format, args);
    va_end(args);
    abort();
}

/* Sets the level of 'destination' (or of all of them, for
 * VLF_ANY_DESTINATION) to 'level' in 'module' (or in all modules, if
 * 'module' is NULL). */
void
vlog_set_levels(struct vlog_module *module, enum vlog_destination destination,
                enum vlog_level level)
{
    vlog_set_levels__(module, NULL, destination, level);
}

/* Returns the level of 'destination' in 'module'. */
enum vlog_level
vlog_get_level(const struct vlog_module *module,
               enum vlog_destination destination)
{
    util_assert(destination >= 0 && destination < VLF_N_DESTINATIONS);
    return __atomic_load_n(&module->levels[destination], __ATOMIC_RELAXED);
}

/* Applies 'spec', in the syntax of "-v" and "vlog/set" (see vlog.h and
 * Documentation/topics/logging.rst): levels ("module:destination:level", any
 * part may be missing or "any"), "PATTERN:destination:pattern" or
 * "FACILITY:facility".  Returns NULL on success, otherwise an error message,
 * which the caller must free, and then changes nothing. */
char *
vlog_set_levels_from_string(const char *spec)
{
    static const char delimiters[] = " ,:\t";
    char *copy = xstrdup(spec);
    char *save_ptr = NULL;
    char *word = strtok_r(copy, delimiters, &save_ptr);
    struct vlog_module *module = NULL;
    enum vlog_destination destination = VLF_ANY_DESTINATION;
    enum vlog_level level = VLL_DBG;
    bool has_module = false, has_destination = false, has_level = false;
    char *error = NULL;

    if (word && !strcasecmp(word, "PATTERN")) {
        error = vlog_set_pattern_from_spec(save_ptr);
        goto exit;
    } else if (word && !strcasecmp(word, "FACILITY")) {
        error = vlog_set_facility_from_spec(strtok_r(NULL, delimiters,
                                                     &save_ptr));
        goto exit;
    }

    for (; word; word = strtok_r(NULL, delimiters, &save_ptr)) {
        enum vlog_destination d;
        enum vlog_level l;
        struct vlog_module *m;

        if (!strcasecmp(word, "any")) {
            continue;
        } else if ((d = vlog_get_destination_val(word))
                   != VLF_N_DESTINATIONS) {
            if (has_destination) {
                error = xstrdup("cannot specify multiple destinations");
                goto exit;
            }
            has_destination = true;
            destination = d;
        } else if ((l = vlog_get_level_val(word)) != VLL_N_LEVELS) {
            if (has_level) {
                error = xstrdup("cannot specify multiple levels");
                goto exit;
            }
            has_level = true;
            level = l;
        } else if ((m = vlog_module_from_name(word))) {
            if (has_module) {
                error = xstrdup("cannot specify multiple modules");
                goto exit;
            }
            has_module = true;
            module = m;
        } else {
            error = xasprintf("no destination, level, or module \"%s\"",
                              word);
            goto exit;
        }
    }

    /* Several source files may share a module name: set them all. */
    vlog_set_levels__(NULL, module ? module->name : NULL, destination, level);

exit:
    free(copy);
    return error;
}

/* Like vlog_set_levels_from_string(), but aborts on a bad 'spec'.  For
 * specs written into programs. */
void
vlog_set_levels_from_string_assert(const char *spec)
{
    char *error = vlog_set_levels_from_string(spec);

    if (error) {
        fprintf(stderr, "%s: bad log spec \"%s\": %s\n",
                util_program_name(), spec, error);
        free(error);
        abort();
    }
}

/* Returns the "vlog/list" table of every module's levels, which the caller
 * must free. */
char *
vlog_get_levels(void)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    const char *last_name = NULL;

    ds_put_cstr(&s, "                 console    syslog    file\n"
                    "                 -------    ------    ------\n");
    pthread_rwlock_rdlock(&vlog_rwlock);
    for (struct vlog_module *m = vlog_modules; m; m = m->next) {
        if (last_name && !strcmp(last_name, m->name)) {
            continue;
        }
        last_name = m->name;
        ds_put_format(&s, "%-16s  %4s       %4s       %4s", m->name,
                      vlog_level_labels[vlog_get_level(m, VLF_CONSOLE)],
                      vlog_level_labels[vlog_get_level(m, VLF_SYSLOG)],
                      vlog_level_labels[vlog_get_level(m, VLF_FILE)]);
        if (!__atomic_load_n(&m->honor_rate_limits, __ATOMIC_RELAXED)) {
            ds_put_cstr(&s, "    (rate limiting disabled)");
        }
        ds_put_char(&s, '\n');
    }
    pthread_rwlock_unlock(&vlog_rwlock);
    return ds_steal_cstr(&s);
}

/* Sets the line pattern of 'destination' (every destination, for
 * VLF_ANY_DESTINATION) to 'pattern'; NULL restores the default. */
void
vlog_set_pattern(enum vlog_destination destination, const char *pattern)
{
    util_assert(destination == VLF_ANY_DESTINATION
                || (destination >= 0 && destination < VLF_N_DESTINATIONS));

    pthread_rwlock_wrlock(&vlog_rwlock);
    for (int d = 0; d < VLF_N_DESTINATIONS; d++) {
        if (destination == VLF_ANY_DESTINATION || destination == d) {
            free(vlog_patterns[d]);
            vlog_patterns[d] = pattern ? xstrdup(pattern) : NULL;
        }
    }
    pthread_rwlock_unlock(&vlog_rwlock);
}

/* Returns the "vlog/list-pattern" table, which the caller must free. */
char *
vlog_get_patterns(void)
{
    static const enum vlog_destination order[] = {
        VLF_SYSLOG, VLF_CONSOLE, VLF_FILE
    };
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_cstr(&s, "         prefix                            format\n"
                    "         ------                            ------\n");
    pthread_rwlock_rdlock(&vlog_rwlock);
    for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
        enum vlog_destination d = order[i];

        ds_put_format(&s, "%-9s%-34s%s\n", vlog_destination_labels[d],
                      d == VLF_SYSLOG ? VLOG_SYSLOG_PREFIX : "none",
                      vlog_patterns[d] ? vlog_patterns[d]
                                       : vlog_default_patterns[d]);
    }
    pthread_rwlock_unlock(&vlog_rwlock);
    return ds_steal_cstr(&s);
}

/* Makes 'module' (every module, if NULL) obey rate limits if 'enable', or
 * log every rate-limited message if not. */
void
vlog_set_rate_limits(struct vlog_module *module, bool enable)
{
    pthread_rwlock_rdlock(&vlog_rwlock);
    for (struct vlog_module *m = vlog_modules; m; m = m->next) {
        if (!module || !strcmp(m->name, module->name)) {
            __atomic_store_n(&m->honor_rate_limits, enable,
                             __ATOMIC_RELAXED);
        }
    }
    pthread_rwlock_unlock(&vlog_rwlock);
}

/* Starts logging to the file named 'file_name', or to
 * "<logdir>/<program>.log" if it is NULL, closing the previous log file if
 * any.  The file is opened for appending and created if needed.  Logs
 * "opened log file NAME" into it.  Returns 0 on success; on failure logs a
 * warning, keeps the previous file and returns a positive errno value. */
int
vlog_set_log_file(const char *file_name)
{
    char *name = (file_name
                  ? xstrdup(file_name)
                  : xasprintf("%s/%s.log", dirs_logdir(),
                              util_program_name()));
    char *old_name;
    int fd, old_fd;

    vlog_init__();
    pthread_mutex_lock(&vlog_file_mutex);

    pthread_rwlock_rdlock(&vlog_rwlock);
    old_fd = vlog_file_fd;
    bool same = (old_fd >= 0 && vlog_file_name
                 && !strcmp(vlog_file_name, name)
                 && vlog_same_file(old_fd, name));
    pthread_rwlock_unlock(&vlog_rwlock);
    if (same) {
        pthread_mutex_unlock(&vlog_file_mutex);
        free(name);
        return 0;
    }

    fd = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0660);
    if (fd < 0) {
        int error = errno;

        pthread_mutex_unlock(&vlog_file_mutex);
        VLOG_WARN("failed to open %s for logging: %s", name,
                  util_strerror(error));
        free(name);
        return error;
    }

    if (old_fd >= 0) {
        VLOG_INFO("closing log file");
    }

    pthread_rwlock_wrlock(&vlog_rwlock);
    old_fd = vlog_file_fd;
    old_name = vlog_file_name;
    vlog_file_fd = fd;
    vlog_file_name = name;
    vlog_update_all_min_levels();
    pthread_rwlock_unlock(&vlog_rwlock);

    if (old_fd >= 0) {
        close(old_fd);
    }
    free(old_name);

    VLOG_INFO("opened log file %s", name);
    pthread_mutex_unlock(&vlog_file_mutex);
    return 0;
}

/* Returns the name of the log file, or NULL if none was ever set.  The
 * string stays valid until the next vlog_set_log_file() call. */
const char *
vlog_get_log_file(void)
{
    const char *name;

    pthread_rwlock_rdlock(&vlog_rwlock);
    name = vlog_file_name;
    pthread_rwlock_unlock(&vlog_rwlock);
    return name;
}

/* Closes and reopens the log file, as after a log rotation: if the file
 * named by the log file's name is no longer the one open (it was renamed or
 * deleted) or the log file was closed, opens it anew.  Returns 0 on success
 * (also when nothing needed doing), ENOENT if no log file was ever set, or
 * the positive errno value of a failed open. */
int
vlog_reopen_log_file(void)
{
    char *name;
    int error;

    pthread_rwlock_rdlock(&vlog_rwlock);
    name = vlog_file_name ? xstrdup(vlog_file_name) : NULL;
    pthread_rwlock_unlock(&vlog_rwlock);
    if (!name) {
        return ENOENT;
    }
    error = vlog_set_log_file(name);
    free(name);
    return error;
}

/* Closes the log file, if open.  Its name is kept for
 * vlog_reopen_log_file(). */
void
vlog_close_log_file(void)
{
    int fd;

    pthread_mutex_lock(&vlog_file_mutex);
    pthread_rwlock_wrlock(&vlog_rwlock);
    fd = vlog_file_fd;
    vlog_file_fd = -1;
    vlog_update_all_min_levels();
    pthread_rwlock_unlock(&vlog_rwlock);
    pthread_mutex_unlock(&vlog_file_mutex);
    if (fd >= 0) {
        close(fd);
    }
}

/* Handles "-v[SPEC]" / "--verbose[=SPEC]": applies 'arg' as a spec, or sets
 * every module and destination to "dbg" if 'arg' is NULL or empty.  Exits
 * with a message on a bad spec. */
void
vlog_set_verbosity(const char *arg)
{
    char *error = vlog_set_levels_from_string(arg ? arg : "");

    if (error) {
        char message[512];

        snprintf(message, sizeof message, "processing \"%s\": %s",
                 arg, error);
        free(error);
        util_fatal(0, "%s", message);
    }
}

/* Handles "--syslog-method=METHOD": "libc" (the default), "null",
 * "unix:PATH" or "udp:IP:PORT".  Exits with a message on an unknown
 * method. */
void
vlog_set_syslog_method(const char *method)
{
    enum vlog_syslog_method new_method;
    int fd = -1;

    if (!strcmp(method, "libc")) {
        new_method = VLOG_SYSLOG_LIBC;
    } else if (!strcmp(method, "null")) {
        new_method = VLOG_SYSLOG_NULL;
    } else if (util_str_has_prefix(method, "unix:")) {
        new_method = VLOG_SYSLOG_SOCKET;
        fd = vlog_open_datagram(method, AF_UNIX, method + 5);
    } else if (util_str_has_prefix(method, "udp:")) {
        new_method = VLOG_SYSLOG_SOCKET;
        fd = vlog_open_datagram(method, AF_INET, method + 4);
    } else {
        util_fatal(0, "unsupported syslog method '%s'", method);
    }

    pthread_rwlock_wrlock(&vlog_rwlock);
    vlog_syslog_method = new_method;
    pthread_rwlock_unlock(&vlog_rwlock);
    vlog_replace_fd(&vlog_syslog_fd, fd);
}

/* Handles "--syslog-target=IP:PORT": besides the syslog method, sends a copy
 * of each syslog message to UDP 'target'.  A bad target is logged and
 * ignored. */
void
vlog_set_syslog_target(const char *target)
{
    vlog_replace_fd(&vlog_target_fd, vlog_open_datagram(target, AF_INET,
                                                        target));
}

/* Handles "--syslog-facility=NAME": sets the syslog facility ("daemon",
 * "local0", ...).  Exits with a message on an unknown facility. */
void
vlog_set_syslog_facility(const char *facility)
{
    char *error = vlog_set_facility_from_spec(facility);

    if (error) {
        free(error);
        util_fatal(0, "invalid facility '%s'", facility);
    }
}

/* Names the calling thread 'name' (truncated to 31 bytes) for the "%t" and
 * "%T" escapes.  The main thread is "main" unless renamed; an unnamed other
 * thread is "thread<tid>". */
void
vlog_set_thread_name(const char *name)
{
    snprintf(vlog_thread_name, sizeof vlog_thread_name, "%s", name);
}

/* Initialises the module: records the start time for "%r" and the main
 * thread, applies $OVS_SYSLOG_METHOD, and registers the vlog/ unixctl
 * commands.  Idempotent; daemons call it early in main(). */
void
vlog_init(void)
{
    vlog_init__();
    vlog_register_unixctl_commands();
}

/* Registers the unixctl commands vlog/set, vlog/list, vlog/list-pattern,
 * vlog/reopen, vlog/close, vlog/enable-rate-limit and
 * vlog/disable-rate-limit.  Idempotent. */
void
vlog_register_unixctl_commands(void)
{
    static int registered;

    if (__atomic_exchange_n(&registered, 1, __ATOMIC_ACQ_REL)) {
        return;
    }
    unixctl_command_register("vlog/set",
                             "{spec | PATTERN:destination:pattern}",
                             0, INT_MAX, vlog_unixctl_set, NULL);
    unixctl_command_register("vlog/list", "", 0, 0, vlog_unixctl_list, NULL);
    unixctl_command_register("vlog/list-pattern", "", 0, 0,
                             vlog_unixctl_list_pattern, NULL);
    unixctl_command_register("vlog/enable-rate-limit", "[module]...",
                             0, INT_MAX, vlog_unixctl_rate_limit,
                             (void *) 1);
    unixctl_command_register("vlog/disable-rate-limit", "[module]...",
                             0, INT_MAX, vlog_unixctl_rate_limit, NULL);
    unixctl_command_register("vlog/reopen", "", 0, 0,
                             vlog_unixctl_reopen, NULL);
    unixctl_command_register("vlog/close", "", 0, 0,
                             vlog_unixctl_close, NULL);
}

/* Prints the help text for the logging options on standard output. */
void
vlog_usage(void)
{
    printf("\nLogging options:\n"
           "  -vSPEC, --verbose=SPEC   set log levels or patterns "
           "(see vlog/set)\n"
           "  -v, --verbose            log everything, at dbg level\n"
           "  --log-file[=FILE]        also log to FILE (default: "
           "%s/%s.log)\n"
           "  --syslog-method=METHOD   how to reach syslog: libc, null,\n"
           "                           unix:PATH or udp:IP:PORT\n"
           "  --syslog-target=IP:PORT  also send syslog messages to "
           "IP:PORT over UDP\n"
           "  --syslog-facility=NAME   syslog facility (daemon, local0, "
           "...)\n",
           dirs_logdir(), util_program_name());
}

/* Logs 'message' from 'module' at "emer" level and, when the console would
 * not show it, also writes "program: message" to standard error: a daemon
 * that dies must say why somewhere a person looks. */
static void
vlog_emer_everywhere(const struct vlog_module *module, const char *format,
                     va_list args)
{
    char *message = xvasprintf(format, args);

    vlog(module, VLL_EMER, "%s", message);
    if (vlog_get_level(module, VLF_CONSOLE) < VLL_EMER) {
        fprintf(stderr, "%s: %s\n", util_program_name(), message);
    }
    free(message);
}

/* One-time set-up, safe to call from anywhere. */
static void
vlog_init_once(void)
{
    const char *method = getenv("OVS_SYSLOG_METHOD");

    vlog_start_msec = time_msec();
    vlog_main_thread = pthread_self();
    if (gethostname(vlog_hostname, sizeof vlog_hostname)) {
        snprintf(vlog_hostname, sizeof vlog_hostname, "localhost");
    }
    vlog_hostname[sizeof vlog_hostname - 1] = '\0';
    if (method && method[0]) {
        vlog_set_syslog_method(method);
    }
}

static void
vlog_init__(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;

    pthread_once(&once, vlog_init_once);
}

/* Constructors run in the main thread, so this is where vlog learns which
 * thread that is and when the program started. */
DPS_CONSTRUCTOR(vlog_init_at_startup)
{
    vlog_init__();
}

/* Returns true if a message from 'module' at 'level' goes to
 * 'destination'.  Caller holds 'vlog_rwlock'. */
static bool
vlog_destination_enabled(const struct vlog_module *module,
                         enum vlog_destination destination,
                         enum vlog_level level)
{
    if (vlog_get_level(module, destination) < level) {
        return false;
    }
    switch (destination) {
    case VLF_FILE:
        return vlog_file_fd >= 0;
    case VLF_SYSLOG:
        return vlog_syslog_method != VLOG_SYSLOG_NULL || vlog_target_fd >= 0;
    case VLF_CONSOLE:
    case VLF_N_DESTINATIONS:
    case VLF_ANY_DESTINATION:
    default:
        return true;
    }
}

/* Formats 'message' for each destination that wants it and writes it
 * there. */
static void
vlog_emit(const struct vlog_module *module, enum vlog_level level,
          const char *message)
{
    struct ds line = DS_EMPTY_INITIALIZER;
    long long int now = time_wall_msec();
    bool wanted[VLF_N_DESTINATIONS];
    bool any = false;
    unsigned int seqno;

    pthread_rwlock_rdlock(&vlog_rwlock);
    for (int d = 0; d < VLF_N_DESTINATIONS; d++) {
        wanted[d] = vlog_destination_enabled(module, d, level);
        any |= wanted[d];
    }
    if (!any) {
        goto exit;
    }
    seqno = __atomic_add_fetch(&vlog_seqno, 1, __ATOMIC_RELAXED);

    for (int d = 0; d < VLF_N_DESTINATIONS; d++) {
        const char *pattern = (vlog_patterns[d] ? vlog_patterns[d]
                               : vlog_default_patterns[d]);

        if (!wanted[d]) {
            continue;
        }
        ds_clear(&line);
        if (d == VLF_SYSLOG) {
            int facility = vlog_facility >= 0 ? vlog_facility
                                              : VLOG_FACILITY_DAEMON;
            int target_facility = vlog_facility >= 0 ? vlog_facility
                                                     : VLOG_FACILITY_LOCAL0;

            if (vlog_syslog_method == VLOG_SYSLOG_LIBC) {
                vlog_format(&line, pattern, module, level, facility, message,
                            seqno, now);
                syslog((facility << 3) | vlog_syslog_severities[level],
                       "%s", ds_cstr(&line));
            } else if (vlog_syslog_method == VLOG_SYSLOG_SOCKET
                       && vlog_syslog_fd >= 0) {
                vlog_format(&line, VLOG_SYSLOG_PREFIX " ", module, level,
                            facility, message, seqno, now);
                vlog_format(&line, pattern, module, level, facility, message,
                            seqno, now);
                vlog_send(vlog_syslog_fd, &line);
            }
            if (vlog_target_fd >= 0) {
                ds_clear(&line);
                vlog_format(&line, VLOG_SYSLOG_PREFIX " ", module, level,
                            target_facility, message, seqno, now);
                vlog_format(&line, pattern, module, level, target_facility,
                            message, seqno, now);
                vlog_send(vlog_target_fd, &line);
            }
        } else {
            vlog_format(&line, pattern, module, level, VLOG_FACILITY_DAEMON,
                        message, seqno, now);
            ds_put_char(&line, '\n');
            vlog_write(d == VLF_FILE ? vlog_file_fd : STDERR_FILENO,
                       line.string, line.length);
        }
    }

exit:
    pthread_rwlock_unlock(&vlog_rwlock);
    ds_destroy(&line);
}

/* Appends to 's' the expansion of 'pattern' for one message.  See
 * Documentation/topics/logging.rst for the escapes.  'facility' is the
 * syslog facility for "%B", 'now' the wall-clock time in msec. */
static void
vlog_format(struct ds *s, const char *pattern,
            const struct vlog_module *module, enum vlog_level level,
            int facility, const char *message, unsigned int seqno,
            long long int now)
{
    const char *p = pattern;

    while (*p) {
        size_t start, width = 0;
        bool left = false, is_main;
        char pad = ' ';

        if (*p != '%') {
            ds_put_char(s, *p++);
            continue;
        }
        p++;
        if (*p == '-') {
            left = true;
            p++;
        }
        if (*p == '0') {
            pad = '0';
            p++;
        }
        while (isdigit((unsigned char) *p)) {
            /* Bound the width: a pattern is no place for a megabyte. */
            width = MIN(width * 10 + (*p - '0'), 1024);
            p++;
        }
        if (!*p) {
            break;
        }

        start = s->length;
        switch (*p++) {
        case 'A':
            ds_put_cstr(s, util_program_name());
            break;
        case 'B':
            ds_put_format(s, "%d",
                          (facility << 3) | vlog_syslog_severities[level]);
            break;
        case 'c':
            ds_put_cstr(s, module->name);
            break;
        case 'd':
            p = vlog_put_time(s, p, now, false);
            break;
        case 'D':
            p = vlog_put_time(s, p, now, true);
            break;
        case 'E':
            ds_put_cstr(s, vlog_hostname);
            break;
        case 'm':
            ds_put_cstr(s, message);
            break;
        case 'N':
            ds_put_format(s, "%u", seqno);
            break;
        case 'n':
            ds_put_char(s, '\n');
            break;
        case 'p':
            ds_put_cstr(s, vlog_level_labels[level]);
            break;
        case 'P':
            ds_put_format(s, "%ld", (long int) getpid());
            break;
        case 'r':
            ds_put_format(s, "%lld", time_msec() - vlog_start_msec);
            break;
        case 't':
            ds_put_cstr(s, vlog_current_thread_name(&is_main));
            break;
        case 'T': {
            const char *name = vlog_current_thread_name(&is_main);

            if (!is_main) {
                ds_put_format(s, "(%s)", name);
            }
            break;
        }
        default:
            /* "%%" and unknown escapes stand for the character itself. */
            ds_put_char(s, p[-1]);
            break;
        }
        vlog_pad(s, start, width, pad, left);
    }
}

/* Expands a "%d" or "%D" escape, whose optional "{format}" starts at 'p',
 * into 's'.  Returns the position after the escape. */
static const char *
vlog_put_time(struct ds *s, const char *p, long long int now, bool utc)
{
    char format[128];

    if (*p == '{') {
        const char *end = strchr(p + 1, '}');
        size_t length = end ? (size_t) (end - (p + 1)) : strlen(p + 1);

        snprintf(format, sizeof format, "%.*s", (int) length, p + 1);
        p = end ? end + 1 : p + 1 + length;
    } else {
        snprintf(format, sizeof format, "%s", VLOG_DEFAULT_TIME_FORMAT);
    }
    ds_put_strftime(s, format, now, utc);
    return p;
}

/* Pads the text from 'start' to the end of 's' to 'width' characters with
 * 'pad', on the right if 'left' (left-justified), else on the left. */
static void
vlog_pad(struct ds *s, size_t start, size_t width, char pad, bool left)
{
    size_t length = s->length - start;

    if (length >= width) {
        return;
    }
    if (left) {
        ds_put_char_multiple(s, pad, width - length);
    } else {
        ds_put_uninit(s, width - length);
        memmove(&s->string[start + (width - length)], &s->string[start],
                length);
        memset(&s->string[start], pad, width - length);
    }
}

/* Returns the calling thread's name and sets '*is_main' to whether it is the
 * main thread (and unnamed). */
static const char *
vlog_current_thread_name(bool *is_main)
{
    *is_main = false;
    if (vlog_thread_name[0]) {
        return vlog_thread_name;
    } else if (pthread_equal(pthread_self(), vlog_main_thread)) {
        *is_main = true;
        return "main";
    }
    snprintf(vlog_thread_name, sizeof vlog_thread_name, "thread%ld",
             (long int) gettid());
    return vlog_thread_name;
}

/* Writes all of 'buf' to 'fd' in one write() if possible, under
 * 'vlog_output_mutex'.  Errors are ignored: there is nowhere to report
 * them. */
static void
vlog_write(int fd, const char *buf, size_t size)
{
    pthread_mutex_lock(&vlog_output_mutex);
    while (size > 0) {
        ssize_t n = write(fd, buf, size);

        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        buf += n;
        size -= n;
    }
    pthread_mutex_unlock(&vlog_output_mutex);
}

/* Sets the level of 'destination' (or of all of them, for
 * VLF_ANY_DESTINATION) to 'level' in 'module' if it is nonnull, else in the
 * modules named 'name' if it is nonnull, else in every module. */
static void
vlog_set_levels__(const struct vlog_module *module, const char *name,
                  enum vlog_destination destination, enum vlog_level level)
{
    util_assert(destination == VLF_ANY_DESTINATION
                || (destination >= 0 && destination < VLF_N_DESTINATIONS));
    util_assert((unsigned int) level < VLL_N_LEVELS);

    pthread_rwlock_wrlock(&vlog_rwlock);
    for (struct vlog_module *m = vlog_modules; m; m = m->next) {
        if ((module && m != module) || (name && strcmp(m->name, name))) {
            continue;
        }
        for (int d = 0; d < VLF_N_DESTINATIONS; d++) {
            if (destination == VLF_ANY_DESTINATION || destination == d) {
                __atomic_store_n(&m->levels[d], level, __ATOMIC_RELAXED);
            }
        }
        vlog_update_min_level(m);
    }
    pthread_rwlock_unlock(&vlog_rwlock);
}

/* Sends the datagram in 'line' on 'fd' without blocking; a syslog daemon
 * that cannot keep up loses messages rather than stalling the program. */
static void
vlog_send(int fd, const struct ds *line)
{
    if (send(fd, line->string, line->length, MSG_DONTWAIT) < 0) {
        /* Nowhere to report it. */
    }
}

/* Recomputes 'module->min_level'.  Caller holds 'vlog_rwlock' for
 * writing. */
static void
vlog_update_min_level(struct vlog_module *module)
{
    int min_level = VLL_OFF;

    for (int d = 0; d < VLF_N_DESTINATIONS; d++) {
        if (d == VLF_FILE && vlog_file_fd < 0) {
            continue;
        }
        min_level = MAX(min_level, (int) vlog_get_level(module, d));
    }
    __atomic_store_n(&module->min_level, min_level, __ATOMIC_RELAXED);
}

/* Recomputes every module's 'min_level'.  Caller holds 'vlog_rwlock' for
 * writing. */
static void
vlog_update_all_min_levels(void)
{
    for (struct vlog_module *m = vlog_modules; m; m = m->next) {
        vlog_update_min_level(m);
    }
}

/* Returns the first module named 'name', in any case.  Caller holds
 * 'vlog_rwlock'. */
static struct vlog_module *
vlog_find_module(const char *name)
{
    for (struct vlog_module *m = vlog_modules; m; m = m->next) {
        if (!strcasecmp(m->name, name)) {
            return m;
        }
    }
    return NULL;
}

/* Returns the code of the syslog facility named 'name', or -1. */
static int
vlog_facility_from_name(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(vlog_facilities); i++) {
        if (!strcasecmp(name, vlog_facilities[i].name)) {
            return vlog_facilities[i].code;
        }
    }
    return -1;
}

/* Sets the syslog facility to the one named 'name' (may be NULL).  Returns
 * NULL or an error message for the caller to free. */
static char *
vlog_set_facility_from_spec(const char *name)
{
    int code = name ? vlog_facility_from_name(name) : -1;

    if (code < 0) {
        return xstrdup("invalid facility");
    }
    pthread_rwlock_wrlock(&vlog_rwlock);
    vlog_facility = code;
    pthread_rwlock_unlock(&vlog_rwlock);
    return NULL;
}

/* Applies the rest of a "PATTERN:destination:pattern" spec, after the word
 * "PATTERN", from strtok_r() state 'save_ptr'.  Returns NULL or an error
 * message for the caller to free. */
static char *
vlog_set_pattern_from_spec(char *save_ptr)
{
    char *word = strtok_r(NULL, " ,:\t", &save_ptr);
    enum vlog_destination destination;
    char *pattern;

    if (!word) {
        return xstrdup("missing destination");
    }
    destination = vlog_get_destination_val(word);
    if (destination == VLF_N_DESTINATIONS) {
        return xasprintf("unknown destination \"%s\"", word);
    }
    /* The pattern is the rest of the spec, colons and spaces included. */
    pattern = strtok_r(NULL, "", &save_ptr);
    vlog_set_pattern(destination, pattern ? pattern : "");
    return NULL;
}

/* Parses 'address' as "IP:PORT" (or "[IPv6]:PORT") into 'ss'.  Returns an
 * error message for the caller to free, or NULL. */
static char *
vlog_parse_inet(const char *address, struct sockaddr_storage *ss,
                socklen_t *length)
{
    char *copy = xstrdup(address);
    char *host = copy, *port;
    unsigned int port_number;
    char *error = NULL;

    memset(ss, 0, sizeof *ss);
    if (host[0] == '[') {
        char *end = strchr(host, ']');

        host++;
        port = end && end[1] == ':' ? end + 2 : NULL;
        if (end) {
            *end = '\0';
        }
    } else {
        port = strrchr(host, ':');
        if (port) {
            *port++ = '\0';
        }
    }

    if (!port || !port[0]) {
        error = xasprintf("%s: port must be specified", address);
    } else if (!util_str_to_uint(port, 10, &port_number)
               || port_number > 65535) {
        error = xasprintf("%s: bad port number \"%s\"", address, port);
    } else {
        struct sockaddr_in *sin = (struct sockaddr_in *) ss;
        struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;

        if (inet_pton(AF_INET, host, &sin->sin_addr) == 1) {
            sin->sin_family = AF_INET;
            sin->sin_port = htons(port_number);
            *length = sizeof *sin;
        } else if (inet_pton(AF_INET6, host, &sin6->sin6_addr) == 1) {
            sin6->sin6_family = AF_INET6;
            sin6->sin6_port = htons(port_number);
            *length = sizeof *sin6;
        } else {
            error = xasprintf("%s: bad IP address \"%s\"", address, host);
        }
    }
    free(copy);
    return error;
}

/* Opens a datagram socket connected to 'target', which is a Unix domain
 * socket path if 'family' is AF_UNIX, else "IP:PORT".  'name' is for log
 * messages.  Returns the fd, or -1 after logging an error. */
static int
vlog_open_datagram(const char *name, int family, const char *target)
{
    struct sockaddr_storage ss;
    socklen_t length = 0;
    int fd;

    memset(&ss, 0, sizeof ss);
    if (family == AF_UNIX) {
        struct sockaddr_un *sun_addr = (struct sockaddr_un *) &ss;

        if (strlen(target) >= sizeof sun_addr->sun_path) {
            VLOG_ERR("%s: socket name too long", name);
            return -1;
        }
        sun_addr->sun_family = AF_UNIX;
        strcpy(sun_addr->sun_path, target);
        length = sizeof *sun_addr;
    } else {
        char *error = vlog_parse_inet(target, &ss, &length);

        if (error) {
            VLOG_ERR("%s", error);
            free(error);
            return -1;
        }
    }

    fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        VLOG_ERR("%s: socket failed (%s)", name, util_strerror(errno));
        return -1;
    }
    if (connect(fd, (struct sockaddr *) &ss, length)) {
        VLOG_ERR("%s: connect failed (%s)", name, util_strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* Stores 'fd' into '*fdp', which 'vlog_rwlock' guards, and closes the fd it
 * replaces. */
static void
vlog_replace_fd(int *fdp, int fd)
{
    int old_fd;

    pthread_rwlock_wrlock(&vlog_rwlock);
    old_fd = *fdp;
    *fdp = fd;
    pthread_rwlock_unlock(&vlog_rwlock);
    if (old_fd >= 0) {
        close(old_fd);
    }
}

/* Returns true if 'fd' is the file currently named 'name'. */
static bool
vlog_same_file(int fd, const char *name)
{
    struct stat a, b;

    return (!fstat(fd, &a) && !stat(name, &b)
            && a.st_dev == b.st_dev && a.st_ino == b.st_ino);
}

/* "vlog/set [SPEC]...": applies each spec in turn, stopping at the first bad
 * one; no spec sets everything to "dbg". */
static void
vlog_unixctl_set(struct unixctl_conn *conn, int argc, const char *argv[],
                 void *aux DPS_UNUSED)
{
    for (int i = 1; i < MAX(argc, 2); i++) {
        char *error = vlog_set_levels_from_string(i < argc ? argv[i] : "");

        if (error) {
            unixctl_command_reply_error(conn, error);
            free(error);
            return;
        }
    }
    unixctl_command_reply(conn, "");
}

/* "vlog/list". */
static void
vlog_unixctl_list(struct unixctl_conn *conn, int argc DPS_UNUSED,
                  const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    char *levels = vlog_get_levels();

    unixctl_command_reply(conn, levels);
    free(levels);
}

/* "vlog/list-pattern". */
static void
vlog_unixctl_list_pattern(struct unixctl_conn *conn, int argc DPS_UNUSED,
                          const char *argv[] DPS_UNUSED,
                          void *aux DPS_UNUSED)
{
    char *patterns = vlog_get_patterns();

    unixctl_command_reply(conn, patterns);
    free(patterns);
}

/* "vlog/reopen". */
static void
vlog_unixctl_reopen(struct unixctl_conn *conn, int argc DPS_UNUSED,
                    const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    int error = vlog_reopen_log_file();

    if (error == ENOENT && !vlog_get_log_file()) {
        unixctl_command_reply_error(conn, "Logging to file not configured");
    } else if (error) {
        char *message = xasprintf("could not reopen log file (%s)",
                                  util_strerror(error));

        unixctl_command_reply_error(conn, message);
        free(message);
    } else {
        unixctl_command_reply(conn, "");
    }
}

/* "vlog/close". */
static void
vlog_unixctl_close(struct unixctl_conn *conn, int argc DPS_UNUSED,
                   const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    vlog_close_log_file();
    unixctl_command_reply(conn, "");
}

/* "vlog/enable-rate-limit" ('aux' nonnull) and "vlog/disable-rate-limit"
 * ('aux' null) [MODULE]...: no module or "any" means all of them. */
static void
vlog_unixctl_rate_limit(struct unixctl_conn *conn, int argc,
                        const char *argv[], void *aux)
{
    bool enable = aux != NULL;

    if (argc < 2) {
        vlog_set_rate_limits(NULL, enable);
    }
    for (int i = 1; i < argc; i++) {
        struct vlog_module *module;

        if (!strcasecmp(argv[i], "any")) {
            vlog_set_rate_limits(NULL, enable);
        } else if ((module = vlog_module_from_name(argv[i]))) {
            vlog_set_rate_limits(module, enable);
        } else {
            unixctl_command_reply_error(conn, "unknown module");
            return;
        }
    }
    unixctl_command_reply(conn, "");
}
