# ovsdb/: the OVSDB engine (libovsdb.a) and its programs.

noinst_LIBRARIES += ovsdb/libovsdb.a
ovsdb_libovsdb_a_SOURCES = \
	ovsdb/condition.c \
	ovsdb/condition.h \
	ovsdb/convert.c \
	ovsdb/convert.h \
	ovsdb/execution.c \
	ovsdb/execution.h \
	ovsdb/file.c \
	ovsdb/file.h \
	ovsdb/log.c \
	ovsdb/log.h \
	ovsdb/monitor.c \
	ovsdb/monitor.h \
	ovsdb/mutation.c \
	ovsdb/mutation.h \
	ovsdb/ohmap.c \
	ovsdb/ohmap.h \
	ovsdb/ovsdb-data.c \
	ovsdb/ovsdb-data.h \
	ovsdb/ovsdb-error.c \
	ovsdb/ovsdb-error.h \
	ovsdb/ovsdb-json.c \
	ovsdb/ovsdb-json.h \
	ovsdb/ovsdb-parser.c \
	ovsdb/ovsdb-parser.h \
	ovsdb/ovsdb-types.c \
	ovsdb/ovsdb-types.h \
	ovsdb/ovsdb.c \
	ovsdb/ovsdb.h \
	ovsdb/raft-file.c \
	ovsdb/raft-file.h \
	ovsdb/raft.c \
	ovsdb/raft.h \
	ovsdb/relay.c \
	ovsdb/relay.h \
	ovsdb/replication.c \
	ovsdb/replication.h \
	ovsdb/schema.c \
	ovsdb/schema.h \
	ovsdb/transaction.c \
	ovsdb/transaction.h \
	ovsdb/txn-log.c \
	ovsdb/txn-log.h \
	ovsdb/uuid.c \
	ovsdb/uuid.h

bin_PROGRAMS += ovsdb/ovsdb-tool
ovsdb_ovsdb_tool_SOURCES = ovsdb/ovsdb-tool.c
ovsdb_ovsdb_tool_LDADD = ovsdb/libovsdb.a $(GENERIC_LIBS)
dist_man_MANS += ovsdb/ovsdb-tool.1 ovsdb/ovsdb-server.1 ovsdb/ovsdb-client.1

bin_PROGRAMS += ovsdb/ovsdb-client
ovsdb_ovsdb_client_SOURCES = ovsdb/ovsdb-client.c
ovsdb_ovsdb_client_LDADD = ovsdb/libovsdb.a $(GENERIC_LIBS)

sbin_PROGRAMS += ovsdb/ovsdb-server
ovsdb_ovsdb_server_SOURCES = ovsdb/ovsdb-server.c
ovsdb_ovsdb_server_LDADD = ovsdb/libovsdb.a $(GENERIC_LIBS)
EXTRA_DIST += Documentation/topics/ovsdb.rst
