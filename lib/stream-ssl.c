/* Licensed under the Apache License, Version 2.0 (see LICENSE).
 *
 * PROVISIONAL: the SSL classes are declared but not yet implemented; opening
 * an "ssl:" or "pssl:" stream fails with EAFNOSUPPORT. */

#include <config.h>
#include "stream-ssl.h"

#include <errno.h>
#include <stdlib.h>
#include "stream-provider.h"
#include "util.h"

static int
stream_ssl_open(char *name, const char *suffix DPS_UNUSED,
                struct stream **streamp DPS_UNUSED)
{
    free(name);
    return EAFNOSUPPORT;
}

static int
stream_ssl_listen(char *name, const char *suffix DPS_UNUSED,
                  struct pstream **pstreamp DPS_UNUSED)
{
    free(name);
    return EAFNOSUPPORT;
}

const struct stream_class stream_ssl_class = {
    .name = "ssl",
    .needs_probes = true,
    .open = stream_ssl_open,
};

const struct pstream_class stream_ssl_pssl_class = {
    .name = "pssl",
    .needs_probes = true,
    .listen = stream_ssl_listen,
};
