# lib/dpif-netdev.mk: the userspace datapath's flow caches and classifier (links DPDK through DP_LIBS).
