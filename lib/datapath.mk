# lib/datapath.mk: the datapath library, which links DPDK.  Only programs
# that carry packets link it; the tools and lib/libdpswitch.a never do.

noinst_LIBRARIES += lib/libdpswitch-dp.a
lib_libdpswitch_dp_a_SOURCES = \
	lib/csum.c \
	lib/csum.h \
	lib/dp-packet-csum.c \
	lib/dp-packet-csum.h \
	lib/dp-packet-tso.c \
	lib/dp-packet-tso.h \
	lib/dp-packet.c \
	lib/dp-packet.h \
	lib/dpdk-eal.c \
	lib/dpdk-eal.h \
	lib/flow.c \
	lib/flow.h \
	lib/odp-util.c \
	lib/odp-util.h \
	lib/packets.c \
	lib/packets.h
lib_libdpswitch_dp_a_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS)

# What a program that carries packets links with.
DP_LIBS = lib/libdpswitch-dp.a $(GENERIC_LIBS) $(DPDK_LIBS) $(NUMA_LIBS) \
	$(XDP_LIBS)

EXTRA_DIST += Documentation/topics/packets.rst
