/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "reconnect.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "poll-loop.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(reconnect);

/* The states, with their names for statistics.  See reconnect.h. */
#define RECONNECT_STATES  \
    RECONNECT_STATE(VOID) \
    RECONNECT_STATE(BACKOFF) \
    RECONNECT_STATE(CONNECTING) \
    RECONNECT_STATE(LISTENING) \
    RECONNECT_STATE(ACTIVE) \
    RECONNECT_STATE(IDLE) \
    RECONNECT_STATE(RECONNECT)

enum reconnect_state {
#define RECONNECT_STATE(NAME) S_##NAME,
    RECONNECT_STATES
#undef RECONNECT_STATE
};

struct reconnect {
    /* Settings. */
    char *name;
    int min_backoff;
    int max_backoff;
    int probe_interval;         /* 0: no probes. */
    bool passive;
    enum vlog_level info_level; /* VLL_INFO, or VLL_DBG when quiet. */
    unsigned int max_tries;     /* Attempts left; UINT_MAX: unlimited. */

    /* State. */
    enum reconnect_state state;
    long long int state_entered;
    int backoff;                /* Current wait in BACKOFF, in ms. */
    long long int last_activity;
    long long int last_connected;
    long long int last_disconnected;
    int last_error;
    unsigned int seqno;

    /* Statistics. */
    long long int creation_time;
    unsigned int n_attempted_connections;
    unsigned int n_successful_connections;
    unsigned long long int total_connected_duration;
};

static void reconnect_transition(struct reconnect *, long long int now,
                                 enum reconnect_state);
static long long int reconnect_deadline(const struct reconnect *);
static bool is_connected_state(enum reconnect_state);
static const char *state_name(enum reconnect_state);
static const char *error_string(int error);
static void use_up_try(struct reconnect *);

/* Creates and returns a new state machine in the VOID state, with the
 * default back-off and probe interval, unlimited tries, active mode, and
 * the name "void".  'now' is the current time. */
struct reconnect *
reconnect_create(long long int now)
{
    struct reconnect *r = xzalloc(sizeof *r);

    r->name = xstrdup("void");
    r->min_backoff = RECONNECT_DEFAULT_MIN_BACKOFF;
    r->max_backoff = RECONNECT_DEFAULT_MAX_BACKOFF;
    r->probe_interval = RECONNECT_DEFAULT_PROBE_INTERVAL;
    r->info_level = VLL_INFO;
    r->max_tries = UINT_MAX;

    r->state = S_VOID;
    r->state_entered = now;
    r->last_activity = now;
    r->last_connected = LLONG_MAX;
    r->last_disconnected = LLONG_MAX;
    r->creation_time = now;
    return r;
}

/* Frees 'r'.  Does nothing if 'r' is NULL. */
void
reconnect_destroy(struct reconnect *r)
{
    if (r) {
        free(r->name);
        free(r);
    }
}

/* Sets the name 'r' uses in log messages (usually the connection's name)
 * to a copy of 'name', or to "void" if 'name' is NULL. */
void
reconnect_set_name(struct reconnect *r, const char *name)
{
    free(r->name);
    r->name = xstrdup(name ? name : "void");
}

/* Returns the name set by reconnect_set_name(). */
const char *
reconnect_get_name(const struct reconnect *r)
{
    return r->name;
}

/* With 'quiet' true, 'r' logs its state changes at DBG level instead of
 * INFO; errors are still logged as errors.  For connections a user does
 * not care about individually, such as those a server accepted. */
void
reconnect_set_quiet(struct reconnect *r, bool quiet)
{
    r->info_level = quiet ? VLL_DBG : VLL_INFO;
}

/* Sets the shortest and longest waits between attempts to 'min_backoff'
 * and 'max_backoff' ms.  'min_backoff' is raised to at least 1 and
 * 'max_backoff' to at least 'min_backoff'; a current back-off longer than
 * the new maximum is shortened. */
void
reconnect_set_backoff(struct reconnect *r, int min_backoff, int max_backoff)
{
    r->min_backoff = MAX(min_backoff, 1);
    r->max_backoff = MAX(max_backoff, r->min_backoff);
    if (r->backoff > r->max_backoff) {
        r->backoff = r->max_backoff;
    }
}

/* Returns the shortest wait between attempts, in ms. */
int
reconnect_get_min_backoff(const struct reconnect *r)
{
    return r->min_backoff;
}

/* Returns the longest wait between attempts, in ms. */
int
reconnect_get_max_backoff(const struct reconnect *r)
{
    return r->max_backoff;
}

/* Sets how long, in ms, a connection may stay silent before 'r' asks for a
 * probe, and then how long the probe may go unanswered before it asks for
 * the connection to be dropped.  0 or less disables probing. */
void
reconnect_set_probe_interval(struct reconnect *r, int probe_interval)
{
    r->probe_interval = MAX(probe_interval, 0);
}

/* Returns the probe interval in ms, 0 if probing is disabled. */
int
reconnect_get_probe_interval(const struct reconnect *r)
{
    return r->probe_interval;
}

/* Limits 'r' to 'max_tries' more connection attempts (UINT_MAX: no limit).
 * Once they are used up, the end of the last attempt or connection takes
 * 'r' to the VOID state instead of BACKOFF. */
void
reconnect_set_max_tries(struct reconnect *r, unsigned int max_tries)
{
    r->max_tries = max_tries;
}

/* Returns the number of connection attempts 'r' has left (UINT_MAX: no
 * limit). */
unsigned int
reconnect_get_max_tries(const struct reconnect *r)
{
    return r->max_tries;
}

/* Puts 'r' in passive mode (it listens for connections) if 'passive' is
 * true, in active mode (it connects) otherwise.  An attempt under way in
 * the old mode is abandoned and a new one starts at once. */
void
reconnect_set_passive(struct reconnect *r, bool passive, long long int now)
{
    if (r->passive != passive) {
        r->passive = passive;
        if (r->state == S_CONNECTING || r->state == S_LISTENING) {
            r->backoff = 0;
            reconnect_transition(r, now, S_BACKOFF);
        }
    }
}

/* Returns true if 'r' is in passive mode. */
bool
reconnect_is_passive(const struct reconnect *r)
{
    return r->passive;
}

/* Starts 'r' if it is in the VOID state and has tries left: the first
 * reconnect_run() then asks for a connection at once. */
void
reconnect_enable(struct reconnect *r, long long int now)
{
    if (r->state == S_VOID && r->max_tries > 0) {
        r->backoff = 0;
        reconnect_transition(r, now, S_BACKOFF);
    }
}

/* Stops 'r': it goes to the VOID state and asks for nothing more.  The
 * owner should drop any connection itself. */
void
reconnect_disable(struct reconnect *r, long long int now)
{
    if (r->state != S_VOID) {
        reconnect_transition(r, now, S_VOID);
    }
}

/* Returns true unless 'r' is in the VOID state. */
bool
reconnect_is_enabled(const struct reconnect *r)
{
    return r->state != S_VOID;
}

/* If 'r' is connected, makes the next reconnect_run() ask for the
 * connection to be dropped; a new connection is then attempted at once. */
void
reconnect_force_reconnect(struct reconnect *r, long long int now)
{
    if (r->state == S_ACTIVE || r->state == S_IDLE) {
        reconnect_transition(r, now, S_RECONNECT);
    }
}

/* Tells 'r' that its owner has started an active connection attempt. */
void
reconnect_connecting(struct reconnect *r, long long int now)
{
    if (r->state != S_CONNECTING) {
        VLOG(r->info_level, "%s: connecting...", r->name);
        use_up_try(r);
        r->n_attempted_connections++;
        reconnect_transition(r, now, S_CONNECTING);
    }
}

/* Tells 'r' that its owner is listening for a connection (passive
 * mode). */
void
reconnect_listening(struct reconnect *r, long long int now)
{
    if (r->state != S_LISTENING) {
        VLOG(r->info_level, "%s: listening...", r->name);
        use_up_try(r);
        reconnect_transition(r, now, S_LISTENING);
    }
}

/* Tells 'r' that a connection has been made (or, in passive mode,
 * accepted).  Counts as activity. */
void
reconnect_connected(struct reconnect *r, long long int now)
{
    if (!is_connected_state(r->state)) {
        VLOG(r->info_level, "%s: connected", r->name);
        if (r->passive) {
            r->n_attempted_connections++;
        }
        r->n_successful_connections++;
        r->last_connected = now;
        r->last_activity = now;
        r->seqno++;
        reconnect_transition(r, now, S_ACTIVE);
    }
}

/* Tells 'r' that a connection attempt failed with 'error' (a positive
 * errno value).  The same as reconnect_disconnected(). */
void
reconnect_connect_failed(struct reconnect *r, long long int now, int error)
{
    reconnect_disconnected(r, now, error);
}

/* Tells 'r' that listening failed with 'error' (a positive errno value).
 * The same as reconnect_disconnected(). */
void
reconnect_listen_error(struct reconnect *r, long long int now, int error)
{
    reconnect_disconnected(r, now, error);
}

/* Tells 'r' that the connection, or the attempt to make one, has ended:
 * with 'error' a positive errno value, EOF (the peer closed it) or 0 (the
 * owner closed it).  'r' goes to BACKOFF, with a wait chosen as described
 * in reconnect.h, or to VOID if it has no tries left.  Does nothing in the
 * VOID and BACKOFF states. */
void
reconnect_disconnected(struct reconnect *r, long long int now, int error)
{
    enum reconnect_state old_state = r->state;
    bool was_connected = is_connected_state(old_state);

    if (old_state == S_VOID || old_state == S_BACKOFF) {
        return;
    }
    if (error) {
        r->last_error = error;
    }

    if (was_connected) {
        r->last_disconnected = now;
        r->total_connected_duration += now - r->last_connected;
        r->seqno++;
        if (error > 0) {
            VLOG_WARN("%s: connection dropped (%s)", r->name,
                      error_string(error));
        } else {
            VLOG(r->info_level, "%s: %s", r->name, error_string(error));
        }
    } else if (r->passive) {
        VLOG_WARN("%s: error listening for connections (%s)", r->name,
                  error_string(error));
    } else {
        VLOG(r->info_level, "%s: connection attempt failed (%s)", r->name,
             error_string(error));
    }

    if (old_state == S_RECONNECT || (was_connected && r->passive)) {
        /* Asked to reconnect, or a passive peer left: be ready again at
         * once. */
        r->backoff = 0;
    } else if (was_connected && now - r->last_connected >= r->backoff) {
        /* The connection lasted: the trouble is over. */
        r->backoff = r->min_backoff;
    } else if (r->backoff < r->min_backoff) {
        r->backoff = r->min_backoff;
    } else {
        r->backoff = (r->backoff > r->max_backoff / 2
                      ? r->max_backoff : 2 * r->backoff);
    }

    if (!r->max_tries) {
        VLOG(r->info_level, "%s: giving up", r->name);
        reconnect_transition(r, now, S_VOID);
        return;
    }
    if (r->backoff > 0 && !r->passive) {
        VLOG(r->info_level, "%s: waiting %.3g seconds before reconnect",
             r->name, r->backoff / 1000.0);
    }
    reconnect_transition(r, now, S_BACKOFF);
}

/* Tells 'r' that the peer was heard from: anything received counts.  Ends
 * the IDLE state. */
void
reconnect_activity(struct reconnect *r, long long int now)
{
    if (r->state == S_IDLE) {
        reconnect_transition(r, now, S_ACTIVE);
    }
    r->last_activity = now;
}

/* Returns what the owner of 'r' should do now, and makes the state changes
 * that go with it: RECONNECT_PROBE moves ACTIVE to IDLE.  The owner must
 * act on the answer and report the outcome (see enum reconnect_action). */
enum reconnect_action
reconnect_run(struct reconnect *r, long long int now)
{
    if (now < reconnect_deadline(r)) {
        return RECONNECT_NONE;
    }

    switch (r->state) {
    case S_BACKOFF:
        return RECONNECT_CONNECT;

    case S_CONNECTING:
        VLOG(r->info_level, "%s: connection attempt timed out", r->name);
        return RECONNECT_DISCONNECT;

    case S_ACTIVE:
        VLOG_DBG("%s: idle %lld ms, sending inactivity probe", r->name,
                 now - MAX(r->last_activity, r->state_entered));
        reconnect_transition(r, now, S_IDLE);
        return RECONNECT_PROBE;

    case S_IDLE:
        VLOG_ERR("%s: no response to inactivity probe after %.3g seconds, "
                 "disconnecting", r->name, (now - r->state_entered) / 1000.0);
        return RECONNECT_DISCONNECT;

    case S_RECONNECT:
        return RECONNECT_DISCONNECT;

    case S_VOID:
    case S_LISTENING:
    default:
        return RECONNECT_NONE;
    }
}

/* Makes poll_block() wake when reconnect_run() will next have something to
 * say. */
void
reconnect_wait(struct reconnect *r, long long int now)
{
    int timeout = reconnect_timeout(r, now);

    if (timeout >= 0) {
        poll_timer_wait(timeout);
    }
}

/* Returns how many ms from 'now' reconnect_run() will next have something
 * to say (0 if it has now), or -1 if it is waiting only for events. */
int
reconnect_timeout(struct reconnect *r, long long int now)
{
    long long int deadline = reconnect_deadline(r);

    if (deadline == LLONG_MAX) {
        return -1;
    } else if (deadline <= now) {
        return 0;
    } else {
        return deadline - now > INT_MAX ? INT_MAX : (int) (deadline - now);
    }
}

/* Returns true if 'r' is connected (ACTIVE, IDLE or RECONNECT). */
bool
reconnect_is_connected(const struct reconnect *r)
{
    return is_connected_state(r->state);
}

/* Returns a number that changes every time 'r' connects or disconnects. */
unsigned int
reconnect_get_seqno(const struct reconnect *r)
{
    return r->seqno;
}

/* Returns the ms since the last successful connection, or UINT_MAX if
 * there never was one. */
unsigned int
reconnect_get_last_connect_elapsed(const struct reconnect *r,
                                   long long int now)
{
    return (r->last_connected == LLONG_MAX ? UINT_MAX
            : (unsigned int) (now - r->last_connected));
}

/* Returns the ms since the last connection ended, or UINT_MAX if none
 * ever has. */
unsigned int
reconnect_get_last_disconnect_elapsed(const struct reconnect *r,
                                      long long int now)
{
    return (r->last_disconnected == LLONG_MAX ? UINT_MAX
            : (unsigned int) (now - r->last_disconnected));
}

/* Fills in 'stats' for 'r' as of 'now'. */
void
reconnect_get_stats(const struct reconnect *r, long long int now,
                    struct reconnect_stats *stats)
{
    bool connected = is_connected_state(r->state);

    stats->creation_time = r->creation_time;
    stats->last_activity = r->last_activity;
    stats->last_connected = r->last_connected;
    stats->last_disconnected = r->last_disconnected;
    stats->backoff = r->backoff;
    stats->seqno = r->seqno;
    stats->is_connected = connected;
    stats->msec_since_connect = (r->last_connected == LLONG_MAX ? 0
                                 : now - r->last_connected);
    stats->msec_since_disconnect = (r->last_disconnected == LLONG_MAX ? 0
                                    : now - r->last_disconnected);
    stats->total_connected_duration = r->total_connected_duration;
    if (connected) {
        stats->total_connected_duration += now - r->last_connected;
    }
    stats->n_attempted_connections = r->n_attempted_connections;
    stats->n_successful_connections = r->n_successful_connections;
    stats->state = state_name(r->state);
    stats->state_elapsed = now - r->state_entered;
    stats->last_error = r->last_error;
}

/* Returns the name of 'action': "none", "connect", "disconnect" or
 * "probe". */
const char *
reconnect_action_to_string(enum reconnect_action action)
{
    switch (action) {
    case RECONNECT_NONE:
        return "none";
    case RECONNECT_CONNECT:
        return "connect";
    case RECONNECT_DISCONNECT:
        return "disconnect";
    case RECONNECT_PROBE:
        return "probe";
    }
    return "(unknown action)";
}

static void
reconnect_transition(struct reconnect *r, long long int now,
                     enum reconnect_state state)
{
    VLOG_DBG("%s: entering %s", r->name, state_name(state));
    r->state = state;
    r->state_entered = now;
}

/* Returns the time at which reconnect_run() will next act in the current
 * state, or LLONG_MAX if only an event can move 'r' on. */
static long long int
reconnect_deadline(const struct reconnect *r)
{
    switch (r->state) {
    case S_BACKOFF:
        return r->state_entered + r->backoff;
    case S_CONNECTING:
        return r->state_entered + MAX(1000, r->backoff);
    case S_ACTIVE:
        return (r->probe_interval
                ? MAX(r->last_activity, r->state_entered) + r->probe_interval
                : LLONG_MAX);
    case S_IDLE:
        return (r->probe_interval
                ? r->state_entered + r->probe_interval
                : LLONG_MAX);
    case S_RECONNECT:
        return r->state_entered;
    case S_VOID:
    case S_LISTENING:
    default:
        return LLONG_MAX;
    }
}

static bool
is_connected_state(enum reconnect_state state)
{
    return state == S_ACTIVE || state == S_IDLE || state == S_RECONNECT;
}

static const char *
state_name(enum reconnect_state state)
{
    static const char *const names[] = {
#define RECONNECT_STATE(NAME) #NAME,
        RECONNECT_STATES
#undef RECONNECT_STATE
    };

    return state < ARRAY_SIZE(names) ? names[state] : "(unknown state)";
}

static const char *
error_string(int error)
{
    return (error == EOF ? "connection closed by peer"
            : !error ? "connection closed"
            : util_strerror(error));
}

static void
use_up_try(struct reconnect *r)
{
    if (r->max_tries != UINT_MAX && r->max_tries > 0) {
        r->max_tries--;
    }
}
