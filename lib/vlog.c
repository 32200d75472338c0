/* Licensed under the Apache License, Version 2.0 (see LICENSE).
 *
 * PROVISIONAL: a minimal console-only implementation so that the tree links
 * while the full module is written.  Replace wholesale. */

#include <config.h>
#include "vlog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "timeval.h"
#include "util.h"

static struct vlog_module *modules;

void
vlog_insert_module(struct vlog_module *module)
{
    module->next = modules;
    modules = module;
}

bool
vlog_is_enabled(const struct vlog_module *module, enum vlog_level level)
{
    return module->min_level >= level;
}

void
vlog_valist(const struct vlog_module *module, enum vlog_level level,
            const char *format, va_list args)
{
    static const char *names[] = { "OFF", "EMER", "ERR", "WARN", "INFO",
                                   "DBG" };
    struct ds line = DS_EMPTY_INITIALIZER;

    if (level > module->levels[VLF_CONSOLE]) {
        return;
    }
    ds_put_strftime(&line, "%Y-%m-%dT%H:%M:%SZ", time_wall_msec(), true);
    ds_put_format(&line, "|00000|%s|%s|", module->name, names[level]);
    ds_put_format_valist(&line, format, args);
    fprintf(stderr, "%s\n", ds_cstr(&line));
    ds_destroy(&line);
}

void
vlog(const struct vlog_module *module, enum vlog_level level,
     const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_valist(module, level, format, args);
    va_end(args);
}

void
vlog_rate_limit(const struct vlog_module *module, enum vlog_level level,
                struct vlog_rate_limit *rl DPS_UNUSED,
                const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_valist(module, level, format, args);
    va_end(args);
}

void
vlog_fatal(const struct vlog_module *module, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_valist(module, VLL_EMER, format, args);
    va_end(args);
    exit(EXIT_FAILURE);
}

void
vlog_abort(const struct vlog_module *module, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_valist(module, VLL_EMER, format, args);
    va_end(args);
    abort();
}

void
vlog_set_verbosity(const char *arg DPS_UNUSED)
{
}

int
vlog_set_log_file(const char *file_name DPS_UNUSED)
{
    return 0;
}

void
vlog_set_syslog_target(const char *target DPS_UNUSED)
{
}

void
vlog_set_syslog_facility(const char *facility DPS_UNUSED)
{
}
