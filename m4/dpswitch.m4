# dpswitch autoconf helpers.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

# DPS_CHECK_CC_OPTION(OPTION, [IF-ACCEPTED], [IF-REJECTED])
#
# Checks whether the C compiler accepts OPTION without a warning; with
# -std=gnu11 the option also lands in CFLAGS when the IF-ACCEPTED argument is
# empty.
AC_DEFUN([DPS_CHECK_CC_OPTION],
[AS_VAR_PUSHDEF([dps_var], [dps_cv_cc_option_$1])dnl
 AC_CACHE_CHECK([whether $CC accepts $1], [dps_var],
   [dps_save_CFLAGS=$CFLAGS
    dnl -Werror so that an unknown -Wfoo is a failure, not a warning; check
    dnl the positive form of -Wno-foo, which compilers do report.
    dps_flag=`echo "$1" | sed 's/^-Wno-/-W/'`
    CFLAGS="$CFLAGS -Werror $dps_flag"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
                      [AS_VAR_SET([dps_var], [yes])],
                      [AS_VAR_SET([dps_var], [no])])
    CFLAGS=$dps_save_CFLAGS])
 AS_VAR_IF([dps_var], [yes],
           [m4_default([$2], [CFLAGS="$CFLAGS $1"])],
           [$3])
 AS_VAR_POPDEF([dps_var])])

# AX_PTHREAD_SIMPLE
#
# Every supported system (Linux with glibc) spells POSIX threads as -pthread.
AC_DEFUN([AX_PTHREAD_SIMPLE],
[AC_MSG_CHECKING([for -pthread])
 dps_save_CFLAGS=$CFLAGS
 CFLAGS="$CFLAGS -pthread"
 AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <pthread.h>]],
                                 [[pthread_create(0, 0, 0, 0);]])],
   [AC_MSG_RESULT([yes])],
   [AC_MSG_ERROR([POSIX threads with -pthread are required])])
 CFLAGS=$dps_save_CFLAGS
 PTHREAD_CFLAGS=-pthread
 PTHREAD_LIBS=-pthread
 AC_SUBST([PTHREAD_CFLAGS])
 AC_SUBST([PTHREAD_LIBS])])
