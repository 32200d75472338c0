# lib/ovsdb-idl.mk: the OVSDB client replica (IDL), which depends on the
# OVSDB data model in ovsdb/libovsdb.a, and its unit test.

noinst_LIBRARIES += lib/libovsdb-idl.a
lib_libovsdb_idl_a_SOURCES = \
	lib/ovsdb-idl.c \
	lib/ovsdb-idl.h

# Programs that use the IDL link these.
OVSDB_IDL_LIBS = lib/libovsdb-idl.a ovsdb/libovsdb.a $(GENERIC_LIBS)

check_PROGRAMS += tests/test-ovsdb-idl
TESTS += tests/test-ovsdb-idl
tests_test_ovsdb_idl_SOURCES = tests/test-ovsdb-idl.c
tests_test_ovsdb_idl_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_ovsdb_idl_LDADD = $(OVSDB_IDL_LIBS) $(CMOCKA_LIBS)
