/* A growable byte buffer for building and parsing OpenFlow messages.
 *
 * 'data' points at 'size' bytes of content inside an allocation of
 * 'allocated' bytes that starts at 'base'; there may be headroom before
 * 'data' (pulled bytes) and tailroom after it.  'header' is a pointer the
 * message code keeps to the start of the message being built or parsed and
 * 'msg' one to the body after its header; both are moved with the data when
 * the buffer is reallocated.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFPBUF_H
#define OFPBUF_H 1

#include <stddef.h>
#include <stdint.h>

struct ofpbuf {
    void *base;                 /* Allocation, or NULL. */
    size_t allocated;           /* Bytes at 'base'. */
    void *data;                 /* First byte of content. */
    size_t size;                /* Bytes of content. */
    void *header;               /* Message start, or NULL. */
    void *msg;                  /* Message body, or NULL. */
};

#define OFPBUF_STUB_INITIALIZER { NULL, 0, NULL, 0, NULL, NULL }

void ofpbuf_init(struct ofpbuf *, size_t size);
void ofpbuf_uninit(struct ofpbuf *);
void ofpbuf_use_const(struct ofpbuf *, const void *, size_t size);
struct ofpbuf *ofpbuf_new(size_t size);
struct ofpbuf *ofpbuf_clone(const struct ofpbuf *);
struct ofpbuf *ofpbuf_clone_data(const void *, size_t size);
void ofpbuf_delete(struct ofpbuf *);

void ofpbuf_clear(struct ofpbuf *);
void ofpbuf_prealloc_tailroom(struct ofpbuf *, size_t size);
void *ofpbuf_put_uninit(struct ofpbuf *, size_t size);
void *ofpbuf_put_zeros(struct ofpbuf *, size_t size);
void *ofpbuf_put(struct ofpbuf *, const void *, size_t size);
void ofpbuf_put_hex(struct ofpbuf *, const char *s, const char **end);
void ofpbuf_padto(struct ofpbuf *, size_t length);
void *ofpbuf_pull(struct ofpbuf *, size_t size);
void *ofpbuf_try_pull(struct ofpbuf *, size_t size);
void *ofpbuf_at(const struct ofpbuf *, size_t offset, size_t size);
char *ofpbuf_to_string(const struct ofpbuf *, size_t maxbytes);

/* Returns the byte after the content. */
static inline void *
ofpbuf_tail(const struct ofpbuf *b)
{
    return b->size ? (char *) b->data + b->size : b->data;
}

/* Returns the bytes 'b' can grow by without reallocating. */
static inline size_t
ofpbuf_tailroom(const struct ofpbuf *b)
{
    return b->base
           ? (size_t) ((char *) b->base + b->allocated
                       - (char *) ofpbuf_tail(b))
           : 0;
}

/* Bytes from 'header' to the end of the content. */
static inline size_t
ofpbuf_header_size(const struct ofpbuf *b)
{
    return (size_t) ((char *) ofpbuf_tail(b) - (char *) b->header);
}

#endif /* ofpbuf.h */
