# debian/: Debian packaging ("dpkg-buildpackage -b -us -uc" from the tree).

EXTRA_DIST += \
	debian/changelog \
	debian/control \
	debian/copyright \
	debian/dpswitch-common.install \
	debian/dpswitch-switch.dirs \
	debian/dpswitch-switch.install \
	debian/dpswitch-switch.openvswitch-switch.init \
	debian/dpswitch-switch.postinst \
	debian/dpswitch-switch.postrm \
	debian/dpswitch-switch.prerm \
	debian/extra/default/openvswitch-switch \
	debian/extra/logrotate.d/openvswitch-switch \
	debian/rules \
	debian/source/format
