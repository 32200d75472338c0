# tests/datapath.mk: unit tests, fuzz targets and benchmarks of the datapath library.

DP_UNIT_TESTS = \
	tests/test-csum \
	tests/test-dp-packet \
	tests/test-flow \
	tests/test-odp
check_PROGRAMS += $(DP_UNIT_TESTS) tests/dps-flow-dump
TESTS += $(DP_UNIT_TESTS) tests/flow-scapy.py
EXTRA_DIST += tests/flow-scapy.py

DP_TEST_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS) $(CMOCKA_CFLAGS)
DP_TEST_LDADD = $(DP_LIBS) $(CMOCKA_LIBS)
DP_TEST_COMMON = tests/dp-test.c tests/dp-test.h

tests_test_dp_packet_SOURCES = tests/test-dp-packet.c $(DP_TEST_COMMON)
tests_test_dp_packet_CFLAGS = $(DP_TEST_CFLAGS)
tests_test_dp_packet_LDADD = $(DP_TEST_LDADD)

tests_test_csum_SOURCES = tests/test-csum.c $(DP_TEST_COMMON)
tests_test_csum_CFLAGS = $(DP_TEST_CFLAGS)
tests_test_csum_LDADD = $(DP_TEST_LDADD)

tests_test_flow_SOURCES = tests/test-flow.c $(DP_TEST_COMMON)
tests_test_flow_CFLAGS = $(DP_TEST_CFLAGS)
tests_test_flow_LDADD = $(DP_TEST_LDADD)

tests_test_odp_SOURCES = tests/test-odp.c $(DP_TEST_COMMON)
tests_test_odp_CFLAGS = $(DP_TEST_CFLAGS)
tests_test_odp_LDADD = $(DP_TEST_LDADD)

# Prints the flow keys of packets given in hex, for tests/flow-scapy.py, the
# differential test against scapy's dissection.
tests_dps_flow_dump_SOURCES = tests/dps-flow-dump.c $(DP_TEST_COMMON)
tests_dps_flow_dump_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS)
tests_dps_flow_dump_LDADD = $(DP_LIBS)
