# debian/: Debian packaging ("dpkg-buildpackage -us -uc -b" from the tree).

EXTRA_DIST += \
	debian/changelog \
	debian/control \
	debian/copyright \
	debian/dpswitch-common.install \
	debian/rules \
	debian/source/format
