/* dp_flow: a megaflow.  See dp-flow.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-flow.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dp-rcu.h"
#include "util.h"

static struct dp_flow_actions *dp_flow_actions_create(const void *,
                                                      size_t size);
static void dp_flow_free(void *);
static uint64_t dp_flow_mix64(uint64_t);

/* Returns a new flow matching the packets whose key equals 'key' in the bits
 * of 'mask', with a copy of 'actions_size' bytes of 'actions', and one
 * reference.  Its UFID is '*ufid' if 'ufid' is nonnull (the slow path or a
 * dpctl user gave one), otherwise dp_flow_ufid_from_key() of the masked
 * key.  'rcu' will free it.  Neither dead nor in a classifier; no mark. */
struct dp_flow *
dp_flow_create(struct dp_rcu *rcu, const struct flow_key *key,
               const struct flow_key *mask, const void *actions,
               size_t actions_size, const struct dp_ufid *ufid)
{
    struct dp_flow *flow = xzalloc(sizeof *flow);

    flow_key_apply_mask(&flow->key, key, mask);
    flow->mask.map = mask->map;
    memcpy(flow->mask.words, mask->words,
           flow_key_n_words(mask) * sizeof mask->words[0]);
    flow->mark = DP_FLOW_MARK_NONE;
    flow->actions = dp_flow_actions_create(actions, actions_size);
    if (ufid) {
        flow->ufid = *ufid;
    } else {
        dp_flow_ufid_from_key(&flow->key, &flow->ufid);
    }
    flow->refcount = 1;
    flow->rcu = rcu;
    dp_flow_is_simple_match(&flow->key, mask, &flow->simple_key,
                            &flow->simple_mask);
    return flow;
}

/* Takes a reference to 'flow', which the caller already holds one to. */
void
dp_flow_ref(struct dp_flow *flow)
{
    uint32_t old = __atomic_fetch_add(&flow->refcount, 1, __ATOMIC_RELAXED);
    util_assert(old > 0);
}

/* Takes a reference to 'flow', found through an RCU-protected pointer
 * without one, unless its last reference is already gone (it is being
 * freed).  Returns true if it took one. */
bool
dp_flow_try_ref(struct dp_flow *flow)
{
    uint32_t count = __atomic_load_n(&flow->refcount, __ATOMIC_RELAXED);

    while (count) {
        if (__atomic_compare_exchange_n(&flow->refcount, &count, count + 1,
                                        true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            return true;
        }
    }
    return false;
}

/* Drops a reference to 'flow'.  After the last, 'flow' is freed after a
 * grace period.  Takes dp_rcu's mutex then: not a per-packet operation. */
void
dp_flow_unref(struct dp_flow *flow)
{
    if (flow
        && __atomic_fetch_sub(&flow->refcount, 1, __ATOMIC_ACQ_REL) == 1) {
        dp_rcu_postpone(flow->rcu, dp_flow_free, flow);
    }
}

/* Returns true if the megaflow that matches the packets whose key equals
 * 'key' in the bits of 'mask' is a simple-match flow, as Open vSwitch 2.17+
 * defines one: it matches the input port exactly, recirculation id 0, the
 * Ethernet type exactly, and besides them at most the VID and CFI bits of
 * the outer VLAN tag and the IP fragment bits.  Its packets can then be
 * found from those fields alone (lib/dp-simple.h) without extracting the
 * whole key.  If so, stores in '*simple_key' the input port (high 32 bits)
 * and flow_simple_pack() of the masked key, and in '*simple_mask'
 * flow_simple_pack() of the mask.  A mask that ignores the fragment bits
 * of a flow that is not IP matches the same packets as one that matches
 * them (only IP packets have fragment bits), and is given as matching
 * them, so that the flows of a port have the same mask whatever their
 * Ethernet type. */
bool
dp_flow_is_simple_match(const struct flow_key *key,
                        const struct flow_key *mask, uint64_t *simple_key,
                        uint32_t *simple_mask)
{
    struct flow k, m;

    flow_key_to_flow(key, &k);
    flow_key_to_flow(mask, &m);
    *simple_key = (uint64_t) k.in_port << 32;
    *simple_mask = 0;
    if (m.in_port != UINT32_MAX || m.dl_type != htons(UINT16_MAX)
        || (k.recirc_id & m.recirc_id)) {
        return false;
    }

    /* Nothing else in the mask. */
    struct flow rest = m;
    rest.in_port = 0;
    rest.recirc_id = 0;
    rest.dl_type = 0;
    rest.vlan_tci[0] &= ~htons(FLOW_SIMPLE_TCI_BITS);
    rest.nw_frag &= ~(FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER);

    static const struct flow zero;
    if (memcmp(&rest, &zero, sizeof rest)) {
        return false;
    }

    uint8_t frag_mask = m.nw_frag;
    if (k.dl_type != htons(ETH_TYPE_IP) && k.dl_type != htons(ETH_TYPE_IPV6)) {
        frag_mask = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    }
    *simple_mask = flow_simple_pack(m.dl_type, m.vlan_tci[0], frag_mask);
    *simple_key |= (flow_simple_pack(k.dl_type, k.vlan_tci[0], k.nw_frag)
                    & *simple_mask);
    return true;
}

/* Marks 'flow' deleted: exact-match caches no longer return it. */
void
dp_flow_mark_dead(struct dp_flow *flow)
{
    __atomic_store_n(&flow->dead, true, __ATOMIC_RELEASE);
}

/* Replaces the actions of 'flow' by a copy of the 'size' bytes at
 * 'actions'; the old ones are freed after a grace period.  Writers of one
 * flow must be serialized by the caller. */
void
dp_flow_set_actions(struct dp_flow *flow, const void *actions, size_t size)
{
    struct dp_flow_actions *old = flow->actions;

    __atomic_store_n(&flow->actions, dp_flow_actions_create(actions, size),
                     __ATOMIC_RELEASE);
    dp_rcu_postpone(flow->rcu, free, old);
}

/* Stores the statistics of 'flow' in 'stats'.  Any thread.  The fields are
 * read one by one, so they may be from different moments. */
void
dp_flow_get_stats(const struct dp_flow *flow, struct dp_flow_stats *stats)
{
    const struct dp_flow_stats *s = &flow->stats;

    stats->n_packets = __atomic_load_n(&s->n_packets, __ATOMIC_RELAXED);
    stats->n_bytes = __atomic_load_n(&s->n_bytes, __ATOMIC_RELAXED);
    stats->used = __atomic_load_n(&s->used, __ATOMIC_RELAXED);
    stats->tcp_flags = __atomic_load_n(&s->tcp_flags, __ATOMIC_RELAXED);
}

/* Zeroes the statistics of 'flow' ("dpctl/del-flows" and "mod-flows
 * --clear").  Only the owning thread may call it, or the caller must accept
 * losing the updates made meanwhile. */
void
dp_flow_clear_stats(struct dp_flow *flow)
{
    struct dp_flow_stats *s = &flow->stats;

    __atomic_store_n(&s->n_packets, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s->n_bytes, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s->used, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s->tcp_flags, 0, __ATOMIC_RELAXED);
}

/* Sets the hardware offload mark of 'flow' (DP_FLOW_MARK_NONE: none).  The
 * offload thread calls it; the mark-to-flow array is the datapath's.  A
 * release store: a thread that reads the mark with dp_flow_get_mark() also
 * sees what the offload thread wrote before setting it. */
void
dp_flow_set_mark(struct dp_flow *flow, uint32_t mark)
{
    __atomic_store_n(&flow->mark, mark, __ATOMIC_RELEASE);
}

/* Stores in 'ufid' the UFID derived from 'masked_key' (key & mask, as
 * flow_key_apply_mask() makes it): a 128-bit hash of its word map and its
 * words.  Like Open vSwitch, which hashes the flow key, equal keys give
 * equal UFIDs; the values themselves differ from OVS's, which hash OVS's
 * netlink encoding.  UFIDs are opaque names, so nothing depends on that. */
void
dp_flow_ufid_from_key(const struct flow_key *masked_key, struct dp_ufid *ufid)
{
    uint64_t a = UINT64_C(0x243f6a8885a308d3) ^ masked_key->map;
    uint64_t b = UINT64_C(0x13198a2e03707344) + masked_key->map;
    unsigned int n = flow_key_n_words(masked_key);

    for (unsigned int i = 0; i < n; i++) {
        uint64_t w = masked_key->words[i];

        a = dp_flow_mix64(a ^ w) + b;
        b = dp_flow_mix64(b + (w << 17 | w >> 47)) ^ a;
    }
    a = dp_flow_mix64(a + n);
    b = dp_flow_mix64(b ^ a);
    ufid->u32[0] = a >> 32;
    ufid->u32[1] = a;
    ufid->u32[2] = b >> 32;
    ufid->u32[3] = b;
}

/* Returns true if 'a' and 'b' are the same UFID. */
bool
dp_flow_ufid_equal(const struct dp_ufid *a, const struct dp_ufid *b)
{
    return !memcmp(a, b, sizeof *a);
}

/* Writes 'ufid' as dpctl/dump-flows prints it, "ufid:" and a UUID, into
 * 's'. */
void
dp_flow_ufid_format(const struct dp_ufid *ufid, char s[DP_UFID_STRLEN])
{
    snprintf(s, DP_UFID_STRLEN, "ufid:%08x-%04x-%04x-%04x-%04x%08x",
             ufid->u32[0], ufid->u32[1] >> 16, ufid->u32[1] & 0xffff,
             ufid->u32[2] >> 16, ufid->u32[2] & 0xffff, ufid->u32[3]);
}

/* Parses the UFID at the start of 's', "ufid:" and a UUID as
 * dp_flow_ufid_format() writes it (text after it is not looked at), into
 * 'ufid'.  Returns the length of the UFID's text, 0 if 's' does not start
 * with "ufid:", or -EINVAL if what follows is not a UUID. */
int
dp_flow_ufid_parse(const char *s, struct dp_ufid *ufid)
{
    static const int group_len[] = { 8, 4, 4, 4, 12 };
    char hex[33];
    size_t n = 0;

    if (strncmp(s, "ufid:", 5)) {
        return 0;
    }
    const char *p = s + 5;
    for (size_t g = 0; g < ARRAY_SIZE(group_len); g++) {
        if (g && *p++ != '-') {
            return -EINVAL;
        }
        for (int i = 0; i < group_len[g]; i++, p++) {
            if (!isxdigit((unsigned char) *p)) {
                return -EINVAL;
            }
            hex[n++] = *p;
        }
    }
    hex[n] = '\0';
    for (int i = 0; i < 4; i++) {
        char word[9];

        memcpy(word, hex + i * 8, 8);
        word[8] = '\0';
        ufid->u32[i] = strtoul(word, NULL, 16);
    }
    return p - s;
}

static struct dp_flow_actions *
dp_flow_actions_create(const void *data, size_t size)
{
    struct dp_flow_actions *a = xmalloc(sizeof *a + size);

    a->size = size;
    if (size) {
        memcpy(a->data, data, size);
    }
    return a;
}

static void
dp_flow_free(void *flow_)
{
    struct dp_flow *flow = flow_;

    free(flow->actions);
    free(flow);
}

/* A 64-bit finalizer (xor-shift-multiply rounds). */
static uint64_t
dp_flow_mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= UINT64_C(0x7fb5d329728ea185);
    x ^= x >> 27;
    x *= UINT64_C(0x81dadef4bc2dd44d);
    x ^= x >> 33;
    return x;
}
