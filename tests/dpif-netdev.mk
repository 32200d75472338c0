# tests/dpif-netdev.mk: unit tests and benchmarks of the datapath's flow caches.

DPIF_UNIT_TESTS = \
	tests/test-dp-execute \
	tests/test-dp-simple \
	tests/test-dpcls \
	tests/test-dpif-netdev \
	tests/test-emc \
	tests/test-offload \
	tests/test-smc
check_PROGRAMS += $(DPIF_UNIT_TESTS)
TESTS += $(DPIF_UNIT_TESTS)

DPIF_TEST_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS) $(CMOCKA_CFLAGS)
DPIF_TEST_LDADD = $(DPIF_LIBS) $(CMOCKA_LIBS)

tests_test_dpcls_SOURCES = tests/test-dpcls.c tests/dpif-test.c \
	tests/dpif-test.h
tests_test_dpcls_CFLAGS = $(DPIF_TEST_CFLAGS)
tests_test_dpcls_LDADD = $(DPIF_TEST_LDADD)

tests_test_emc_SOURCES = tests/test-emc.c tests/dpif-test.c \
	tests/dpif-test.h
tests_test_emc_CFLAGS = $(DPIF_TEST_CFLAGS)
tests_test_emc_LDADD = $(DPIF_TEST_LDADD)

tests_test_smc_SOURCES = tests/test-smc.c tests/dpif-test.c \
	tests/dpif-test.h
tests_test_smc_CFLAGS = $(DPIF_TEST_CFLAGS)
tests_test_smc_LDADD = $(DPIF_TEST_LDADD)

# Benchmark: built by "make check" so that it keeps compiling, run by hand
# (see Documentation/topics/flow-caches.rst).
check_PROGRAMS += tests/perf/perf-dpcls
tests_perf_perf_dpcls_SOURCES = tests/perf/perf-dpcls.c tests/perf/perf-counter.c \
	tests/perf/perf-counter.h tests/dpif-test.c \
	tests/dpif-test.h
tests_perf_perf_dpcls_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_perf_perf_dpcls_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS)
tests_perf_perf_dpcls_LDADD = $(DPIF_LIBS)

# The datapath in-process, with dummy ports and PMD threads.
tests_test_dpif_netdev_SOURCES = tests/test-dpif-netdev.c $(DP_TEST_COMMON)
tests_test_dpif_netdev_CFLAGS = $(DPIF_TEST_CFLAGS)
tests_test_dpif_netdev_LDADD = $(DPIF_TEST_LDADD)

# Partial offload: the marked path's parse, the dummy flow API, and the
# stress test of marks under churn with two PMD threads.
tests_test_offload_SOURCES = tests/test-offload.c $(DP_TEST_COMMON)
tests_test_offload_CFLAGS = $(DPIF_TEST_CFLAGS)
tests_test_offload_LDADD = $(DPIF_TEST_LDADD)

# Simple match: the parse, which flows are simple, the per-thread table.
tests_test_dp_simple_SOURCES = tests/test-dp-simple.c $(DP_TEST_COMMON)
tests_test_dp_simple_CFLAGS = $(DPIF_TEST_CFLAGS)
tests_test_dp_simple_LDADD = $(DPIF_TEST_LDADD)

tests_test_dp_execute_SOURCES = tests/test-dp-execute.c $(DP_TEST_COMMON)
tests_test_dp_execute_CFLAGS = $(DPIF_TEST_CFLAGS)
tests_test_dp_execute_LDADD = $(DPIF_TEST_LDADD)
