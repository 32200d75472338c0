/* Logging, in Open vSwitch's format and with its controls.
 *
 * Every source file that logs names its module once:
 *
 *     VLOG_DEFINE_THIS_MODULE(jsonrpc);
 *
 * and then logs with VLOG_ERR(), VLOG_WARN(), VLOG_INFO(), VLOG_DBG() (and
 * VLOG_EMER()), each taking printf()-style arguments.  A message goes to each
 * destination (console = stderr, syslog, file) whose level for the module is
 * at least the message's level.  Levels, from most to least severe: emer,
 * err, warn, info, dbg; "off" disables a destination.  Every module starts at
 * "info" on every destination.
 *
 * Messages that an outside party can trigger repeatedly use the rate-limited
 * forms with a static limiter:
 *
 *     static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
 *     VLOG_WARN_RL(&rl, "%s: bad message", name);
 *
 * which allow on average 5 messages a minute with bursts of 20 and report how
 * many were suppressed when logging resumes.
 *
 * Settings come from "-v SPEC" / "--verbose=SPEC" on the command line and
 * from the "vlog/set" unixctl command at run time.  A SPEC is a list of words
 * separated by spaces, commas or colons: a module name or "ANY", a
 * destination ("console", "syslog", "file") or "ANY", a level; what is not
 * given means all modules, all destinations, and "dbg".  "PATTERN:DEST:FMT"
 * sets the line format of a destination, "FACILITY:NAME" the syslog facility.
 *
 * Each line is formatted from its destination's pattern; the escapes are
 * documented in Documentation/topics/logging.rst (%c module, %p level, %m
 * message, %N sequence number, %D{strftime} UTC time, ...).  The sequence
 * number is global: one number per message, shared by its destinations.
 *
 * Destinations: the console is standard error; syslog is libc syslog() or
 * what --syslog-method names ("libc", "null", "unix:PATH", "udp:IP:PORT"),
 * plus an optional UDP copy to --syslog-target=IP:PORT; the file is only
 * written once vlog_set_log_file() (--log-file) has named one.
 *
 * This module is thread-safe: any thread may log or change settings.  A
 * line is written with one write() under a lock, so lines from concurrent
 * threads never interleave.  Threads other than the main one should name
 * themselves with vlog_set_thread_name() for the %t and %T escapes.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef VLOG_H
#define VLOG_H 1

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <time.h>
#include "compiler.h"

/* Levels, most severe first.  VLL_OFF disables a destination. */
#define VLOG_LEVELS                     \
    VLOG_LEVEL(OFF, LOG_ALERT, "off")   \
    VLOG_LEVEL(EMER, LOG_ALERT, "emer") \
    VLOG_LEVEL(ERR, LOG_ERR, "err")     \
    VLOG_LEVEL(WARN, LOG_WARNING, "warn") \
    VLOG_LEVEL(INFO, LOG_NOTICE, "info") \
    VLOG_LEVEL(DBG, LOG_DEBUG, "dbg")

enum vlog_level {
#define VLOG_LEVEL(NAME, SYSLOG_LEVEL, TEXT) VLL_##NAME,
    VLOG_LEVELS
#undef VLOG_LEVEL
    VLL_N_LEVELS
};

/* Destinations, in the order "vlog/list" shows them. */
#define VLOG_DESTINATIONS                    \
    VLOG_DESTINATION(CONSOLE, "console")     \
    VLOG_DESTINATION(SYSLOG, "syslog")       \
    VLOG_DESTINATION(FILE, "file")

enum vlog_destination {
#define VLOG_DESTINATION(NAME, TEXT) VLF_##NAME,
    VLOG_DESTINATIONS
#undef VLOG_DESTINATION
    VLF_N_DESTINATIONS,
    VLF_ANY_DESTINATION = -1
};

/* Names and values.  vlog_get_level_val() and vlog_get_destination_val()
 * ignore case; for an unknown name they return VLL_N_LEVELS and
 * VLF_N_DESTINATIONS, and vlog_get_destination_val("any") returns
 * VLF_ANY_DESTINATION. */
const char *vlog_get_level_name(enum vlog_level);
enum vlog_level vlog_get_level_val(const char *name);
const char *vlog_get_destination_name(enum vlog_destination);
enum vlog_destination vlog_get_destination_val(const char *name);

/* A logging module.  Define one per source file with
 * VLOG_DEFINE_THIS_MODULE.  The level fields are written by vlog.c under its
 * lock and read anywhere with relaxed atomic loads. */
struct vlog_module {
    struct vlog_module *next;          /* All modules, sorted by name. */
    const char *name;                  /* As given to the macro. */
    int levels[VLF_N_DESTINATIONS];    /* Level of each destination. */
    int min_level;                     /* Least severe level enabled. */
    bool honor_rate_limits;            /* False: rate limits ignored. */
};

void vlog_insert_module(struct vlog_module *);
void vlog_add_module_names(const char *const *names);
struct vlog_module *vlog_module_from_name(const char *name);
const char *vlog_get_module_name(const struct vlog_module *);

#define VLOG_DEFINE_THIS_MODULE(MODULE)                                 \
    static struct vlog_module this_module = {                           \
        NULL, #MODULE,                                                  \
        { VLL_INFO, VLL_INFO, VLL_INFO }, VLL_INFO, true                \
    };                                                                  \
    DPS_CONSTRUCTOR(vlog_register_##MODULE)                             \
    {                                                                   \
        vlog_insert_module(&this_module);                               \
    }                                                                   \
    struct vlog_dummy_##MODULE  /* Requires a semicolon after the macro. */

/* Rate limiter: on average 'RATE' messages a minute, bursts of 'BURST'.
 * A token bucket: each message costs VLOG_MSG_TOKENS (a minute in msec),
 * the bucket gains 'rate' tokens a millisecond and holds at most 'burst'
 * messages' worth.  The fields are private to vlog.c, protected by
 * 'mutex'. */
#define VLOG_MSG_TOKENS 60000ULL
struct vlog_rate_limit {
    unsigned int rate;            /* Messages a minute. */
    unsigned int burst;           /* Capacity, in messages. */
    unsigned long long tokens;    /* VLOG_MSG_TOKENS per message. */
    long long int last_fill;      /* Monotonic msec of the last refill. */
    long long int first_dropped;  /* Wall msec of first suppressed message. */
    long long int last_dropped;   /* Wall msec of last suppressed message. */
    unsigned int n_dropped;       /* Messages suppressed since last one. */
    pthread_mutex_t mutex;
};

#define VLOG_RATE_LIMIT_INIT(RATE, BURST)                               \
    {                                                                   \
        (RATE), (BURST), (BURST) * VLOG_MSG_TOKENS, 0, 0, 0, 0,         \
        PTHREAD_MUTEX_INITIALIZER                                       \
    }

/* Core functions.  The macros below call these. */
bool vlog_is_enabled(const struct vlog_module *, enum vlog_level);
bool vlog_should_drop(const struct vlog_module *, enum vlog_level,
                      struct vlog_rate_limit *);
void vlog(const struct vlog_module *, enum vlog_level, const char *format,
          ...) DPS_PRINTF_FORMAT(3, 4);
void vlog_valist(const struct vlog_module *, enum vlog_level,
                 const char *format, va_list) DPS_PRINTF_FORMAT(3, 0);
void vlog_rate_limit(const struct vlog_module *, enum vlog_level,
                     struct vlog_rate_limit *, const char *format, ...)
    DPS_PRINTF_FORMAT(4, 5);
void vlog_fatal(const struct vlog_module *, const char *format, ...)
    DPS_PRINTF_FORMAT(2, 3) DPS_NO_RETURN;
void vlog_abort(const struct vlog_module *, const char *format, ...)
    DPS_PRINTF_FORMAT(2, 3) DPS_NO_RETURN;

/* Configuration.  A NULL module means every module; VLF_ANY_DESTINATION
 * every destination (so a daemon that detaches from its terminal calls
 * vlog_set_levels(NULL, VLF_CONSOLE, VLL_OFF)). */
void vlog_set_levels(struct vlog_module *, enum vlog_destination,
                     enum vlog_level);
enum vlog_level vlog_get_level(const struct vlog_module *,
                               enum vlog_destination);
char *vlog_set_levels_from_string(const char *spec) DPS_WARN_UNUSED_RESULT;
void vlog_set_levels_from_string_assert(const char *spec);
char *vlog_get_levels(void);
void vlog_set_pattern(enum vlog_destination, const char *pattern);
char *vlog_get_patterns(void);
void vlog_set_rate_limits(struct vlog_module *, bool enable);
int vlog_set_log_file(const char *file_name);
const char *vlog_get_log_file(void);
int vlog_reopen_log_file(void);
void vlog_close_log_file(void);
void vlog_set_verbosity(const char *arg);
void vlog_set_syslog_method(const char *method);
void vlog_set_syslog_target(const char *target);
void vlog_set_syslog_facility(const char *facility);
void vlog_set_thread_name(const char *name);
void vlog_init(void);
void vlog_register_unixctl_commands(void);
void vlog_usage(void);

/* Logging macros.  Arguments are evaluated only when the message will be
 * logged. */
#define VLOG_EMER(...) VLOG(VLL_EMER, __VA_ARGS__)
#define VLOG_ERR(...) VLOG(VLL_ERR, __VA_ARGS__)
#define VLOG_WARN(...) VLOG(VLL_WARN, __VA_ARGS__)
#define VLOG_INFO(...) VLOG(VLL_INFO, __VA_ARGS__)
#define VLOG_DBG(...) VLOG(VLL_DBG, __VA_ARGS__)

#define VLOG_FATAL(...) vlog_fatal(&this_module, __VA_ARGS__)
#define VLOG_ABORT(...) vlog_abort(&this_module, __VA_ARGS__)

#define VLOG_ERR_RL(RL, ...) VLOG_RL(RL, VLL_ERR, __VA_ARGS__)
#define VLOG_WARN_RL(RL, ...) VLOG_RL(RL, VLL_WARN, __VA_ARGS__)
#define VLOG_INFO_RL(RL, ...) VLOG_RL(RL, VLL_INFO, __VA_ARGS__)
#define VLOG_DBG_RL(RL, ...) VLOG_RL(RL, VLL_DBG, __VA_ARGS__)

#define VLOG_IS_ERR_ENABLED() vlog_is_enabled(&this_module, VLL_ERR)
#define VLOG_IS_WARN_ENABLED() vlog_is_enabled(&this_module, VLL_WARN)
#define VLOG_IS_INFO_ENABLED() vlog_is_enabled(&this_module, VLL_INFO)
#define VLOG_IS_DBG_ENABLED() vlog_is_enabled(&this_module, VLL_DBG)

/* Logs once per process, then never again from this call site. */
#define VLOG_WARN_ONCE(...) VLOG_ONCE(VLL_WARN, __VA_ARGS__)
#define VLOG_ERR_ONCE(...) VLOG_ONCE(VLL_ERR, __VA_ARGS__)
#define VLOG_INFO_ONCE(...) VLOG_ONCE(VLL_INFO, __VA_ARGS__)

/* The cheap test every macro makes before calling into vlog.c. */
#define VLOG_MIN_LEVEL__ \
    ((enum vlog_level) __atomic_load_n(&this_module.min_level, \
                                       __ATOMIC_RELAXED))

#define VLOG(LEVEL, ...)                                        \
    do {                                                        \
        enum vlog_level level__ = LEVEL;                        \
        if (VLOG_MIN_LEVEL__ >= level__) {                      \
            vlog(&this_module, level__, __VA_ARGS__);           \
        }                                                       \
    } while (0)
#define VLOG_RL(RL, LEVEL, ...)                                     \
    do {                                                            \
        enum vlog_level level__ = LEVEL;                            \
        if (VLOG_MIN_LEVEL__ >= level__) {                          \
            vlog_rate_limit(&this_module, level__, RL, __VA_ARGS__); \
        }                                                           \
    } while (0)
#define VLOG_ONCE(LEVEL, ...)                                       \
    do {                                                            \
        static int logged__;                                        \
        if (!__atomic_exchange_n(&logged__, 1, __ATOMIC_RELAXED)) { \
            VLOG(LEVEL, __VA_ARGS__);                               \
        }                                                           \
    } while (0)

/* Command-line options, for programs' getopt_long() tables:
 *
 *     enum { VLOG_OPTION_ENUMS, ... };
 *     static const struct option long_options[] = {
 *         VLOG_LONG_OPTIONS, ...
 *     };
 *     switch (c) {
 *     VLOG_OPTION_HANDLERS
 *     ...
 *     }
 *
 * and "v::" in the short options string.  The handlers exit the program
 * with a message on a bad argument, as Open vSwitch's daemons do. */
#define VLOG_OPTION_ENUMS \
    OPT_LOG_FILE, OPT_SYSLOG_IMPL, OPT_SYSLOG_TARGET, OPT_SYSLOG_FACILITY
#define VLOG_LONG_OPTIONS                                               \
    {"verbose",         optional_argument, NULL, 'v'},                  \
    {"log-file",        optional_argument, NULL, OPT_LOG_FILE},         \
    {"syslog-method",   required_argument, NULL, OPT_SYSLOG_IMPL},      \
    {"syslog-target",   required_argument, NULL, OPT_SYSLOG_TARGET},    \
    {"syslog-facility", required_argument, NULL, OPT_SYSLOG_FACILITY}
#define VLOG_OPTION_HANDLERS                    \
        case 'v':                               \
            vlog_set_verbosity(optarg);         \
            break;                              \
        case OPT_LOG_FILE:                      \
            if (vlog_set_log_file(optarg)) {    \
                exit(EXIT_FAILURE);             \
            }                                   \
            break;                              \
        case OPT_SYSLOG_IMPL:                   \
            vlog_set_syslog_method(optarg);     \
            break;                              \
        case OPT_SYSLOG_TARGET:                 \
            vlog_set_syslog_target(optarg);     \
            break;                              \
        case OPT_SYSLOG_FACILITY:               \
            vlog_set_syslog_facility(optarg);   \
            break;

#endif /* vlog.h */
