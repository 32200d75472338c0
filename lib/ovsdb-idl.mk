# lib/ovsdb-idl.mk: the OVSDB client replica (IDL), which depends on the
# OVSDB data model in ovsdb/libovsdb.a, its typed layer, the typed binding
# of the vswitch schema generated from it, and their unit tests.

noinst_LIBRARIES += lib/libovsdb-idl.a
lib_libovsdb_idl_a_SOURCES = \
	lib/db-ctl.c \
	lib/db-ctl.h \
	lib/ovsdb-idl.c \
	lib/ovsdb-idl.h \
	lib/ovsdb-idl-typed.c \
	lib/ovsdb-idl-typed.h

# Programs that use the IDL link these.
OVSDB_IDL_LIBS = lib/libovsdb-idl.a ovsdb/libovsdb.a $(GENERIC_LIBS)

# The typed binding of the Open_vSwitch database, generated at build time
# (into the build directory) by our IDL compiler from the schema; see
# Documentation/internals/idl.rst.  Programs that use it link
# VSWITCH_IDL_LIBS.
OVSDB_IDLC = $(PYTHON3) $(srcdir)/lib/ovsdb-idlc.py
EXTRA_DIST += lib/ovsdb-idlc.py
noinst_LIBRARIES += lib/libvswitch-idl.a
nodist_lib_libvswitch_idl_a_SOURCES = \
	lib/vswitch-idl.c \
	lib/vswitch-idl.h
lib_libvswitch_idl_a_SOURCES =
BUILT_SOURCES += lib/vswitch-idl.c lib/vswitch-idl.h
CLEANFILES += lib/vswitch-idl.c lib/vswitch-idl.h
VSWITCH_IDL_LIBS = lib/libvswitch-idl.a $(OVSDB_IDL_LIBS)

lib/vswitch-idl.h: lib/ovsdb-idlc.py vswitchd/vswitch.ovsschema
	$(AM_V_GEN)$(MKDIR_P) lib && \
	$(OVSDB_IDLC) header $(srcdir)/vswitchd/vswitch.ovsschema ovsrec \
	  vswitch-idl > $@.tmp && mv $@.tmp $@
lib/vswitch-idl.c: lib/ovsdb-idlc.py vswitchd/vswitch.ovsschema
	$(AM_V_GEN)$(MKDIR_P) lib && \
	$(OVSDB_IDLC) source $(srcdir)/vswitchd/vswitch.ovsschema ovsrec \
	  vswitch-idl > $@.tmp && mv $@.tmp $@

check_PROGRAMS += tests/test-ovsdb-idl
TESTS += tests/test-ovsdb-idl
tests_test_ovsdb_idl_SOURCES = tests/test-ovsdb-idl.c
nodist_tests_test_ovsdb_idl_SOURCES = tests/idltest-idl.c tests/idltest-idl.h
BUILT_SOURCES += tests/idltest-idl.c tests/idltest-idl.h
CLEANFILES += tests/idltest-idl.c tests/idltest-idl.h
EXTRA_DIST += tests/idltest.ovsschema
tests/idltest-idl.h: lib/ovsdb-idlc.py tests/idltest.ovsschema
	$(AM_V_GEN)$(MKDIR_P) tests && \
	$(OVSDB_IDLC) header $(srcdir)/tests/idltest.ovsschema idltest \
	  idltest-idl > $@.tmp && mv $@.tmp $@
tests/idltest-idl.c: lib/ovsdb-idlc.py tests/idltest.ovsschema
	$(AM_V_GEN)$(MKDIR_P) tests && \
	$(OVSDB_IDLC) source $(srcdir)/tests/idltest.ovsschema idltest \
	  idltest-idl > $@.tmp && mv $@.tmp $@
tests_test_ovsdb_idl_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_ovsdb_idl_LDADD = $(VSWITCH_IDL_LIBS) $(CMOCKA_LIBS)
