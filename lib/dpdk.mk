# lib/dpdk.mk: DPDK start-up from the database and the "dpdk" port type.

lib_libdpswitch_dpif_a_SOURCES += \
	lib/dpdk.c \
	lib/dpdk.h \
	lib/netdev-dpdk.c \
	lib/netdev-dpdk.h \
	lib/netdev-offload-dpdk.c \
	lib/netdev-offload-dpdk.h

EXTRA_DIST += \
	Documentation/topics/dpdk.rst \
	Documentation/topics/multi-segment-mbufs.rst
