# tests/system-dpdk.mk: the "dpdk" port type's unit test (in "make check")
# and the system-dpdk testsuite ("make check-dpdk", as root: it creates
# network namespaces and may reserve hugepages).

DPDK_UNIT_TESTS = tests/test-dpdk
check_PROGRAMS += $(DPDK_UNIT_TESTS)
TESTS += $(DPDK_UNIT_TESTS)

tests_test_dpdk_SOURCES = tests/test-dpdk.c $(DP_TEST_COMMON)
tests_test_dpdk_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_dpdk_LDADD = $(DPIF_LIBS) $(CMOCKA_LIBS)

SYSTEM_DPDK_TESTSUITE_AT = \
	tests/system-dpdk-testsuite.at \
	tests/system-dpdk-macros.at \
	tests/system-dpdk.at \
	tests/system-dpdk-vhost.at \
	tests/system-dpdk-vhost-restart.at \
	tests/system-dpdk-csum.at \
	tests/system-dpdk-offload.at \
	tests/system-dpdk-robust.at \
	tests/ovs-macros.at \
	tests/ofproto-macros.at
SYSTEM_DPDK_TESTSUITE = $(srcdir)/tests/system-dpdk-testsuite
EXTRA_DIST += $(SYSTEM_DPDK_TESTSUITE_AT) $(SYSTEM_DPDK_TESTSUITE)

$(SYSTEM_DPDK_TESTSUITE): $(SYSTEM_DPDK_TESTSUITE_AT) $(srcdir)/tests/package.m4
	$(AM_V_GEN)$(AUTOM4TE) -l autotest -I '$(srcdir)' -I '$(srcdir)/tests' \
	  -o $@.tmp $@.at && mv $@.tmp $@

# The NIC emulator (tests/nic-emu.c): a shared library that system-dpdk
# tests preload into ovs-vswitchd in place of DPDK's rte_flow functions.
# Built without the sanitizer flags (a preloaded library must not bring
# its own runtime).
NICEMU_LIB = tests/libdps-nicemu.so
$(NICEMU_LIB): tests/nic-emu.c
	$(AM_V_CC)$(CC) -O2 -g -Wall -Werror -fPIC -shared $(DPDK_CFLAGS) \
	  -o $@ $(srcdir)/tests/nic-emu.c $(DPDK_LIBS) -lrte_net_ring
EXTRA_DIST += tests/nic-emu.c
CLEANFILES += $(NICEMU_LIB)

# Everything the tests run must be built first.
check-dpdk: all tests/atconfig tests/atlocal $(SYSTEM_DPDK_TESTSUITE) \
	  $(check_PROGRAMS) $(NICEMU_LIB)
	$(SHELL) '$(SYSTEM_DPDK_TESTSUITE)' -C tests \
	  AUTOTEST_PATH='$(AUTOTEST_PATH)' $(TESTSUITEFLAGS)

clean-system-dpdk:
	test ! -f '$(SYSTEM_DPDK_TESTSUITE)' || \
	  $(SHELL) '$(SYSTEM_DPDK_TESTSUITE)' -C tests --clean

.PHONY: check-dpdk clean-system-dpdk
