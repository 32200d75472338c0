/* restart-needed: the other_config keys whose new value waits for a
 * restart of ovs-vswitchd.
 *
 * Some keys are read only at start-up (the dpdk-* keys, vhost-sock-dir,
 * userspace-tso-enable) or can be turned on but not off at run time
 * (hw-offload, n-offload-threads once offload runs).  The module that reads
 * such a key logs the change and notes here whether its current value is
 * still waiting; bridge.c publishes the list as
 * Open_vSwitch:statistics:restart_needed, so that "ovs-vsctl get
 * Open_vSwitch . statistics:restart_needed" shows it.
 *
 * Threads: any thread may call these functions.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef RESTART_NEEDED_H
#define RESTART_NEEDED_H 1

#include <stdbool.h>

/* Notes whether other_config:'key' has a value that takes effect only after
 * a restart ('waiting') or not (any more). */
void restart_needed_note(const char *key, bool waiting);

/* Returns the waiting keys, sorted and separated by commas, in a string
 * that the caller frees, or NULL if none waits. */
char *restart_needed_keys(void);

#endif /* restart-needed.h */
