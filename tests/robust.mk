# tests/robust.mk: fault injection and soak runs (tests/fault.at), and the
# hostile-input tests (tests/hostile.at).

TESTSUITE_AT += tests/fault.at tests/hostile.at tests/access.at
EXTRA_DIST += tests/hostile-frames.py

# The LD_PRELOAD shim that fails writes and fsyncs on demand.  It is loaded
# into the daemons of both builds, so it carries no sanitizer runtime of
# its own (a sanitized daemon brings it).
check_PROGRAMS += tests/fault-inject.so
tests_fault_inject_so_SOURCES = tests/fault-inject.c
tests_fault_inject_so_CFLAGS = $(WARNING_FLAGS) -fPIC -fno-sanitize=all
tests_fault_inject_so_LDFLAGS = -shared -fno-sanitize=all
tests_fault_inject_so_LDADD = -ldl

# "make soak": the crash and fault tests with many more rounds (100 kill -9
# of ovsdb-server instead of 10), outside the default run, then (as root,
# busy-polling: run it under the machine's busy lock) the system-dpdk soak
# tests (100 vhost-user guest connect/disconnect cycles instead of 10),
# whose leak figures (resident set, file descriptors, mbufs in use, at the
# start and at the end) it prints at the end.
SOAK_ROUNDS = 100
SOAK_REPORT = tests/soak-figures.txt
soak: all tests/atconfig tests/atlocal $(TESTSUITE) $(check_PROGRAMS) \
	  $(SYSTEM_DPDK_TESTSUITE) $(NICEMU_LIB)
	DPS_SOAK_ROUNDS=$(SOAK_ROUNDS) $(SHELL) '$(TESTSUITE)' -C tests \
	  AUTOTEST_PATH='$(AUTOTEST_PATH)' -k soak $(TESTSUITEFLAGS)
	rm -f $(SOAK_REPORT)
	DPS_SOAK_ROUNDS=$(SOAK_ROUNDS) DPS_SOAK_REPORT="`pwd`/$(SOAK_REPORT)" \
	  $(SHELL) '$(SYSTEM_DPDK_TESTSUITE)' -C tests \
	  AUTOTEST_PATH='$(AUTOTEST_PATH)' -k soak $(TESTSUITEFLAGS)
	@echo "Soak figures:"; cat $(SOAK_REPORT)
.PHONY: soak
CLEANFILES += $(SOAK_REPORT)

# The ASan guard zones of received packets, and that an overrun is reported.
check_PROGRAMS += tests/test-rx-guard
TESTS += tests/test-rx-guard
tests_test_rx_guard_SOURCES = tests/test-rx-guard.c $(DP_TEST_COMMON)
tests_test_rx_guard_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_rx_guard_LDADD = $(DPIF_LIBS) $(CMOCKA_LIBS)
