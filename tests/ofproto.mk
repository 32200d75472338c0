# tests/ofproto.mk: unit tests of the slow path (bonds, LACP, MAC learning,
# mirrors, NORMAL switching, the OpenFlow classifier, flow tables and
# translation).

OFPROTO_UNIT_TESTS = \
	tests/test-bond \
	tests/test-lacp \
	tests/test-mac-learning \
	tests/test-mirror \
	tests/test-normal \
	tests/test-classifier \
	tests/test-ofproto \
	tests/test-ofproto-xlate
check_PROGRAMS += $(OFPROTO_UNIT_TESTS)
TESTS += $(OFPROTO_UNIT_TESTS)

tests_test_bond_SOURCES = tests/test-bond.c
tests_test_bond_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_bond_LDADD = $(OFPROTO_LIBS) $(CMOCKA_LIBS)

tests_test_lacp_SOURCES = tests/test-lacp.c
tests_test_lacp_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_lacp_LDADD = $(OFPROTO_LIBS) $(CMOCKA_LIBS)

tests_test_mac_learning_SOURCES = tests/test-mac-learning.c
tests_test_mac_learning_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_mac_learning_LDADD = $(OFPROTO_LIBS) $(CMOCKA_LIBS)

tests_test_mirror_SOURCES = tests/test-mirror.c
tests_test_mirror_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_mirror_LDADD = $(OFPROTO_LIBS) $(CMOCKA_LIBS)

tests_test_normal_SOURCES = tests/test-normal.c
tests_test_normal_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_normal_LDADD = $(OFPROTO_LIBS) $(CMOCKA_LIBS)

MATCH_TEST_COMMON = tests/match-test.c tests/match-test.h

tests_test_classifier_SOURCES = tests/test-classifier.c $(MATCH_TEST_COMMON)
tests_test_classifier_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_classifier_LDADD = $(GENERIC_LIBS) $(CMOCKA_LIBS)

tests_test_ofproto_SOURCES = tests/test-ofproto.c $(MATCH_TEST_COMMON)
tests_test_ofproto_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_ofproto_LDADD = $(OFPROTO_LIBS) $(CMOCKA_LIBS)

tests_test_ofproto_xlate_SOURCES = tests/test-ofproto-xlate.c
tests_test_ofproto_xlate_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_ofproto_xlate_LDADD = $(OFPROTO_LIBS) $(CMOCKA_LIBS)
