# tests/perf/automake.mk: datapath benchmarks and the benchmark harness.

# Cycles per packet through the userspace datapath and its stages.  Built by
# "make check" so that it keeps compiling, run by hand (see
# Documentation/topics/benchmarks.rst).
check_PROGRAMS += tests/perf/perf-dpif
tests_perf_perf_dpif_SOURCES = tests/perf/perf-dpif.c \
	tests/perf/perf-dpif-pipeline.c tests/perf/perf-dpif-pipeline.h \
	$(DP_TEST_COMMON)
tests_perf_perf_dpif_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_perf_perf_dpif_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS)
tests_perf_perf_dpif_LDADD = $(DPIF_LIBS)

# The throughput harness (run by hand, as root) and its documentation.
EXTRA_DIST += \
	tests/perf/dps-bench \
	tests/perf/dps-offload-bench \
	tests/perf/reconf-loss \
	Documentation/topics/benchmarks.rst
