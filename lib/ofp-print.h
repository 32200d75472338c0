/* Printing OpenFlow messages as ovs-ofctl ofp-print does.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_PRINT_H
#define OFP_PRINT_H 1

#include <stdbool.h>
#include <stddef.h>

struct ds;
struct ofputil_port_map;

/* Returns the 'len' bytes at 'data' (an OpenFlow message, or what claims
 * to be one) decoded as text, the caller frees it.  Higher 'verbosity'
 * prints more. */
char *ofp_to_string(const void *data, size_t len, int verbosity);
void ofp_print(const void *data, size_t len, int verbosity, struct ds *);

/* As ofp_print(), naming ports by their names in 'port_map' (NULL: by
 * number), as ovs-ofctl --names does. */
void ofp_print_with_ports(const void *data, size_t len, int verbosity,
                          const struct ofputil_port_map *port_map,
                          struct ds *);

/* Appends a hex dump of the 'size' bytes at 'data', 16 a line with their
 * offset (starting at 'ofs'), and with 'ascii' the printable characters. */
void ofp_put_hex_dump(struct ds *, const void *data, size_t size,
                      size_t ofs, bool ascii);

#endif /* ofp-print.h */
