# ofproto/: the slow path, per-bridge forwarding decisions: OpenFlow flow
# tables and translation, and NORMAL switching (MAC learning, VLANs),
# which the default flow's NORMAL action reaches.  It reads the
# packet library's flow key definitions (lib/flow.h) but calls nothing in
# it, so it needs neither DPDK's headers nor its libraries.

noinst_LIBRARIES += ofproto/libofproto.a
ofproto_libofproto_a_SOURCES = \
	ofproto/bond.c \
	ofproto/bond.h \
	ofproto/bundles.c \
	ofproto/bundles.h \
	ofproto/lacp.c \
	ofproto/lacp.h \
	ofproto/connmgr.c \
	ofproto/connmgr.h \
	ofproto/mac-learning.c \
	ofproto/mac-learning.h \
	ofproto/mirror.c \
	ofproto/mirror.h \
	ofproto/normal.c \
	ofproto/normal.h \
	ofproto/ofproto.c \
	ofproto/ofproto.h \
	ofproto/ofproto-xlate.c \
	ofproto/ofproto-xlate.h \
	ofproto/trace.c \
	ofproto/trace.h

# What a program that makes NORMAL decisions links with.
OFPROTO_LIBS = ofproto/libofproto.a $(GENERIC_LIBS)

EXTRA_DIST += Documentation/topics/bonding.rst \
	Documentation/topics/mirrors.rst \
	Documentation/topics/normal-switching.rst \
	Documentation/topics/openflow.rst
