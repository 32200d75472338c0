/* The interface between a fuzz target and what drives it: libFuzzer, or
 * tests/fuzz/replay.c, which feeds it its regression corpus in "make
 * check".
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef FUZZ_H
#define FUZZ_H 1

#include <stddef.h>
#include <stdint.h>

/* Runs one input.  Returns 0; a failed check aborts. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Called once before the first input, if the target defines it (weak, as
 * libFuzzer declares it: a target with nothing to set up leaves it out). */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((__weak__));

/* Aborts with 'what' if 'cond' is false: a fuzz target's assertion. */
#define FUZZ_CHECK(COND, WHAT) \
    ((COND) ? (void) 0 : fuzz_check_failed(__FILE__, __LINE__, WHAT))

/* Defined once, in tests/fuzz/fuzz-check.c. */
void fuzz_check_failed(const char *file, int line, const char *what)
    __attribute__((__noreturn__));

#endif /* fuzz.h */
