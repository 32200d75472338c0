/* netdev-vhost: vhost-user ports through librte_vhost.
 *
 * Two port types, each a netdev class (lib/netdev-provider.h):
 *
 *   dpdkvhostuser        dpswitch is the vhost-user server: it creates the
 *                        socket <vhost-sock-dir>/<port name> and the guest
 *                        (QEMU, or testpmd's net_virtio_user) connects to it.
 *
 *   dpdkvhostuserclient  dpswitch connects to the socket the guest side
 *                        serves, options:vhost-server-path, and reconnects
 *                        (every second) when the guest side restarts.
 *
 * Options (Interface:options) of both types: tx-retries-max (0-32, default
 * 8), plus vhost-server-path for dpdkvhostuserclient, which requires it.
 * Any other key is an error reported in Interface:error.
 *
 * The guest decides the number of queue pairs: when it connects, the port
 * asks for a reconfiguration and then has as many rx and tx queues as the
 * guest negotiated.  Packets handed to 'send' are held per tx queue and
 * given to the guest 32 at a time, or earlier by the class's 'flush'.
 *
 * Interface:status and Interface:statistics keys are those of Open vSwitch
 * 3.1 (see Documentation/topics/vhost-user.rst).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef NETDEV_VHOST_H
#define NETDEV_VHOST_H 1

/* Registers the "dpdkvhostuser" and "dpdkvhostuserclient" classes.
 * ovs-vswitchd calls it once, from the main thread, after dpdk_init() and
 * only when dpdk_available() is true (librte_vhost needs the full EAL).
 * Calling it again does nothing. */
void netdev_vhost_register(void);

#endif /* netdev-vhost.h */
