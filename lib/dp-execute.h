/* dp-execute: applies datapath actions (lib/dp-actions.h) to packets.
 *
 * dp_execute_actions() runs a list of actions over a batch of packets that
 * share them (the packets of one megaflow in one receive burst).  Header
 * changes (VLAN push/pop, set fields) apply to every packet of the batch;
 * an output hands the packets, as they are at that point, to the caller's
 * output callback: the packets themselves if nothing follows that could
 * change or send them again, else copies.  Checksums follow the rules of
 * DESIGN.md §3 (lib/packets.h does the rewriting): a rewrite turns a good
 * checksum into a partial one, which the egress port or netdev_send()
 * completes.
 *
 * Ownership: dp_execute_actions() consumes every packet of 'batch' (output
 * or freed) and leaves it empty.  The output callback owns the packets of
 * the batch it is given.
 *
 * Threads: reentrant; a packet belongs to the calling thread.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_EXECUTE_H
#define DP_EXECUTE_H 1

#include <stddef.h>
#include <stdint.h>
#include "dp-actions.h"
#include "packets.h"

struct dp_packet;
struct dp_packet_batch;

/* Sends the packets of 'batch' to datapath port 'port'; takes ownership of
 * them and must leave 'batch' empty. */
typedef void dp_execute_output_cb(void *aux, uint32_t port,
                                  struct dp_packet_batch *batch);

void dp_execute_actions(struct dp_packet_batch *batch,
                        const struct dp_action *actions, size_t n_actions,
                        dp_execute_output_cb *output, void *aux);

/* DP_ACTION_USERSPACE (lib/dp-actions.h) hands each packet, as it is at
 * that point, to the slow path's callback, which copies what it needs (the
 * packet stays the caller's and goes on through the actions).  Runs on the
 * thread executing the actions; must not call back into the datapath.
 * dp_execute_set_userspace_cb() sets it, once, before the datapath runs
 * (NULL: such packets give nothing to anyone). */
typedef void dp_execute_userspace_cb(const struct dp_action_controller *,
                                     const struct dp_packet *);
void dp_execute_set_userspace_cb(dp_execute_userspace_cb *);

/* Single actions on one packet.  Each returns 0, or a positive errno and
 * leaves the packet unchanged: EINVAL if the packet lacks the header (pop
 * without a tag, push on a runt), ENOMEM if no buffer was available. */
int dp_execute_push_vlan(struct dp_packet *, dps_be16 tpid, dps_be16 tci);
int dp_execute_pop_vlan(struct dp_packet *);
void dp_execute_set_field(struct dp_packet *, const struct dp_action *);

#endif /* dp-execute.h */
