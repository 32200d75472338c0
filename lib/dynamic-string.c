/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dynamic-string.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util.h"

/* Initialises 'ds' as an empty string. */
void
ds_init(struct ds *ds)
{
    ds->string = NULL;
    ds->length = 0;
    ds->allocated = 0;
}

/* Empties 'ds' without freeing its buffer. */
void
ds_clear(struct ds *ds)
{
    ds->length = 0;
    if (ds->string) {
        ds->string[0] = '\0';
    }
}

/* Shortens 'ds' to 'new_length' bytes if it is longer. */
void
ds_truncate(struct ds *ds, size_t new_length)
{
    if (ds->length > new_length) {
        ds->length = new_length;
        ds->string[new_length] = '\0';
    }
}

/* Makes room for at least 'min_length' bytes (plus the null) in 'ds'. */
void
ds_reserve(struct ds *ds, size_t min_length)
{
    if (min_length > ds->allocated || !ds->string) {
        ds->allocated += MAX(min_length, ds->allocated);
        ds->allocated = MAX(8, ds->allocated);
        ds->string = xrealloc(ds->string, ds->allocated + 1);
    }
}

/* Appends 'n' uninitialised bytes to 'ds' and returns a pointer to them. */
char *
ds_put_uninit(struct ds *ds, size_t n)
{
    ds_reserve(ds, ds->length + n);
    ds->length += n;
    ds->string[ds->length] = '\0';
    return &ds->string[ds->length - n];
}

/* Appends 'c' to 'ds'. */
void
ds_put_char(struct ds *ds, char c)
{
    *ds_put_uninit(ds, 1) = c;
}

/* Appends 'n' copies of 'c' to 'ds'. */
void
ds_put_char_multiple(struct ds *ds, char c, size_t n)
{
    memset(ds_put_uninit(ds, n), c, n);
}

/* Appends the 'n' bytes at 's' to 'ds'. */
void
ds_put_buffer(struct ds *ds, const char *s, size_t n)
{
    if (n) {
        memcpy(ds_put_uninit(ds, n), s, n);
    }
}

/* Appends null-terminated 's' to 'ds'. */
void
ds_put_cstr(struct ds *ds, const char *s)
{
    ds_put_buffer(ds, s, strlen(s));
}

/* Appends text formatted from 'format' and its arguments to 'ds'. */
void
ds_put_format(struct ds *ds, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    ds_put_format_valist(ds, format, args);
    va_end(args);
}

/* Like ds_put_format(), with a va_list. */
void
ds_put_format_valist(struct ds *ds, const char *format, va_list args_)
{
    size_t available = ds->string ? ds->allocated - ds->length + 1 : 0;
    va_list args;
    int needed;

    va_copy(args, args_);
    needed = vsnprintf(ds->string ? &ds->string[ds->length] : NULL,
                       available, format, args);
    va_end(args);
    if (needed < 0) {
        return;
    }
    if ((size_t) needed < available) {
        ds->length += needed;
    } else {
        ds_reserve(ds, ds->length + needed);
        va_copy(args, args_);
        vsnprintf(&ds->string[ds->length], needed + 1, format, args);
        va_end(args);
        ds->length += needed;
    }
}

/* Appends the 'size' bytes at 'p' to 'ds' as lowercase hex digits. */
void
ds_put_hex(struct ds *ds, const void *p, size_t size)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *bytes = p;
    char *dst = ds_put_uninit(ds, size * 2);

    for (size_t i = 0; i < size; i++) {
        dst[i * 2] = digits[bytes[i] >> 4];
        dst[i * 2 + 1] = digits[bytes[i] & 15];
    }
}

/* Appends the time 'msec' (milliseconds since the epoch) formatted with
 * strftime() 'format', in UTC if 'utc' or else local time.  Besides
 * strftime()'s conversions, 'format' may contain "#" characters right after
 * a "%S" conversion: each is replaced by one digit of the fraction of the
 * second ("%S.###" gives milliseconds). */
void
ds_put_strftime(struct ds *ds, const char *format, long long int msec,
                bool utc)
{
    time_t secs = msec / 1000;
    int frac = msec % 1000;
    struct tm tm;
    char buf[128];
    size_t n;

    if (utc) {
        gmtime_r(&secs, &tm);
    } else {
        localtime_r(&secs, &tm);
    }
    n = strftime(buf, sizeof buf, format, &tm);
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == '#') {
            /* Replace a run of '#' with as many fraction digits. */
            int scale = 100;
            while (i < n && buf[i] == '#') {
                buf[i++] = scale ? '0' + (frac / scale) % 10 : '0';
                scale /= 10;
            }
            i--;
        }
    }
    ds_put_buffer(ds, buf, n);
}

/* Reads one line from 'stream' into 'ds', replacing its contents, without
 * the new-line.  Returns 0 on success, EOF at end of file with nothing
 * read. */
int
ds_get_line(struct ds *ds, FILE *stream)
{
    ds_clear(ds);
    for (;;) {
        int c = getc(stream);
        if (c == EOF) {
            return ds->length ? 0 : EOF;
        } else if (c == '\n') {
            return 0;
        }
        ds_put_char(ds, c);
    }
}

/* Returns the null-terminated contents of 'ds', which 'ds' still owns. */
char *
ds_cstr(struct ds *ds)
{
    if (!ds->string) {
        ds_reserve(ds, 0);
        ds->string[0] = '\0';
    }
    return ds->string;
}

/* Like ds_cstr() for a const 'ds': returns "" for an empty string. */
const char *
ds_cstr_ro(const struct ds *ds)
{
    return ds->string ? ds->string : "";
}

/* Returns the contents of 'ds', which the caller must free, and leaves 'ds'
 * empty. */
char *
ds_steal_cstr(struct ds *ds)
{
    char *s = ds_cstr(ds);
    ds_init(ds);
    return s;
}

/* Removes trailing 'c' characters from 'ds'. */
void
ds_chomp(struct ds *ds, int c)
{
    while (ds->length && ds->string[ds->length - 1] == (char) c) {
        ds->string[--ds->length] = '\0';
    }
}

/* Frees the memory 'ds' owns. */
void
ds_destroy(struct ds *ds)
{
    free(ds->string);
    ds_init(ds);
}

/* Exchanges the contents of 'a' and 'b'. */
void
ds_swap(struct ds *a, struct ds *b)
{
    struct ds tmp = *a;
    *a = *b;
    *b = tmp;
}
