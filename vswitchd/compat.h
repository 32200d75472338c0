/* compat: warnings about the settings ovs-vswitchd stores but does not act
 * on yet.
 *
 * vswitchd/vswitch.xml marks with compat="yes" the columns and keys that
 * dpswitch accepts, so that Open vSwitch's tools and management systems
 * keep working, but does not use yet.  The build turns those marks into
 * vswitch-compat.def ("vswitch-doc.py compat"), so the list cannot drift
 * from the documentation: a setting made real loses its mark and with it
 * its warning.  Each such setting that holds a value other than its
 * default is reported (bridge.c logs it), once, and again whenever its
 * value changes, so that no setting is ignored silently:
 *
 *   Port p1: cvlans=[10, 20] is not supported by dpswitch yet and is ignored
 *
 * Left out: ephemeral columns (ovs-vswitchd's own status, which an
 * operator does not set) and the column that names a table's rows (such a
 * row is reported through the column that refers to it).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef VSWITCHD_COMPAT_H
#define VSWITCHD_COMPAT_H 1

struct ovsdb_idl;

/* Registers with 'idl' the tables and columns of the settings, and the
 * columns that name their rows.  Call before the first ovsdb_idl_run(). */
void compat_register_columns(struct ovsdb_idl *idl);

/* Calls 'report' with a message for each setting that holds a value other
 * than its default in 'idl''s replica, unless it held the same value at
 * the previous call.  Call after each change of the replica, while it is
 * complete (monitoring). */
void compat_warn(struct ovsdb_idl *idl, void (*report)(const char *message));

/* Forgets what has been reported (the next compat_warn() reports every
 * setting again) and frees it. */
void compat_clear(void);

#endif /* vswitchd/compat.h */
