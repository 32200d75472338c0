/* dpdk: DPDK start-up for ovs-vswitchd, from Open_vSwitch:other_config.
 *
 * Every packet is an mbuf, so ovs-vswitchd initialises EAL exactly once, at
 * start-up, after it has read other_config (DESIGN.md §5):
 *
 *   - dpdk-init=false (the default): a light EAL, no device probing, a small
 *     heap-backed memory, enough for dummy and internal ports.  DPDK port
 *     types are not available.
 *   - dpdk-init=true or try: the full EAL from dpdk-lcore-mask,
 *     dpdk-socket-mem, dpdk-alloc-mem, dpdk-socket-limit,
 *     dpdk-hugepage-dir, dpdk-extra, vhost-sock-dir.  Without hugepages on
 *     the host it starts with --no-huge, sized from the configured memory,
 *     and says so.  With "true" a failure is fatal (as in Open vSwitch);
 *     with "try" it falls back to the light EAL.
 *
 * The EAL arguments are logged.  DPDK's own log goes to the "dpdk" log
 * module.  A later change of any of these keys needs a restart: it is
 * logged, and dpdk_restart_needed() says so.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DPDK_H
#define DPDK_H 1

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "compiler.h"

struct rte_mempool;
struct smap;

/* Initialises EAL from 'ovs_other_config', once; later calls only compare
 * the configuration with what EAL started with.  The first call also
 * registers the dpdk/ commands and, when the full EAL is up, the "dpdk"
 * port type (netdev_dpdk_register()). */
void dpdk_init(const struct smap *ovs_other_config);

/* True once the full EAL is up (Open_vSwitch:dpdk_initialized). */
bool dpdk_available(void);

/* "DPDK 22.11.x" (Open_vSwitch:dpdk_version). */
const char *dpdk_get_version(void);

/* Directory for dpdkvhostuser sockets: <rundir>/<vhost-sock-dir>. */
const char *dpdk_get_vhost_sock_dir(void);

/* True if other_config changed a start-up key since EAL was initialised. */
bool dpdk_restart_needed(void);

/* other_config:userspace-tso-enable, as read at start-up: vhost-user
 * guests may send TCP segments of up to 64 KB (HOST_TSO4/6). */
bool dpdk_userspace_tso(void);

/* other_config:dpdk-multi-seg-mbufs, as read at start-up. */
bool dpdk_multi_seg_mbufs(void);

/* other_config:per-port-memory, as read at start-up. */
bool dpdk_per_port_memory(void);

/* A pool for packets that non-DPDK ports receive or tools make. */
struct rte_mempool *dpdk_default_pool(void);

/* Packet pools of DPDK ports (dpdk, dpdkvhostuser*): shared per NUMA node
 * and MTU and reference-counted, or one per port with
 * other_config:per-port-memory=true.  The data room follows the MTU, or is
 * the standard ~2 KB with dpdk-multi-seg-mbufs=true (frames then arrive
 * as chains).  dpdk_mp_get() returns NULL and an error message in '*errp'
 * when memory runs out. */
struct dpdk_mp;
struct dpdk_mp *dpdk_mp_get(const char *port_name, int socket_id, int mtu,
                            char **errp);

/* Like dpdk_mp_get(), for a port whose queues may hold up to 'n_mbufs'
 * mbufs at once (receive plus transmit descriptors): with per-port-memory
 * the pool is sized from it; shared pools ignore it. */
struct dpdk_mp *dpdk_mp_get_sized(const char *port_name, int socket_id,
                                  int mtu, unsigned int n_mbufs,
                                  char **errp);
struct rte_mempool *dpdk_mp_pool(const struct dpdk_mp *);
void dpdk_mp_put(struct dpdk_mp *);

/* The copy pool of NUMA node 'socket_id' for port 'port_name': single
 * mbufs with room for the longest frame a DPDK port takes (9736 bytes),
 * into which netdev_send() copies chains bound for a port that cannot send
 * chains (dpdk-multi-seg-mbufs=true, a device without MULTI_SEGS).  Shared
 * and created on first use; released with dpdk_mp_put(). */
struct dpdk_mp *dpdk_copy_mp_get(const char *port_name, int socket_id,
                                 char **errp);

/* netdev-dpdk/get-mempool-info: dumps the pool port 'port_name' got last
 * (and its copy pool), with a summary line per pool and their total, and
 * returns true, or returns false if it has none.  dpdk_mp_dump_all()
 * writes the summary lines of every pool. */
bool dpdk_mp_dump_port(const char *port_name, FILE *stream);
void dpdk_mp_dump_all(FILE *stream);

/* The data room, headroom included, of the pools dpdk_mp_get() gives for
 * 'mtu': the frame rounded up to 1 KB plus headroom (2176 bytes for MTU
 * 1500), or the standard 2176 bytes with dpdk-multi-seg-mbufs. */
uint16_t dpdk_mp_data_room(int mtu);

/* dpdk/log-list, dpdk/log-set, dpdk/lcore-list, dpdk/get-malloc-stats
 * and the test hooks dpdk/hold-mbufs, dpdk/release-mbufs.  Idempotent;
 * dpdk_init() calls it. */
void dpdk_register_commands(void);

/* Test hook: while dpdk/hold-mbufs holds a pool, the receive functions of
 * DPDK ports call dpdk_mp_hold_poll() before each burst, so that the thread
 * that polls takes the mbufs its own mempool cache has (and any that came
 * back) too: the pool is empty for every thread, as when a peer keeps them
 * all.  Costs one relaxed load otherwise. */
extern struct rte_mempool *dpdk_mp_held__;
void dpdk_mp_hold_poll__(void);

static inline void
dpdk_mp_hold_poll(void)
{
    if (unlikely(__atomic_load_n(&dpdk_mp_held__, __ATOMIC_RELAXED))) {
        dpdk_mp_hold_poll__();
    }
}

#endif /* dpdk.h */
