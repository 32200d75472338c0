/* Fuzz target: the parser of column values in ovs-vsctl's syntax
 * (db_ctl_parse_datum() in lib/db-ctl.c): "a,b", "[a, b]",
 * "{k=v}", quoted strings, integers, reals, booleans, UUIDs and "@name"
 * references, for the types of vswitch.ovsschema's columns.
 *
 * Input: one byte choosing the column type, then the value text.  A value
 * that parses must print (ovsdb_datum_to_string(), what "ovs-vsctl get"
 * shows) to text that parses back to the same value (for reals, which print
 * rounded, to one that prints the same).
 *
 * ovs-vsctl.c is built into this program, its main() renamed, so that the
 * target runs the very parser the command uses.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

int ovs_vsctl_main(int argc, char *argv[]);
#define main ovs_vsctl_main
#include "utilities/ovs-vsctl.c"
#undef main

#include "fuzz.h"

/* Column types found in vswitch.ovsschema. */
static const char *const type_jsons[] = {
    "\"string\"",
    "\"integer\"",
    "\"real\"",
    "\"boolean\"",
    "\"uuid\"",
    "{\"key\":{\"type\":\"integer\",\"minInteger\":0,\"maxInteger\":4095},"
    "\"min\":0,\"max\":1}",
    "{\"key\":{\"type\":\"integer\",\"minInteger\":0,\"maxInteger\":4095},"
    "\"min\":0,\"max\":4096}",
    "{\"key\":{\"type\":\"string\",\"enum\":[\"set\",[\"trunk\",\"access\","
    "\"native-tagged\",\"native-untagged\",\"dot1q-tunnel\"]]},"
    "\"min\":0,\"max\":1}",
    "{\"key\":\"string\",\"value\":\"string\",\"min\":0,"
    "\"max\":\"unlimited\"}",
    "{\"key\":\"string\",\"value\":\"integer\",\"min\":0,"
    "\"max\":\"unlimited\"}",
    "{\"key\":\"string\",\"min\":0,\"max\":\"unlimited\"}",
    "{\"key\":{\"type\":\"uuid\",\"refTable\":\"Port\"},\"min\":0,"
    "\"max\":\"unlimited\"}",
    "{\"key\":{\"type\":\"uuid\",\"refTable\":\"Interface\"},\"min\":1,"
    "\"max\":\"unlimited\"}",
    "{\"key\":{\"type\":\"integer\",\"minInteger\":1,"
    "\"maxInteger\":65279},\"min\":0,\"max\":1}",
    "{\"key\":{\"type\":\"real\",\"minReal\":0,\"maxReal\":1},\"min\":0,"
    "\"max\":1}",
    "{\"key\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":8},"
    "\"value\":{\"type\":\"integer\",\"minInteger\":-5},\"min\":0,"
    "\"max\":3}",
};
#define N_TYPES (sizeof type_jsons / sizeof *type_jsons)

static struct ovsdb_type types[N_TYPES];

int
LLVMFuzzerInitialize(int *argc DPS_UNUSED, char ***argv DPS_UNUSED)
{
    for (size_t i = 0; i < N_TYPES; i++) {
        json_t *json = json_loads(type_jsons[i], JSON_DECODE_ANY, NULL);
        struct ovsdb_error *error = json ? ovsdb_type_from_json(&types[i],
                                                                 json)
                                         : NULL;

        FUZZ_CHECK(json && !error, "bad column type");
        json_decref(json);
    }
    return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct ovsdb_type *type;
    struct ovsdb_symbol_table *symtab;
    struct ovsdb_datum datum, again;
    struct ds printed = DS_EMPTY_INITIALIZER;
    char *text, *error;

    if (!size) {
        return 0;
    }
    type = &types[data[0] % N_TYPES];
    text = xmemdup0((const char *) data + 1, size - 1);
    symtab = ovsdb_symbol_table_create();
    error = db_ctl_parse_datum(&datum, type, text, symtab);
    if (error) {
        FUZZ_CHECK(*error, "an error without text");
        free(error);
        goto out;
    }

    ovsdb_datum_to_string(&datum, type, &printed);
    error = db_ctl_parse_datum(&again, type, ds_cstr(&printed), symtab);
    FUZZ_CHECK(!error, "a parsed value does not parse once printed");
    if (type->key.type == OVSDB_TYPE_REAL
        || type->value.type == OVSDB_TYPE_REAL) {
        /* Reals print with DBL_DIG digits, as in Open vSwitch, so they
         * round to the printed value: printing it again changes nothing. */
        struct ds reprinted = DS_EMPTY_INITIALIZER;

        ovsdb_datum_to_string(&again, type, &reprinted);
        FUZZ_CHECK(!strcmp(ds_cstr(&printed), ds_cstr(&reprinted)),
                   "a printed value prints differently once parsed");
        ds_destroy(&reprinted);
    } else {
        FUZZ_CHECK(ovsdb_datum_equals(&datum, &again, type),
                   "a printed value parses to another value");
    }
    ovsdb_datum_destroy(&again, type);
    ovsdb_datum_destroy(&datum, type);

out:
    ds_destroy(&printed);
    ovsdb_symbol_table_destroy(symtab);
    free(text);
    return 0;
}
