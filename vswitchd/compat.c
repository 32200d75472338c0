/* compat: warnings about the settings ovs-vswitchd stores but does not act
 * on yet.  See compat.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include "compat.h"

#include <limits.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb-idl.h"
#include "ovsdb/ovsdb-data.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "smap.h"

/* One setting marked compat="yes". */
struct compat_setting {
    const char *table;
    const char *label;          /* The column that names the table's rows
                                 * in messages, or NULL. */
    const char *column;
    const char *key;            /* A key of map 'column', or NULL for the
                                 * whole column. */
    const char *default_value;  /* The key's documented default, or NULL
                                 * if any value is worth a warning. */
};

static const struct compat_setting compat_settings[] = {
#define VSWITCH_COMPAT(TABLE, LABEL, COLUMN, KEY, DEFAULT) \
    { TABLE, LABEL, COLUMN, KEY, DEFAULT },
#include "vswitch-compat.def"
#undef VSWITCH_COMPAT
    { NULL, NULL, NULL, NULL, NULL },
};

/* Longest value a warning quotes. */
#define COMPAT_VALUE_MAX 72

/* What has been reported: "<row UUID> <column>[:<key>]" to the value shown. */
static struct smap compat_warned = SMAP_INITIALIZER;

static bool compat_value(const struct compat_setting *,
                         const struct ovsdb_idl_row *,
                         const struct ovsdb_column *, struct ds *value);
static void compat_describe_row(const struct compat_setting *,
                                const struct ovsdb_idl_row *, struct ds *);

/* Registers the settings' columns.  See compat.h. */
void
compat_register_columns(struct ovsdb_idl *idl)
{
    for (const struct compat_setting *cs = compat_settings; cs->table;
         cs++) {
        ovsdb_idl_add_table(idl, cs->table);
        ovsdb_idl_add_column(idl, cs->table, cs->column);
        if (cs->label) {
            ovsdb_idl_add_column(idl, cs->table, cs->label);
        }
    }
}

/* Reports the settings set to other than their defaults.  See compat.h. */
void
compat_warn(struct ovsdb_idl *idl, void (*report)(const char *message))
{
    struct smap seen = SMAP_INITIALIZER;
    struct ds setting = DS_EMPTY_INITIALIZER;
    struct ds value = DS_EMPTY_INITIALIZER;
    struct ds what = DS_EMPTY_INITIALIZER;

    for (const struct compat_setting *cs = compat_settings; cs->table;
         cs++) {
        const struct ovsdb_table_schema *ts
            = ovsdb_idl_get_table(idl, cs->table);
        const struct ovsdb_column *column
            = ts ? ovsdb_table_schema_find_column(ts, cs->column) : NULL;
        const struct ovsdb_idl_row *row;

        if (!column || !ovsdb_idl_is_replicated(idl, ts, column)) {
            continue;
        }
        ds_clear(&setting);
        ds_put_format(&setting, "%s%s%s", cs->column, cs->key ? ":" : "",
                      cs->key ? cs->key : "");
        OVSDB_IDL_FOR_EACH_ROW (row, idl, ts) {
            char uuid[UUID_LEN + 1];

            ds_clear(&value);
            if (!compat_value(cs, row, column, &value)) {
                continue;
            }
            uuid_to_string(ovsdb_idl_row_get_uuid(row), uuid);
            ds_clear(&what);
            ds_put_format(&what, "%s %s", uuid, ds_cstr(&setting));

            const char *old = smap_get(&compat_warned, ds_cstr(&what));
            if (!old || strcmp(old, ds_cstr(&value))) {
                struct ds msg = DS_EMPTY_INITIALIZER;

                compat_describe_row(cs, row, &msg);
                ds_put_format(&msg, ": %s%s is not supported by dpswitch yet "
                              "and is ignored", ds_cstr(&setting),
                              ds_cstr(&value));
                report(ds_cstr(&msg));
                ds_destroy(&msg);
            }
            smap_add(&seen, ds_cstr(&what), ds_cstr(&value));
        }
    }
    smap_swap(&seen, &compat_warned);
    smap_destroy(&seen);
    ds_destroy(&setting);
    ds_destroy(&value);
    ds_destroy(&what);
}

/* Forgets what has been reported.  See compat.h. */
void
compat_clear(void)
{
    smap_destroy(&compat_warned);
    smap_init(&compat_warned);
}

/* If 'cs' has a value other than its default in 'row' (whose 'column' it
 * is), puts into 'value' how a warning shows it ("=VALUE" in ovs-vsctl's
 * syntax, or " (N rows)" for references to other rows) and returns true;
 * otherwise returns false. */
static bool
compat_value(const struct compat_setting *cs, const struct ovsdb_idl_row *row,
             const struct ovsdb_column *column, struct ds *value)
{
    const struct ovsdb_datum *datum = ovsdb_idl_row_get(row, column);
    const struct ovsdb_type *type = &column->type;

    if (cs->key) {
        union ovsdb_atom key = { .string = (char *) cs->key };
        unsigned int idx = UINT_MAX;

        if (type->key.type == OVSDB_TYPE_STRING
            && type->value.type == OVSDB_TYPE_STRING) {
            idx = ovsdb_datum_find_key(datum, &key, OVSDB_TYPE_STRING);
        }
        if (idx == UINT_MAX
            || (cs->default_value
                && !strcmp(datum->values[idx].string, cs->default_value))) {
            return false;
        }
        /* As the operator wrote it with "ovs-vsctl set ... KEY=VALUE". */
        ds_put_format(value, "=%s", datum->values[idx].string);
    } else if (ovsdb_datum_is_default(datum, type)) {
        return false;
    } else if (type->key.type == OVSDB_TYPE_UUID
               || type->value.type == OVSDB_TYPE_UUID) {
        ds_put_format(value, " (%u row%s)", datum->n,
                      datum->n == 1 ? "" : "s");
    } else {
        ds_put_char(value, '=');
        ovsdb_datum_to_string(datum, type, value);
    }
    if (value->length > COMPAT_VALUE_MAX) {
        ds_truncate(value, COMPAT_VALUE_MAX - 3);
        ds_put_cstr(value, "...");
    }
    return true;
}

/* Puts into 'name' how messages name 'row': "Port p1" by the row's label
 * column, the table alone for Open_vSwitch's one row, else "TABLE UUID". */
static void
compat_describe_row(const struct compat_setting *cs,
                    const struct ovsdb_idl_row *row, struct ds *name)
{
    const struct ovsdb_datum *label
        = cs->label ? ovsdb_idl_row_get_by_name(row, cs->label) : NULL;

    ds_put_cstr(name, cs->table);
    if (label && label->n == 1) {
        ds_put_format(name, " %s", label->keys[0].string);
    } else if (ovsdb_idl_row_get_table(row)->max_rows != 1) {
        char uuid[UUID_LEN + 1];

        uuid_to_string(ovsdb_idl_row_get_uuid(row), uuid);
        ds_put_format(name, " %s", uuid);
    }
}
