/* OpenFlow connections over lib/stream: "unix:", "tcp:", "ssl:" active and
 * "punix:", "ptcp:", "pssl:" passive, with the hello exchange, version
 * negotiation and message framing.
 *
 * A vconn is non-blocking: vconn_connect(), vconn_recv() and vconn_send()
 * return EAGAIN when they would block; vconn_run() writes queued output and
 * vconn_run_wait()/vconn_recv_wait() arrange poll_block() wake-ups.  The
 * *_block() functions wait, for tools such as ovs-ofctl.  A vconn belongs
 * to one thread.
 *
 * Negotiation (OpenFlow 1.3.1 section 6.3.1, as OVS): each side sends a
 * hello offering its versions; both use the highest common one.  With none
 * in common, the side that notices sends OFPT_ERROR OFPHFC_INCOMPATIBLE and
 * the connection fails with EPROTO.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef VCONN_H
#define VCONN_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-types.h"

struct ofpbuf;
struct pvconn;
struct stream;
struct vconn;

/* Active connections. */
int vconn_verify_name(const char *name);
int vconn_open(const char *name, uint32_t allowed_versions,
               struct vconn **);
struct vconn *vconn_from_stream(struct stream *, const char *name,
                                uint32_t allowed_versions);
void vconn_close(struct vconn *);
const char *vconn_get_name(const struct vconn *);
uint32_t vconn_get_allowed_versions(const struct vconn *);
int vconn_get_version(const struct vconn *);
int vconn_connect(struct vconn *);
int vconn_recv(struct vconn *, struct ofpbuf **);
int vconn_send(struct vconn *, struct ofpbuf *);
size_t vconn_get_backlog(const struct vconn *);
void vconn_run(struct vconn *);
void vconn_run_wait(struct vconn *);
void vconn_connect_wait(struct vconn *);
void vconn_recv_wait(struct vconn *);

/* Blocking helpers (tools). */
int vconn_open_block(const char *name, uint32_t allowed_versions,
                     long long int timeout_msec, struct vconn **);
int vconn_send_block(struct vconn *, struct ofpbuf *);
int vconn_recv_block(struct vconn *, struct ofpbuf **);
int vconn_recv_xid(struct vconn *, uint32_t xid, struct ofpbuf **);
int vconn_transact(struct vconn *, struct ofpbuf *request,
                   struct ofpbuf **reply);
int vconn_transact_noreply(struct vconn *, struct ofpbuf *request,
                           struct ofpbuf **replyp);

/* Passive connections. */
int pvconn_verify_name(const char *name);
int pvconn_open(const char *name, uint32_t allowed_versions,
                struct pvconn **);
const char *pvconn_get_name(const struct pvconn *);
int pvconn_accept(struct pvconn *, struct vconn **);
void pvconn_wait(struct pvconn *);
void pvconn_close(struct pvconn *);

#endif /* vconn.h */
