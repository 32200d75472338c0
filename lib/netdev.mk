# lib/netdev.mk: network devices: the generic layer, the provider interface,
# and the software port types (dummy, dummy-pmd, internal) with pcap files.

lib_libdpswitch_dpif_a_SOURCES += \
	lib/netdev-dummy.c \
	lib/netdev-dummy.h \
	lib/netdev-afpacket.c \
	lib/netdev-linux.c \
	lib/netdev-linux.h \
	lib/netdev-tap.c \
	lib/netdev-offload.c \
	lib/netdev-offload.h \
	lib/netdev-offload-dummy.c \
	lib/netdev-provider.h \
	lib/netdev-qos.c \
	lib/netdev-qos.h \
	lib/netdev.c \
	lib/netdev.h \
	lib/pcap-file.c \
	lib/pcap-file.h \
	lib/smap.h
if HAVE_AF_XDP
lib_libdpswitch_dpif_a_SOURCES += lib/netdev-afxdp.c
endif

EXTRA_DIST += Documentation/topics/netdev.rst \
	Documentation/topics/kernel-ports.rst
