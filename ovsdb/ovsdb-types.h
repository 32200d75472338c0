/* OVSDB column types (RFC 7047 section 3.2 "<type>", "<base-type>",
 * "<atomic-type>").
 *
 * An atomic type is one of integer, real, boolean, string and uuid.  A base
 * type is an atomic type plus constraints: an enumeration of allowed values,
 * a range for integers and reals, a length range for strings, and for uuids
 * a referenced table with strong or weak references.  A column's type is a
 * key base type, an optional value base type (for maps), and the minimum
 * and maximum number of elements.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_TYPES_H
#define OVSDB_TYPES_H 1

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"

struct ds;
struct ovsdb_datum;
struct ovsdb_table_schema;

enum ovsdb_atomic_type {
    OVSDB_TYPE_VOID,            /* No value (a set's missing "value"). */
    OVSDB_TYPE_INTEGER,
    OVSDB_TYPE_REAL,
    OVSDB_TYPE_BOOLEAN,
    OVSDB_TYPE_STRING,
    OVSDB_TYPE_UUID,
    OVSDB_N_TYPES
};

const char *ovsdb_atomic_type_to_string(enum ovsdb_atomic_type);
bool ovsdb_atomic_type_from_string(const char *, enum ovsdb_atomic_type *);

enum ovsdb_ref_type {
    OVSDB_REF_STRONG,           /* Referenced row must exist. */
    OVSDB_REF_WEAK              /* Reference vanishes with its target. */
};

struct ovsdb_base_type {
    enum ovsdb_atomic_type type;

    /* Allowed values (a set of atoms of 'type'), or NULL for any. */
    struct ovsdb_datum *enum_;

    union {
        struct {
            int64_t min, max;   /* Inclusive; INT64_MIN/MAX if unset. */
        } integer;
        struct {
            double min, max;    /* Inclusive; -DBL_MAX/DBL_MAX if unset. */
        } real;
        struct {
            unsigned int min_len, max_len; /* In characters (code points). */
        } string;
        struct {
            char *ref_table_name;  /* NULL if not a reference. */
            struct ovsdb_table_schema *ref_table; /* Resolved by schema. */
            enum ovsdb_ref_type ref_type;
        } uuid;
    };
};

void ovsdb_base_type_init(struct ovsdb_base_type *, enum ovsdb_atomic_type);
void ovsdb_base_type_clone(struct ovsdb_base_type *dst,
                           const struct ovsdb_base_type *src);
void ovsdb_base_type_destroy(struct ovsdb_base_type *);
bool ovsdb_base_type_has_constraints(const struct ovsdb_base_type *);
bool ovsdb_base_type_is_ref(const struct ovsdb_base_type *);
bool ovsdb_base_type_is_strong_ref(const struct ovsdb_base_type *);
bool ovsdb_base_type_is_weak_ref(const struct ovsdb_base_type *);
struct ovsdb_error *ovsdb_base_type_from_json(struct ovsdb_base_type *,
                                              const json_t *)
    DPS_WARN_UNUSED_RESULT;
json_t *ovsdb_base_type_to_json(const struct ovsdb_base_type *);

/* Marks an unlimited 'n_max'. */
#define OVSDB_UNLIMITED UINT_MAX

struct ovsdb_type {
    struct ovsdb_base_type key;
    struct ovsdb_base_type value; /* OVSDB_TYPE_VOID unless a map. */
    unsigned int n_min;         /* 0 or 1. */
    unsigned int n_max;         /* At least 1, or OVSDB_UNLIMITED. */
};

void ovsdb_type_init_scalar(struct ovsdb_type *, enum ovsdb_atomic_type);
void ovsdb_type_clone(struct ovsdb_type *dst, const struct ovsdb_type *src);
void ovsdb_type_destroy(struct ovsdb_type *);
bool ovsdb_type_is_valid(const struct ovsdb_type *);
bool ovsdb_type_is_scalar(const struct ovsdb_type *);
bool ovsdb_type_is_optional(const struct ovsdb_type *);
bool ovsdb_type_is_set(const struct ovsdb_type *);
bool ovsdb_type_is_map(const struct ovsdb_type *);
struct ovsdb_error *ovsdb_type_from_json(struct ovsdb_type *, const json_t *)
    DPS_WARN_UNUSED_RESULT;
json_t *ovsdb_type_to_json(const struct ovsdb_type *);
char *ovsdb_type_to_english(const struct ovsdb_type *);

#endif /* ovsdb-types.h */
