/* 128-bit universally unique identifiers as OVSDB uses them: random
 * (version 4) UUIDs, written in the 8-4-4-4-12 hexadecimal form.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_UUID_H
#define OVSDB_UUID_H 1

#include <stdbool.h>
#include <stdint.h>

/* parts[0] holds the first 8 hex digits, parts[3] the last 8. */
struct uuid {
    uint32_t parts[4];
};

#define UUID_LEN 36             /* Characters in the text form. */

void uuid_generate(struct uuid *);
void uuid_zero(struct uuid *);
bool uuid_is_zero(const struct uuid *);
bool uuid_equals(const struct uuid *, const struct uuid *);
int uuid_compare_3way(const struct uuid *, const struct uuid *);
uint32_t uuid_hash(const struct uuid *);
bool uuid_from_string(struct uuid *, const char *);
void uuid_to_string(const struct uuid *, char string[UUID_LEN + 1]);

#endif /* uuid.h */
