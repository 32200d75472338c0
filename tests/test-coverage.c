/* Licensed under the Apache License, Version 2.0 (see LICENSE).
 * PROVISIONAL placeholder: the tests for this library are being written. */
#include <config.h>
#include <stdio.h>
int
main(void)
{
    printf("1..0 # SKIP not written yet\n");
    return 0;
}
