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

# Fuzz targets.  Each is built as a program that replays its regression
# corpus (tests/fuzz/corpus/TARGET/), which "make check" runs; with
# --enable-fuzzing (clang) each is also built as a libFuzzer binary,
# tests/fuzz/TARGET-fuzzer, by the rule in tests/fuzz.mk.
FUZZ_TARGETS = flow-extract odp-parse
FUZZ_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
FUZZ_COMMON = tests/fuzz/fuzz.h tests/fuzz/fuzz-common.c \
	tests/fuzz/fuzz-check.c $(DP_TEST_COMMON)
FUZZ_REPLAYS = tests/fuzz/fuzz-flow-extract tests/fuzz/fuzz-odp-parse
check_PROGRAMS += $(FUZZ_REPLAYS)
TESTS += $(FUZZ_REPLAYS)
EXTRA_DIST += $(FUZZ_TARGETS:%=tests/fuzz/corpus/%)

tests_fuzz_fuzz_flow_extract_SOURCES = tests/fuzz/fuzz-flow-extract.c \
	tests/fuzz/replay.c $(FUZZ_COMMON)
tests_fuzz_fuzz_flow_extract_CPPFLAGS = $(FUZZ_CPPFLAGS) \
	-DFUZZ_TARGET='"flow-extract"'
tests_fuzz_fuzz_flow_extract_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS)
tests_fuzz_fuzz_flow_extract_LDADD = $(DP_LIBS)
tests_fuzz_fuzz_odp_parse_SOURCES = tests/fuzz/fuzz-odp-parse.c \
	tests/fuzz/replay.c $(FUZZ_COMMON)
tests_fuzz_fuzz_odp_parse_CPPFLAGS = $(FUZZ_CPPFLAGS) \
	-DFUZZ_TARGET='"odp-parse"'
tests_fuzz_fuzz_odp_parse_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS)
tests_fuzz_fuzz_odp_parse_LDADD = $(DP_LIBS)


# Benchmarks: built by "make check" so that they keep compiling, run by hand
# (see Documentation/topics/packets.rst).
check_PROGRAMS += tests/perf/perf-flow
tests_perf_perf_flow_SOURCES = tests/perf/perf-flow.c tests/perf/perf-counter.c \
	tests/perf/perf-counter.h $(DP_TEST_COMMON)
tests_perf_perf_flow_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_perf_perf_flow_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS)
tests_perf_perf_flow_LDADD = $(DP_LIBS)
