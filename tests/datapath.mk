# tests/datapath.mk: unit tests, fuzz targets and benchmarks of the datapath library.

DP_UNIT_TESTS = \
	tests/test-csum \
	tests/test-dp-packet \
	tests/test-flow \
	tests/test-odp
check_PROGRAMS += $(DP_UNIT_TESTS)
TESTS += $(DP_UNIT_TESTS)

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
