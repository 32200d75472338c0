/* The state machine that decides when a connection should be made, probed,
 * dropped and made again.
 *
 * A 'struct reconnect' does no I/O and reads no clock: its owner (such as a
 * jsonrpc_session) tells it what happened and when ('now', in milliseconds
 * of time_msec() or any other monotonic clock), and asks reconnect_run()
 * what to do next.  That makes it testable without sleeping.
 *
 * States:
 *
 *   VOID        Not enabled: nothing to do.  The initial state, and the
 *               state after reconnect_disable() or after the last of
 *               'max_tries' attempts has ended.
 *   BACKOFF     Waiting before the next attempt ('backoff' ms, 0 the first
 *               time).  When the wait is over, reconnect_run() says
 *               RECONNECT_CONNECT.
 *   CONNECTING  An active connection attempt is under way; the owner reports
 *               reconnect_connected() or reconnect_connect_failed().  An
 *               attempt that takes longer than MAX(1000, backoff) ms makes
 *               reconnect_run() say RECONNECT_DISCONNECT.
 *   LISTENING   Passive mode: listening, waiting for someone to connect.
 *   ACTIVE      Connected, and the peer has been heard from within the
 *               probe interval.
 *   IDLE        Connected; the peer has been silent for a probe interval,
 *               so a probe has been requested (RECONNECT_PROBE).  Any
 *               reconnect_activity() returns to ACTIVE; another silent
 *               interval makes reconnect_run() say RECONNECT_DISCONNECT.
 *   RECONNECT   Connected, but reconnect_force_reconnect() asked for the
 *               connection to be dropped: reconnect_run() says
 *               RECONNECT_DISCONNECT.
 *
 * Back-off: after a failed attempt the wait doubles, from 'min_backoff'
 * (default 1000 ms) up to 'max_backoff' (default 8000 ms).  After a
 * connection that stayed up at least as long as the current back-off, the
 * next wait starts again from 'min_backoff'; a connection that drops
 * sooner counts as a failure, so a peer that accepts and at once hangs up
 * is not hammered.  In passive mode, the end of a connection is followed
 * by listening again at once (the listening socket stays open), and only
 * failures to listen back off.
 *
 * Logging uses vlog module "reconnect": state changes that matter to a user
 * at INFO level, or at DBG level after reconnect_set_quiet(true).
 *
 * A 'struct reconnect' belongs to one thread at a time.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef RECONNECT_H
#define RECONNECT_H 1

#include <stdbool.h>

/* Defaults, in milliseconds. */
#define RECONNECT_DEFAULT_MIN_BACKOFF 1000
#define RECONNECT_DEFAULT_MAX_BACKOFF 8000
#define RECONNECT_DEFAULT_PROBE_INTERVAL 5000

/* What reconnect_run() asks the owner to do. */
enum reconnect_action {
    RECONNECT_NONE = 0,         /* Nothing now. */
    RECONNECT_CONNECT,          /* Start connecting (or listening), then
                                 * call reconnect_connecting() or
                                 * reconnect_listening() (or the failure
                                 * functions). */
    RECONNECT_DISCONNECT,       /* Drop the connection or abandon the
                                 * attempt, then call
                                 * reconnect_disconnected(). */
    RECONNECT_PROBE             /* Send a probe (an "echo" request). */
};

/* Statistics, from reconnect_get_stats().  Times are in the caller's clock;
 * LLONG_MAX means "never". */
struct reconnect_stats {
    long long int creation_time;     /* When created. */
    long long int last_activity;     /* Last reconnect_activity() etc. */
    long long int last_connected;    /* Last successful connection. */
    long long int last_disconnected; /* Last end of a connection. */
    int backoff;                     /* Current back-off, in ms. */
    unsigned int seqno;              /* Changes on connect and disconnect. */
    bool is_connected;               /* In ACTIVE, IDLE or RECONNECT? */
    unsigned int msec_since_connect;     /* 0 if never connected. */
    unsigned int msec_since_disconnect;  /* 0 if never disconnected. */
    unsigned long long int total_connected_duration; /* In ms. */
    unsigned int n_attempted_connections;
    unsigned int n_successful_connections;
    const char *state;               /* "VOID", "BACKOFF", ... */
    unsigned int state_elapsed;      /* Ms since entering 'state'. */
    int last_error;                  /* Last error reported, 0 if none. */
};

struct reconnect *reconnect_create(long long int now);
void reconnect_destroy(struct reconnect *);

/* Settings. */
void reconnect_set_name(struct reconnect *, const char *name);
const char *reconnect_get_name(const struct reconnect *);
void reconnect_set_quiet(struct reconnect *, bool quiet);
void reconnect_set_backoff(struct reconnect *, int min_backoff,
                           int max_backoff);
int reconnect_get_min_backoff(const struct reconnect *);
int reconnect_get_max_backoff(const struct reconnect *);
void reconnect_set_probe_interval(struct reconnect *, int probe_interval);
int reconnect_get_probe_interval(const struct reconnect *);
void reconnect_set_max_tries(struct reconnect *, unsigned int max_tries);
unsigned int reconnect_get_max_tries(const struct reconnect *);
void reconnect_set_passive(struct reconnect *, bool passive,
                           long long int now);
bool reconnect_is_passive(const struct reconnect *);

/* Control. */
void reconnect_enable(struct reconnect *, long long int now);
void reconnect_disable(struct reconnect *, long long int now);
bool reconnect_is_enabled(const struct reconnect *);
void reconnect_force_reconnect(struct reconnect *, long long int now);

/* Events the owner reports. */
void reconnect_connecting(struct reconnect *, long long int now);
void reconnect_listening(struct reconnect *, long long int now);
void reconnect_connected(struct reconnect *, long long int now);
void reconnect_connect_failed(struct reconnect *, long long int now,
                              int error);
void reconnect_listen_error(struct reconnect *, long long int now,
                            int error);
void reconnect_disconnected(struct reconnect *, long long int now,
                            int error);
void reconnect_activity(struct reconnect *, long long int now);

/* Decisions and queries. */
enum reconnect_action reconnect_run(struct reconnect *, long long int now);
void reconnect_wait(struct reconnect *, long long int now);
int reconnect_timeout(struct reconnect *, long long int now);
bool reconnect_is_connected(const struct reconnect *);
unsigned int reconnect_get_seqno(const struct reconnect *);
unsigned int reconnect_get_last_connect_elapsed(const struct reconnect *,
                                                long long int now);
unsigned int reconnect_get_last_disconnect_elapsed(const struct reconnect *,
                                                   long long int now);
void reconnect_get_stats(const struct reconnect *, long long int now,
                         struct reconnect_stats *);
const char *reconnect_action_to_string(enum reconnect_action);

#endif /* reconnect.h */
