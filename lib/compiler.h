/* Compiler attributes used across dpswitch.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef COMPILER_H
#define COMPILER_H 1

/* Marks a parameter or variable that is deliberately unused, typically a
 * callback argument required by an interface. */
#define DPS_UNUSED __attribute__((__unused__))

/* Marks a function that never returns. */
#define DPS_NO_RETURN __attribute__((__noreturn__))

/* Marks a printf-like function: argument 'FMT' is the format string and
 * argument 'ARG1' is the first argument it formats (0 for va_list
 * functions). */
#define DPS_PRINTF_FORMAT(FMT, ARG1) \
    __attribute__((__format__(__printf__, FMT, ARG1)))

/* Marks a function whose return value must not be ignored. */
#define DPS_WARN_UNUSED_RESULT __attribute__((__warn_unused_result__))

/* Branch hints.  Use them only where a measurement shows they help.  DPDK's
 * rte_branch_prediction.h defines the same names with the same meaning. */
#ifndef likely
#define likely(X) __builtin_expect(!!(X), 1)
#endif
#ifndef unlikely
#define unlikely(X) __builtin_expect(!!(X), 0)
#endif

/* Runs function 'F' before main(). */
#define DPS_CONSTRUCTOR(F) \
    static void F(void) __attribute__((__constructor__)); \
    static void F(void)

#endif /* compiler.h */
