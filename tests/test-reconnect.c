/* Unit tests for lib/reconnect.c.  Every call takes an explicit "now", so
 * nothing here sleeps.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "reconnect.h"
#include "util.h"

/* An arbitrary starting time, far from 0 so that no arithmetic can hide
 * behind it. */
#define T0 1000000LL

static void
check_state(const struct reconnect *r, long long int now, const char *state)
{
    struct reconnect_stats stats;

    reconnect_get_stats(r, now, &stats);
    assert_string_equal(stats.state, state);
}

/* Checks that 'r' does nothing before 'when' and does 'action' at
 * 'when'. */
static void
check_action_at(struct reconnect *r, long long int before,
                long long int when, enum reconnect_action action)
{
    assert_int_equal(reconnect_timeout(r, before), when - before);
    assert_int_equal(reconnect_run(r, when - 1), RECONNECT_NONE);
    assert_int_equal(reconnect_timeout(r, when), 0);
    assert_int_equal(reconnect_run(r, when), action);
}

/* Returns a machine that has connected at 'T0'. */
static struct reconnect *
create_connected(void)
{
    struct reconnect *r = reconnect_create(T0);

    reconnect_set_name(r, "test");
    reconnect_enable(r, T0);
    assert_int_equal(reconnect_run(r, T0), RECONNECT_CONNECT);
    reconnect_connecting(r, T0);
    reconnect_connected(r, T0);
    return r;
}

static void
test_void_until_enabled(void **state DPS_UNUSED)
{
    struct reconnect *r = reconnect_create(T0);

    assert_string_equal(reconnect_get_name(r), "void");
    check_state(r, T0, "VOID");
    assert_false(reconnect_is_enabled(r));
    assert_int_equal(reconnect_run(r, T0 + 1000000), RECONNECT_NONE);
    assert_int_equal(reconnect_timeout(r, T0), -1);

    /* Events in VOID are ignored. */
    reconnect_disconnected(r, T0, ECONNREFUSED);
    check_state(r, T0, "VOID");

    reconnect_enable(r, T0 + 10);
    assert_true(reconnect_is_enabled(r));
    check_state(r, T0 + 10, "BACKOFF");
    /* The first attempt is immediate. */
    assert_int_equal(reconnect_timeout(r, T0 + 10), 0);
    assert_int_equal(reconnect_run(r, T0 + 10), RECONNECT_CONNECT);
    reconnect_connecting(r, T0 + 10);
    check_state(r, T0 + 10, "CONNECTING");
    reconnect_connected(r, T0 + 20);
    check_state(r, T0 + 20, "ACTIVE");
    assert_true(reconnect_is_connected(r));

    reconnect_disable(r, T0 + 30);
    check_state(r, T0 + 30, "VOID");
    assert_false(reconnect_is_connected(r));
    assert_int_equal(reconnect_run(r, T0 + 100000), RECONNECT_NONE);
    reconnect_destroy(r);
    reconnect_destroy(NULL);
}

static void
test_probe_and_idle_disconnect(void **state DPS_UNUSED)
{
    struct reconnect *r = create_connected();

    assert_int_equal(reconnect_get_probe_interval(r), 5000);

    /* Silent for an interval: probe, and go IDLE. */
    check_action_at(r, T0, T0 + 5000, RECONNECT_PROBE);
    check_state(r, T0 + 5000, "IDLE");
    assert_true(reconnect_is_connected(r));

    /* Silent for another interval: disconnect. */
    check_action_at(r, T0 + 5000, T0 + 10000, RECONNECT_DISCONNECT);
    reconnect_disconnected(r, T0 + 10000, ETIMEDOUT);
    check_state(r, T0 + 10000, "BACKOFF");
    assert_false(reconnect_is_connected(r));

    /* The connection lasted, so the back-off starts from the minimum. */
    check_action_at(r, T0 + 10000, T0 + 11000, RECONNECT_CONNECT);
    reconnect_destroy(r);
}

static void
test_activity_postpones_probe(void **state DPS_UNUSED)
{
    struct reconnect *r = create_connected();

    reconnect_activity(r, T0 + 3000);
    check_action_at(r, T0 + 3000, T0 + 8000, RECONNECT_PROBE);

    /* An answer in IDLE goes back to ACTIVE; the next probe is an interval
     * after it. */
    reconnect_activity(r, T0 + 8500);
    check_state(r, T0 + 8500, "ACTIVE");
    check_action_at(r, T0 + 8500, T0 + 13500, RECONNECT_PROBE);

    /* With probing disabled, silence is fine for ever. */
    reconnect_activity(r, T0 + 14000);
    reconnect_set_probe_interval(r, 0);
    assert_int_equal(reconnect_timeout(r, T0 + 14000), -1);
    assert_int_equal(reconnect_run(r, T0 + 100000000), RECONNECT_NONE);
    reconnect_set_probe_interval(r, -5);
    assert_int_equal(reconnect_get_probe_interval(r), 0);
    reconnect_destroy(r);
}

static void
test_backoff_growth(void **state DPS_UNUSED)
{
    static const int expected[] = { 1000, 2000, 4000, 8000, 8000, 8000 };
    struct reconnect *r = reconnect_create(T0);
    struct reconnect_stats stats;
    long long int now = T0;

    reconnect_enable(r, now);
    for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
        assert_int_equal(reconnect_run(r, now), RECONNECT_CONNECT);
        reconnect_connecting(r, now);
        now += 10;
        reconnect_connect_failed(r, now, ECONNREFUSED);
        reconnect_get_stats(r, now, &stats);
        assert_int_equal(stats.backoff, expected[i]);
        assert_int_equal(stats.last_error, ECONNREFUSED);
        check_action_at(r, now, now + expected[i], RECONNECT_CONNECT);
        now += expected[i];
    }
    reconnect_get_stats(r, now, &stats);
    assert_int_equal(stats.n_attempted_connections, ARRAY_SIZE(expected));
    assert_int_equal(stats.n_successful_connections, 0);
    assert_false(stats.is_connected);
    reconnect_destroy(r);
}

/* A connection that drops sooner than the back-off counts as a failure; one
 * that lasts resets the back-off. */
static void
test_backoff_after_connections(void **state DPS_UNUSED)
{
    struct reconnect *r = reconnect_create(T0);
    struct reconnect_stats stats;
    long long int now = T0;

    reconnect_set_backoff(r, 100, 1000);
    reconnect_set_probe_interval(r, 0);
    reconnect_enable(r, now);

    /* Three quick failures: 100, 200, 400. */
    for (int i = 0; i < 3; i++) {
        reconnect_run(r, now);
        reconnect_connecting(r, now);
        reconnect_connect_failed(r, now, ECONNREFUSED);
        reconnect_get_stats(r, now, &stats);
        now += stats.backoff;
    }
    assert_int_equal(stats.backoff, 400);

    /* Connected for 50 ms only: 800. */
    assert_int_equal(reconnect_run(r, now), RECONNECT_CONNECT);
    reconnect_connecting(r, now);
    reconnect_connected(r, now);
    now += 50;
    reconnect_disconnected(r, now, EOF);
    reconnect_get_stats(r, now, &stats);
    assert_int_equal(stats.backoff, 800);
    now += 800;

    /* Connected for 900 ms, longer than the back-off: back to 100. */
    assert_int_equal(reconnect_run(r, now), RECONNECT_CONNECT);
    reconnect_connecting(r, now);
    reconnect_connected(r, now);
    now += 900;
    reconnect_disconnected(r, now, EOF);
    reconnect_get_stats(r, now, &stats);
    assert_int_equal(stats.backoff, 100);
    assert_int_equal(stats.last_error, EOF);
    reconnect_destroy(r);
}

static void
test_connect_timeout(void **state DPS_UNUSED)
{
    struct reconnect *r = reconnect_create(T0);
    long long int now = T0;

    reconnect_set_backoff(r, 1000, 4000);
    reconnect_enable(r, now);
    reconnect_run(r, now);
    reconnect_connecting(r, now);
    /* At least a second, however short the back-off. */
    check_action_at(r, now, now + 1000, RECONNECT_DISCONNECT);
    now += 1000;
    reconnect_disconnected(r, now, ETIMEDOUT);
    now += 1000;
    reconnect_disconnected(r, now, 0);          /* Ignored in BACKOFF. */
    assert_int_equal(reconnect_run(r, now), RECONNECT_CONNECT);
    reconnect_connecting(r, now);
    reconnect_connect_failed(r, now, ETIMEDOUT);
    now += 2000;
    assert_int_equal(reconnect_run(r, now), RECONNECT_CONNECT);
    reconnect_connecting(r, now);
    reconnect_connect_failed(r, now, ETIMEDOUT);
    now += 4000;
    assert_int_equal(reconnect_run(r, now), RECONNECT_CONNECT);
    reconnect_connecting(r, now);

    /* With a 4-second back-off, an attempt may take 4 seconds. */
    check_action_at(r, now, now + 4000, RECONNECT_DISCONNECT);
    reconnect_destroy(r);
}

static void
test_max_tries(void **state DPS_UNUSED)
{
    struct reconnect *r = reconnect_create(T0);

    assert_int_equal(reconnect_get_max_tries(r), UINT_MAX);
    reconnect_set_max_tries(r, 2);
    reconnect_enable(r, T0);
    reconnect_run(r, T0);
    reconnect_connecting(r, T0);
    assert_int_equal(reconnect_get_max_tries(r), 1);
    reconnect_connect_failed(r, T0, ECONNREFUSED);
    check_state(r, T0, "BACKOFF");

    assert_int_equal(reconnect_run(r, T0 + 1000), RECONNECT_CONNECT);
    reconnect_connecting(r, T0 + 1000);
    assert_int_equal(reconnect_get_max_tries(r), 0);
    reconnect_connected(r, T0 + 1000);
    reconnect_disconnected(r, T0 + 2000, EOF);
    check_state(r, T0 + 2000, "VOID");
    assert_false(reconnect_is_enabled(r));

    /* Enabling again does nothing without tries. */
    reconnect_enable(r, T0 + 3000);
    assert_false(reconnect_is_enabled(r));
    reconnect_set_max_tries(r, 1);
    reconnect_enable(r, T0 + 3000);
    assert_true(reconnect_is_enabled(r));
    reconnect_destroy(r);
}

static void
test_passive(void **state DPS_UNUSED)
{
    struct reconnect *r = reconnect_create(T0);
    struct reconnect_stats stats;

    reconnect_set_passive(r, true, T0);
    assert_true(reconnect_is_passive(r));
    reconnect_enable(r, T0);
    assert_int_equal(reconnect_run(r, T0), RECONNECT_CONNECT);
    reconnect_listening(r, T0);
    check_state(r, T0, "LISTENING");

    /* Listening waits for ever. */
    assert_int_equal(reconnect_timeout(r, T0), -1);
    assert_int_equal(reconnect_run(r, T0 + 1000000), RECONNECT_NONE);

    reconnect_connected(r, T0 + 1000000);
    check_state(r, T0 + 1000000, "ACTIVE");

    /* The client leaves: listen again at once. */
    reconnect_disconnected(r, T0 + 1000010, EOF);
    assert_int_equal(reconnect_run(r, T0 + 1000010), RECONNECT_CONNECT);
    reconnect_listening(r, T0 + 1000010);

    /* Listening fails: back off. */
    reconnect_listen_error(r, T0 + 1000020, EADDRINUSE);
    check_action_at(r, T0 + 1000020, T0 + 1001020, RECONNECT_CONNECT);

    reconnect_get_stats(r, T0 + 1001020, &stats);
    assert_int_equal(stats.n_attempted_connections, 1);
    assert_int_equal(stats.n_successful_connections, 1);
    assert_int_equal(stats.last_error, EADDRINUSE);

    /* Switching mode while listening starts over at once. */
    reconnect_listening(r, T0 + 1001020);
    reconnect_set_passive(r, false, T0 + 1001030);
    assert_false(reconnect_is_passive(r));
    assert_int_equal(reconnect_run(r, T0 + 1001030), RECONNECT_CONNECT);
    reconnect_destroy(r);
}

static void
test_force_reconnect(void **state DPS_UNUSED)
{
    struct reconnect *r = reconnect_create(T0);

    /* Not connected: nothing to force. */
    reconnect_enable(r, T0);
    reconnect_force_reconnect(r, T0);
    check_state(r, T0, "BACKOFF");
    reconnect_destroy(r);

    r = create_connected();
    reconnect_force_reconnect(r, T0 + 100);
    check_state(r, T0 + 100, "RECONNECT");
    assert_true(reconnect_is_connected(r));
    assert_int_equal(reconnect_run(r, T0 + 100), RECONNECT_DISCONNECT);
    reconnect_disconnected(r, T0 + 100, 0);
    /* Reconnect at once. */
    assert_int_equal(reconnect_run(r, T0 + 100), RECONNECT_CONNECT);
    reconnect_destroy(r);
}

static void
test_stats_and_seqno(void **state DPS_UNUSED)
{
    struct reconnect *r = reconnect_create(T0);
    struct reconnect_stats stats;
    unsigned int seqno = reconnect_get_seqno(r);

    reconnect_set_name(r, "tcp:1.2.3.4:6640");
    assert_string_equal(reconnect_get_name(r), "tcp:1.2.3.4:6640");
    reconnect_set_name(r, NULL);
    assert_string_equal(reconnect_get_name(r), "void");
    reconnect_set_quiet(r, true);

    reconnect_get_stats(r, T0 + 5, &stats);
    assert_int_equal(stats.creation_time, T0);
    assert_true(stats.last_connected == LLONG_MAX);
    assert_true(stats.last_disconnected == LLONG_MAX);
    assert_int_equal(stats.msec_since_connect, 0);
    assert_int_equal(stats.state_elapsed, 5);
    assert_int_equal(reconnect_get_last_connect_elapsed(r, T0), UINT_MAX);
    assert_int_equal(reconnect_get_last_disconnect_elapsed(r, T0), UINT_MAX);

    reconnect_enable(r, T0);
    reconnect_run(r, T0);
    reconnect_connecting(r, T0);
    reconnect_connected(r, T0 + 100);
    assert_int_not_equal(reconnect_get_seqno(r), seqno);
    seqno = reconnect_get_seqno(r);

    reconnect_get_stats(r, T0 + 600, &stats);
    assert_true(stats.is_connected);
    assert_int_equal(stats.last_connected, T0 + 100);
    assert_int_equal(stats.msec_since_connect, 500);
    assert_int_equal(stats.total_connected_duration, 500);
    assert_int_equal(reconnect_get_last_connect_elapsed(r, T0 + 600), 500);

    reconnect_activity(r, T0 + 700);
    reconnect_disconnected(r, T0 + 1100, ECONNRESET);
    assert_int_not_equal(reconnect_get_seqno(r), seqno);
    reconnect_get_stats(r, T0 + 1200, &stats);
    assert_false(stats.is_connected);
    assert_int_equal(stats.last_activity, T0 + 700);
    assert_int_equal(stats.last_disconnected, T0 + 1100);
    assert_int_equal(stats.msec_since_disconnect, 100);
    assert_int_equal(stats.total_connected_duration, 1000);
    assert_int_equal(stats.n_attempted_connections, 1);
    assert_int_equal(stats.n_successful_connections, 1);
    assert_int_equal(stats.last_error, ECONNRESET);
    assert_int_equal(reconnect_get_last_disconnect_elapsed(r, T0 + 1200),
                     100);
    reconnect_destroy(r);
}

static void
test_settings(void **state DPS_UNUSED)
{
    struct reconnect *r = reconnect_create(T0);

    assert_int_equal(reconnect_get_min_backoff(r), 1000);
    assert_int_equal(reconnect_get_max_backoff(r), 8000);
    reconnect_set_backoff(r, 0, -1);
    assert_int_equal(reconnect_get_min_backoff(r), 1);
    assert_int_equal(reconnect_get_max_backoff(r), 1);
    reconnect_set_backoff(r, 500, 200);
    assert_int_equal(reconnect_get_min_backoff(r), 500);
    assert_int_equal(reconnect_get_max_backoff(r), 500);

    assert_string_equal(reconnect_action_to_string(RECONNECT_NONE), "none");
    assert_string_equal(reconnect_action_to_string(RECONNECT_CONNECT),
                        "connect");
    assert_string_equal(reconnect_action_to_string(RECONNECT_DISCONNECT),
                        "disconnect");
    assert_string_equal(reconnect_action_to_string(RECONNECT_PROBE),
                        "probe");
    reconnect_destroy(r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_void_until_enabled),
        cmocka_unit_test(test_probe_and_idle_disconnect),
        cmocka_unit_test(test_activity_postpones_probe),
        cmocka_unit_test(test_backoff_growth),
        cmocka_unit_test(test_backoff_after_connections),
        cmocka_unit_test(test_connect_timeout),
        cmocka_unit_test(test_max_tries),
        cmocka_unit_test(test_passive),
        cmocka_unit_test(test_force_reconnect),
        cmocka_unit_test(test_stats_and_seqno),
        cmocka_unit_test(test_settings),
    };

    return cmocka_run_group_tests_name("reconnect", tests, NULL, NULL);
}
