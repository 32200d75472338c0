/* Streams that replay recorded ones (replay.h): with --replay, stream.c
 * opens these in place of every stream and pstream, whatever the name's
 * type.  Each reads the replay file recorded for its name and gives back,
 * each in its recorded turn, what the real one returned: the result of
 * opening it, what every receive got, how much every send took, and for a
 * pstream, each accepted connection (itself a replay stream) or error.
 * Nothing goes to or comes from the network.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "poll-loop.h"
#include "replay.h"
#include "stream-provider.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stream_replay);

struct stream_replay {
    struct stream up;
    struct replay_file *f;
    char *pending;              /* A received record's data that did not fit
                                 * the caller's buffer, or NULL. */
    size_t pending_ofs, pending_size;
};

struct pstream_replay {
    struct pstream up;
    struct replay_file *f;
};

static struct stream_replay *stream_replay_cast(struct stream *);
static struct pstream_replay *pstream_replay_cast(struct pstream *);
static int stream_replay_open_file(const char *name,
                                   struct replay_file **filep);

/* Opens the replay of the stream 'name' (see stream_class 'open' for the
 * contract; 'name' is freed or taken). */
static int
stream_replay_open(char *name, const char *suffix DPS_UNUSED,
                   struct stream **streamp)
{
    struct stream_replay *s;
    struct replay_file *f;
    int error;

    error = stream_replay_open_file(name, &f);
    if (error) {
        free(name);
        return error;
    }
    s = xzalloc(sizeof *s);
    stream_init(&s->up, &stream_replay_class, 0, name);
    s->f = f;
    *streamp = &s->up;
    return 0;
}

static void
stream_replay_close(struct stream *stream)
{
    struct stream_replay *s = stream_replay_cast(stream);

    replay_file_close(s->f);
    free(s->pending);
    free(s->up.name);
    free(s);
}

static ssize_t
stream_replay_recv(struct stream *stream, void *buffer, size_t n)
{
    struct stream_replay *s = stream_replay_cast(stream);
    size_t chunk;
    void *data;
    int value;

    if (!s->pending) {
        if (!replay_file_is_next(s->f, true)
            || replay_file_read(s->f, true, &value, &data)) {
            return -EAGAIN;
        }
        if (value <= 0) {
            return value;
        }
        s->pending = data;
        s->pending_ofs = 0;
        s->pending_size = value;
    }

    /* A receive into a smaller buffer than the recorded one's takes the
     * rest of the record on the next calls. */
    chunk = MIN(n, s->pending_size - s->pending_ofs);
    memcpy(buffer, s->pending + s->pending_ofs, chunk);
    s->pending_ofs += chunk;
    if (s->pending_ofs >= s->pending_size) {
        free(s->pending);
        s->pending = NULL;
    }
    return chunk;
}

static ssize_t
stream_replay_send(struct stream *stream, const void *buffer DPS_UNUSED,
                   size_t n)
{
    struct stream_replay *s = stream_replay_cast(stream);
    int value;

    if (!replay_file_is_next(s->f, false)
        || replay_file_read(s->f, false, &value, NULL)) {
        return -EAGAIN;
    }
    if (value > 0) {
        return MIN((size_t) value, n);
    }
    return value ? value : -EAGAIN;
}

static void
stream_replay_wait(struct stream *stream, enum stream_wait_type type
                   DPS_UNUSED)
{
    struct stream_replay *s = stream_replay_cast(stream);

    /* Another record may be this stream's turn once the others' are
     * taken; at the end of the file there is nothing more to wait for. */
    if (s->pending || replay_file_has_next(s->f)) {
        poll_immediate_wake();
    }
}

/* A replayed active stream, whatever its name's type. */
const struct stream_class stream_replay_class = {
    .name = "replay",
    .needs_probes = false,
    .open = stream_replay_open,
    .close = stream_replay_close,
    .connect = NULL,
    .recv = stream_replay_recv,
    .send = stream_replay_send,
    .run = NULL,
    .run_wait = NULL,
    .wait = stream_replay_wait,
};

/* Opens the replay of the pstream 'name' (see pstream_class 'listen'). */
static int
stream_replay_listen(char *name, const char *suffix DPS_UNUSED,
                     struct pstream **pstreamp)
{
    struct pstream_replay *ps;
    struct replay_file *f;
    int error;

    error = stream_replay_open_file(name, &f);
    if (error) {
        free(name);
        return error;
    }
    ps = xzalloc(sizeof *ps);
    pstream_init(&ps->up, &stream_replay_pclass, name);
    ps->f = f;
    *pstreamp = &ps->up;
    return 0;
}

static void
stream_replay_pclose(struct pstream *pstream)
{
    struct pstream_replay *ps = pstream_replay_cast(pstream);

    replay_file_close(ps->f);
    free(ps->up.name);
    free(ps);
}

static int
stream_replay_accept(struct pstream *pstream, struct stream **streamp)
{
    struct pstream_replay *ps = pstream_replay_cast(pstream);
    char *name;
    int value;

    if (!replay_file_is_next(ps->f, true)
        || replay_file_read(ps->f, true, &value, (void **) &name)) {
        return EAGAIN;
    }
    if (value <= 0) {
        free(name);
        return value ? -value : EAGAIN;
    }
    name = xrealloc(name, value + 1);
    name[value] = '\0';
    return stream_replay_open(name, "", streamp);
}

static void
stream_replay_pwait(struct pstream *pstream)
{
    if (replay_file_has_next(pstream_replay_cast(pstream)->f)) {
        poll_immediate_wake();
    }
}

/* A replayed passive stream, whatever its name's type. */
const struct pstream_class stream_replay_pclass = {
    .name = "preplay",
    .needs_probes = false,
    .listen = stream_replay_listen,
    .close = stream_replay_pclose,
    .accept = stream_replay_accept,
    .wait = stream_replay_pwait,
};

/* Helpers. */

static struct stream_replay *
stream_replay_cast(struct stream *stream)
{
    return CONTAINER_OF(stream, struct stream_replay, up);
}

static struct pstream_replay *
pstream_replay_cast(struct pstream *pstream)
{
    return CONTAINER_OF(pstream, struct pstream_replay, up);
}

/* Opens the replay file of (p)stream 'name' and takes its first record,
 * the result of opening (or accepting) the real one.  Returns 0 and stores
 * the file in '*filep', or the error the real open had (or why the file
 * would not do). */
static int
stream_replay_open_file(const char *name, struct replay_file **filep)
{
    struct replay_file *f;
    int error, value;

    *filep = NULL;
    error = replay_file_open(name, &f);
    if (error) {
        return error;
    }
    error = replay_file_read(f, true, &value, NULL);
    if (error || value) {
        if (error || value > 0) {
            VLOG_ERR("%s: no record of opening the stream", name);
        }
        replay_file_close(f);
        return (error == EOF || value > 0 ? EINVAL
                : error ? error : -value);
    }
    *filep = f;
    return 0;
}
