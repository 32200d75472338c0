/* A growable byte buffer for OpenFlow messages.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofpbuf.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "util.h"

/* Initializes 'b' as empty with room for 'size' bytes. */
void
ofpbuf_init(struct ofpbuf *b, size_t size)
{
    memset(b, 0, sizeof *b);
    if (size) {
        b->base = b->data = xmalloc(size);
        b->allocated = size;
    }
}

/* Frees 'b''s memory (not 'b' itself). */
void
ofpbuf_uninit(struct ofpbuf *b)
{
    if (b && b->allocated) {
        free(b->base);
    }
    if (b) {
        memset(b, 0, sizeof *b);
    }
}

/* Makes 'b' a read-only view of the 'size' bytes at 'data': only the pull
 * and at functions may be used on it, and ofpbuf_uninit() frees nothing. */
void
ofpbuf_use_const(struct ofpbuf *b, const void *data, size_t size)
{
    memset(b, 0, sizeof *b);
    b->data = (void *) data;
    b->size = size;
}

/* Returns a new empty buffer with room for 'size' bytes. */
struct ofpbuf *
ofpbuf_new(size_t size)
{
    struct ofpbuf *b = xmalloc(sizeof *b);

    ofpbuf_init(b, size);
    return b;
}

/* Returns a new buffer holding a copy of 'b''s content (and its 'header'
 * and 'msg' offsets). */
struct ofpbuf *
ofpbuf_clone(const struct ofpbuf *b)
{
    struct ofpbuf *copy = ofpbuf_clone_data(b->data, b->size);

    if (b->header) {
        copy->header = (char *) copy->data
                       + ((char *) b->header - (char *) b->data);
    }
    if (b->msg) {
        copy->msg = (char *) copy->data + ((char *) b->msg - (char *) b->data);
    }
    return copy;
}

/* Returns a new buffer holding a copy of the 'size' bytes at 'data'. */
struct ofpbuf *
ofpbuf_clone_data(const void *data, size_t size)
{
    struct ofpbuf *b = ofpbuf_new(size ? size : 1);

    ofpbuf_put(b, data, size);
    return b;
}

/* Frees 'b' and its memory. */
void
ofpbuf_delete(struct ofpbuf *b)
{
    if (b) {
        ofpbuf_uninit(b);
        free(b);
    }
}

/* Empties 'b', keeping its memory; its headroom is returned to it. */
void
ofpbuf_clear(struct ofpbuf *b)
{
    b->data = b->base;
    b->size = 0;
    b->header = NULL;
    b->msg = NULL;
}

/* Makes sure 'b' has room for 'size' more bytes, reallocating if needed
 * (which moves 'data', 'header' and 'msg'). */
void
ofpbuf_prealloc_tailroom(struct ofpbuf *b, size_t size)
{
    if (size <= ofpbuf_tailroom(b)) {
        return;
    }

    size_t headroom = b->base ? (size_t) ((char *) b->data
                                          - (char *) b->base) : 0;
    size_t need = headroom + b->size + size;
    size_t new_allocated = b->allocated * 2 > need ? b->allocated * 2 : need;
    if (new_allocated < 64) {
        new_allocated = 64;
    }

    char *new_base = xmalloc(new_allocated);
    char *new_data = new_base + headroom;
    if (b->size) {
        memcpy(new_data, b->data, b->size);
    }
    if (b->header) {
        b->header = new_data + ((char *) b->header - (char *) b->data);
    }
    if (b->msg) {
        b->msg = new_data + ((char *) b->msg - (char *) b->data);
    }
    if (b->allocated) {
        free(b->base);
    }
    b->base = new_base;
    b->data = new_data;
    b->allocated = new_allocated;
}

/* Appends 'size' uninitialized bytes to 'b' and returns them. */
void *
ofpbuf_put_uninit(struct ofpbuf *b, size_t size)
{
    ofpbuf_prealloc_tailroom(b, size);
    void *p = ofpbuf_tail(b);
    b->size += size;
    return p;
}

/* Appends 'size' zero bytes to 'b' and returns them. */
void *
ofpbuf_put_zeros(struct ofpbuf *b, size_t size)
{
    void *p = ofpbuf_put_uninit(b, size);

    memset(p, 0, size);
    return p;
}

/* Appends a copy of the 'size' bytes at 'data' and returns it. */
void *
ofpbuf_put(struct ofpbuf *b, const void *data, size_t size)
{
    void *p = ofpbuf_put_uninit(b, size);

    if (size) {
        memcpy(p, data, size);
    }
    return p;
}

/* Appends the bytes that hexadecimal text 's' spells (pairs of hex digits;
 * spaces and periods between pairs are skipped, as ovs-ofctl ofp-print
 * reads them).  Sets '*end', if nonnull, to the first character not
 * consumed. */
void
ofpbuf_put_hex(struct ofpbuf *b, const char *s, const char **end)
{
    for (;;) {
        while (*s == ' ' || *s == '.' || *s == '\t' || *s == '\n') {
            s++;
        }
        if (!isxdigit((unsigned char) s[0])
            || !isxdigit((unsigned char) s[1])) {
            break;
        }

        char pair[3] = { s[0], s[1], '\0' };
        uint8_t byte = strtoul(pair, NULL, 16);
        ofpbuf_put(b, &byte, 1);
        s += 2;
    }
    if (end) {
        *end = s;
    }
}

/* Appends zeros until 'b' holds 'length' bytes (nothing if it already holds
 * as many). */
void
ofpbuf_padto(struct ofpbuf *b, size_t length)
{
    if (b->size < length) {
        ofpbuf_put_zeros(b, length - b->size);
    }
}

/* Removes the first 'size' bytes, which must be there, and returns them
 * (they stay valid until 'b' is changed). */
void *
ofpbuf_pull(struct ofpbuf *b, size_t size)
{
    util_assert(size <= b->size);

    void *p = b->data;
    if (size) {
        b->data = (char *) b->data + size;
    }
    b->size -= size;
    return p;
}

/* Like ofpbuf_pull(), but returns NULL (and pulls nothing) if 'b' holds
 * fewer than 'size' bytes. */
void *
ofpbuf_try_pull(struct ofpbuf *b, size_t size)
{
    return size <= b->size ? ofpbuf_pull(b, size) : NULL;
}

/* Returns the 'size' bytes at 'offset' in the content, or NULL if they are
 * not all there. */
void *
ofpbuf_at(const struct ofpbuf *b, size_t offset, size_t size)
{
    return (b->data && offset <= b->size && size <= b->size - offset
            ? (char *) b->data + offset : NULL);
}

/* Returns a description of 'b' and up to 'maxbytes' of its content in hex,
 * which the caller frees. */
char *
ofpbuf_to_string(const struct ofpbuf *b, size_t maxbytes)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_format(&s, "size=%zu, allocated=%zu: ", b->size, b->allocated);
    ds_put_hex(&s, b->data, b->size < maxbytes ? b->size : maxbytes);
    return ds_steal_cstr(&s);
}
