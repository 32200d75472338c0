# lib/netdev-vhost.mk: vhost-user ports (dpdkvhostuser, dpdkvhostuserclient)
# through librte_vhost.

lib_libdpswitch_dpif_a_SOURCES += \
	lib/netdev-vhost.c \
	lib/netdev-vhost.h

EXTRA_DIST += Documentation/topics/vhost-user.rst
