# vswitchd/: the configuration database schema, its documentation, and the
# ovs-vswitchd.conf.db(5) man page generated from them.

# Installed where Open vSwitch's tools look for it:
# /usr/share/openvswitch/vswitch.ovsschema for prefix /usr.
pkgdata_DATA += vswitchd/vswitch.ovsschema

EXTRA_DIST += \
	vswitchd/vswitch.ovsschema \
	vswitchd/vswitch.xml \
	vswitchd/vswitch-doc.py \
	Documentation/ref/ovs-vswitchd.conf.db.rst

# The man page is generated in the build directory and shipped in the
# tarball, so that building from a release needs no python3.  Generating it
# also checks that the schema's cksum is right and that vswitch.xml
# documents exactly the schema's columns.
dist_man5_MANS = vswitchd/ovs-vswitchd.conf.db.5

VSWITCH_DOC = $(PYTHON3) $(srcdir)/vswitchd/vswitch-doc.py
vswitchd/ovs-vswitchd.conf.db.5: vswitchd/vswitch.xml \
		vswitchd/vswitch.ovsschema vswitchd/vswitch-doc.py
	$(AM_V_GEN)if test -z '$(PYTHON3)'; then \
	  echo "$@ is out of date and rebuilding it needs python3" >&2; \
	  exit 1; \
	fi && \
	$(MKDIR_P) vswitchd && \
	$(VSWITCH_DOC) cksum $(srcdir)/vswitchd/vswitch.ovsschema && \
	$(VSWITCH_DOC) coverage $(srcdir)/vswitchd/vswitch.xml \
	  $(srcdir)/vswitchd/vswitch.ovsschema && \
	$(VSWITCH_DOC) man $(srcdir)/vswitchd/vswitch.xml \
	  $(srcdir)/vswitchd/vswitch.ovsschema $(VERSION) > $@.tmp && \
	mv $@.tmp $@

# The switch daemon.  It reads the database through the IDL, makes NORMAL
# decisions (ofproto/) and carries packets (the datapath libraries, which
# link DPDK).
sbin_PROGRAMS += vswitchd/ovs-vswitchd
vswitchd_ovs_vswitchd_SOURCES = \
	vswitchd/bridge.c \
	vswitchd/bridge.h \
	vswitchd/compat.c \
	vswitchd/compat.h \
	vswitchd/ovs-vswitchd.c
nodist_vswitchd_ovs_vswitchd_SOURCES = vswitchd/vswitch-compat.def
vswitchd_ovs_vswitchd_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/vswitchd
vswitchd_ovs_vswitchd_CFLAGS = $(AM_CFLAGS) $(DPDK_CFLAGS)
vswitchd_ovs_vswitchd_LDADD = ofproto/libofproto.a lib/libvswitch-idl.a \
	lib/libovsdb-idl.a \
	ovsdb/libovsdb.a $(DPIF_LIBS)
dist_man_MANS += vswitchd/ovs-vswitchd.8
EXTRA_DIST += Documentation/topics/ovs-vswitchd.rst

# The settings vswitch.xml marks compat="yes", which ovs-vswitchd warns
# about when they are set (bridge.c), generated so that the list follows
# the documentation.
BUILT_SOURCES += vswitchd/vswitch-compat.def
CLEANFILES += vswitchd/vswitch-compat.def
vswitchd/vswitch-compat.def: vswitchd/vswitch.xml \
		vswitchd/vswitch.ovsschema vswitchd/vswitch-doc.py
	$(AM_V_GEN)$(MKDIR_P) vswitchd && \
	$(VSWITCH_DOC) compat $(srcdir)/vswitchd/vswitch.xml \
	  $(srcdir)/vswitchd/vswitch.ovsschema > $@.tmp && mv $@.tmp $@
