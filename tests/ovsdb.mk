# tests/ovsdb.mk: unit and integration tests of the OVSDB engine and tools.

OVSDB_UNIT_TESTS = \
	tests/test-ovsdb-data \
	tests/test-ovsdb-file \
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
tests_test_ovsdb_file_SOURCES = tests/test-ovsdb-file.c
tests_test_ovsdb_file_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_ovsdb_file_LDADD = $(OVSDB_TEST_LDADD)

TESTSUITE_AT += tests/ovsdb-tool.at tests/ovsdb-server.at \
	tests/ovsdb-client.at

# Benchmark (not run by "make check"; see tests/perf/ovsdb-bench.sh).
check_PROGRAMS += tests/perf/perf-ovsdb
tests_perf_perf_ovsdb_SOURCES = tests/perf/perf-ovsdb.c
tests_perf_perf_ovsdb_LDADD = $(GENERIC_LIBS)
EXTRA_DIST += tests/perf/ovsdb-bench.sh
