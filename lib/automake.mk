# lib/: libraries shared by the daemons and tools.  Nothing here links DPDK.

noinst_LIBRARIES += lib/libdpswitch.a
lib_libdpswitch_a_SOURCES = \
	lib/classifier.c \
	lib/classifier.h \
	lib/compiler.h \
	lib/coverage.c \
	lib/coverage.h \
	lib/daemon.c \
	lib/daemon.h \
	lib/dirs.c \
	lib/dirs.h \
	lib/dp-actions.c \
	lib/dp-actions.h \
	lib/dynamic-string.c \
	lib/dynamic-string.h \
	lib/fatal-signal.c \
	lib/fatal-signal.h \
	lib/json.c \
	lib/json.h \
	lib/jsonrpc.c \
	lib/jsonrpc.h \
	lib/latch.c \
	lib/latch.h \
	lib/match.c \
	lib/match.h \
	lib/memory.c \
	lib/memory.h \
	lib/murmur.h \
	lib/poll-loop.c \
	lib/poll-loop.h \
	lib/reconnect.c \
	lib/reconnect.h \
	lib/replay.c \
	lib/replay.h \
	lib/restart-needed.c \
	lib/restart-needed.h \
	lib/smap.c \
	lib/smap.h \
	lib/socket-util.c \
	lib/socket-util.h \
	lib/stream.c \
	lib/stream.h \
	lib/stream-fd.c \
	lib/stream-provider.h \
	lib/stream-replay.c \
	lib/stream-ssl.c \
	lib/stream-ssl.h \
	lib/table.c \
	lib/table.h \
	lib/timeval.c \
	lib/timeval.h \
	lib/unixctl.c \
	lib/unixctl.h \
	lib/util.c \
	lib/util.h \
	lib/vlog.c \
	lib/vlog-compat.c \
	lib/vlog-compat.h \
	lib/vlog.h

# OpenFlow: the protocol and its messages (issue 19).
lib_libdpswitch_a_SOURCES += \
	lib/ofp-actions.c \
	lib/ofp-actions.h \
	lib/ofp-actions-of11.c \
	lib/ofp-actions-of11.h \
	lib/ofp-bundle.c \
	lib/ofp-bundle.h \
	lib/ofp-errors.c \
	lib/ofp-errors.h \
	lib/ofp-flow.c \
	lib/ofp-flow.h \
	lib/ofp-group.c \
	lib/ofp-group.h \
	lib/ofp-match.c \
	lib/ofp-match.h \
	lib/ofp-msgs.c \
	lib/ofp-msgs.h \
	lib/ofp-async.c \
	lib/ofp-async.h \
	lib/ofp-packet.c \
	lib/ofp-packet.h \
	lib/ofp-parse.c \
	lib/ofp-parse.h \
	lib/ofp-port.c \
	lib/ofp-port.h \
	lib/ofp-print.c \
	lib/ofp-print.h \
	lib/ofp-types.h \
	lib/ofpbuf.c \
	lib/ofpbuf.h \
	lib/vconn.c \
	lib/vconn.h

# Where dpswitch keeps its state: the same places as Open vSwitch.
DPS_RUNDIR = $(localstatedir)/run/openvswitch
DPS_LOGDIR = $(localstatedir)/log/openvswitch
DPS_DBDIR = $(sysconfdir)/openvswitch
lib_libdpswitch_a_CPPFLAGS = $(AM_CPPFLAGS) \
	-DDPS_RUNDIR='"$(DPS_RUNDIR)"' \
	-DDPS_LOGDIR='"$(DPS_LOGDIR)"' \
	-DDPS_DBDIR='"$(DPS_DBDIR)"' \
	-DDPS_SYSCONFDIR='"$(sysconfdir)"' \
	-DDPS_PKGDATADIR='"$(pkgdatadir)"' \
	-DDPS_BINDIR='"$(bindir)"'
