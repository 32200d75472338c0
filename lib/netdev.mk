# lib/netdev.mk: network devices: the generic layer, the provider interface,
# and the software port types (dummy, dummy-pmd, internal) with pcap files.

lib_libdpswitch_dpif_a_SOURCES += \
	lib/netdev-provider.h \
	lib/netdev.h \
	lib/smap.h
