# utilities/: the command-line tools.

bin_PROGRAMS += utilities/ovs-appctl
utilities_ovs_appctl_SOURCES = utilities/ovs-appctl.c
utilities_ovs_appctl_LDADD = $(GENERIC_LIBS)
dist_man_MANS += utilities/ovs-appctl.8
