# tests/: unit tests (cmocka, one program per library, TAP output) and the
# integration testsuite (GNU autotest).  "make check" runs both.

UNIT_TESTS = \
	tests/test-coverage \
	tests/test-daemon \
	tests/test-dynamic-string \
	tests/test-json \
	tests/test-ofp \
	tests/test-jsonrpc \
	tests/test-match \
	tests/test-poll-loop \
	tests/test-reconnect \
	tests/test-stream \
	tests/test-unixctl \
	tests/test-util \
	tests/test-vlog
check_PROGRAMS += $(UNIT_TESTS) tests/dps-testd
TESTS += $(UNIT_TESTS)

UNIT_TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
UNIT_TEST_LDADD = $(GENERIC_LIBS) $(CMOCKA_LIBS)

tests_test_coverage_SOURCES = tests/test-coverage.c
tests_test_coverage_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_coverage_LDADD = $(UNIT_TEST_LDADD)
tests_test_daemon_SOURCES = tests/test-daemon.c
tests_test_daemon_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_daemon_LDADD = $(UNIT_TEST_LDADD)
tests_test_dynamic_string_SOURCES = tests/test-dynamic-string.c
tests_test_dynamic_string_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_dynamic_string_LDADD = $(UNIT_TEST_LDADD)
tests_test_ofp_SOURCES = tests/test-ofp.c
tests_test_ofp_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_ofp_LDADD = $(UNIT_TEST_LDADD)
tests_test_json_SOURCES = tests/test-json.c
tests_test_json_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_json_LDADD = $(UNIT_TEST_LDADD)
tests_test_jsonrpc_SOURCES = tests/test-jsonrpc.c
tests_test_jsonrpc_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_jsonrpc_LDADD = $(UNIT_TEST_LDADD)
tests_test_match_SOURCES = tests/test-match.c
tests_test_match_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_match_LDADD = $(UNIT_TEST_LDADD)
tests_test_poll_loop_SOURCES = tests/test-poll-loop.c
tests_test_poll_loop_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_poll_loop_LDADD = $(UNIT_TEST_LDADD)
tests_test_reconnect_SOURCES = tests/test-reconnect.c
tests_test_reconnect_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_reconnect_LDADD = $(UNIT_TEST_LDADD)
tests_test_stream_SOURCES = tests/test-stream.c
tests_test_stream_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_stream_LDADD = $(UNIT_TEST_LDADD)
tests_test_unixctl_SOURCES = tests/test-unixctl.c
tests_test_unixctl_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_unixctl_LDADD = $(UNIT_TEST_LDADD)
tests_test_util_SOURCES = tests/test-util.c
tests_test_util_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_util_LDADD = $(UNIT_TEST_LDADD)
tests_test_vlog_SOURCES = tests/test-vlog.c
tests_test_vlog_CFLAGS = $(UNIT_TEST_CFLAGS)
tests_test_vlog_LDADD = $(UNIT_TEST_LDADD)

# A small daemon with the standard daemon and unixctl options, for the
# integration tests of those libraries and of ovs-appctl.
tests_dps_testd_SOURCES = tests/dps-testd.c
tests_dps_testd_LDADD = $(GENERIC_LIBS)

# cmocka prints TAP when asked; automake's TAP driver then counts each test
# case, not just each program.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
AM_TESTS_ENVIRONMENT = CMOCKA_MESSAGE_OUTPUT=TAP; export CMOCKA_MESSAGE_OUTPUT; \
	top_srcdir='$(top_srcdir)'; export top_srcdir;

# The integration testsuite.
TESTSUITE_AT = \
	tests/testsuite.at \
	tests/ovs-macros.at \
	tests/appctl.at \
	tests/build.at \
	tests/daemon.at \
	tests/stream.at \
	tests/ovsdb.at \
	tests/vlog.at
TESTSUITE_AT += tests/vswitch-schema.at tests/ovs-ctl.at
TESTSUITE_AT += tests/ofproto-macros.at tests/vswitchd.at \
	tests/netdev-dummy.at tests/ofproto-dpif.at tests/dpif-netdev.at \
	tests/offload.at tests/vswitchd-diff.at tests/ovs-ofctl.at tests/system-kernel.at \
	tests/system-afxdp.at tests/ofproto-openflow.at tests/qos.at \
	tests/ofproto-flows.at tests/ofproto-trace.at tests/ovs-ofctl-switch.at \
	tests/ofproto-of13.at tests/ofproto-of15.at tests/ofproto-group.at \
	tests/bond.at tests/lacp.at tests/mirror.at tests/ofproto-controller.at \
	tests/ofproto-packet-in.at
TESTSUITE_AT += tests/simple-match.at
# TCP through kernel ports against Open vSwitch (run by hand, as root).
EXTRA_DIST += tests/perf/kernel-tcp.sh tests/perf/csum-gain
EXTRA_DIST += tests/ofp-print-corpus.txt tests/ofp-actions-corpus.txt
EXTRA_DIST += tests/ofproto-send.py tests/of-test-controller.py
EXTRA_DIST += tests/lsan.supp
# STYLE.md's function order (run by tests/build.at).
EXTRA_DIST += tests/check-function-order
TESTSUITE = $(srcdir)/tests/testsuite
AUTOTEST_PATH = utilities:ovsdb:vswitchd:tests
EXTRA_DIST += $(TESTSUITE_AT) $(TESTSUITE) tests/package.m4 tests/atlocal.in

$(srcdir)/tests/package.m4: $(top_srcdir)/configure.ac
	$(AM_V_GEN){ \
	  echo '# Signature of the current package.' && \
	  echo 'm4_define([AT_PACKAGE_NAME],      [$(PACKAGE_NAME)])' && \
	  echo 'm4_define([AT_PACKAGE_TARNAME],   [$(PACKAGE_TARNAME)])' && \
	  echo 'm4_define([AT_PACKAGE_VERSION],   [$(PACKAGE_VERSION)])' && \
	  echo 'm4_define([AT_PACKAGE_STRING],    [$(PACKAGE_STRING)])' && \
	  echo 'm4_define([AT_PACKAGE_BUGREPORT], [$(PACKAGE_BUGREPORT)])'; \
	} > $@.tmp && mv $@.tmp $@

$(TESTSUITE): $(TESTSUITE_AT) $(srcdir)/tests/package.m4
	$(AM_V_GEN)$(AUTOM4TE) -l autotest -I '$(srcdir)' -I '$(srcdir)/tests' \
	  -o $@.tmp $@.at && mv $@.tmp $@

check-local: tests/atconfig tests/atlocal $(TESTSUITE)
	$(SHELL) '$(TESTSUITE)' -C tests AUTOTEST_PATH='$(AUTOTEST_PATH)' \
	  $(TESTSUITEFLAGS)

clean-local:
	test ! -f '$(TESTSUITE)' || $(SHELL) '$(TESTSUITE)' -C tests --clean

DISTCLEANFILES += tests/atconfig
