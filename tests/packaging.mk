# Packaging tests (root): "make check-packaging" builds the Debian packages
# from a clean copy of the tree (make distdir), installs them, runs the switch
# through ovs-ctl, takes over a database left by Debian's Open vSwitch 3.1,
# gives it back and purges them; "make check-rpm" builds the RPMs and checks
# their file lists against "make install".  The test command runs both.

EXTRA_DIST += tests/check-packaging.sh tests/check-rpm.sh

# Debian's openvswitch-switch 3.1, unpacked (utilities/dps-quickstart).
DPS_PKG_REF_ROOT = $${DPS_REF_ROOT:-$(abs_top_srcdir)/_ref/root}

check-packaging: distdir
	$(SHELL) $(srcdir)/tests/check-packaging.sh $(distdir) \
	  $(DPS_PKG_REF_ROOT); \
	rc=$$?; rm -rf $(distdir); exit $$rc

check-rpm: dist rhel/dpswitch.spec
	$(SHELL) $(srcdir)/tests/check-rpm.sh $(distdir).tar.gz \
	  rhel/dpswitch.spec; \
	rc=$$?; rm -f $(distdir).tar.gz; exit $$rc

# rpm: the binary RPMs in rpmbuild/RPMS.  Debian's rpmbuild cannot see the
# build dependencies that dpkg installed, hence --nodeps; RPMBUILD_OPT adds
# options (e.g. --nocheck).
rpm: dist rhel/dpswitch.spec
	rm -rf rpmbuild && $(MKDIR_P) rpmbuild/SOURCES
	cp $(distdir).tar.gz rpmbuild/SOURCES/
	rpmbuild -bb --nodeps $(RPMBUILD_OPT) \
	  --define "_topdir $(abs_builddir)/rpmbuild" rhel/dpswitch.spec

.PHONY: check-packaging check-rpm rpm
