/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "replay.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dirs.h"
#include "dynamic-string.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(replay);

/* A replay file, being written (recording) or read (replaying). */
struct replay_file {
    FILE *file;
    char *file_name;

    /* Replaying: the header of the next record, if read ahead. */
    bool has_next;
    int32_t next_seqno;         /* Negative for a write record. */
    int32_t next_value;
    bool at_end;                /* No more records. */
};

static enum replay_mode mode = REPLAY_NONE;
static char *replay_dir;
static int32_t seqno;           /* The next event's sequence number. */
static struct replay_file *uuid_file;

static char *replay_file_name(const char *name, int32_t n);
static bool replay_file_peek(struct replay_file *);

/* Puts the program in 'new_mode', with replay files in 'dir' (relative to
 * the run directory; NULL for the run directory itself).  For option
 * parsing: call it before anything opens a stream. */
void
replay_set_mode(enum replay_mode new_mode, const char *dir)
{
    mode = new_mode;
    free(replay_dir);
    replay_dir = util_abs_file_name(dirs_rundir(), dir && dir[0] ? dir : ".");
}

/* Returns what the program does: record, replay or neither. */
enum replay_mode
replay_get_mode(void)
{
    return mode;
}

/* Prints the options' help, for a program's --help, as Open vSwitch words
 * it. */
void
replay_usage(void)
{
    printf("\nReplay options:\n"
           "  --record[=DIR]            turn on writing replay files\n"
           "  --replay[=DIR]            run from replay files\n");
}

/* Opens the replay file of the stream (or other source of events) 'name',
 * which takes the next sequence number: creates it when recording, opens it
 * for reading when replaying.  Returns 0 and stores the file in '*filep',
 * or a positive errno value (logged). */
int
replay_file_open(const char *name, struct replay_file **filep)
{
    char *file_name = replay_file_name(name, seqno++);
    FILE *file = fopen(file_name, mode == REPLAY_RECORD ? "wb" : "rb");

    *filep = NULL;
    if (!file) {
        int error = errno;

        VLOG_ERR("%s: %s replay file failed (%s)", file_name,
                 mode == REPLAY_RECORD ? "creating" : "opening",
                 util_strerror(error));
        free(file_name);
        return error;
    }
    VLOG_DBG("%s: replay file of %s", file_name, name);
    *filep = xzalloc(sizeof **filep);
    (*filep)->file = file;
    (*filep)->file_name = file_name;
    return 0;
}

/* Closes 'f' (which may be NULL). */
void
replay_file_close(struct replay_file *f)
{
    if (f) {
        fclose(f->file);
        free(f->file_name);
        free(f);
    }
}

/* Recording: appends to 'f' a record of the next sequence number, a read
 * record if 'is_read' and a write one otherwise, with 'value' and, for a
 * read record whose 'value' is positive, that many bytes of 'data'. */
void
replay_file_write(struct replay_file *f, bool is_read, int value,
                  const void *data)
{
    int32_t header[2];

    header[0] = is_read ? seqno : -seqno;
    header[1] = value;
    seqno++;
    if (fwrite(header, sizeof header, 1, f->file) != 1
        || (is_read && value > 0
            && fwrite(data, value, 1, f->file) != 1)
        || fflush(f->file)) {
        VLOG_ERR("%s: write failed (%s)", f->file_name,
                 util_strerror(errno));
    }
}

/* Replaying: returns true if 'f' has another record. */
bool
replay_file_has_next(struct replay_file *f)
{
    return replay_file_peek(f);
}

/* Replaying: returns true if the next record of 'f' is the next event of
 * the process and is a read record if 'is_read', a write record if not. */
bool
replay_file_is_next(struct replay_file *f, bool is_read)
{
    return (replay_file_peek(f)
            && f->next_seqno == (is_read ? seqno : -seqno));
}

/* Replaying: takes the next record of 'f', which should be a read record if
 * 'is_read' and a write one if not.  Stores its value in '*valuep' and, if
 * 'datap' is nonnull, its data (for a read record with a positive value)
 * in '*datap', which the caller must free (NULL if there is none).
 * Returns 0, EOF if 'f' has no more records, or EINVAL for a record of the
 * wrong kind or a truncated one (logged).  The process's sequence number
 * moves past the record's. */
int
replay_file_read(struct replay_file *f, bool is_read, int *valuep,
                 void **datap)
{
    if (datap) {
        *datap = NULL;
    }
    *valuep = 0;
    if (!replay_file_peek(f)) {
        return EOF;
    }
    f->has_next = false;
    if ((f->next_seqno > 0) != is_read) {
        VLOG_ERR("%s: expected a %s record, found a %s one", f->file_name,
                 is_read ? "read" : "write", is_read ? "write" : "read");
        f->at_end = true;
        return EINVAL;
    }
    if (f->next_seqno != (is_read ? seqno : -seqno)) {
        VLOG_WARN("%s: record %d taken at sequence number %d",
                  f->file_name, abs(f->next_seqno), seqno);
    }
    seqno = abs(f->next_seqno) + 1;
    *valuep = f->next_value;
    if (is_read && f->next_value > 0) {
        void *data = xmalloc(f->next_value);

        if (fread(data, f->next_value, 1, f->file) != 1) {
            VLOG_ERR("%s: truncated record", f->file_name);
            free(data);
            f->at_end = true;
            return EINVAL;
        }
        if (datap) {
            *datap = data;
        } else {
            free(data);
        }
    }
    return 0;
}

/* Records (recording) or replaces by the recorded one (replaying) the
 * 'size' bytes of a UUID just generated in 'uuid'. */
void
replay_uuid(void *uuid, size_t size)
{
    static bool failed;

    if (mode == REPLAY_NONE || failed) {
        return;
    }
    if (!uuid_file && replay_file_open("<uuid_generate>", &uuid_file)) {
        /* Logged; the UUIDs stay random. */
        failed = true;
        return;
    }
    if (mode == REPLAY_RECORD) {
        replay_file_write(uuid_file, true, size, uuid);
    } else {
        void *data;
        int value;

        if (!replay_file_read(uuid_file, true, &value, &data)
            && value == (int) size && data) {
            memcpy(uuid, data, size);
        } else {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

            VLOG_WARN_RL(&rl, "%s: no recorded UUID left",
                         uuid_file->file_name);
        }
        free(data);
    }
}

/* Returns the name of the replay file for 'name' opened at sequence number
 * 'n': the run of characters other than letters turn into one '_', and a
 * final one goes. */
static char *
replay_file_name(const char *name, int32_t n)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    bool in_run = false;

    ds_put_format(&s, "%s/replay_", replay_dir);
    for (const char *p = name; *p; p++) {
        if (isalpha((unsigned char) *p)) {
            ds_put_char(&s, *p);
            in_run = false;
        } else if (!in_run) {
            ds_put_char(&s, '_');
            in_run = true;
        }
    }
    if (in_run) {
        s.length--;
        s.string[s.length] = '\0';
    }
    ds_put_format(&s, "_%"PRId32, n);
    return ds_steal_cstr(&s);
}

/* Reads the header of the next record of 'f' unless it has it already.
 * Returns false at the end of the file. */
static bool
replay_file_peek(struct replay_file *f)
{
    int32_t header[2];

    if (f->has_next) {
        return true;
    }
    if (f->at_end) {
        return false;
    }
    if (fread(header, sizeof header, 1, f->file) != 1) {
        f->at_end = true;
        return false;
    }
    f->has_next = true;
    f->next_seqno = header[0];
    f->next_value = header[1];
    return true;
}
