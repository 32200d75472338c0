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

# The man page is built in the build directory, so it needs python3 (which
# configure insists on).  Building it also checks that the schema's cksum is
# right and that vswitch.xml documents exactly the schema's columns.
nodist_man5_MANS = vswitchd/ovs-vswitchd.conf.db.5
CLEANFILES += vswitchd/ovs-vswitchd.conf.db.5

VSWITCH_DOC = $(PYTHON3) $(srcdir)/vswitchd/vswitch-doc.py
vswitchd/ovs-vswitchd.conf.db.5: vswitchd/vswitch.xml \
		vswitchd/vswitch.ovsschema vswitchd/vswitch-doc.py
	$(AM_V_GEN)$(MKDIR_P) vswitchd && \
	$(VSWITCH_DOC) cksum $(srcdir)/vswitchd/vswitch.ovsschema && \
	$(VSWITCH_DOC) coverage $(srcdir)/vswitchd/vswitch.xml \
	  $(srcdir)/vswitchd/vswitch.ovsschema && \
	$(VSWITCH_DOC) man $(srcdir)/vswitchd/vswitch.xml \
	  $(srcdir)/vswitchd/vswitch.ovsschema $(VERSION) > $@.tmp && \
	mv $@.tmp $@
