/* Small utilities every part of dpswitch uses: checked allocation, fatal
 * errors, program name, string helpers.
 *
 * Allocation: the x*() functions never return NULL; when memory runs out they
 * abort the program with a message, since no caller can do better.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef UTIL_H
#define UTIL_H 1

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"

/* Number of elements in array 'ARRAY'. */
#define ARRAY_SIZE(ARRAY) (sizeof (ARRAY) / sizeof (ARRAY)[0])

/* Given 'POINTER' to member 'MEMBER' of a struct of type 'STRUCT', returns
 * the struct. */
#define CONTAINER_OF(POINTER, STRUCT, MEMBER) \
    ((STRUCT *) (void *) ((char *) (POINTER) - offsetof(STRUCT, MEMBER)))

#define MIN(A, B) ((A) < (B) ? (A) : (B))
#define MAX(A, B) ((A) > (B) ? (A) : (B))

/* Like assert(), but always compiled in: a failed 'COND' logs where and
 * aborts. */
#define util_assert(COND)                                           \
    (likely(COND) ? (void) 0                                        \
     : util_assert_failure(__FILE__, __LINE__, __func__, #COND))

void *xmalloc(size_t size);
void *xzalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
void *xmemdup(const void *p, size_t size);
char *xstrdup(const char *s);
char *xmemdup0(const char *s, size_t length);
char *xasprintf(const char *format, ...) DPS_PRINTF_FORMAT(1, 2);
char *xvasprintf(const char *format, va_list args) DPS_PRINTF_FORMAT(1, 0);

void util_set_program_name(const char *argv0);
const char *util_program_name(void);
const char *util_program_version(void);
void util_print_version(void);

void util_fatal(int error, const char *format, ...)
    DPS_PRINTF_FORMAT(2, 3) DPS_NO_RETURN;
void util_error(int error, const char *format, ...) DPS_PRINTF_FORMAT(2, 3);
void util_assert_failure(const char *file, int line, const char *function,
                         const char *condition) DPS_NO_RETURN;

const char *util_strerror(int error);
bool util_str_to_int(const char *s, int base, int *value);
bool util_str_to_llong(const char *s, int base, long long *value);
bool util_str_to_uint(const char *s, int base, unsigned int *value);
bool util_str_to_double(const char *s, double *value);
char *util_abs_file_name(const char *dir, const char *file_name);
const char *util_base_name(const char *file_name);
bool util_str_has_prefix(const char *s, const char *prefix);
bool util_str_has_suffix(const char *s, const char *suffix);

#endif /* util.h */
