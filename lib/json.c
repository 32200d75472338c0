/* PROVISIONAL placeholder. */
#include <config.h>
