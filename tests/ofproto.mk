# tests/ofproto.mk: unit tests of the slow path (MAC learning, NORMAL switching).
