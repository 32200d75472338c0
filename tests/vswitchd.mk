# tests/vswitchd.mk: ovs-vswitchd integration tests (autotest files).
