/* Executing datapath actions.  See dp-execute.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-execute.h"
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "coverage.h"
#include "dp-packet.h"
#include "flow.h"
#include "packets.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(dp_execute);

/* Copies for an output that is not the last action that could not be made
 * (the pool ran out): the packet is not sent to that port. */
COVERAGE_DEFINE(datapath_drop_clone_failed);

static void ensure_offsets(struct dp_packet *);

static dp_execute_userspace_cb *userspace_cb;

static void dp_execute_clone_failed(const struct dp_packet *p, uint32_t port);

/* Executes 'actions' ('n_actions' of them) on each packet of 'batch', in
 * order; see the comment at the top of dp-execute.h. */
void
dp_execute_actions(struct dp_packet_batch *batch,
                   const struct dp_action *actions, size_t n_actions,
                   dp_execute_output_cb *output, void *aux)
{
    /* Every action changes or sends packets, so only an output that is the
     * last action may hand over the packets themselves. */
    size_t last = n_actions ? n_actions - 1 : 0;

    for (size_t i = 0; i < n_actions && batch->count; i++) {
        const struct dp_action *a = &actions[i];
        struct dp_packet *p;

        if (a->type != DP_ACTION_OUTPUT) {
            /* It changes the packets (may leave a checksum partial or add
             * a segment): the batch's egress summary no longer holds. */
            dp_packet_batch_unclean(batch);
        }
        switch (a->type) {
        case DP_ACTION_OUTPUT:
            if (i == last) {
                output(aux, a->port, batch);
                dp_packet_batch_init(batch);
            } else {
                struct dp_packet_batch copies;

                dp_packet_batch_init(&copies);
                DP_PACKET_BATCH_FOR_EACH (j, p, batch) {
                    struct dp_packet *copy = dp_packet_clone(p);
                    if (copy) {
                        dp_packet_batch_add(&copies, copy);
                    } else {
                        dp_execute_clone_failed(p, a->port);
                    }
                }
                if (copies.count) {
                    output(aux, a->port, &copies);
                }
            }
            break;

        case DP_ACTION_PUSH_VLAN:
            DP_PACKET_BATCH_FOR_EACH (j, p, batch) {
                dp_execute_push_vlan(p, a->vlan.tpid, a->vlan.tci);
            }
            break;

        case DP_ACTION_POP_VLAN:
            DP_PACKET_BATCH_FOR_EACH (j, p, batch) {
                dp_execute_pop_vlan(p);
            }
            break;

        case DP_ACTION_SET_ETH:
        case DP_ACTION_SET_IPV4:
        case DP_ACTION_SET_L4:
            DP_PACKET_BATCH_FOR_EACH (j, p, batch) {
                dp_execute_set_field(p, a);
            }
            break;

        case DP_ACTION_USERSPACE:
            if (userspace_cb && !a->controller.dont_send) {
                DP_PACKET_BATCH_FOR_EACH (j, p, batch) {
                    userspace_cb(&a->controller, p);
                }
            }
            break;
        }
    }

    /* What no output took (drop, or nothing sent last) is freed. */
    dp_packet_batch_free(batch);
}

/* See dp-execute.h. */
void
dp_execute_set_userspace_cb(dp_execute_userspace_cb *cb)
{
    userspace_cb = cb;
}

/* Pushes an outer VLAN tag with 'tpid' and 'tci' (network byte order;
 * VLAN_CFI in 'tci' means "present" and is not written) onto 'p'. */
int
dp_execute_push_vlan(struct dp_packet *p, dps_be16 tpid, dps_be16 tci)
{
    if (dp_packet_size(p) < ETH_HEADER_LEN) {
        return EINVAL;
    }

    uint16_t l2_ofs = p->md.l2_ofs;
    if (!dp_packet_push(p, VLAN_HEADER_LEN)) {
        return ENOMEM;
    }

    uint8_t *h = dp_packet_make_contiguous(p, ETH_HEADER_LEN
                                           + VLAN_HEADER_LEN);
    if (!h) {
        /* Cannot happen for a packet of at least ETH_HEADER_LEN bytes
         * whose first buffer holds a header; undo the push. */
        dp_packet_pull(p, VLAN_HEADER_LEN);
        p->md.l2_ofs = l2_ofs;
        return ENOMEM;
    }
    memmove(h, h + VLAN_HEADER_LEN, 2 * ETH_ADDR_LEN);

    dps_be16 tag[2] = { tpid, tci & ~htons(VLAN_CFI) };
    memcpy(h + 2 * ETH_ADDR_LEN, tag, sizeof tag);
    if (l2_ofs != DP_PACKET_OFS_NONE) {
        p->md.l2_ofs = 0;
    }
    return 0;
}

/* Removes the outer VLAN tag (802.1Q or 802.1ad) of 'p'. */
int
dp_execute_pop_vlan(struct dp_packet *p)
{
    uint8_t *h = dp_packet_make_contiguous(p, ETH_HEADER_LEN
                                           + VLAN_HEADER_LEN);
    if (!h) {
        return EINVAL;
    }

    dps_be16 type;
    memcpy(&type, h + 2 * ETH_ADDR_LEN, sizeof type);
    if (type != htons(ETH_TYPE_VLAN) && type != htons(ETH_TYPE_VLAN_8021AD)) {
        return EINVAL;
    }

    uint16_t l2_ofs = p->md.l2_ofs;
    memmove(h + VLAN_HEADER_LEN, h, 2 * ETH_ADDR_LEN);
    dp_packet_pull(p, VLAN_HEADER_LEN);
    if (l2_ofs != DP_PACKET_OFS_NONE) {
        p->md.l2_ofs = 0;
    }
    return 0;
}

/* Applies set-field action 'a' to 'p'.  A header 'p' lacks is left
 * alone. */
void
dp_execute_set_field(struct dp_packet *p, const struct dp_action *a)
{
    ensure_offsets(p);
    switch (a->type) {
    case DP_ACTION_SET_ETH:
        packet_set_eth_addrs(p, (a->eth.fields & DP_SET_ETH_SRC
                                 ? &a->eth.src : NULL),
                             (a->eth.fields & DP_SET_ETH_DST
                              ? &a->eth.dst : NULL));
        break;

    case DP_ACTION_SET_IPV4: {
        const struct ipv4_header *ip = dp_packet_l3(p);

        if (!ip || p->md.l3_ofs + IPV4_HEADER_LEN > dp_packet_head_size(p)
            || (ip->ver_ihl >> 4) != 4) {
            break;
        }
        if (a->ipv4.fields & DP_SET_IPV4_SRC) {
            packet_set_ipv4_addr(p, true, a->ipv4.src);
        }
        if (a->ipv4.fields & DP_SET_IPV4_DST) {
            packet_set_ipv4_addr(p, false, a->ipv4.dst);
        }
        if (a->ipv4.fields & (DP_SET_IPV4_TOS | DP_SET_IPV4_TTL)) {
            ip = dp_packet_l3(p);
            packet_set_ipv4_tos_ttl(p, (a->ipv4.fields & DP_SET_IPV4_TOS
                                        ? ((ip->tos & ~a->ipv4.tos_mask)
                                           | a->ipv4.tos)
                                        : ip->tos),
                                    (a->ipv4.fields & DP_SET_IPV4_TTL
                                     ? a->ipv4.ttl : ip->ttl));
        }
        break;
    }

    case DP_ACTION_SET_L4: {
        const struct udp_header *l4 = dp_packet_l4(p);  /* Ports first. */

        if (!l4 || p->md.l4_proto != a->l4.proto
            || p->md.l4_ofs + 4 > dp_packet_head_size(p)) {
            break;
        }
        packet_set_l4_ports(p, (a->l4.fields & DP_SET_L4_SRC
                                ? a->l4.src : l4->src),
                            (a->l4.fields & DP_SET_L4_DST
                             ? a->l4.dst : l4->dst));
        break;
    }

    case DP_ACTION_OUTPUT:
    case DP_ACTION_PUSH_VLAN:
    case DP_ACTION_POP_VLAN:
    case DP_ACTION_USERSPACE:
        break;
    }
}

/* Counts and logs (rate-limited) a copy of 'p' for output to datapath port
 * 'port' that could not be made. */
static void
dp_execute_clone_failed(const struct dp_packet *p, uint32_t port)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

    COVERAGE_INC(datapath_drop_clone_failed);
    VLOG_WARN_RL(&rl, "not sent to datapath port %"PRIu32": no buffer for "
                 "a copy of a %"PRIu32"-byte packet of %u segments",
                 port, dp_packet_size(p), (unsigned int) dp_packet_n_segs(p));
}

/* Packets that skipped flow extraction (flow mark hits) have no header
 * offsets: find them before rewriting headers. */
static void
ensure_offsets(struct dp_packet *p)
{
    if (p->md.l2_ofs == DP_PACKET_OFS_NONE) {
        struct flow_key key;
        flow_extract_key(p, &key);
    }
}
