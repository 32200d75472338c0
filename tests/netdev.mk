# tests/netdev.mk: tests of the netdev layer and the software port types.

NETDEV_UNIT_TESTS = \
	tests/test-netdev \
	tests/test-pcap \
	tests/test-smap
check_PROGRAMS += $(NETDEV_UNIT_TESTS)
TESTS += $(NETDEV_UNIT_TESTS)

NETDEV_TEST_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS) $(CMOCKA_CFLAGS)
NETDEV_TEST_LDADD = $(DPIF_LIBS) $(CMOCKA_LIBS)

tests_test_netdev_SOURCES = tests/test-netdev.c tests/dp-test.c \
	tests/dp-test.h
tests_test_netdev_CFLAGS = $(NETDEV_TEST_CFLAGS)
tests_test_netdev_LDADD = $(NETDEV_TEST_LDADD)

tests_test_pcap_SOURCES = tests/test-pcap.c tests/dp-test.c \
	tests/dp-test.h
tests_test_pcap_CFLAGS = $(NETDEV_TEST_CFLAGS)
tests_test_pcap_LDADD = $(NETDEV_TEST_LDADD)

tests_test_smap_SOURCES = tests/test-smap.c
tests_test_smap_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_smap_LDADD = $(GENERIC_LIBS) $(CMOCKA_LIBS)
