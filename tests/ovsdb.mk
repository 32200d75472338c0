# tests/ovsdb.mk: unit and integration tests of the OVSDB engine and tools.
