/* What every fuzz target links: the failure of a FUZZ_CHECK.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "fuzz.h"
#include <stdio.h>
#include <stdlib.h>

/* Names the check that failed and aborts, so that libFuzzer (or the corpus
 * replay) reports the input as a crash. */
void
fuzz_check_failed(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    abort();
}
