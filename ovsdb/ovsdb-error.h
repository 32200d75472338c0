/* Errors of the OVSDB engine: a tag from RFC 7047's list ("syntax error",
 * "constraint violation", ...), an optional human-readable detail, the JSON
 * that caused the error, and an optional errno for I/O errors.
 *
 * Functions that can fail return a 'struct ovsdb_error *' that is NULL on
 * success; the caller owns a returned error and must destroy it (or hand it
 * on).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_ERROR_H
#define OVSDB_ERROR_H 1

#include <jansson.h>
#include "compiler.h"

struct ovsdb_error {
    char *tag;          /* RFC 7047 "error" member. */
    char *details;      /* "details" member, or NULL. */
    json_t *syntax;     /* Offending JSON ("syntax" member), or NULL. */
    int errno_;         /* Positive errno for I/O errors, otherwise 0. */
};

struct ovsdb_error *ovsdb_error(const char *tag, const char *details, ...)
    DPS_PRINTF_FORMAT(2, 3) DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_syntax_error(const json_t *, const char *tag,
                                       const char *details, ...)
    DPS_PRINTF_FORMAT(3, 4) DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_io_error(int error, const char *details, ...)
    DPS_PRINTF_FORMAT(2, 3) DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_wrap_error(struct ovsdb_error *,
                                     const char *prefix, ...)
    DPS_PRINTF_FORMAT(2, 3) DPS_WARN_UNUSED_RESULT;

void ovsdb_error_destroy(struct ovsdb_error *);
struct ovsdb_error *ovsdb_error_clone(const struct ovsdb_error *);
json_t *ovsdb_error_to_json(const struct ovsdb_error *);
char *ovsdb_error_to_string(const struct ovsdb_error *);
void ovsdb_error_log_unexpected(const struct ovsdb_error *);
const char *ovsdb_error_get_tag(const struct ovsdb_error *);

#endif /* ovsdb-error.h */
