/* Recording and replaying a program's inputs, as Open vSwitch's
 * --record[=DIR] and --replay[=DIR] options do (ovsdb-server(1),
 * ovsdb-client(1)).
 *
 * While recording, every stream the program opens or accepts (stream.h)
 * and every UUID it generates leaves a trace in a "replay file" in DIR;
 * while replaying, the program reads those files instead of opening real
 * sockets and drawing random numbers, so that it runs again through the
 * same inputs in the same order.
 *
 * The files are Open vSwitch's:
 *
 *   - One per stream (or source of UUIDs), named "replay_NAME_SEQNO":
 *     NAME is the stream's name ("unix:db.sock", "punix:/run/x.123.ctl",
 *     "unix#0" for an accepted connection; "<uuid_generate>" for UUIDs)
 *     with every run of characters other than letters turned into one
 *     '_' and a final '_' dropped (so that process ids and port numbers
 *     do not count), and SEQNO the sequence number at the time it was
 *     opened.
 *
 *   - A sequence of records, each a 32-bit signed sequence number and a
 *     32-bit signed value, in host byte order; the sequence number is
 *     negative for a "write" record (a send), positive for a "read" one
 *     (an open, an accept, a receive, a UUID).  A read record whose value
 *     is positive is followed by that many bytes of data: what was
 *     received, the name of an accepted stream, the 16 bytes of a UUID.
 *     Otherwise the value is 0 (success, or end of file for a receive) or
 *     a negative errno value (-EAGAIN included).
 *
 * One sequence number, counting up from 0, orders every file's opening and
 * every record of the process; a replay takes each event only in its
 * recorded turn, so that connections and data interleave as they did.
 *
 * Single-threaded: only the main thread may use streams that record or
 * replay.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef REPLAY_H
#define REPLAY_H 1

#include <stdbool.h>
#include <stddef.h>

enum replay_mode {
    REPLAY_NONE,                /* Neither recording nor replaying. */
    REPLAY_RECORD,              /* --record. */
    REPLAY_REPLAY               /* --replay. */
};

/* Options, for a program's getopt_long() table. */
#define REPLAY_LONG_OPTIONS                                     \
    {"record", optional_argument, NULL, OPT_REPLAY_RECORD},     \
    {"replay", optional_argument, NULL, OPT_REPLAY_REPLAY}
#define REPLAY_OPTION_ENUMS OPT_REPLAY_RECORD, OPT_REPLAY_REPLAY
#define REPLAY_OPTION_HANDLERS                          \
    case OPT_REPLAY_RECORD:                             \
        replay_set_mode(REPLAY_RECORD, optarg);         \
        break;                                          \
    case OPT_REPLAY_REPLAY:                             \
        replay_set_mode(REPLAY_REPLAY, optarg);         \
        break;

void replay_set_mode(enum replay_mode, const char *dir);
enum replay_mode replay_get_mode(void);
void replay_usage(void);

struct replay_file;
int replay_file_open(const char *name, struct replay_file **);
void replay_file_close(struct replay_file *);
void replay_file_write(struct replay_file *, bool is_read, int value,
                       const void *data);
bool replay_file_has_next(struct replay_file *);
bool replay_file_is_next(struct replay_file *, bool is_read);
int replay_file_read(struct replay_file *, bool is_read, int *valuep,
                     void **datap);

void replay_uuid(void *uuid, size_t size);

#endif /* replay.h */
