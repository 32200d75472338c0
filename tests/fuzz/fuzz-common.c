/* Helpers shared by the fuzz targets.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "fuzz.h"
#include <stdio.h>
#include <stdlib.h>
#include "dp-test.h"
#include "util.h"

/* Sets up EAL and the test pools once, for every target (FUZZ_TARGET is
 * the target's name), and tears them down at exit. */
int
LLVMFuzzerInitialize(int *argc DPS_UNUSED, char ***argv DPS_UNUSED)
{
    dp_test_init("fuzz-" FUZZ_TARGET);
    atexit(dp_test_fini);
    return 0;
}

