# lib/dpif-netdev.mk: the userspace datapath's flow caches and classifier (links DPDK through DP_LIBS).

noinst_LIBRARIES += lib/libdpswitch-dpif.a
lib_libdpswitch_dpif_a_SOURCES = \
	lib/dpif-netdev.h \
	lib/dp-emc.c \
	lib/dp-emc.h \
	lib/dp-flow.c \
	lib/dp-flow.h \
	lib/dp-rcu.c \
	lib/dp-rcu.h \
	lib/dp-simple.c \
	lib/dp-simple.h \
	lib/dp-smc.c \
	lib/dp-smc.h \
	lib/dpcls.c \
	lib/dpcls.h
lib_libdpswitch_dpif_a_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS) $(XDP_CFLAGS)

# What a program that uses the flow caches links with.
DPIF_LIBS = lib/libdpswitch-dpif.a $(DP_LIBS)

EXTRA_DIST += Documentation/topics/flow-caches.rst

# The datapath itself: ports, PMD threads, the pipeline, commands.
lib_libdpswitch_dpif_a_SOURCES += \
	lib/dp-execute.c \
	lib/dp-execute.h \
	lib/dpif-netdev.c \
	lib/dpif-netdev-offload.c \
	lib/dpif-netdev-offload.h \
	lib/dpif-netdev-private.h \
	lib/dpif-netdev-unixctl.c \
	lib/ovs-numa.c \
	lib/ovs-numa.h

EXTRA_DIST += Documentation/topics/dpif-netdev.rst \
	Documentation/topics/hw-offload.rst
