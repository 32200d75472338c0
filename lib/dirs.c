/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dirs.h"

#include <pthread.h>
#include <stdlib.h>
#include "util.h"

/* DPS_RUNDIR and friends come from the build (lib/automake.mk). */

static const char *env_or(const char *name, const char *dflt);
static void init_dbdir_from_sysconfdir(void);

static char *dbdir_from_sysconfdir;

/* Returns the run directory: $OVS_RUNDIR or the build default. */
const char *
dirs_rundir(void)
{
    return env_or("OVS_RUNDIR", DPS_RUNDIR);
}

/* Returns the log directory: $OVS_LOGDIR or the build default. */
const char *
dirs_logdir(void)
{
    return env_or("OVS_LOGDIR", DPS_LOGDIR);
}

/* Returns the database directory: $OVS_DBDIR; else $OVS_SYSCONFDIR/
 * openvswitch when OVS_SYSCONFDIR is set; else the build default.  The
 * environment is read once for the second form. */
const char *
dirs_dbdir(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    const char *dbdir = getenv("OVS_DBDIR");
    const char *sysconfdir = getenv("OVS_SYSCONFDIR");

    if (dbdir && dbdir[0]) {
        return dbdir;
    } else if (sysconfdir && sysconfdir[0]) {
        pthread_once(&once, init_dbdir_from_sysconfdir);
        return dbdir_from_sysconfdir;
    }
    return DPS_DBDIR;
}

/* Returns the system configuration directory: $OVS_SYSCONFDIR or the build
 * default. */
const char *
dirs_sysconfdir(void)
{
    return env_or("OVS_SYSCONFDIR", DPS_SYSCONFDIR);
}

/* Returns the directory of data files such as schemas: $OVS_PKGDATADIR or
 * the build default. */
const char *
dirs_pkgdatadir(void)
{
    return env_or("OVS_PKGDATADIR", DPS_PKGDATADIR);
}

/* Returns the directory of programs: $OVS_BINDIR or the build default. */
const char *
dirs_bindir(void)
{
    return env_or("OVS_BINDIR", DPS_BINDIR);
}

static const char *
env_or(const char *name, const char *dflt)
{
    const char *value = getenv(name);
    return value && value[0] ? value : dflt;
}

static void
init_dbdir_from_sysconfdir(void)
{
    dbdir_from_sysconfdir = xasprintf("%s/openvswitch",
                                      getenv("OVS_SYSCONFDIR"));
}
