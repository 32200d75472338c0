# rhel/: RPM packaging.

EXTRA_DIST += rhel/dpswitch.spec.in rhel/openvswitch.sysconfig
DISTCLEANFILES += rhel/dpswitch.spec

rhel/dpswitch.spec: rhel/dpswitch.spec.in $(top_builddir)/config.status
	$(AM_V_GEN)$(MKDIR_P) rhel && \
	  sed -e 's,[@]VERSION[@],$(VERSION),g' $(srcdir)/rhel/dpswitch.spec.in > $@.tmp && \
	  mv $@.tmp $@
