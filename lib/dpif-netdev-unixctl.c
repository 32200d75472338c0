/* dpif-netdev unixctl commands.  See dpif-netdev.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dpif-netdev-private.h"

void
dp_netdev_unixctl_register(struct dp_netdev *dp)
{
    (void) dp;
}
