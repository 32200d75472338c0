/* Unit tests for the OVSDB value layer: UUIDs, types, atoms, datums and
 * schemas (ovsdb/uuid.c, ovsdb-types.c, ovsdb-data.c, schema.c).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "ovsdb/ovsdb-data.h"
#include "ovsdb/ovsdb-error.h"
#include "ovsdb/ovsdb-json.h"
#include "ovsdb/ovsdb-types.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "util.h"

static json_t *
parse(const char *s)
{
    json_error_t error;
    json_t *json = json_loads(s, JSON_DECODE_ANY, &error);

    if (!json) {
        fail_msg("bad test JSON %s: %s", s, error.text);
    }
    return json;
}

/* Asserts that 'error' is nonnull, has 'tag', and its details contain
 * 'details' (if nonnull); frees it. */
static void
expect_error(struct ovsdb_error *error, const char *tag, const char *details)
{
    if (!error) {
        fail_msg("expected error \"%s\"", tag);
    }
    assert_string_equal(error->tag, tag);
    if (details) {
        if (!error->details || !strstr(error->details, details)) {
            fail_msg("details \"%s\" lack \"%s\"",
                     error->details ? error->details : "(none)", details);
        }
    }
    ovsdb_error_destroy(error);
}

static void
type_from_string(struct ovsdb_type *type, const char *s)
{
    json_t *json = parse(s);
    struct ovsdb_error *error = ovsdb_type_from_json(type, json);

    if (error) {
        char *msg = ovsdb_error_to_string(error);
        fail_msg("type %s: %s", s, msg);
    }
    json_decref(json);
}

/* Parses 's' as a datum of 'type_s' and returns its JSON form as text. */
static char *
datum_roundtrip(const char *type_s, const char *s)
{
    struct ovsdb_type type;
    struct ovsdb_datum datum;
    struct ovsdb_error *error;
    json_t *json = parse(s), *out;
    char *text;

    type_from_string(&type, type_s);
    error = ovsdb_datum_from_json(&datum, &type, json, NULL);
    if (error) {
        text = ovsdb_error_to_string(error);
        ovsdb_error_destroy(error);
    } else {
        out = ovsdb_datum_to_json(&datum, &type);
        text = ovsdb_json_to_string(out, 0);
        json_decref(out);
        ovsdb_datum_destroy(&datum, &type);
    }
    json_decref(json);
    ovsdb_type_destroy(&type);
    return text;
}

static void
check_datum(const char *type_s, const char *in, const char *expected)
{
    char *out = datum_roundtrip(type_s, in);

    assert_string_equal(out, expected);
    free(out);
}

static void
test_uuid(void **state DPS_UNUSED)
{
    static const char *s = "01234567-89ab-cdef-0123-456789ABCDEF";
    char out[UUID_LEN + 1];
    struct uuid a, b;

    assert_true(uuid_from_string(&a, s));
    uuid_to_string(&a, out);
    assert_string_equal(out, "01234567-89ab-cdef-0123-456789abcdef");
    assert_false(uuid_from_string(&b, "01234567-89ab-cdef-0123-456789abcde"));
    assert_false(uuid_from_string(&b, "01234567x89ab-cdef-0123-456789abcdef"));
    assert_false(uuid_from_string(&b, "0123456g-89ab-cdef-0123-456789abcdef"));
    assert_true(uuid_is_zero(&b));

    uuid_generate(&a);
    uuid_generate(&b);
    assert_false(uuid_equals(&a, &b));
    uuid_to_string(&a, out);
    assert_int_equal(out[14], '4');
    assert_true(uuid_from_string(&b, out));
    assert_true(uuid_equals(&a, &b));
    assert_int_equal(uuid_compare_3way(&a, &b), 0);
}

static void
test_types(void **state DPS_UNUSED)
{
    static const char *const valid[] = {
        "\"integer\"", "\"real\"", "\"boolean\"", "\"string\"", "\"uuid\"",
        "{\"key\":\"integer\",\"min\":0,\"max\":\"unlimited\"}",
        "{\"key\":\"string\",\"value\":\"integer\",\"min\":0,\"max\":5}",
        "{\"key\":{\"type\":\"integer\",\"minInteger\":1,"
        "\"maxInteger\":5}}",
        "{\"key\":{\"type\":\"real\",\"minReal\":-1.5}}",
        "{\"key\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":3}}",
        "{\"key\":{\"type\":\"string\",\"enum\":[\"set\",[\"a\",\"b\"]]}}",
        "{\"key\":{\"type\":\"uuid\",\"refTable\":\"T\",\"refType\":"
        "\"weak\"},\"min\":0,\"max\":1}",
    };
    struct {
        const char *json;
        const char *details;
    } invalid[] = {
        { "\"foo\"", "\"foo\" is not an atomic-type" },
        { "\"void\"", "is not an atomic-type" },
        { "{\"key\":\"integer\",\"min\":2,\"max\":1}", "fails constraint" },
        { "{\"key\":\"integer\",\"min\":2,\"max\":3}", "fails constraint" },
        { "{\"key\":\"integer\",\"max\":0}", "fails constraint" },
        { "{\"key\":\"integer\",\"max\":\"lots\"}", "bad max" },
        { "{\"value\":\"integer\"}", "Required 'key' member is missing" },
        { "{\"key\":\"integer\",\"bogus\":1}", "Member 'bogus' is present" },
        { "{\"key\":{\"type\":\"integer\",\"minInteger\":5,"
          "\"maxInteger\":1}}", "minInteger exceeds maxInteger" },
        { "{\"key\":{\"type\":\"uuid\",\"refTable\":\"T\",\"refType\":"
          "\"soft\"}}", "refType must be" },
        { "{\"key\":{\"type\":\"integer\",\"enum\":[\"set\",[\"x\"]]}}",
          "expected integer" },
        { "5", "ovsdb type expected" },
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(valid); i++) {
        struct ovsdb_type type, again;
        json_t *json, *out;

        type_from_string(&type, valid[i]);
        out = ovsdb_type_to_json(&type);
        assert_null(ovsdb_type_from_json(&again, out));
        json = ovsdb_type_to_json(&again);
        assert_true(json_equal(json, out));
        json_decref(json);
        json_decref(out);
        ovsdb_type_destroy(&type);
        ovsdb_type_destroy(&again);
    }
    for (i = 0; i < ARRAY_SIZE(invalid); i++) {
        json_t *json = parse(invalid[i].json);
        struct ovsdb_type type;

        expect_error(ovsdb_type_from_json(&type, json), "syntax error",
                     invalid[i].details);
        json_decref(json);
    }
}

static void
test_type_english(void **state DPS_UNUSED)
{
    static const struct {
        const char *type, *english;
    } cases[] = {
        { "\"string\"", "string" },
        { "{\"key\":\"integer\",\"min\":0,\"max\":2}",
          "set of up to 2 integers" },
        { "{\"key\":\"integer\",\"min\":0,\"max\":\"unlimited\"}",
          "set of integers" },
        { "{\"key\":\"integer\",\"min\":1,\"max\":\"unlimited\"}",
          "set of 1 or more integers" },
        { "{\"key\":\"string\",\"value\":\"string\",\"min\":0,"
          "\"max\":\"unlimited\"}", "map of (string, string) pairs" },
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ovsdb_type type;
        char *s;

        type_from_string(&type, cases[i].type);
        s = ovsdb_type_to_english(&type);
        assert_string_equal(s, cases[i].english);
        free(s);
        ovsdb_type_destroy(&type);
    }
}

static void
test_datum_json(void **state DPS_UNUSED)
{
    static const char *set = "{\"key\":\"integer\",\"min\":0,"
                             "\"max\":\"unlimited\"}";
    static const char *map = "{\"key\":\"string\",\"value\":\"integer\","
                             "\"min\":0,\"max\":\"unlimited\"}";
    static const char *opt = "{\"key\":\"uuid\",\"min\":0,\"max\":1}";

    check_datum("\"integer\"", "42", "42");
    check_datum("\"integer\"", "[\"set\",[7]]", "7");
    check_datum("\"real\"", "1", "1");
    check_datum("\"real\"", "0.30000000000000004", "0.3");
    check_datum("\"boolean\"", "true", "true");
    check_datum("\"string\"", "\"a\\u0001\\\"\"", "\"a\\u0001\\\"\"");
    check_datum(set, "[\"set\",[3,1,2]]", "[\"set\",[1,2,3]]");
    check_datum(set, "[\"set\",[]]", "[\"set\",[]]");
    check_datum(set, "5", "5");
    check_datum(map, "[\"map\",[[\"b\",2],[\"a\",1]]]",
                "[\"map\",[[\"a\",1],[\"b\",2]]]");
    check_datum(opt, "[\"set\",[]]", "[\"set\",[]]");
    check_datum(opt, "[\"uuid\",\"01234567-89ab-cdef-0123-456789abcdef\"]",
                "[\"uuid\",\"01234567-89ab-cdef-0123-456789abcdef\"]");

    check_datum(set, "[\"set\",[1,1]]", "ovsdb error: set contains duplicate");
    check_datum(map, "[\"map\",[[\"a\",1],[\"a\",2]]]",
                "ovsdb error: map contains duplicate key");
    check_datum("\"integer\"", "[\"set\",[1,2]]",
                "syntax \"[\"set\",[1,2]]\": syntax error: set must have "
                "exactly one member but 2 are present");
    check_datum("{\"key\":\"integer\",\"min\":0,\"max\":2}",
                "[\"set\",[1,2,3]]",
                "syntax \"[\"set\",[1,2,3]]\": syntax error: set must have "
                "0 to 2 members but 3 are present");
    check_datum("\"integer\"", "1.5",
                "syntax \"1.5\": syntax error: expected integer");
    check_datum("\"real\"", "true",
                "syntax \"true\": syntax error: expected real");
    check_datum("\"uuid\"", "[\"uuid\",\"zz\"]",
                "syntax \"[\"uuid\",\"zz\"]\": syntax error: \"zz\" is not "
                "a valid UUID");
    check_datum("\"uuid\"", "[\"named-uuid\",\"x\"]",
                "syntax \"[\"named-uuid\",\"x\"]\": syntax error: "
                "named-uuid not allowed here");
    check_datum(map, "[\"set\",[]]",
                "syntax \"[\"set\",[]]\": syntax error: expected map");
}

static void
test_constraints(void **state DPS_UNUSED)
{
    check_datum("{\"key\":{\"type\":\"integer\",\"minInteger\":1,"
                "\"maxInteger\":5}}", "9",
                "constraint violation: 9 is not in the valid range 1 to 5 "
                "(inclusive)");
    check_datum("{\"key\":{\"type\":\"integer\",\"minInteger\":1}}", "0",
                "constraint violation: 0 is less than minimum allowed "
                "value 1");
    check_datum("{\"key\":{\"type\":\"integer\",\"maxInteger\":1}}", "2",
                "constraint violation: 2 is greater than maximum allowed "
                "value 1");
    check_datum("{\"key\":{\"type\":\"real\",\"minReal\":0.5,"
                "\"maxReal\":1.5}}", "2",
                "constraint violation: 2 is not in the valid range 0.5 to "
                "1.5 (inclusive)");
    check_datum("{\"key\":{\"type\":\"string\",\"enum\":[\"set\","
                "[\"x\",\"y\"]]}}", "\"z\"",
                "constraint violation: z is not one of the allowed values "
                "([x, y])");
    check_datum("{\"key\":{\"type\":\"string\",\"minLength\":2}}",
                "\"\\u00e9\"",
                "constraint violation: \"\xc3\xa9\" length 1 is less than "
                "minimum allowed length 2");
    check_datum("{\"key\":{\"type\":\"string\",\"maxLength\":2}}",
                "\"abc\"",
                "constraint violation: \"abc\" length 3 is greater than "
                "maximum allowed length 2");
    check_datum("{\"key\":{\"type\":\"string\",\"maxLength\":2}}",
                "\"\\u00e9\\u00e9\"", "\"\xc3\xa9\xc3\xa9\"");
}

static void
test_datum_to_string(void **state DPS_UNUSED)
{
    static const struct {
        const char *type, *value, *text;
    } cases[] = {
        { "\"string\"", "\"abc\"", "abc" },
        { "\"string\"", "\"1\"", "\"1\"" },
        { "\"string\"", "\"\"", "\"\"" },
        { "\"string\"", "\"a b\"", "\"a b\"" },
        { "\"string\"", "\"true\"", "\"true\"" },
        { "{\"key\":\"integer\",\"min\":0,\"max\":\"unlimited\"}",
          "[\"set\",[2,1]]", "[1, 2]" },
        { "{\"key\":\"integer\",\"min\":0,\"max\":1}", "[\"set\",[]]",
          "[]" },
        { "{\"key\":\"integer\",\"min\":0,\"max\":1}", "3", "3" },
        { "{\"key\":\"string\",\"value\":\"string\",\"min\":0,"
          "\"max\":\"unlimited\"}", "[\"map\",[[\"k\",\"v\"],[\"a\",\"1\"]]]",
          "{a=\"1\", k=v}" },
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ds ds = DS_EMPTY_INITIALIZER;
        struct ovsdb_datum datum;
        struct ovsdb_type type;
        json_t *json = parse(cases[i].value);

        type_from_string(&type, cases[i].type);
        assert_null(ovsdb_datum_from_json(&datum, &type, json, NULL));
        ovsdb_datum_to_string(&datum, &type, &ds);
        assert_string_equal(ds_cstr(&ds), cases[i].text);
        ds_destroy(&ds);
        ovsdb_datum_destroy(&datum, &type);
        ovsdb_type_destroy(&type);
        json_decref(json);
    }
}

/* Checks that diff(old, new) applied to old gives new, and that the diff
 * has the expected JSON form. */
static void
check_diff(const char *type_s, const char *old_s, const char *new_s,
           const char *diff_s)
{
    struct ovsdb_datum old, new, diff;
    struct ovsdb_type type;
    json_t *old_j = parse(old_s), *new_j = parse(new_s), *out;
    char *text;

    type_from_string(&type, type_s);
    assert_null(ovsdb_datum_from_json(&old, &type, old_j, NULL));
    assert_null(ovsdb_datum_from_json(&new, &type, new_j, NULL));
    ovsdb_datum_diff(&diff, &old, &new, &type);
    out = ovsdb_datum_to_json(&diff, &type);
    text = ovsdb_json_to_string(out, 0);
    assert_string_equal(text, diff_s);
    assert_null(ovsdb_datum_apply_diff(&old, &diff, &type));
    assert_true(ovsdb_datum_equals(&old, &new, &type));

    free(text);
    json_decref(out);
    json_decref(old_j);
    json_decref(new_j);
    ovsdb_datum_destroy(&old, &type);
    ovsdb_datum_destroy(&new, &type);
    ovsdb_datum_destroy(&diff, &type);
    ovsdb_type_destroy(&type);
}

static void
test_datum_diff(void **state DPS_UNUSED)
{
    static const char *set = "{\"key\":\"integer\",\"min\":0,"
                             "\"max\":\"unlimited\"}";
    static const char *map = "{\"key\":\"string\",\"value\":\"integer\","
                             "\"min\":0,\"max\":\"unlimited\"}";

    check_diff(set, "[\"set\",[1,2,3]]", "[\"set\",[2,3]]", "1");
    check_diff(set, "[\"set\",[1,2]]", "[\"set\",[1,3]]",
               "[\"set\",[2,3]]");
    check_diff(set, "[\"set\",[]]", "[\"set\",[]]", "[\"set\",[]]");
    check_diff(map, "[\"map\",[[\"a\",1],[\"b\",2]]]",
               "[\"map\",[[\"a\",5],[\"c\",3]]]",
               "[\"map\",[[\"a\",5],[\"b\",2],[\"c\",3]]]");
}

static void
test_datum_set_ops(void **state DPS_UNUSED)
{
    static const char *set = "{\"key\":\"integer\",\"min\":0,"
                             "\"max\":\"unlimited\"}";
    struct ovsdb_datum a, b;
    struct ovsdb_type type;
    json_t *ja = parse("[\"set\",[1,2,3]]"), *jb = parse("[\"set\",[3,4]]");
    union ovsdb_atom atom;

    type_from_string(&type, set);
    assert_null(ovsdb_datum_from_json(&a, &type, ja, NULL));
    assert_null(ovsdb_datum_from_json(&b, &type, jb, NULL));
    assert_false(ovsdb_datum_includes_all(&a, &b, &type));
    assert_false(ovsdb_datum_excludes_all(&a, &b, &type));
    ovsdb_datum_union(&a, &b, &type);
    assert_int_equal(a.n, 4);
    assert_true(ovsdb_datum_includes_all(&a, &b, &type));
    ovsdb_datum_subtract(&a, &type, &b, &type);
    assert_int_equal(a.n, 2);
    assert_true(ovsdb_datum_excludes_all(&a, &b, &type));
    atom.integer = 2;
    assert_int_equal(ovsdb_datum_find_key(&a, &atom, OVSDB_TYPE_INTEGER), 1);
    atom.integer = 9;
    assert_int_equal(ovsdb_datum_find_key(&a, &atom, OVSDB_TYPE_INTEGER),
                     UINT_MAX);
    assert_true(ovsdb_datum_compare_3way(&a, &b, &type) < 0);
    assert_int_not_equal(ovsdb_datum_hash(&a, &type, 0),
                         ovsdb_datum_hash(&b, &type, 0));

    ovsdb_datum_destroy(&a, &type);
    ovsdb_datum_destroy(&b, &type);
    ovsdb_type_destroy(&type);
    json_decref(ja);
    json_decref(jb);
}

static void
test_symbol_table(void **state DPS_UNUSED)
{
    struct ovsdb_symbol_table *symtab = ovsdb_symbol_table_create();
    struct ovsdb_symbol *a = ovsdb_symbol_table_insert(symtab, "a");
    struct ovsdb_type type;
    struct ovsdb_datum datum;
    json_t *json = parse("[\"named-uuid\",\"a\"]");

    assert_ptr_equal(ovsdb_symbol_table_get(symtab, "a"), a);
    assert_null(ovsdb_symbol_table_get(symtab, "b"));
    ovsdb_type_init_scalar(&type, OVSDB_TYPE_UUID);
    assert_null(ovsdb_datum_from_json(&datum, &type, json, symtab));
    assert_true(uuid_equals(&datum.keys[0].uuid, &a->uuid));
    ovsdb_datum_destroy(&datum, &type);
    json_decref(json);
    ovsdb_symbol_table_destroy(symtab);
}

static const char *small_schema =
    "{\"name\":\"S\",\"version\":\"1.2.3\",\"cksum\":\"12 34\","
    "\"tables\":{"
    "\"P\":{\"columns\":{\"name\":{\"type\":\"string\"},"
    "  \"kids\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"C\"},"
    "    \"min\":0,\"max\":\"unlimited\"}},"
    "  \"tmp\":{\"type\":\"integer\",\"ephemeral\":true},"
    "  \"fixed\":{\"type\":\"integer\",\"mutable\":false}},"
    "  \"isRoot\":true,\"indexes\":[[\"name\"]],\"maxRows\":10},"
    "\"C\":{\"columns\":{\"n\":{\"type\":\"integer\"}}}}}";

static void
test_schema(void **state DPS_UNUSED)
{
    json_t *json = parse(small_schema), *out;
    struct ovsdb_schema *schema, *copy;
    const struct ovsdb_table_schema *p, *c;
    const struct ovsdb_column *col;

    assert_null(ovsdb_schema_from_json(json, &schema));
    assert_string_equal(schema->name, "S");
    assert_string_equal(schema->version, "1.2.3");
    assert_string_equal(schema->cksum, "12 34");
    assert_int_equal(schema->n_tables, 2);
    p = ovsdb_schema_find_table(schema, "P");
    c = ovsdb_schema_find_table(schema, "C");
    assert_non_null(p);
    assert_non_null(c);
    assert_null(ovsdb_schema_find_table(schema, "X"));
    assert_true(p->is_root);
    assert_false(c->is_root);
    assert_int_equal(p->max_rows, 10);
    assert_int_equal(c->max_rows, UINT_MAX);
    assert_int_equal(p->n_indexes, 1);
    assert_int_equal(p->n_columns, 6);
    assert_string_equal(p->columns[0]->name, "_uuid");
    assert_string_equal(p->columns[1]->name, "_version");
    col = ovsdb_table_schema_find_column(p, "kids");
    assert_ptr_equal(col->type.key.uuid.ref_table, c);
    assert_false(ovsdb_table_schema_find_column(p, "tmp")->persistent);
    assert_false(ovsdb_table_schema_find_column(p, "fixed")->mutable_);
    assert_true(ovsdb_table_schema_find_column(p, "name")->mutable_);
    assert_non_null(ovsdb_table_schema_find_column(p, "_version"));
    assert_null(ovsdb_table_schema_find_column(p, "_other"));

    out = ovsdb_schema_to_json(schema);
    copy = ovsdb_schema_clone(schema);
    assert_true(ovsdb_schema_equal(schema, copy));
    assert_non_null(json_object_get(json_object_get(json_object_get(out,
                    "tables"), "P"), "isRoot"));
    json_decref(out);
    ovsdb_schema_destroy(copy);
    ovsdb_schema_destroy(schema);
    json_decref(json);
}

static void
test_schema_all_roots(void **state DPS_UNUSED)
{
    json_t *json = parse("{\"name\":\"R\",\"tables\":{"
                         "\"a\":{\"columns\":{\"c\":{\"type\":\"integer\"}}},"
                         "\"b\":{\"columns\":{\"c\":{\"type\":\"integer\"}},"
                         "\"isRoot\":false}}}");
    struct ovsdb_schema *schema;
    json_t *out;
    char *s;

    assert_null(ovsdb_schema_from_json(json, &schema));
    assert_true(schema->tables[0]->is_root);
    assert_true(schema->tables[1]->is_root);
    assert_string_equal(schema->version, "");
    out = ovsdb_schema_to_json(schema);
    s = ovsdb_json_to_string(out, OVSDB_JSON_SORT);
    assert_string_equal(s, "{\"name\":\"R\",\"tables\":{\"a\":{\"columns\":"
                        "{\"c\":{\"type\":\"integer\"}}},\"b\":{\"columns\":"
                        "{\"c\":{\"type\":\"integer\"}}}}}");
    free(s);
    json_decref(out);
    ovsdb_schema_destroy(schema);
    json_decref(json);
}

static void
test_schema_errors(void **state DPS_UNUSED)
{
    static const struct {
        const char *json, *details;
    } cases[] = {
        { "{\"tables\":{}}", "Required 'name' member is missing" },
        { "{\"name\":\"S\",\"version\":\"1.x\",\"tables\":{}}",
          "schema version \"1.x\" not in format x.y.z" },
        { "{\"name\":\"S\",\"tables\":{\"_t\":{\"columns\":{\"c\":"
          "{\"type\":\"integer\"}}}}}", "names beginning with \"_\"" },
        { "{\"name\":\"S\",\"tables\":{\"t\":{\"columns\":{\"_c\":"
          "{\"type\":\"integer\"}}}}}", "names beginning with \"_\"" },
        { "{\"name\":\"S\",\"tables\":{\"t\":{\"columns\":{}}}}",
          "table must have at least one column" },
        { "{\"name\":\"S\",\"tables\":{\"t\":{\"columns\":{\"c\":{}}}}}",
          "Parsing schema for column c failed: Required 'type' member is "
          "missing." },
        { "{\"name\":\"S\",\"tables\":{\"t\":{\"columns\":{\"c\":"
          "{\"type\":\"integer\",\"bogus\":1}}}}}",
          "Member 'bogus' is present but not allowed here." },
        { "{\"name\":\"S\",\"tables\":{\"t\":{\"columns\":{\"c\":"
          "{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"x\"}}}}}}}",
          "column c key refers to undefined table x" },
        { "{\"name\":\"S\",\"tables\":{\"t\":{\"columns\":{\"c\":"
          "{\"type\":\"integer\"}},\"indexes\":[[\"d\"]]}}}",
          "d is not a valid column name" },
        { "{\"name\":\"S\",\"tables\":{\"t\":{\"columns\":{\"c\":"
          "{\"type\":\"integer\"}},\"indexes\":[[]]}}}",
          "index must have at least one column" },
        { "{\"name\":\"S\",\"tables\":{\"t\":{\"columns\":{\"c\":"
          "{\"type\":\"integer\",\"ephemeral\":true}},"
          "\"indexes\":[[\"c\"]]}}}", "may not be indexed" },
        { "{\"name\":\"S\",\"tables\":{\"t\":{\"columns\":{\"c\":"
          "{\"type\":\"integer\"}},\"maxRows\":0}}}",
          "maxRows must be at least 1" },
        { "{\"name\":\"1S\",\"tables\":{}}",
          "Type mismatch for member 'name'" },
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(cases); i++) {
        json_t *json = parse(cases[i].json);
        struct ovsdb_schema *schema;

        expect_error(ovsdb_schema_from_json(json, &schema), "syntax error",
                     cases[i].details);
        assert_null(schema);
        json_decref(json);
    }
}

static void
test_vswitch_schema(void **state DPS_UNUSED)
{
    const char *file = getenv("OVS_REF_VSWITCH_SCHEMA");
    struct ovsdb_schema *schema;
    const struct ovsdb_table_schema *ts;

    if (!file) {
        file = "/usr/share/openvswitch/vswitch.ovsschema";
    }
    if (access(file, R_OK)) {
        /* Not installed here.  (cmocka's skip() reads as a failure to
         * automake's TAP driver.) */
        print_message("# %s absent, not checked\n", file);
        return;
    }
    assert_null(ovsdb_schema_from_file(file, &schema));
    assert_string_equal(schema->name, "Open_vSwitch");
    ts = ovsdb_schema_find_table(schema, "Open_vSwitch");
    assert_non_null(ts);
    assert_true(ts->is_root);
    assert_int_equal(ts->max_rows, 1);
    ts = ovsdb_schema_find_table(schema, "Bridge");
    assert_non_null(ts);
    assert_false(ts->is_root);
    assert_int_equal(ts->n_indexes, 1);
    ovsdb_schema_destroy(schema);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uuid),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_type_english),
        cmocka_unit_test(test_datum_json),
        cmocka_unit_test(test_constraints),
        cmocka_unit_test(test_datum_to_string),
        cmocka_unit_test(test_datum_diff),
        cmocka_unit_test(test_datum_set_ops),
        cmocka_unit_test(test_symbol_table),
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_schema_all_roots),
        cmocka_unit_test(test_schema_errors),
        cmocka_unit_test(test_vswitch_schema),
    };

    return cmocka_run_group_tests_name("ovsdb-data", tests, NULL, NULL);
}
