/* SSL/TLS streams ("ssl:HOST:PORT", "pssl:PORT[:IP]") and their
 * configuration, through OpenSSL.
 *
 * Both ends authenticate: each presents the certificate configured with
 * stream_ssl_set_certificate_file() for the key configured with
 * stream_ssl_set_private_key_file(), and verifies the peer's certificate
 * against the CA certificate configured with stream_ssl_set_ca_cert_file().
 * All three must be configured before an SSL stream can be opened, except
 * that the CA certificate may be "bootstrapped": see
 * stream_ssl_set_ca_cert_file().
 *
 * Programs take the options as Open vSwitch's do:
 *
 *     enum { STREAM_SSL_OPTION_ENUMS, ... };
 *     static const struct option long_options[] = {
 *         STREAM_SSL_LONG_OPTIONS, ...
 *     };
 *     switch (c) {
 *     STREAM_SSL_OPTION_HANDLERS
 *     ...
 *     }
 *
 * with "p:c:C:" in the short options string.  The options are
 * --private-key (-p), --certificate (-c), --ca-cert (-C), --bootstrap-ca-cert,
 * --peer-ca-cert, --ssl-protocols and --ssl-ciphers.
 *
 * The configuration is process-wide; configure from the main thread.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef STREAM_SSL_H
#define STREAM_SSL_H 1

#include <stdbool.h>

bool stream_ssl_is_configured(void);
void stream_ssl_set_private_key_file(const char *file_name);
void stream_ssl_set_certificate_file(const char *file_name);
void stream_ssl_set_ca_cert_file(const char *file_name, bool bootstrap);
void stream_ssl_set_peer_ca_cert_file(const char *file_name);
void stream_ssl_set_key_and_cert(const char *private_key_file,
                                 const char *certificate_file);
void stream_ssl_set_protocols(const char *protocols);
void stream_ssl_set_ciphers(const char *ciphers);

#define STREAM_SSL_OPTION_ENUMS                 \
        OPT_SSL_PROTOCOLS,                      \
        OPT_SSL_CIPHERS,                        \
        OPT_BOOTSTRAP_CA_CERT,                  \
        OPT_PEER_CA_CERT

#define STREAM_SSL_LONG_OPTIONS                                         \
        {"private-key",       required_argument, NULL, 'p'},            \
        {"certificate",       required_argument, NULL, 'c'},            \
        {"ca-cert",           required_argument, NULL, 'C'},            \
        {"bootstrap-ca-cert", required_argument, NULL,                  \
         OPT_BOOTSTRAP_CA_CERT},                                        \
        {"peer-ca-cert",      required_argument, NULL, OPT_PEER_CA_CERT}, \
        {"ssl-protocols",     required_argument, NULL, OPT_SSL_PROTOCOLS}, \
        {"ssl-ciphers",       required_argument, NULL, OPT_SSL_CIPHERS}

/* The handlers of the options that name key, certificate and CA
 * certificate files, for a program that configures them at once. */
#define STREAM_SSL_FILE_OPTION_HANDLERS                 \
        case 'p':                                       \
            stream_ssl_set_private_key_file(optarg);    \
            break;                                      \
        case 'c':                                       \
            stream_ssl_set_certificate_file(optarg);    \
            break;                                      \
        case 'C':                                       \
            stream_ssl_set_ca_cert_file(optarg, false); \
            break;                                      \
        case OPT_BOOTSTRAP_CA_CERT:                     \
            stream_ssl_set_ca_cert_file(optarg, true);  \
            break;

/* The handlers of the other SSL options, which every program configures
 * at once (ovsdb-server handles the file options itself, since their
 * values may name database columns). */
#define STREAM_SSL_CONFIG_OPTION_HANDLERS               \
        case OPT_PEER_CA_CERT:                          \
            stream_ssl_set_peer_ca_cert_file(optarg);   \
            break;                                      \
        case OPT_SSL_PROTOCOLS:                         \
            stream_ssl_set_protocols(optarg);           \
            break;                                      \
        case OPT_SSL_CIPHERS:                           \
            stream_ssl_set_ciphers(optarg);             \
            break;

#define STREAM_SSL_OPTION_HANDLERS                      \
        STREAM_SSL_FILE_OPTION_HANDLERS                 \
        STREAM_SSL_CONFIG_OPTION_HANDLERS

#endif /* stream-ssl.h */
