/* Socket helpers: file descriptor flags, parsing and formatting of
 * "HOST:PORT" addresses, opening TCP and Unix domain sockets.
 *
 * Addresses are literals only: an IPv4 dotted quad ("127.0.0.1") or an IPv6
 * address, which must be written in square brackets wherever a port may
 * follow it ("[::1]:6640").  Host names are not resolved.
 *
 * Return conventions: int-returning functions give 0 on success or a
 * positive errno value.  The "open" functions that start a connection also
 * return EINPROGRESS when the connection has started but not finished; the
 * caller then polls for POLLOUT and calls sock_check_connection().
 *
 * Unix domain socket names are limited by the kernel to about 108 bytes
 * (sizeof sun_path).  sock_unix_open_active() and sock_unix_open_passive()
 * accept longer names by going through /proc/self/fd/N, where N is a file
 * descriptor for the socket's directory; only the last path component then
 * has to fit.
 *
 * Every function here is thread-safe.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef SOCKET_UTIL_H
#define SOCKET_UTIL_H 1

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct ds;

/* File descriptor flags. */
int sock_set_nonblocking(int fd);
int sock_set_cloexec(int fd);
int sock_set_nodelay(int fd);
void sock_ignore_sigpipe(void);

/* Errors. */
/* Parse dotted-quad 's' into '*be_addr' (network order) and return false
 * if it is not an IPv4 address; sock_parse_ipv4() also logs the error, as
 * Open vSwitch's tools do. */
bool sock_ipv4_from_string(const char *s, uint32_t *be_addr);
bool sock_parse_ipv4(const char *s, uint32_t *be_addr);

int sock_get_error(int fd);
int sock_check_connection(int fd);

/* Addresses. */
int sock_parse_active(const char *target, int default_port,
                      struct sockaddr_storage *);
int sock_parse_passive(const char *target, int default_port,
                       struct sockaddr_storage *);
int sock_ss_get_port(const struct sockaddr_storage *);
void sock_ss_format_address(const struct sockaddr_storage *, struct ds *);
void sock_ss_format_full(const struct sockaddr_storage *, struct ds *);
void sock_ss_format_passive(const struct sockaddr_storage *, struct ds *);
socklen_t sock_ss_length(const struct sockaddr_storage *);

/* TCP sockets. */
int sock_inet_open_active(const char *target, int default_port,
                          struct sockaddr_storage *, int *fdp);
int sock_inet_open_passive(const char *target, int default_port,
                           struct sockaddr_storage *, int *fdp);
int sock_accept(int listen_fd, struct sockaddr_storage *, int *fdp);

/* Unix domain sockets. */
int sock_unix_open_active(const char *path, int *fdp);
int sock_unix_connect(int fd, const char *path);
int sock_unix_open_passive(const char *path, int *fdp);

#endif /* socket-util.h */
