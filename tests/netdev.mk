# tests/netdev.mk: tests of the netdev layer and the software port types.
