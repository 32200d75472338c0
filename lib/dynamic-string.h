/* A growable, always null-terminated string buffer ("ds").
 *
 * A 'struct ds' initialised with DS_EMPTY_INITIALIZER or ds_init() owns its
 * buffer; ds_destroy() frees it, ds_steal_cstr() hands it to the caller.
 * Every ds_put_*() appends.  ds_cstr() never returns NULL.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DYNAMIC_STRING_H
#define DYNAMIC_STRING_H 1

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "compiler.h"

struct ds {
    char *string;       /* Null-terminated, or NULL while 'allocated' is 0. */
    size_t length;      /* Bytes in 'string', not counting the null. */
    size_t allocated;   /* Bytes allocated for 'string', minus one. */
};

#define DS_EMPTY_INITIALIZER { NULL, 0, 0 }

void ds_init(struct ds *);
void ds_clear(struct ds *);
void ds_truncate(struct ds *, size_t new_length);
void ds_reserve(struct ds *, size_t min_length);
char *ds_put_uninit(struct ds *, size_t n);
void ds_put_char(struct ds *, char);
void ds_put_char_multiple(struct ds *, char, size_t n);
void ds_put_buffer(struct ds *, const char *, size_t n);
void ds_put_cstr(struct ds *, const char *);
void ds_put_format(struct ds *, const char *format, ...)
    DPS_PRINTF_FORMAT(2, 3);
void ds_put_format_valist(struct ds *, const char *format, va_list)
    DPS_PRINTF_FORMAT(2, 0);
void ds_put_hex(struct ds *, const void *, size_t size);
void ds_put_strftime(struct ds *, const char *format, long long int msec,
                     bool utc);
int ds_get_line(struct ds *, FILE *);
char *ds_cstr(struct ds *);
const char *ds_cstr_ro(const struct ds *);
char *ds_steal_cstr(struct ds *);
void ds_chomp(struct ds *, int c);
void ds_destroy(struct ds *);
void ds_swap(struct ds *, struct ds *);

#endif /* dynamic-string.h */
