/* OpenFlow connections.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "vconn.h"
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-errors.h"
#include "ofp-msgs.h"
#include "ofp-print.h"
#include "ofpbuf.h"
#include "poll-loop.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(vconn);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

enum vconn_state {
    VCS_CONNECTING,             /* Stream connecting. */
    VCS_SEND_HELLO,             /* Hello queued, not all sent. */
    VCS_RECV_HELLO,             /* Waiting for the peer's hello. */
    VCS_CONNECTED,              /* Version negotiated. */
    VCS_DISCONNECTED,           /* Failed: 'error' says why. */
};

struct vconn {
    struct stream *stream;
    char *name;
    enum vconn_state state;
    int error;                  /* Positive errno or EOF once failed. */
    uint32_t allowed_versions;
    int version;                /* Negotiated version, or -1. */

    struct ofpbuf *rx;          /* Partial message being received. */
    struct ds tx;               /* Bytes queued to send. */
    size_t tx_ofs;              /* Bytes of 'tx' already sent. */
};

struct pvconn {
    struct pstream *pstream;
    uint32_t allowed_versions;
};

static void vconn_fail(struct vconn *, int error);
static int do_recv(struct vconn *, struct ofpbuf **);
static void queue(struct vconn *, struct ofpbuf *);
static void flush(struct vconn *);

static void handle_hello(struct vconn *vconn, struct ofpbuf *b);

/* Returns 0 if 'name' is a valid active connection name, else an errno. */
int
vconn_verify_name(const char *name)
{
    return stream_verify_name(name);
}

/* Starts connecting to 'name', offering 'allowed_versions' (0 for the
 * default set).  Returns 0 and sets '*vconnp', or an errno. */
int
vconn_open(const char *name, uint32_t allowed_versions,
           struct vconn **vconnp)
{
    struct stream *stream;
    int error = stream_open_with_default_port(name, OFP_PORT, &stream);

    *vconnp = NULL;
    if (error) {
        return error;
    }
    *vconnp = vconn_from_stream(stream, name, allowed_versions);
    (*vconnp)->state = VCS_CONNECTING;
    return 0;
}

/* Makes a vconn of 'stream' (which it takes over), named 'name'. */
struct vconn *
vconn_from_stream(struct stream *stream, const char *name,
                  uint32_t allowed_versions)
{
    struct vconn *vconn = xzalloc(sizeof *vconn);

    vconn->stream = stream;
    vconn->name = xstrdup(name);
    vconn->state = VCS_CONNECTING;
    vconn->allowed_versions = (allowed_versions
                               ? allowed_versions
                               : OFPUTIL_DEFAULT_VERSIONS);
    vconn->version = -1;
    ds_init(&vconn->tx);
    return vconn;
}

/* Closes 'vconn' and frees it. */
void
vconn_close(struct vconn *vconn)
{
    if (vconn) {
        stream_close(vconn->stream);
        ofpbuf_delete(vconn->rx);
        ds_destroy(&vconn->tx);
        free(vconn->name);
        free(vconn);
    }
}

/* Returns the name 'vconn' was opened with. */
const char *
vconn_get_name(const struct vconn *vconn)
{
    return vconn->name;
}

/* Returns the versions 'vconn' offers. */
uint32_t
vconn_get_allowed_versions(const struct vconn *vconn)
{
    return vconn->allowed_versions;
}

/* Returns the negotiated version, or -1 before negotiation ends. */
int
vconn_get_version(const struct vconn *vconn)
{
    return vconn->version;
}

/* Advances the connection: stream connect, hello exchange.  Returns 0 once
 * connected, EAGAIN while in progress, else the error that ended it. */
int
vconn_connect(struct vconn *vconn)
{
    for (;;) {
        switch (vconn->state) {
        case VCS_CONNECTING: {
            int error = stream_connect(vconn->stream);
            if (error == EAGAIN) {
                return EAGAIN;
            } else if (error) {
                vconn_fail(vconn, error);
                break;
            }
            queue(vconn, ofputil_encode_hello(vconn->allowed_versions));
            vconn->state = VCS_SEND_HELLO;
            break;
        }

        case VCS_SEND_HELLO:
            flush(vconn);
            if (vconn->state == VCS_SEND_HELLO) {
                if (vconn_get_backlog(vconn)) {
                    return EAGAIN;
                }
                vconn->state = VCS_RECV_HELLO;
            }
            break;

        case VCS_RECV_HELLO: {
            struct ofpbuf *b;
            int error = do_recv(vconn, &b);
            if (error == EAGAIN) {
                return EAGAIN;
            } else if (error) {
                vconn_fail(vconn, error);
                break;
            }
            handle_hello(vconn, b);
            break;
        }

        case VCS_CONNECTED:
            return 0;

        case VCS_DISCONNECTED:
            return vconn->error;
        }
    }
}

/* Receives one message into '*msgp' (the caller frees it).  Returns 0,
 * EAGAIN, or the error or EOF that ended the connection. */
int
vconn_recv(struct vconn *vconn, struct ofpbuf **msgp)
{
    *msgp = NULL;

    int error = vconn_connect(vconn);
    if (error) {
        return error;
    }
    error = do_recv(vconn, msgp);
    if (error && error != EAGAIN) {
        vconn_fail(vconn, error);
    }
    return error;
}

/* Queues 'msg' (which it takes over) to send.  Returns 0, or the error
 * that ended the connection (the message is then dropped), or EAGAIN
 * before negotiation is over (the message is kept by the caller then). */
int
vconn_send(struct vconn *vconn, struct ofpbuf *msg)
{
    int error = vconn_connect(vconn);

    if (error) {
        return error;
    }
    queue(vconn, msg);
    flush(vconn);
    return vconn->state == VCS_DISCONNECTED ? vconn->error : 0;
}

/* Returns the bytes queued but not yet sent. */
size_t
vconn_get_backlog(const struct vconn *vconn)
{
    return vconn->tx.length - vconn->tx_ofs;
}

/* Does background work: the stream's own, and sending queued output. */
void
vconn_run(struct vconn *vconn)
{
    stream_run(vconn->stream);
    if (vconn->state == VCS_CONNECTING || vconn->state == VCS_SEND_HELLO
        || vconn->state == VCS_RECV_HELLO) {
        vconn_connect(vconn);
    }
    if (vconn->state != VCS_DISCONNECTED) {
        flush(vconn);
    }
}

/* Makes poll_block() wake when vconn_run() has work to do. */
void
vconn_run_wait(struct vconn *vconn)
{
    stream_run_wait(vconn->stream);
    if (vconn->state == VCS_DISCONNECTED) {
        return;
    }
    if (vconn->state == VCS_CONNECTING) {
        stream_connect_wait(vconn->stream);
    } else if (vconn->state == VCS_RECV_HELLO) {
        stream_recv_wait(vconn->stream);
    }
    if (vconn_get_backlog(vconn)) {
        stream_send_wait(vconn->stream);
    }
}

/* Makes poll_block() wake when vconn_connect() can make progress. */
void
vconn_connect_wait(struct vconn *vconn)
{
    vconn_run_wait(vconn);
    if (vconn->state == VCS_CONNECTED || vconn->state == VCS_DISCONNECTED) {
        poll_immediate_wake();
    }
}

/* Makes poll_block() wake when vconn_recv() may have something. */
void
vconn_recv_wait(struct vconn *vconn)
{
    if (vconn->state == VCS_DISCONNECTED) {
        poll_immediate_wake();
    } else if (vconn->state == VCS_CONNECTED) {
        stream_recv_wait(vconn->stream);
    } else {
        vconn_connect_wait(vconn);
    }
}

/* Blocking helpers. */

/* Opens 'name' and waits until the hello exchange ends or 'timeout_msec'
 * passes (negative: no limit).  Returns 0 or an errno (ETIMEDOUT). */
int
vconn_open_block(const char *name, uint32_t allowed_versions,
                 long long int timeout_msec, struct vconn **vconnp)
{
    long long int deadline = timeout_msec >= 0
                             ? time_msec() + timeout_msec : -1;
    struct vconn *vconn;
    int error = vconn_open(name, allowed_versions, &vconn);

    *vconnp = NULL;
    if (error) {
        return error;
    }
    while ((error = vconn_connect(vconn)) == EAGAIN) {
        if (deadline >= 0 && time_msec() >= deadline) {
            error = ETIMEDOUT;
            break;
        }
        vconn_run(vconn);
        vconn_connect_wait(vconn);
        if (deadline >= 0) {
            poll_timer_wait_until(deadline);
        }
        poll_block();
    }
    if (error) {
        vconn_close(vconn);
        return error;
    }
    *vconnp = vconn;
    return 0;
}

/* Sends 'msg' (taking it over) and waits until it has all gone. */
int
vconn_send_block(struct vconn *vconn, struct ofpbuf *msg)
{
    int error;

    while ((error = vconn_connect(vconn)) == EAGAIN) {
        vconn_run(vconn);
        vconn_connect_wait(vconn);
        poll_block();
    }
    if (error) {
        ofpbuf_delete(msg);
        return error;
    }
    error = vconn_send(vconn, msg);
    while (!error && vconn_get_backlog(vconn)) {
        vconn_run(vconn);
        if (vconn->state == VCS_DISCONNECTED) {
            return vconn->error;
        }
        vconn_run_wait(vconn);
        poll_block();
    }
    return error;
}

/* Waits for a message.  Answers echo requests meanwhile, as OVS's tools
 * do, so that a switch never drops a slow reader. */
int
vconn_recv_block(struct vconn *vconn, struct ofpbuf **msgp)
{
    for (;;) {
        int error = vconn_recv(vconn, msgp);
        if (error != EAGAIN) {
            if (!error) {
                const struct ofp_header *oh = (*msgp)->data;
                if (oh->type == 2) {
                    vconn_send(vconn, ofputil_encode_echo_reply(oh));
                    ofpbuf_delete(*msgp);
                    *msgp = NULL;
                    continue;
                }
            }
            return error;
        }
        vconn_run(vconn);
        vconn_run_wait(vconn);
        vconn_recv_wait(vconn);
        poll_block();
    }
}

/* Waits for a message with transaction id 'xid', dropping others. */
int
vconn_recv_xid(struct vconn *vconn, uint32_t xid, struct ofpbuf **msgp)
{
    for (;;) {
        int error = vconn_recv_block(vconn, msgp);
        if (error) {
            return error;
        }

        const struct ofp_header *oh = (*msgp)->data;
        if (ntohl(oh->xid) == xid) {
            return 0;
        }
        VLOG_DBG("%s: received reply with xid %08"PRIx32" != expected "
                 "%08"PRIx32, vconn->name, ntohl(oh->xid), xid);
        ofpbuf_delete(*msgp);
    }
}

/* Sends 'request' and waits for the reply with its xid. */
int
vconn_transact(struct vconn *vconn, struct ofpbuf *request,
               struct ofpbuf **replyp)
{
    const struct ofp_header *oh = request->data;
    uint32_t xid = ntohl(oh->xid);

    *replyp = NULL;
    int error = vconn_send_block(vconn, request);
    return error ? error : vconn_recv_xid(vconn, xid, replyp);
}

/* Sends 'request' and a barrier after it, and waits for the barrier's
 * reply.  A reply to 'request' (an error) arriving before it is stored in
 * '*replyp' (NULL if none). */
int
vconn_transact_noreply(struct vconn *vconn, struct ofpbuf *request,
                       struct ofpbuf **replyp)
{
    const struct ofp_header *oh = request->data;
    uint32_t request_xid = ntohl(oh->xid);
    struct ofpbuf *barrier = ofputil_encode_barrier_request(vconn->version);
    uint32_t barrier_xid = ntohl(((struct ofp_header *) barrier->data)->xid);

    *replyp = NULL;
    int error = vconn_send_block(vconn, request);
    if (error) {
        ofpbuf_delete(barrier);
        return error;
    }
    error = vconn_send_block(vconn, barrier);
    while (!error) {
        struct ofpbuf *msg;
        error = vconn_recv_block(vconn, &msg);
        if (error) {
            break;
        }

        uint32_t xid = ntohl(((struct ofp_header *) msg->data)->xid);
        if (xid == barrier_xid) {
            ofpbuf_delete(msg);
            break;
        } else if (xid == request_xid && !*replyp) {
            *replyp = msg;
        } else {
            ofpbuf_delete(msg);
        }
    }
    return error;
}

/* Passive connections. */

/* Returns 0 if 'name' is a valid passive connection name, else an errno. */
int
pvconn_verify_name(const char *name)
{
    return pstream_verify_name(name);
}

/* Starts listening on 'name'.  Connections accepted from it offer
 * 'allowed_versions' (0: the default set). */
int
pvconn_open(const char *name, uint32_t allowed_versions,
            struct pvconn **pvconnp)
{
    struct pstream *pstream;
    int error = pstream_open_with_default_port(name, OFP_PORT, &pstream);

    *pvconnp = NULL;
    if (error) {
        return error;
    }

    struct pvconn *pvconn = xzalloc(sizeof *pvconn);
    pvconn->pstream = pstream;
    pvconn->allowed_versions = (allowed_versions ? allowed_versions
                                : OFPUTIL_DEFAULT_VERSIONS);
    *pvconnp = pvconn;
    return 0;
}

/* Returns the name 'pvconn' listens on. */
const char *
pvconn_get_name(const struct pvconn *pvconn)
{
    return pstream_get_name(pvconn->pstream);
}

/* Accepts a connection, if one is waiting: returns 0 and sets '*vconnp'
 * (its hello exchange starts), EAGAIN, or an errno. */
int
pvconn_accept(struct pvconn *pvconn, struct vconn **vconnp)
{
    struct stream *stream;
    int error = pstream_accept(pvconn->pstream, &stream);

    *vconnp = NULL;
    if (error) {
        return error;
    }
    *vconnp = vconn_from_stream(stream, stream_get_name(stream),
                                pvconn->allowed_versions);
    return 0;
}

/* Makes poll_block() wake when pvconn_accept() has a connection. */
void
pvconn_wait(struct pvconn *pvconn)
{
    pstream_wait(pvconn->pstream);
}

/* Stops listening and frees 'pvconn'. */
void
pvconn_close(struct pvconn *pvconn)
{
    if (pvconn) {
        pstream_close(pvconn->pstream);
        free(pvconn);
    }
}

static void
vconn_fail(struct vconn *vconn, int error)
{
    if (vconn->state != VCS_DISCONNECTED) {
        vconn->state = VCS_DISCONNECTED;
        vconn->error = error;
    }
}

/* Appends 'bitmap' as OVS words it in negotiation failures: "version
 * 0x04" or "versions 0x01, 0x04 and 0x05". */
static void
put_version_bitmap(struct ds *s, uint32_t bitmap)
{
    int n = __builtin_popcount(bitmap);

    ds_put_cstr(s, n == 1 ? "version " : "versions ");
    for (int v = 0, i = 0; v < 32; v++) {
        if (bitmap & (1u << v)) {
            if (i) {
                ds_put_cstr(s, i == n - 1 ? " and " : ", ");
            }
            ds_put_format(s, "0x%02x", v);
            i++;
        }
    }
}

static void
send_incompatible(struct vconn *vconn, uint32_t theirs)
{
    struct ds ours_s = DS_EMPTY_INITIALIZER;
    struct ds theirs_s = DS_EMPTY_INITIALIZER;

    put_version_bitmap(&ours_s, vconn->allowed_versions);
    put_version_bitmap(&theirs_s, theirs);
    VLOG_WARN_RL(&rl, "%s: version negotiation failed (we support %s, "
                 "peer supports %s)", vconn->name, ds_cstr(&ours_s),
                 ds_cstr(&theirs_s));

    char *text = xasprintf("We support %s, you support %s, no common "
                           "versions.", ds_cstr(&ours_s),
                           ds_cstr(&theirs_s));
    int version = ofputil_bitmap_max_version(vconn->allowed_versions);
    queue(vconn, ofperr_encode_hello(OFPERR_OFPHFC_INCOMPATIBLE, version,
                                     text));
    flush(vconn);
    free(text);
    ds_destroy(&theirs_s);
    ds_destroy(&ours_s);
}

/* Handles the peer's first message 'b' (which it frees). */
static void
handle_hello(struct vconn *vconn, struct ofpbuf *b)
{
    const struct ofp_header *oh = b->data;
    uint32_t theirs;

    if (oh->type == 0) {
        ofputil_decode_hello(oh, &theirs);
        int version = ofputil_negotiate(vconn->allowed_versions, theirs);
        if (version) {
            vconn->version = version;
            vconn->state = VCS_CONNECTED;
            VLOG_DBG("%s: negotiated OpenFlow version 0x%02x", vconn->name,
                     version);
        } else {
            send_incompatible(vconn, theirs);
            vconn_fail(vconn, EPROTO);
        }
    } else if (oh->type == 1 && ntohs(oh->length) >= 12) {
        char *s = ofp_to_string(oh, ntohs(oh->length), 0);
        VLOG_WARN_RL(&rl, "%s: received error instead of hello: %s",
                     vconn->name, s);
        free(s);
        vconn_fail(vconn, EPROTO);
    } else {
        VLOG_WARN_RL(&rl, "%s: received message of type %d instead of "
                     "hello", vconn->name, oh->type);
        vconn_fail(vconn, EPROTO);
    }
    ofpbuf_delete(b);
}

/* Reads from the stream until one whole message is in 'vconn->rx'. */
static int
do_recv(struct vconn *vconn, struct ofpbuf **msgp)
{
    if (!vconn->rx) {
        vconn->rx = ofpbuf_new(1024);
    }

    struct ofpbuf *rx = vconn->rx;
    for (;;) {
        size_t want = sizeof(struct ofp_header);
        if (rx->size >= want) {
            const struct ofp_header *oh = rx->data;
            want = ntohs(oh->length);
            if (want < sizeof *oh) {
                VLOG_WARN_RL(&rl, "%s: received too-short OpenFlow message "
                             "(length %zu)", vconn->name, want);
                return EPROTO;
            }
        }
        if (rx->size == want) {
            *msgp = rx;
            vconn->rx = NULL;
            return 0;
        }

        ofpbuf_prealloc_tailroom(rx, want - rx->size);
        ssize_t n = stream_recv(vconn->stream, ofpbuf_tail(rx),
                                want - rx->size);
        if (n > 0) {
            rx->size += n;
        } else if (n == 0) {
            if (rx->size) {
                VLOG_WARN_RL(&rl, "%s: connection dropped mid-message",
                             vconn->name);
            }
            return EOF;
        } else if (n == -EAGAIN) {
            return EAGAIN;
        } else {
            return -n;
        }
    }
}

static void
queue(struct vconn *vconn, struct ofpbuf *msg)
{
    ds_put_buffer(&vconn->tx, msg->data, msg->size);
    ofpbuf_delete(msg);
}

static void
flush(struct vconn *vconn)
{
    while (vconn->tx_ofs < vconn->tx.length) {
        ssize_t n = stream_send(vconn->stream,
                                vconn->tx.string + vconn->tx_ofs,
                                vconn->tx.length - vconn->tx_ofs);
        if (n > 0) {
            vconn->tx_ofs += n;
        } else {
            if (n != -EAGAIN) {
                vconn_fail(vconn, -n);
            }
            return;
        }
    }
    ds_clear(&vconn->tx);
    vconn->tx_ofs = 0;
}
