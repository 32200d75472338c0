/* Checked access to the members of a JSON object, for the parts of OVSDB
 * that read schemas and requests.
 *
 * ovsdb_parser_member() fetches a member and checks its JSON type; the
 * first problem (a missing required member, a member of the wrong type) is
 * remembered and later lookups do nothing.  ovsdb_parser_finish() also
 * reports members that nobody asked for.  Messages read "Parsing <name>
 * failed: ...", the way Open vSwitch words them.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_PARSER_H
#define OVSDB_PARSER_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "compiler.h"

enum ovsdb_parser_types {
    OP_NULL = 1 << 0,
    OP_FALSE = 1 << 1,
    OP_TRUE = 1 << 2,
    OP_BOOLEAN = OP_FALSE | OP_TRUE,
    OP_INTEGER = 1 << 3,
    OP_NONINTEGER = 1 << 4,
    OP_NUMBER = OP_INTEGER | OP_NONINTEGER,
    OP_STRING = 1 << 5,
    OP_ARRAY = 1 << 6,
    OP_OBJECT = 1 << 7,
    OP_ANY = 0xff,
    OP_ID = 1 << 8,             /* A string that is a valid <id>. */
    OP_OPTIONAL = 1 << 9        /* The member may be absent. */
};

struct ovsdb_parser {
    const json_t *json;         /* The object being parsed. */
    char *name;                 /* What it is, for error messages. */
    struct ovsdb_error *error;  /* First error, or NULL. */
    const char **used;          /* Member names looked up so far. */
    size_t n_used, allocated;
};

void ovsdb_parser_init(struct ovsdb_parser *, const json_t *,
                       const char *name, ...) DPS_PRINTF_FORMAT(3, 4);
const json_t *ovsdb_parser_member(struct ovsdb_parser *, const char *name,
                                  int types);
void ovsdb_parser_raise_error(struct ovsdb_parser *, const char *format, ...)
    DPS_PRINTF_FORMAT(2, 3);
bool ovsdb_parser_has_error(const struct ovsdb_parser *);
struct ovsdb_error *ovsdb_parser_get_error(const struct ovsdb_parser *)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_parser_finish(struct ovsdb_parser *)
    DPS_WARN_UNUSED_RESULT;

bool ovsdb_parser_is_id(const char *);

#endif /* ovsdb-parser.h */
