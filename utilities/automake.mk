# utilities/: the command-line tools.

bin_PROGRAMS += utilities/ovs-appctl
utilities_ovs_appctl_SOURCES = utilities/ovs-appctl.c
utilities_ovs_appctl_LDADD = $(GENERIC_LIBS)
dist_man_MANS += utilities/ovs-appctl.8

bin_PROGRAMS += utilities/ovs-ofctl
utilities_ovs_ofctl_SOURCES = utilities/ovs-ofctl.c
utilities_ovs_ofctl_LDADD = $(GENERIC_LIBS)
dist_man_MANS += utilities/ovs-ofctl.8

bin_PROGRAMS += utilities/ovs-vsctl
utilities_ovs_vsctl_SOURCES = utilities/ovs-vsctl.c
utilities_ovs_vsctl_LDADD = $(OVSDB_IDL_LIBS)
dist_man_MANS += utilities/ovs-vsctl.8

# ovs-ctl: installed where Open vSwitch's is, for the service units.
scriptsdir = $(pkgdatadir)/scripts
scripts_SCRIPTS = utilities/ovs-ctl
EXTRA_DIST += utilities/ovs-ctl.in
CLEANFILES += utilities/ovs-ctl
utilities/ovs-ctl: utilities/ovs-ctl.in Makefile
	$(AM_V_GEN)$(MKDIR_P) utilities && \
	  sed -e 's,[@]RUNDIR[@],$(DPS_RUNDIR),g' \
	      -e 's,[@]LOGDIR[@],$(DPS_LOGDIR),g' \
	      -e 's,[@]DBDIR[@],$(DPS_DBDIR),g' \
	      -e 's,[@]SYSCONFDIR[@],$(sysconfdir),g' \
	      -e 's,[@]PKGDATADIR[@],$(pkgdatadir),g' \
	      -e 's,[@]BINDIR[@],$(bindir),g' \
	      -e 's,[@]SBINDIR[@],$(sbindir),g' \
	      -e 's,[@]VERSION[@],$(VERSION),g' \
	      $(srcdir)/utilities/ovs-ctl.in > $@.tmp && \
	  chmod +x $@.tmp && mv $@.tmp $@
dist_man_MANS += utilities/ovs-ctl.8

# systemd units with Open vSwitch's names, for the packages.
EXTRA_DIST += \
	utilities/systemd/openvswitch-switch.service \
	utilities/systemd/ovs-vswitchd.service \
	utilities/systemd/ovsdb-server.service
