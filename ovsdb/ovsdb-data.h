/* OVSDB values: atoms (one integer, real, boolean, string or uuid) and
 * datums (the value of a column: a set of atoms, or a map of atom pairs),
 * with their RFC 7047 JSON forms:
 *
 *   atom:   42, 1.5, true, "text", ["uuid", "<uuid>"], and in transactions
 *           ["named-uuid", "<name>"];
 *   datum:  a single atom (for a set of one), ["set", [<atom>...]],
 *           ["map", [[<key>, <value>]...]].
 *
 * A datum keeps its keys sorted (ovsdb_atom_compare_3way() order) and
 * unique; 'values' is NULL for a set.  Every function that takes a datum
 * also takes its 'struct ovsdb_type', which says how to read it.
 *
 * The named-uuid symbol table maps the "uuid-name"s of a transaction to
 * the UUIDs of the rows it inserts.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_DATA_H
#define OVSDB_DATA_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"
#include "ohmap.h"
#include "ovsdb-types.h"
#include "uuid.h"

struct ds;
struct ovsdb_symbol_table;

union ovsdb_atom {
    int64_t integer;
    double real;
    bool boolean;
    char *string;               /* UTF-8, owned by the atom. */
    struct uuid uuid;
};

void ovsdb_atom_init_default(union ovsdb_atom *, enum ovsdb_atomic_type);
bool ovsdb_atom_is_default(const union ovsdb_atom *, enum ovsdb_atomic_type);
void ovsdb_atom_clone(union ovsdb_atom *dst, const union ovsdb_atom *src,
                      enum ovsdb_atomic_type);
void ovsdb_atom_destroy(union ovsdb_atom *, enum ovsdb_atomic_type);
uint32_t ovsdb_atom_hash(const union ovsdb_atom *, enum ovsdb_atomic_type,
                         uint32_t basis);
int ovsdb_atom_compare_3way(const union ovsdb_atom *,
                            const union ovsdb_atom *,
                            enum ovsdb_atomic_type);
bool ovsdb_atom_equals(const union ovsdb_atom *, const union ovsdb_atom *,
                       enum ovsdb_atomic_type);
struct ovsdb_error *ovsdb_atom_from_json(union ovsdb_atom *,
                                         const struct ovsdb_base_type *,
                                         const json_t *,
                                         struct ovsdb_symbol_table *)
    DPS_WARN_UNUSED_RESULT;
json_t *ovsdb_atom_to_json(const union ovsdb_atom *, enum ovsdb_atomic_type);
void ovsdb_atom_to_string(const union ovsdb_atom *, enum ovsdb_atomic_type,
                          struct ds *);
struct ovsdb_error *ovsdb_atom_check_constraints(
    const union ovsdb_atom *, const struct ovsdb_base_type *)
    DPS_WARN_UNUSED_RESULT;

struct ovsdb_datum {
    unsigned int n;             /* Number of keys (and values). */
    union ovsdb_atom *keys;     /* Sorted, unique. */
    union ovsdb_atom *values;   /* NULL for a set. */
};

void ovsdb_datum_init_empty(struct ovsdb_datum *);
void ovsdb_datum_init_default(struct ovsdb_datum *, const struct ovsdb_type *);
bool ovsdb_datum_is_default(const struct ovsdb_datum *,
                            const struct ovsdb_type *);
void ovsdb_datum_clone(struct ovsdb_datum *dst, const struct ovsdb_datum *src,
                       const struct ovsdb_type *);
void ovsdb_datum_destroy(struct ovsdb_datum *, const struct ovsdb_type *);
void ovsdb_datum_swap(struct ovsdb_datum *, struct ovsdb_datum *);

struct ovsdb_error *ovsdb_datum_from_json(struct ovsdb_datum *,
                                          const struct ovsdb_type *,
                                          const json_t *,
                                          struct ovsdb_symbol_table *)
    DPS_WARN_UNUSED_RESULT;
json_t *ovsdb_datum_to_json(const struct ovsdb_datum *,
                            const struct ovsdb_type *);
void ovsdb_datum_to_string(const struct ovsdb_datum *,
                           const struct ovsdb_type *, struct ds *);
struct ovsdb_error *ovsdb_datum_check_constraints(
    const struct ovsdb_datum *, const struct ovsdb_type *)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_datum_sort(struct ovsdb_datum *,
                                     const struct ovsdb_type *)
    DPS_WARN_UNUSED_RESULT;

uint32_t ovsdb_datum_hash(const struct ovsdb_datum *,
                          const struct ovsdb_type *, uint32_t basis);
int ovsdb_datum_compare_3way(const struct ovsdb_datum *,
                             const struct ovsdb_datum *,
                             const struct ovsdb_type *);
void ovsdb_datum_to_bare(const struct ovsdb_datum *,
                         const struct ovsdb_type *, struct ds *);
int ovsdb_datum_compare_ovs(const struct ovsdb_datum *,
                            const struct ovsdb_datum *,
                            const struct ovsdb_type *);
bool ovsdb_datum_equals(const struct ovsdb_datum *,
                        const struct ovsdb_datum *,
                        const struct ovsdb_type *);
unsigned int ovsdb_datum_find_key(const struct ovsdb_datum *,
                                  const union ovsdb_atom *key,
                                  enum ovsdb_atomic_type);
bool ovsdb_datum_includes_all(const struct ovsdb_datum *a,
                              const struct ovsdb_datum *b,
                              const struct ovsdb_type *);
bool ovsdb_datum_excludes_all(const struct ovsdb_datum *a,
                              const struct ovsdb_datum *b,
                              const struct ovsdb_type *);
void ovsdb_datum_union(struct ovsdb_datum *a, const struct ovsdb_datum *b,
                       const struct ovsdb_type *);
void ovsdb_datum_subtract(struct ovsdb_datum *a,
                          const struct ovsdb_type *a_type,
                          const struct ovsdb_datum *b,
                          const struct ovsdb_type *b_type);
void ovsdb_datum_add(struct ovsdb_datum *, const union ovsdb_atom *key,
                     const union ovsdb_atom *value,
                     const struct ovsdb_type *);
void ovsdb_datum_remove(struct ovsdb_datum *, unsigned int idx,
                        const struct ovsdb_type *);
void ovsdb_datum_diff(struct ovsdb_datum *diff,
                      const struct ovsdb_datum *old,
                      const struct ovsdb_datum *new,
                      const struct ovsdb_type *);
struct ovsdb_error *ovsdb_datum_apply_diff(struct ovsdb_datum *,
                                           const struct ovsdb_datum *diff,
                                           const struct ovsdb_type *)
    DPS_WARN_UNUSED_RESULT;

/* A "uuid-name" of a transaction. */
struct ovsdb_symbol {
    struct ohmap_node node;     /* In ovsdb_symbol_table's 'symbols'. */
    char *name;
    struct uuid uuid;           /* UUID the name stands for. */
    bool created;               /* Defined by an "insert"? */
    bool strong_ref;            /* Used in a strong reference (or a root row). */
    bool weak_ref;              /* Used in a weak reference. */
};

struct ovsdb_symbol_table {
    struct ohmap symbols;
};

struct ovsdb_symbol_table *ovsdb_symbol_table_create(void);
void ovsdb_symbol_table_destroy(struct ovsdb_symbol_table *);
struct ovsdb_symbol *ovsdb_symbol_table_get(
    const struct ovsdb_symbol_table *, const char *name);
struct ovsdb_symbol *ovsdb_symbol_table_insert(struct ovsdb_symbol_table *,
                                               const char *name);

uint32_t ovsdb_hash_bytes(const void *, size_t, uint32_t basis);
uint32_t ovsdb_hash_string(const char *, uint32_t basis);

#endif /* ovsdb-data.h */
