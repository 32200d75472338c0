# ofproto/: the slow path, per-bridge forwarding decisions.  NORMAL
# switching (MAC learning, VLANs) first; OpenFlow later.

noinst_LIBRARIES += ofproto/libofproto.a
ofproto_libofproto_a_SOURCES = \
	ofproto/mac-learning.c \
	ofproto/mac-learning.h

# What a program that makes NORMAL decisions links with.
OFPROTO_LIBS = ofproto/libofproto.a $(GENERIC_LIBS)
