/* The directories dpswitch uses, as Open vSwitch names them.
 *
 * Each has a default fixed at build time (configure's localstatedir and
 * sysconfdir, /var and /etc unless overridden) and an environment variable
 * that overrides it, exactly as Open vSwitch does:
 *
 *   dirs_rundir()     OVS_RUNDIR      pidfiles, control sockets, db.sock
 *   dirs_logdir()     OVS_LOGDIR      log files
 *   dirs_dbdir()      OVS_DBDIR       conf.db
 *   dirs_sysconfdir() OVS_SYSCONFDIR  system configuration
 *   dirs_pkgdatadir() OVS_PKGDATADIR  schemas and scripts
 *   dirs_bindir()     OVS_BINDIR      programs
 *
 * When OVS_DBDIR is unset, the database directory is $OVS_SYSCONFDIR/
 * openvswitch if OVS_SYSCONFDIR is set, else the build-time default.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DIRS_H
#define DIRS_H 1

const char *dirs_rundir(void);
const char *dirs_logdir(void);
const char *dirs_dbdir(void);
const char *dirs_sysconfdir(void);
const char *dirs_pkgdatadir(void);
const char *dirs_bindir(void);

#endif /* dirs.h */
