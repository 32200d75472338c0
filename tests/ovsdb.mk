# tests/ovsdb.mk: unit and integration tests of the OVSDB engine and tools.

OVSDB_UNIT_TESTS = \
	tests/test-ovsdb-data \
	tests/test-ovsdb-file \
	tests/test-ovsdb-monitor \
	tests/test-ovsdb-txn
check_PROGRAMS += $(OVSDB_UNIT_TESTS)
TESTS += $(OVSDB_UNIT_TESTS)

OVSDB_TEST_LDADD = ovsdb/libovsdb.a $(GENERIC_LIBS) $(CMOCKA_LIBS)

tests_test_ovsdb_data_SOURCES = tests/test-ovsdb-data.c
tests_test_ovsdb_data_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_ovsdb_data_LDADD = $(OVSDB_TEST_LDADD)
tests_test_ovsdb_txn_SOURCES = tests/test-ovsdb-txn.c
tests_test_ovsdb_txn_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_ovsdb_txn_LDADD = $(OVSDB_TEST_LDADD)
tests_test_ovsdb_monitor_SOURCES = tests/test-ovsdb-monitor.c
tests_test_ovsdb_monitor_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_ovsdb_monitor_LDADD = $(OVSDB_TEST_LDADD)
tests_test_ovsdb_file_SOURCES = tests/test-ovsdb-file.c
tests_test_ovsdb_file_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_ovsdb_file_LDADD = $(OVSDB_TEST_LDADD)

TESTSUITE_AT += tests/ovsdb-tool.at tests/ovsdb-server.at \
	tests/ovsdb-client.at tests/ovsdb-diff.at tests/ovsdb-replication.at \
	tests/ovsdb-relay.at tests/ovsdb-cluster.at tests/ovsdb-history.at \
	tests/ovsdb-replay.at
EXTRA_DIST += \
	tests/ovsdb-diff-run.sh \
	tests/ovsdb-replication-lib.sh \
	tests/ovsdb-diff.ovsschema \
	tests/ovsdb-diff-monitor.txt \
	tests/ovsdb-diff-rfc.txt \
	tests/ovsdb-diff-client.txt \
	tests/ovsdb-diff-server.txt

# Benchmark (not run by "make check"; see tests/perf/ovsdb-bench.sh).
check_PROGRAMS += tests/perf/perf-ovsdb
tests_perf_perf_ovsdb_SOURCES = tests/perf/perf-ovsdb.c
tests_perf_perf_ovsdb_LDADD = $(GENERIC_LIBS)
EXTRA_DIST += tests/perf/ovsdb-bench.sh

# Fuzz target for the transaction engine: replays its corpus in "make
# check"; with --enable-fuzzing also a libFuzzer binary (see
# tests/fuzz.mk).
check_PROGRAMS += tests/fuzz/fuzz-ovsdb-transact
TESTS += tests/fuzz/fuzz-ovsdb-transact
FUZZ_TARGETS += ovsdb-transact
tests_fuzz_fuzz_ovsdb_transact_SOURCES = tests/fuzz/fuzz-ovsdb-transact.c \
	$(FUZZ_REPLAY_SOURCES)
tests_fuzz_fuzz_ovsdb_transact_CPPFLAGS = $(FUZZ_CPPFLAGS) \
	-DFUZZ_TARGET='"ovsdb-transact"'
tests_fuzz_fuzz_ovsdb_transact_LDADD = ovsdb/libovsdb.a $(GENERIC_LIBS)
