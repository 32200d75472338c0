/* Open vSwitch 3.1's logging module names (see vlog-compat.c).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef VLOG_COMPAT_H
#define VLOG_COMPAT_H 1

/* NULL-terminated lists of module names, for vlog_add_module_names(). */
extern const char *const vlog_compat_vswitchd[];
extern const char *const vlog_compat_ovsdb_server[];

#endif /* vlog-compat.h */
