# utilities/: the command-line tools.

bin_PROGRAMS += utilities/ovs-appctl
utilities_ovs_appctl_SOURCES = utilities/ovs-appctl.c
utilities_ovs_appctl_LDADD = $(GENERIC_LIBS)
dist_man_MANS += utilities/ovs-appctl.8

bin_PROGRAMS += utilities/ovs-vsctl
utilities_ovs_vsctl_SOURCES = utilities/ovs-vsctl.c
utilities_ovs_vsctl_LDADD = $(OVSDB_IDL_LIBS)
dist_man_MANS += utilities/ovs-vsctl.8
