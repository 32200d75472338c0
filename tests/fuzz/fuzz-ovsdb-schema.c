/* Fuzz target: OVSDB schema parsing (ovsdb/schema.c, ovsdb-types.c), as
 * ovsdb-tool and ovsdb-server read a schema file, and as a client reads the
 * reply to "get_schema".
 *
 * Input: JSON text.  A schema that parses must print back (its JSON form)
 * to a schema that parses and is equal to it, and its clone must be equal
 * too.  An error must have a text.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include "fuzz.h"
#include "ovsdb/ovsdb-error.h"
#include "ovsdb/schema.h"
#include "util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *json = json_loadb((const char *) data, size, JSON_DECODE_ANY,
                              NULL);
    struct ovsdb_schema *schema, *again, *clone;
    struct ovsdb_error *error;
    json_t *printed;

    if (!json) {
        return 0;
    }
    error = ovsdb_schema_from_json(json, &schema);
    json_decref(json);
    if (error) {
        char *s = ovsdb_error_to_string(error);

        FUZZ_CHECK(s && *s, "an error without text");
        free(s);
        ovsdb_error_destroy(error);
        return 0;
    }

    printed = ovsdb_schema_to_json(schema);
    error = ovsdb_schema_from_json(printed, &again);
    FUZZ_CHECK(!error, "a parsed schema does not parse once printed");
    FUZZ_CHECK(ovsdb_schema_equal(schema, again),
               "a printed schema parses to another schema");
    clone = ovsdb_schema_clone(schema);
    FUZZ_CHECK(ovsdb_schema_equal(schema, clone), "a clone differs");

    json_decref(printed);
    ovsdb_schema_destroy(again);
    ovsdb_schema_destroy(clone);
    ovsdb_schema_destroy(schema);
    return 0;
}
