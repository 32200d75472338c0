# lib/netdev-vhost.mk: vhost-user ports (dpdkvhostuser, dpdkvhostuserclient)
# through librte_vhost.
