# lib/netdev-vhost.mk: vhost-user ports (dpdkvhostuser, dpdkvhostuserclient)
# through librte_vhost.

lib_libdpswitch_dpif_a_SOURCES += \
	lib/netdev-vhost.c \
	lib/netdev-vhost.h

EXTRA_DIST += Documentation/topics/vhost-user.rst

# Unit tests of the port types (no guest needed), and with "run" the small
# switch that tests/system-dpdk-vhost.at drives against dpdk-testpmd.
check_PROGRAMS += tests/test-netdev-vhost
TESTS += tests/test-netdev-vhost
tests_test_netdev_vhost_SOURCES = tests/test-netdev-vhost.c
tests_test_netdev_vhost_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_netdev_vhost_LDADD = $(DPIF_LIBS) $(CMOCKA_LIBS)
