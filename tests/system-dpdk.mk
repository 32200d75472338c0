# tests/system-dpdk.mk: the system-dpdk testsuite ("make check-dpdk", root).
