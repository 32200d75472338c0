# tests/ofproto.mk: unit tests of the slow path (MAC learning, NORMAL switching).

OFPROTO_UNIT_TESTS = \
	tests/test-mac-learning \
	tests/test-normal
check_PROGRAMS += $(OFPROTO_UNIT_TESTS)
TESTS += $(OFPROTO_UNIT_TESTS)

tests_test_mac_learning_SOURCES = tests/test-mac-learning.c
tests_test_mac_learning_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_mac_learning_LDADD = $(OFPROTO_LIBS) $(CMOCKA_LIBS)

tests_test_normal_SOURCES = tests/test-normal.c
tests_test_normal_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_normal_LDADD = $(OFPROTO_LIBS) $(CMOCKA_LIBS)
