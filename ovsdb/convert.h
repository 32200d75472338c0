/* Converting an OVSDB database to a new schema, as "ovsdb-tool convert"
 * and the "convert" JSON-RPC method of ovsdb-server do.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_CONVERT_H
#define OVSDB_CONVERT_H 1

#include "compiler.h"

struct ovsdb;
struct ovsdb_schema;

struct ovsdb_error *ovsdb_convert(const struct ovsdb *src,
                                  const struct ovsdb_schema *new_schema,
                                  struct ovsdb **dstp)
    DPS_WARN_UNUSED_RESULT;

#endif /* convert.h */
