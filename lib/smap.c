/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "smap.h"
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "util.h"

static bool is_decimal(const char *s);
static size_t smap_find__(const struct smap *, const char *key, bool *found);
static void smap_put__(struct smap *smap, const char *key, char *value);

void
smap_init(struct smap *smap)
{
    smap->nodes = NULL;
    smap->n = 0;
    smap->allocated = 0;
}

void
smap_destroy(struct smap *smap)
{
    if (smap) {
        smap_clear(smap);
        free(smap->nodes);
        smap_init(smap);
    }
}

void
smap_clear(struct smap *smap)
{
    for (size_t i = 0; i < smap->n; i++) {
        free(smap->nodes[i].key);
        free(smap->nodes[i].value);
    }
    smap->n = 0;
}

void
smap_clone(struct smap *dst, const struct smap *src)
{
    smap_init(dst);
    if (src->n) {
        dst->nodes = xmalloc(src->n * sizeof *dst->nodes);
        dst->allocated = dst->n = src->n;
        for (size_t i = 0; i < src->n; i++) {
            dst->nodes[i].key = xstrdup(src->nodes[i].key);
            dst->nodes[i].value = xstrdup(src->nodes[i].value);
        }
    }
}

void
smap_swap(struct smap *a, struct smap *b)
{
    struct smap tmp = *a;

    *a = *b;
    *b = tmp;
}

void
smap_add(struct smap *smap, const char *key, const char *value)
{
    smap_put__(smap, key, xstrdup(value));
}

void
smap_add_format(struct smap *smap, const char *key, const char *format, ...)
{
    va_list args;
    char *value;

    va_start(args, format);
    value = xvasprintf(format, args);
    va_end(args);
    smap_put__(smap, key, value);
}

bool
smap_remove(struct smap *smap, const char *key)
{
    bool found;
    size_t i = smap_find__(smap, key, &found);

    if (!found) {
        return false;
    }
    free(smap->nodes[i].key);
    free(smap->nodes[i].value);
    memmove(&smap->nodes[i], &smap->nodes[i + 1],
            (smap->n - i - 1) * sizeof *smap->nodes);
    smap->n--;
    return true;
}

const char *
smap_get(const struct smap *smap, const char *key)
{
    bool found;
    size_t i = smap_find__(smap, key, &found);

    return found ? smap->nodes[i].value : NULL;
}

const char *
smap_get_def(const struct smap *smap, const char *key, const char *def)
{
    const char *value = smap_get(smap, key);

    return value ? value : def;
}

bool
smap_get_bool(const struct smap *smap, const char *key, bool def)
{
    const char *value = smap_get(smap, key);

    if (!value) {
        return def;
    }
    return def ? strcasecmp(value, "false") != 0 : !strcasecmp(value, "true");
}

int
smap_get_int(const struct smap *smap, const char *key, int def)
{
    long long int value = def;
    char *error = smap_parse_int(smap, key, INT_MIN, INT_MAX, &value);

    free(error);
    return error ? def : (int) value;
}

unsigned long long int
smap_get_ullong(const struct smap *smap, const char *key,
                unsigned long long int def)
{
    const char *s = smap_get(smap, key);
    unsigned long long int value;
    char *end;

    /* Decimal digits only: strtoull() would accept leading blanks, a sign
     * (wrapping "-1" to the largest value) and hexadecimal. */
    if (!s || !is_decimal(s)) {
        return def;
    }
    errno = 0;
    value = strtoull(s, &end, 10);
    return errno || *end ? def : value;
}

bool
smap_contains(const struct smap *smap, const char *key)
{
    return smap_get(smap, key) != NULL;
}

size_t
smap_count(const struct smap *smap)
{
    return smap->n;
}

bool
smap_is_empty(const struct smap *smap)
{
    return !smap->n;
}

bool
smap_equal(const struct smap *a, const struct smap *b)
{
    if (a->n != b->n) {
        return false;
    }
    for (size_t i = 0; i < a->n; i++) {
        if (strcmp(a->nodes[i].key, b->nodes[i].key)
            || strcmp(a->nodes[i].value, b->nodes[i].value)) {
            return false;
        }
    }
    return true;
}

char *
smap_parse_bool(const struct smap *smap, const char *key, bool *value)
{
    const char *s = smap_get(smap, key);

    if (!s) {
        return NULL;
    } else if (!strcmp(s, "true")) {
        *value = true;
    } else if (!strcmp(s, "false")) {
        *value = false;
    } else {
        return xasprintf("%s: \"%s\" is not \"true\" or \"false\"", key, s);
    }
    return NULL;
}

char *
smap_parse_int(const struct smap *smap, const char *key,
               long long int min, long long int max, long long int *value)
{
    const char *s = smap_get(smap, key);
    long long int x;
    char *end;

    if (!s) {
        return NULL;
    }
    errno = 0;
    x = strtoll(s, &end, 10);
    if (!is_decimal(*s == '-' ? s + 1 : s) || *end) {
        return xasprintf("%s: \"%s\" is not an integer", key, s);
    } else if (errno || x < min || x > max) {
        return xasprintf("%s: %s is out of range %lld to %lld",
                         key, s, min, max);
    }
    *value = x;
    return NULL;
}

void
smap_format(const struct smap *smap, struct ds *s)
{
    for (size_t i = 0; i < smap->n; i++) {
        ds_put_format(s, "%s%s=%s", i ? ", " : "",
                      smap->nodes[i].key, smap->nodes[i].value);
    }
}

/* True if 's' is one or more decimal digits and nothing else. */
static bool
is_decimal(const char *s)
{
    if (!*s) {
        return false;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
    }
    return true;
}

/* Returns the index of 'key' in 'smap' and sets '*found', or the index where
 * it would go. */
static size_t
smap_find__(const struct smap *smap, const char *key, bool *found)
{
    size_t lo = 0, hi = smap->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int cmp = strcmp(key, smap->nodes[mid].key);

        if (!cmp) {
            *found = true;
            return mid;
        } else if (cmp < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    *found = false;
    return lo;
}

/* Takes ownership of 'value'. */
static void
smap_put__(struct smap *smap, const char *key, char *value)
{
    bool found;
    size_t i = smap_find__(smap, key, &found);

    if (found) {
        free(smap->nodes[i].value);
        smap->nodes[i].value = value;
        return;
    }
    if (smap->n >= smap->allocated) {
        smap->allocated = smap->allocated ? 2 * smap->allocated : 8;
        smap->nodes = xrealloc(smap->nodes,
                               smap->allocated * sizeof *smap->nodes);
    }
    memmove(&smap->nodes[i + 1], &smap->nodes[i],
            (smap->n - i) * sizeof *smap->nodes);
    smap->nodes[i].key = xstrdup(key);
    smap->nodes[i].value = value;
    smap->n++;
}
