# tests/vsctl.mk: integration and differential tests of ovs-vsctl.

TESTSUITE_AT += tests/ovs-vsctl.at tests/ovs-vsctl-diff.at
EXTRA_DIST += \
	tests/ovs-vsctl-run.sh \
	tests/ovs-vsctl-diff-bridges.txt \
	tests/ovs-vsctl-diff-dpdk.txt \
	tests/ovs-vsctl-diff-refs.txt \
	tests/ovs-vsctl-diff-bonds.txt \
	tests/ovs-vsctl-diff-misc.txt \
	tests/ovs-vsctl-diff-ops.txt \
	tests/ovs-vsctl-diff-conn.txt \
	Documentation/topics/ovs-vsctl.rst
