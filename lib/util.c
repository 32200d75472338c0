/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *program_name = "dpswitch";

static void out_of_memory(void) DPS_NO_RETURN;
static void print_error(int error, const char *format, va_list)
    DPS_PRINTF_FORMAT(2, 0);

/* Allocates 'size' bytes, aborting the program if memory is exhausted.
 * Returns a non-NULL pointer even for 'size' 0. */
void *
xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        out_of_memory();
    }
    return p;
}

/* Like xmalloc(), but zeroes the memory. */
void *
xzalloc(size_t size)
{
    return xcalloc(1, size);
}

/* Allocates 'n' zeroed elements of 'size' bytes each, aborting the program
 * if memory is exhausted or the product overflows. */
void *
xcalloc(size_t n, size_t size)
{
    void *p = n && size ? calloc(n, size) : calloc(1, 1);
    if (!p) {
        out_of_memory();
    }
    return p;
}

/* Resizes 'p' to 'size' bytes, aborting the program if memory is
 * exhausted. */
void *
xrealloc(void *p, size_t size)
{
    p = realloc(p, size ? size : 1);
    if (!p) {
        out_of_memory();
    }
    return p;
}

/* Returns a new copy of the 'size' bytes at 'p'. */
void *
xmemdup(const void *p, size_t size)
{
    void *copy = xmalloc(size);
    if (size) {
        memcpy(copy, p, size);
    }
    return copy;
}

/* Returns a new copy of null-terminated string 's'. */
char *
xstrdup(const char *s)
{
    return xmemdup(s, strlen(s) + 1);
}

/* Returns a new null-terminated copy of the 'length' bytes at 's'. */
char *
xmemdup0(const char *s, size_t length)
{
    char *copy = xmalloc(length + 1);
    memcpy(copy, s, length);
    copy[length] = '\0';
    return copy;
}

/* Returns a newly allocated string formatted from 'format' and its
 * arguments. */
char *
xasprintf(const char *format, ...)
{
    va_list args;
    char *s;

    va_start(args, format);
    s = xvasprintf(format, args);
    va_end(args);
    return s;
}

/* Like xasprintf(), with a va_list. */
char *
xvasprintf(const char *format, va_list args)
{
    char *s;

    if (vasprintf(&s, format, args) < 0) {
        out_of_memory();
    }
    return s;
}

/* Sets the program name that messages and control sockets use to the base
 * name of 'argv0', with libtool's "lt-" prefix removed. */
void
util_set_program_name(const char *argv0)
{
    const char *name = util_base_name(argv0);
    if (util_str_has_prefix(name, "lt-")) {
        name += 3;
    }
    program_name = name;
}

/* Returns the name set with util_set_program_name(). */
const char *
util_program_name(void)
{
    return program_name;
}

/* Returns the version of dpswitch, e.g. "0.1.0". */
const char *
util_program_version(void)
{
    return PACKAGE_VERSION;
}

/* Prints the "--version" text on stdout, in the form Open vSwitch's tools
 * print it: "PROGRAM (dpswitch) VERSION".  Tools that parse the last word of
 * that line (ovs-ctl) therefore keep working. */
void
util_print_version(void)
{
    printf("%s (dpswitch) %s\n", program_name, PACKAGE_VERSION);
}

/* Prints "PROGRAM: MESSAGE" on stderr, followed by the text of 'error' if it
 * is nonzero, and exits with status 1. */
void
util_fatal(int error, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    print_error(error, format, args);
    va_end(args);
    exit(EXIT_FAILURE);
}

/* Like util_fatal(), but returns instead of exiting. */
void
util_error(int error, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    print_error(error, format, args);
    va_end(args);
}

/* Reports a failed util_assert() and aborts. */
void
util_assert_failure(const char *file, int line, const char *function,
                    const char *condition)
{
    fprintf(stderr, "%s: %s:%d: %s: assertion %s failed\n",
            program_name, file, line, function, condition);
    abort();
}

/* Returns the text for errno value 'error'; "End of file" for EOF, which the
 * stream functions return as an error code. */
const char *
util_strerror(int error)
{
    if (error == EOF) {
        return "End of file";
    }
    return strerror(error);
}

/* Parses all of 's' as an integer in 'base' into '*value'.  Returns true on
 * success; on failure returns false and sets '*value' to 0. */
bool
util_str_to_int(const char *s, int base, int *value)
{
    long long ll;

    if (util_str_to_llong(s, base, &ll) && ll >= INT_MIN && ll <= INT_MAX) {
        *value = ll;
        return true;
    }
    *value = 0;
    return false;
}

/* Like util_str_to_int() for a long long. */
bool
util_str_to_llong(const char *s, int base, long long *value)
{
    char *tail;

    errno = 0;
    *value = strtoll(s, &tail, base);
    if (errno || tail == s || *tail != '\0') {
        *value = 0;
        return false;
    }
    return true;
}

/* Like util_str_to_int() for an unsigned int; rejects a leading '-'. */
bool
util_str_to_uint(const char *s, int base, unsigned int *value)
{
    long long ll;

    if (s[0] != '-' && util_str_to_llong(s, base, &ll)
        && ll >= 0 && ll <= UINT_MAX) {
        *value = ll;
        return true;
    }
    *value = 0;
    return false;
}

/* Parses all of 's' as a floating-point number into '*value'. */
bool
util_str_to_double(const char *s, double *value)
{
    char *tail;

    errno = 0;
    *value = strtod(s, &tail);
    if (errno || tail == s || *tail != '\0') {
        *value = 0;
        return false;
    }
    return true;
}

/* Returns 'file_name' as an absolute path: unchanged if it already is one,
 * otherwise relative to 'dir', or to the working directory if 'dir' is
 * NULL.  The caller frees the result.  Returns NULL if the working directory
 * cannot be determined. */
char *
util_abs_file_name(const char *dir, const char *file_name)
{
    if (file_name[0] == '/') {
        return xstrdup(file_name);
    } else if (dir && dir[0]) {
        const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
        return xasprintf("%s%s%s", dir, sep, file_name);
    } else {
        char *cwd = getcwd(NULL, 0);
        char *abs;

        if (!cwd) {
            return NULL;
        }
        abs = xasprintf("%s/%s", cwd, file_name);
        free(cwd);
        return abs;
    }
}

/* Returns the part of 'file_name' after its last '/'. */
const char *
util_base_name(const char *file_name)
{
    const char *slash = strrchr(file_name, '/');
    return slash ? slash + 1 : file_name;
}

/* Returns true if 's' starts with 'prefix'. */
bool
util_str_has_prefix(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* Returns true if 's' ends with 'suffix'. */
bool
util_str_has_suffix(const char *s, const char *suffix)
{
    size_t s_len = strlen(s);
    size_t suffix_len = strlen(suffix);

    return s_len >= suffix_len && !strcmp(s + s_len - suffix_len, suffix);
}

static void
out_of_memory(void)
{
    fprintf(stderr, "%s: virtual memory exhausted\n", program_name);
    abort();
}

static void
print_error(int error, const char *format, va_list args)
{
    fprintf(stderr, "%s: ", program_name);
    vfprintf(stderr, format, args);
    if (error) {
        fprintf(stderr, " (%s)", util_strerror(error));
    }
    putc('\n', stderr);
}
