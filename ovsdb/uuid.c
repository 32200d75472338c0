/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "uuid.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include "replay.h"
#include "util.h"

static const uint8_t *random_bytes(size_t n);

/* Stores a new random (version 4, RFC 4122 variant) UUID in 'uuid'. */
void
uuid_generate(struct uuid *uuid)
{
    memcpy(uuid->parts, random_bytes(sizeof uuid->parts),
           sizeof uuid->parts);
    uuid->parts[1] = (uuid->parts[1] & ~0xf000u) | 0x4000u;
    uuid->parts[2] = (uuid->parts[2] & 0x3fffffffu) | 0x80000000u;

    /* With --record or --replay (replay.h), the UUIDs are part of what a
     * replay must see again. */
    replay_uuid(uuid, sizeof *uuid);
}

/* Sets 'uuid' to all zeros. */
void
uuid_zero(struct uuid *uuid)
{
    memset(uuid, 0, sizeof *uuid);
}

/* Returns true if every bit of 'uuid' is zero. */
bool
uuid_is_zero(const struct uuid *uuid)
{
    return !(uuid->parts[0] | uuid->parts[1] | uuid->parts[2]
             | uuid->parts[3]);
}

/* Returns true if 'a' and 'b' are the same UUID. */
bool
uuid_equals(const struct uuid *a, const struct uuid *b)
{
    return !memcmp(a, b, sizeof *a);
}

/* Compares 'a' and 'b' in the order of their text forms. */
int
uuid_compare_3way(const struct uuid *a, const struct uuid *b)
{
    int i;

    for (i = 0; i < 4; i++) {
        if (a->parts[i] != b->parts[i]) {
            return a->parts[i] < b->parts[i] ? -1 : 1;
        }
    }
    return 0;
}

/* Returns a hash of 'uuid'.  Random UUIDs are already well mixed. */
uint32_t
uuid_hash(const struct uuid *uuid)
{
    return uuid->parts[0] ^ (uuid->parts[3] * 0x9e3779b1u);
}

/* Parses the 36-character form in 's' into 'uuid'.  Returns false, with
 * 'uuid' zeroed, if 's' is not exactly a UUID (upper and lower case hex
 * digits are both accepted). */
bool
uuid_from_string(struct uuid *uuid, const char *s)
{
    static const int dashes[] = { 8, 13, 18, 23 };
    uint32_t value = 0;
    int digit = 0, i;

    uuid_zero(uuid);
    if (strlen(s) != UUID_LEN) {
        return false;
    }
    for (i = 0; i < UUID_LEN; i++) {
        if (i == dashes[0] || i == dashes[1] || i == dashes[2]
            || i == dashes[3]) {
            if (s[i] != '-') {
                goto error;
            }
            continue;
        }
        if (!isxdigit((unsigned char) s[i])) {
            goto error;
        }
        value = (value << 4) | (isdigit((unsigned char) s[i])
                                ? s[i] - '0'
                                : tolower((unsigned char) s[i]) - 'a' + 10);
        digit++;
        if (digit % 8 == 0) {
            uuid->parts[digit / 8 - 1] = value;
            value = 0;
        }
    }
    return true;

error:
    uuid_zero(uuid);
    return false;
}

/* Writes the text form of 'uuid' (36 characters and a null) to 'string'. */
void
uuid_to_string(const struct uuid *uuid, char string[UUID_LEN + 1])
{
    /* Formatted by hand: this runs for every row of every monitor update
     * and log record, where snprintf() was a tenth of the server's work. */
    static const char hex[] = "0123456789abcdef";
    char *p = string;
    int i;

    for (i = 0; i < 4; i++) {
        uint32_t part = uuid->parts[i];
        int shift;

        for (shift = 28; shift >= 0; shift -= 4) {
            *p++ = hex[(part >> shift) & 0xf];
            if ((i == 1 || i == 2) && shift == 16) {
                *p++ = '-';
            }
        }
        if (i <= 1) {
            *p++ = '-';
        }
    }
    *p = '\0';
}

/* Random bytes come from the kernel 256 at a time: a server that inserts
 * rows asks for two UUIDs per transaction, and a getrandom() call each was
 * a measurable share of its work.  A child process must not reuse its
 * parent's bytes, so fork() empties the buffer (the forking thread's, the
 * only one the child has).  Each thread has its own buffer. */
static _Thread_local uint8_t random_buf[256];
static _Thread_local size_t random_left;
static pthread_once_t random_once = PTHREAD_ONCE_INIT;

static void
random_forget(void)
{
    random_left = 0;
}

static void
random_register(void)
{
    pthread_atfork(NULL, NULL, random_forget);
}

/* Returns 'n' (at most sizeof random_buf) fresh random bytes. */
static const uint8_t *
random_bytes(size_t n)
{
    pthread_once(&random_once, random_register);
    if (random_left < n) {
        size_t done = 0;

        while (done < sizeof random_buf) {
            ssize_t r = getrandom(random_buf + done,
                                  sizeof random_buf - done, 0);
            if (r < 0) {
                if (errno == EINTR) {
                    continue;
                }
                util_fatal(errno, "getrandom failed");
            }
            done += r;
        }
        random_left = sizeof random_buf;
    }
    random_left -= n;
    return random_buf + random_left;
}
