/* SSL/TLS streams, through OpenSSL 3.
 *
 * An "ssl:" stream goes through two phases while it connects: the TCP
 * connection, then the TLS handshake.  Both are non-blocking and driven by
 * stream_connect() (which stream_recv() and stream_send() call too); OpenSSL
 * says after each step whether it next needs the socket to become readable
 * or writable, and the stream waits for that.
 *
 * Sending copies the caller's data into a buffer of the stream before
 * handing it to SSL_write(): OpenSSL insists that a write that could not
 * finish be retried with the same data, which a caller of stream_send()
 * does not promise.  stream_run() pushes out what is left.
 *
 * One SSL_CTX holds the process-wide configuration (key, certificate, CA,
 * protocols, ciphers); every stream's SSL object is made from it.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "stream-ssl.h"

#include <errno.h>
#include <limits.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "poll-loop.h"
#include "socket-util.h"
#include "stream-provider.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stream_ssl);

/* Most bytes a single stream_send() takes into the transmit buffer. */
#define STREAM_SSL_TX_MAX (64 * 1024)

#define STREAM_SSL_DEFAULT_PROTOCOLS "TLSv1.2,TLSv1.3"
#define STREAM_SSL_DEFAULT_CIPHERS "HIGH:!aNULL:!MD5"

/* One configuration file: its name and whether it loaded. */
struct stream_ssl_file {
    char *name;
    bool loaded;
};

/* The process-wide configuration. */
static SSL_CTX *ctx;
static struct stream_ssl_file private_key;
static struct stream_ssl_file certificate;
static struct stream_ssl_file ca_cert;
static struct stream_ssl_file peer_ca_cert;
static bool bootstrap_ca_cert;  /* 'ca_cert' is to be fetched from a peer. */
static bool verify_peer = true; /* False after --ca-cert=none. */

enum stream_ssl_phase {
    STREAM_SSL_TCP_CONNECTING,  /* connect() under way. */
    STREAM_SSL_HANDSHAKING,     /* TLS handshake under way or done. */
};

struct stream_ssl {
    struct stream up;
    enum stream_ssl_phase phase;
    bool is_client;
    bool bootstrapping;         /* Accepts any peer, to learn its CA. */
    int fd;
    SSL *ssl;

    /* What OpenSSL last needed (POLLIN or POLLOUT) to carry on with the
     * handshake, a read or a write; 0 if it did not ask for anything. */
    short int connect_want;
    short int rx_want;
    short int tx_want;

    /* Data accepted by stream_send() and not yet taken by SSL_write(). */
    uint8_t *tx_data;
    size_t tx_size;             /* Bytes in 'tx_data'. */
    size_t tx_ofs;              /* Bytes of 'tx_data' already written. */
};

struct pstream_ssl {
    struct pstream up;
    int fd;
};

static int stream_ssl_init(void);
static int stream_ssl_check_config(const char *name);
static int stream_ssl_new(char *name, int fd, bool is_client,
                          bool tcp_connecting, struct stream **streamp);
static struct stream_ssl *stream_ssl_cast(struct stream *);
static struct pstream_ssl *pstream_ssl_cast(struct pstream *);
static int stream_ssl_flush(struct stream_ssl *);
static void stream_ssl_clear_errors(void);
static int stream_ssl_error(struct stream_ssl *, const char *function,
                            int retval, short int *wantp);
static int stream_ssl_bootstrap(struct stream_ssl *);
static int stream_ssl_verify_any(int preverify_ok, X509_STORE_CTX *);
static bool stream_ssl_file_is_new(struct stream_ssl_file *,
                                   const char *name);
static void stream_ssl_log_errors(const char *what, const char *file_name);
static void stream_ssl_check_key_matches(void);
static int stream_ssl_load_ca_cert(const char *file_name);
static void stream_ssl_trust(X509 *cert);

/* Returns true if any of the private key, certificate or CA certificate has
 * been configured. */
bool
stream_ssl_is_configured(void)
{
    return private_key.name || certificate.name || ca_cert.name;
}

/* Sets the private key that identifies this end of SSL connections to the
 * PEM file 'file_name'.  Logs an error if it cannot be loaded.  Calling it
 * again with the same name does nothing once the key has loaded. */
void
stream_ssl_set_private_key_file(const char *file_name)
{
    if (stream_ssl_init() || !stream_ssl_file_is_new(&private_key,
                                                     file_name)) {
        return;
    }
    ERR_clear_error();
    if (SSL_CTX_use_PrivateKey_file(ctx, file_name, SSL_FILETYPE_PEM) != 1) {
        stream_ssl_log_errors("could not load private key", file_name);
        return;
    }
    private_key.loaded = true;
    stream_ssl_check_key_matches();
}

/* Sets the certificate for the private key to the PEM file 'file_name',
 * which may continue with the certificates of intermediate CAs.  Logs an
 * error if it cannot be loaded.  Calling it again with the same name does
 * nothing once the certificate has loaded. */
void
stream_ssl_set_certificate_file(const char *file_name)
{
    if (stream_ssl_init() || !stream_ssl_file_is_new(&certificate,
                                                     file_name)) {
        return;
    }
    ERR_clear_error();
    if (SSL_CTX_use_certificate_chain_file(ctx, file_name) != 1) {
        stream_ssl_log_errors("could not load certificate", file_name);
        return;
    }
    certificate.loaded = true;
    stream_ssl_check_key_matches();
}

/* Sets the CA certificate(s) against which peers' certificates are verified
 * to those in PEM file 'file_name', replacing any configured before.
 *
 * "none" disables verification (a security risk, logged as such).
 *
 * If 'bootstrap' is true and 'file_name' does not exist, the first SSL
 * connection accepts whatever certificate the peer presents, saves the CA
 * certificate at the root of the peer's chain to 'file_name', and fails
 * with EPROTO so that the caller reconnects; from then on that CA is
 * required.  This trusts the first peer blindly, and works only with peers
 * that send their CA certificate (see stream_ssl_set_peer_ca_cert_file()).
 *
 * Calling it again with the same name does nothing once the CA has
 * loaded. */
void
stream_ssl_set_ca_cert_file(const char *file_name, bool bootstrap)
{
    struct stat st;

    if (stream_ssl_init()) {
        return;
    }
    if (!strcmp(file_name, "none")) {
        if (verify_peer) {
            VLOG_WARN("Peer certificate validation disabled "
                      "(this is a security risk)");
        }
        verify_peer = false;
        bootstrap_ca_cert = false;
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
        free(ca_cert.name);
        ca_cert.name = xstrdup(file_name);
        ca_cert.loaded = true;
        return;
    }
    if (!stream_ssl_file_is_new(&ca_cert, file_name)) {
        return;
    }

    verify_peer = true;
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                       NULL);
    if (bootstrap && stat(file_name, &st) && errno == ENOENT) {
        if (!bootstrap_ca_cert) {
            VLOG_INFO("%s: will be bootstrapped from the first SSL peer",
                      file_name);
        }
        bootstrap_ca_cert = true;
        return;
    }
    bootstrap_ca_cert = false;
    if (!stream_ssl_load_ca_cert(file_name)) {
        ca_cert.loaded = true;
    }
}

/* Makes this end send, after its own certificate, the certificates in PEM
 * file 'file_name', normally the CA certificate that signed it, so that a
 * peer that bootstraps its CA certificate can learn it. */
void
stream_ssl_set_peer_ca_cert_file(const char *file_name)
{
    FILE *file;
    X509 *cert;
    int n = 0;

    if (stream_ssl_init() || !stream_ssl_file_is_new(&peer_ca_cert,
                                                     file_name)) {
        return;
    }
    file = fopen(file_name, "r");
    if (!file) {
        VLOG_ERR("%s: could not open peer CA certificate (%s)", file_name,
                 util_strerror(errno));
        return;
    }
    ERR_clear_error();
    while ((cert = PEM_read_X509(file, NULL, NULL, NULL)) != NULL) {
        /* On success the SSL_CTX owns 'cert'. */
        if (SSL_CTX_add_extra_chain_cert(ctx, cert) != 1) {
            X509_free(cert);
            stream_ssl_log_errors("could not use peer CA certificate",
                                  file_name);
            break;
        }
        n++;
    }
    fclose(file);
    ERR_clear_error();
    if (!n) {
        VLOG_ERR("%s: no certificates found", file_name);
        return;
    }
    peer_ca_cert.loaded = true;
}

/* Sets the private key and its certificate together.  Use this when
 * changing both, so that the key is never checked against the old
 * certificate. */
void
stream_ssl_set_key_and_cert(const char *private_key_file,
                            const char *certificate_file)
{
    if (stream_ssl_file_is_new(&private_key, private_key_file)
        || stream_ssl_file_is_new(&certificate, certificate_file)) {
        free(private_key.name);
        free(certificate.name);
        private_key.name = certificate.name = NULL;
        stream_ssl_set_certificate_file(certificate_file);
        stream_ssl_set_private_key_file(private_key_file);
    }
}

/* Enables the TLS versions listed in 'protocols', separated by commas or
 * spaces: any of "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3" (case does not
 * matter).  Unknown words are logged and skipped; a list without a known
 * version is logged and leaves the setting unchanged.  The default is
 * "TLSv1.2,TLSv1.3" (OpenSSL 3 refuses the older versions at its default
 * security level anyway). */
void
stream_ssl_set_protocols(const char *protocols)
{
    static const struct {
        const char *name;
        long int no_flag;
    } versions[] = {
        { "TLSv1", SSL_OP_NO_TLSv1 },
        { "TLSv1.1", SSL_OP_NO_TLSv1_1 },
        { "TLSv1.2", SSL_OP_NO_TLSv1_2 },
        { "TLSv1.3", SSL_OP_NO_TLSv1_3 },
    };
    long int all_off = SSL_OP_NO_SSLv2 | SSL_OP_NO_SSLv3;
    long int off;
    char *copy, *word, *save;

    if (stream_ssl_init()) {
        return;
    }
    for (size_t i = 0; i < ARRAY_SIZE(versions); i++) {
        all_off |= versions[i].no_flag;
    }

    off = all_off;
    copy = xstrdup(protocols);
    for (word = strtok_r(copy, ", \t", &save); word;
         word = strtok_r(NULL, ", \t", &save)) {
        size_t i;

        for (i = 0; i < ARRAY_SIZE(versions); i++) {
            if (!strcasecmp(word, versions[i].name)) {
                off &= ~versions[i].no_flag;
                break;
            }
        }
        if (i == ARRAY_SIZE(versions)) {
            VLOG_WARN("%s: SSL protocol not recognized", word);
        }
    }
    free(copy);

    if (off == all_off) {
        VLOG_ERR("%s: no usable SSL protocol listed, keeping the previous "
                 "setting", protocols);
        return;
    }
    SSL_CTX_clear_options(ctx, all_off);
    SSL_CTX_set_options(ctx, off);
}

/* Sets the TLS 1.2 and earlier cipher list, in OpenSSL's cipher string
 * format (see ciphers(1)), to 'ciphers'.  The default is
 * "HIGH:!aNULL:!MD5".  A list OpenSSL rejects is logged and leaves the
 * setting unchanged. */
void
stream_ssl_set_ciphers(const char *ciphers)
{
    static char *current;

    if (stream_ssl_init() || (current && !strcmp(current, ciphers))) {
        return;
    }
    ERR_clear_error();
    if (SSL_CTX_set_cipher_list(ctx, ciphers) != 1) {
        stream_ssl_log_errors("SSL cipher list not usable", ciphers);
        /* A failed call can leave the SSL_CTX without any cipher. */
        if (current) {
            SSL_CTX_set_cipher_list(ctx, current);
            ERR_clear_error();
        }
        return;
    }
    free(current);
    current = xstrdup(ciphers);
}

/* The active class. */

static int
stream_ssl_open(char *name, const char *suffix, struct stream **streamp)
{
    int error;
    int fd;

    error = stream_ssl_check_config(name);
    if (error) {
        free(name);
        return error;
    }
    error = sock_inet_open_active(suffix, -1, NULL, &fd);
    if (error && error != EINPROGRESS) {
        free(name);
        return error;
    }
    return stream_ssl_new(name, fd, true, error == EINPROGRESS, streamp);
}

static void
stream_ssl_close(struct stream *stream)
{
    struct stream_ssl *s = stream_ssl_cast(stream);

    /* Best effort: hand over what is buffered and say goodbye, without
     * waiting for either to get through. */
    if (s->phase == STREAM_SSL_HANDSHAKING && SSL_is_init_finished(s->ssl)) {
        stream_ssl_flush(s);
        ERR_clear_error();
        SSL_shutdown(s->ssl);
    }
    ERR_clear_error();
    SSL_free(s->ssl);
    close(s->fd);
    free(s->tx_data);
    free(s->up.name);
    free(s);
}

static int
stream_ssl_connect(struct stream *stream)
{
    struct stream_ssl *s = stream_ssl_cast(stream);
    int retval;

    if (s->phase == STREAM_SSL_TCP_CONNECTING) {
        int error = sock_check_connection(s->fd);
        if (error) {
            return error;
        }
        s->phase = STREAM_SSL_HANDSHAKING;
    }

    stream_ssl_clear_errors();
    retval = s->is_client ? SSL_connect(s->ssl) : SSL_accept(s->ssl);
    if (retval <= 0) {
        int error = stream_ssl_error(s, s->is_client ? "SSL_connect"
                                     : "SSL_accept",
                                     retval, &s->connect_want);
        if (error == EAGAIN) {
            return EAGAIN;
        }
        if (SSL_get_verify_result(s->ssl) != X509_V_OK) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
            VLOG_WARN_RL(&rl, "%s: peer certificate rejected: %s",
                         s->up.name, X509_verify_cert_error_string(
                             SSL_get_verify_result(s->ssl)));
        }
        /* The connection is not usable whatever went wrong: a clean close
         * or a reset in the middle of the handshake is a protocol error. */
        return error == EPIPE || error == ECONNRESET ? error : EPROTO;
    }
    s->connect_want = 0;

    return s->bootstrapping ? stream_ssl_bootstrap(s) : 0;
}

static ssize_t
stream_ssl_recv(struct stream *stream, void *buffer, size_t n)
{
    struct stream_ssl *s = stream_ssl_cast(stream);
    int retval;

    stream_ssl_clear_errors();
    retval = SSL_read(s->ssl, buffer, MIN(n, INT_MAX));
    if (retval > 0) {
        s->rx_want = 0;
        return retval;
    }
    int ssl_error = SSL_get_error(s->ssl, retval);
    if (ssl_error == SSL_ERROR_ZERO_RETURN
        || (ssl_error == SSL_ERROR_SYSCALL && !errno)) {
        /* The peer closed, cleanly or (as OpenSSL before 3.0 reports it
         * without SSL_OP_IGNORE_UNEXPECTED_EOF) just by closing the
         * socket. */
        return 0;
    }
    return -stream_ssl_error(s, "SSL_read", retval, &s->rx_want);
}

static ssize_t
stream_ssl_send(struct stream *stream, const void *buffer, size_t n)
{
    struct stream_ssl *s = stream_ssl_cast(stream);
    int error;

    /* Anything still buffered goes first. */
    error = stream_ssl_flush(s);
    if (error) {
        return -error;
    }

    n = MIN(n, STREAM_SSL_TX_MAX);
    s->tx_data = xrealloc(s->tx_data, n);
    memcpy(s->tx_data, buffer, n);
    s->tx_size = n;
    s->tx_ofs = 0;

    /* The bytes are the stream's now; if the socket is full they wait for
     * stream_run(). */
    error = stream_ssl_flush(s);
    if (error && error != EAGAIN) {
        return -error;
    }
    return n;
}

static void
stream_ssl_run(struct stream *stream)
{
    struct stream_ssl *s = stream_ssl_cast(stream);

    if (s->tx_ofs < s->tx_size) {
        int error = stream_ssl_flush(s);
        if (error && error != EAGAIN) {
            /* The next send or receive reports the problem. */
            VLOG_DBG("%s: send failed (%s)", s->up.name,
                     util_strerror(error));
        }
    }
}

static void
stream_ssl_run_wait(struct stream *stream)
{
    struct stream_ssl *s = stream_ssl_cast(stream);

    if (s->tx_ofs < s->tx_size) {
        poll_fd_wait(s->fd, s->tx_want ? s->tx_want : POLLOUT);
    }
}

/* Waits for 'fd' to satisfy 'want', or wakes at once if 'want' is 0 (the
 * operation has not been tried since it last made progress). */
static void
stream_ssl_wait_for(int fd, short int want)
{
    if (want) {
        poll_fd_wait(fd, want);
    } else {
        poll_immediate_wake();
    }
}

static void
stream_ssl_wait(struct stream *stream, enum stream_wait_type type)
{
    struct stream_ssl *s = stream_ssl_cast(stream);

    switch (type) {
    case STREAM_CONNECT:
        if (s->phase == STREAM_SSL_TCP_CONNECTING) {
            poll_fd_wait(s->fd, POLLOUT);
        } else {
            stream_ssl_wait_for(s->fd, s->connect_want);
        }
        break;

    case STREAM_RECV:
        /* Bytes OpenSSL has already decrypted will not make the socket
         * readable. */
        if (SSL_pending(s->ssl)) {
            poll_immediate_wake();
        } else {
            stream_ssl_wait_for(s->fd, s->rx_want);
        }
        break;

    case STREAM_SEND:
        if (s->tx_ofs >= s->tx_size) {
            poll_immediate_wake();
        } else {
            stream_ssl_wait_for(s->fd, s->tx_want);
        }
        break;
    }
}

/* "ssl:HOST:PORT". */
const struct stream_class stream_ssl_class = {
    .name = "ssl",
    .needs_probes = true,
    .open = stream_ssl_open,
    .close = stream_ssl_close,
    .connect = stream_ssl_connect,
    .recv = stream_ssl_recv,
    .send = stream_ssl_send,
    .run = stream_ssl_run,
    .run_wait = stream_ssl_run_wait,
    .wait = stream_ssl_wait,
};

/* The passive class. */

static int
stream_ssl_listen(char *name, const char *suffix, struct pstream **pstreamp)
{
    struct sockaddr_storage ss;
    struct pstream_ssl *ps;
    struct ds bound_name;
    int error;
    int fd;

    error = stream_ssl_check_config(name);
    free(name);
    if (error) {
        return error;
    }
    error = sock_inet_open_passive(suffix, -1, &ss, &fd);
    if (error) {
        return error;
    }

    ds_init(&bound_name);
    ds_put_cstr(&bound_name, "pssl:");
    sock_ss_format_passive(&ss, &bound_name);
    ps = xzalloc(sizeof *ps);
    pstream_init(&ps->up, &stream_ssl_pssl_class, ds_steal_cstr(&bound_name));
    pstream_set_bound_port(&ps->up, sock_ss_get_port(&ss));
    ps->fd = fd;
    *pstreamp = &ps->up;
    return 0;
}

static void
stream_ssl_pclose(struct pstream *pstream)
{
    struct pstream_ssl *ps = pstream_ssl_cast(pstream);

    close(ps->fd);
    free(ps->up.name);
    free(ps);
}

static int
stream_ssl_accept(struct pstream *pstream, struct stream **streamp)
{
    struct pstream_ssl *ps = pstream_ssl_cast(pstream);
    struct sockaddr_storage ss;
    struct ds name;
    int error;
    int fd;

    error = sock_accept(ps->fd, &ss, &fd);
    if (error) {
        return error;
    }
    ds_init(&name);
    ds_put_cstr(&name, "ssl:");
    sock_ss_format_full(&ss, &name);
    return stream_ssl_new(ds_steal_cstr(&name), fd, false, false, streamp);
}

static void
stream_ssl_pwait(struct pstream *pstream)
{
    poll_fd_wait(pstream_ssl_cast(pstream)->fd, POLLIN);
}

/* "pssl:PORT[:IP]". */
const struct pstream_class stream_ssl_pssl_class = {
    .name = "pssl",
    .needs_probes = true,
    .listen = stream_ssl_listen,
    .close = stream_ssl_pclose,
    .accept = stream_ssl_accept,
    .wait = stream_ssl_pwait,
};

/* Helpers. */

/* Creates the SSL_CTX with the defaults, once.  Returns 0 or ENOPROTOOPT if
 * OpenSSL cannot be set up. */
static int
stream_ssl_init(void)
{
    static int init_error = -1;

    if (init_error >= 0) {
        return init_error;
    }

    /* OpenSSL writes with write(), which cannot pass MSG_NOSIGNAL. */
    sock_ignore_sigpipe();

    ctx = SSL_CTX_new(TLS_method());
    if (!ctx) {
        stream_ssl_log_errors("SSL_CTX_new failed", "OpenSSL");
        init_error = ENOPROTOOPT;
        return init_error;
    }
    /* A peer that closes the socket without a TLS close_notify has still
     * closed the connection: report end of file, not an error. */
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
    SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
#endif
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE
                          | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                       NULL);
    /* Connections are long-lived; resumption would only add state. */
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_num_tickets(ctx, 0);
    init_error = 0;

    stream_ssl_set_protocols(STREAM_SSL_DEFAULT_PROTOCOLS);
    stream_ssl_set_ciphers(STREAM_SSL_DEFAULT_CIPHERS);
    return 0;
}

/* Checks that everything an SSL stream needs is configured, logging what is
 * missing for stream 'name'.  Returns 0 or ENOPROTOOPT. */
static int
stream_ssl_check_config(const char *name)
{
    int error = stream_ssl_init();

    if (error) {
        return error;
    }
    if (!private_key.loaded) {
        VLOG_ERR("%s: %s", name, private_key.name
                 ? "the private key did not load (see earlier messages)"
                 : "a private key must be configured to use SSL "
                   "(--private-key)");
        error = ENOPROTOOPT;
    }
    if (!certificate.loaded) {
        VLOG_ERR("%s: %s", name, certificate.name
                 ? "the certificate did not load (see earlier messages)"
                 : "a certificate must be configured to use SSL "
                   "(--certificate)");
        error = ENOPROTOOPT;
    }
    if (!ca_cert.loaded && !bootstrap_ca_cert) {
        VLOG_ERR("%s: %s", name, ca_cert.name
                 ? "the CA certificate did not load (see earlier messages)"
                 : "a CA certificate must be configured to use SSL "
                   "(--ca-cert or --bootstrap-ca-cert)");
        error = ENOPROTOOPT;
    }
    return error;
}

/* Makes a stream for TCP socket 'fd', a client or a server, its TCP
 * connection still under way if 'tcp_connecting'.  Takes ownership of
 * 'name' and 'fd' in every case. */
static int
stream_ssl_new(char *name, int fd, bool is_client, bool tcp_connecting,
               struct stream **streamp)
{
    struct stream_ssl *s;
    SSL *ssl;

    ERR_clear_error();
    ssl = SSL_new(ctx);
    if (!ssl || SSL_set_fd(ssl, fd) != 1) {
        stream_ssl_log_errors("could not create SSL connection", name);
        SSL_free(ssl);
        close(fd);
        free(name);
        return ENOPROTOOPT;
    }
    if (is_client) {
        SSL_set_connect_state(ssl);
    } else {
        SSL_set_accept_state(ssl);
    }

    s = xzalloc(sizeof *s);
    stream_init(&s->up, &stream_ssl_class, EAGAIN, name);
    s->phase = (tcp_connecting ? STREAM_SSL_TCP_CONNECTING
                : STREAM_SSL_HANDSHAKING);
    s->is_client = is_client;
    s->fd = fd;
    s->ssl = ssl;
    if (bootstrap_ca_cert && verify_peer) {
        /* Still ask for the peer's certificate, to learn its CA. */
        s->bootstrapping = true;
        SSL_set_verify(ssl, SSL_VERIFY_PEER, stream_ssl_verify_any);
    }
    *streamp = &s->up;
    return 0;
}

static struct stream_ssl *
stream_ssl_cast(struct stream *stream)
{
    return CONTAINER_OF(stream, struct stream_ssl, up);
}

static struct pstream_ssl *
pstream_ssl_cast(struct pstream *pstream)
{
    return CONTAINER_OF(pstream, struct pstream_ssl, up);
}

/* Writes as much of the transmit buffer as the socket takes.  Returns 0 once
 * it is empty, EAGAIN if some is left, or a positive errno value. */
static int
stream_ssl_flush(struct stream_ssl *s)
{
    while (s->tx_ofs < s->tx_size) {
        size_t n = s->tx_size - s->tx_ofs;
        int retval;

        stream_ssl_clear_errors();
        retval = SSL_write(s->ssl, s->tx_data + s->tx_ofs, MIN(n, INT_MAX));
        if (retval <= 0) {
            int error = stream_ssl_error(s, "SSL_write", retval, &s->tx_want);
            if (error != EAGAIN) {
                s->tx_ofs = s->tx_size = 0;
            }
            return error;
        }
        s->tx_ofs += retval;
        s->tx_want = 0;
    }
    s->tx_ofs = s->tx_size = 0;
    return 0;
}

/* Clears OpenSSL's error queue and errno before an SSL_*() call, so that
 * what they hold afterward is about that call. */
static void
stream_ssl_clear_errors(void)
{
    ERR_clear_error();
    errno = 0;
}

/* Interprets 'retval', the failed result of OpenSSL function 'function' on
 * 's'.  Returns EAGAIN (storing in '*wantp' whether OpenSSL waits for
 * POLLIN or POLLOUT), or a positive errno value for a real failure, which it
 * logs (rate-limited). */
static int
stream_ssl_error(struct stream_ssl *s, const char *function, int retval,
                 short int *wantp)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
    int ssl_error = SSL_get_error(s->ssl, retval);
    int error;

    switch (ssl_error) {
    case SSL_ERROR_WANT_READ:
        *wantp = POLLIN;
        return EAGAIN;

    case SSL_ERROR_WANT_WRITE:
        *wantp = POLLOUT;
        return EAGAIN;

    case SSL_ERROR_ZERO_RETURN:
        VLOG_DBG("%s: %s: connection closed by peer", s->up.name, function);
        return EPIPE;

    case SSL_ERROR_SYSCALL:
        error = errno ? errno : EPIPE;
        if (error == EAGAIN || error == EINTR) {
            *wantp = 0;
            return EAGAIN;
        }
        VLOG_DBG("%s: %s: %s", s->up.name, function, util_strerror(error));
        return error;

    case SSL_ERROR_SSL:
    default: {
        unsigned long code = ERR_peek_error();
        char buf[256];

        ERR_error_string_n(code, buf, sizeof buf);
        VLOG_WARN_RL(&rl, "%s: %s failed: %s", s->up.name, function,
                     code ? buf : "unknown SSL error");
        ERR_clear_error();
        return EPROTO;
    }
    }
}

/* Called once a bootstrapping stream's handshake is done: saves the CA
 * certificate at the root of the peer's chain as the configured CA
 * certificate file and trusts it from now on.  Returns EPROTO, even on
 * success, so that the caller reconnects and is verified properly. */
static int
stream_ssl_bootstrap(struct stream_ssl *s)
{
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(s->ssl);
    X509 *ca = NULL;
    FILE *file;

    if (!bootstrap_ca_cert) {
        /* Another connection got there first. */
        return EPROTO;
    }
    for (int i = 0; chain && i < sk_X509_num(chain); i++) {
        X509 *cert = sk_X509_value(chain, i);
        if (X509_check_issued(cert, cert) == X509_V_OK
            && X509_check_ca(cert)) {
            ca = cert;
        }
    }
    if (!ca) {
        VLOG_ERR("%s: the peer did not send a self-signed CA certificate "
                 "to bootstrap from (the peer needs --peer-ca-cert)",
                 s->up.name);
        return EPROTO;
    }

    file = fopen(ca_cert.name, "wx");
    if (!file) {
        if (errno == EEXIST) {
            VLOG_INFO("%s: created meanwhile, loading it", ca_cert.name);
            stream_ssl_set_ca_cert_file(ca_cert.name, false);
        } else {
            VLOG_ERR("%s: could not create CA certificate file (%s)",
                     ca_cert.name, util_strerror(errno));
        }
        return EPROTO;
    }
    bool written = PEM_write_X509(file, ca) == 1;
    if (fclose(file) || !written) {
        VLOG_ERR("%s: could not write CA certificate", ca_cert.name);
        unlink(ca_cert.name);
        ERR_clear_error();
        return EPROTO;
    }

    stream_ssl_trust(ca);
    bootstrap_ca_cert = false;
    ca_cert.loaded = true;
    VLOG_INFO("%s: saved the CA certificate of %s; reconnecting to verify "
              "the peer with it", ca_cert.name, s->up.name);
    return EPROTO;
}

/* Verification callback for bootstrapping: any peer will do. */
static int
stream_ssl_verify_any(int preverify_ok DPS_UNUSED,
                      X509_STORE_CTX *store_ctx DPS_UNUSED)
{
    return 1;
}

/* Records 'name' as the configured name of 'file'.  Returns false if it was
 * that already and loaded, so there is nothing to do. */
static bool
stream_ssl_file_is_new(struct stream_ssl_file *file, const char *name)
{
    if (file->name && !strcmp(file->name, name) && file->loaded) {
        return false;
    }
    free(file->name);
    file->name = xstrdup(name);
    file->loaded = false;
    return true;
}

/* Logs "FILE_NAME: WHAT: <OpenSSL's reasons>" as an error and clears
 * OpenSSL's error queue. */
static void
stream_ssl_log_errors(const char *what, const char *file_name)
{
    struct ds reasons = DS_EMPTY_INITIALIZER;
    unsigned long code;

    while ((code = ERR_get_error()) != 0) {
        char buf[256];

        ERR_error_string_n(code, buf, sizeof buf);
        ds_put_format(&reasons, "%s%s", reasons.length ? "; " : "", buf);
    }
    if (!reasons.length) {
        ds_put_cstr(&reasons, errno ? util_strerror(errno) : "unknown");
    }
    VLOG_ERR("%s: %s: %s", file_name, what, ds_cstr(&reasons));
    ds_destroy(&reasons);
}

/* Logs an error if the loaded private key and certificate do not belong
 * together. */
static void
stream_ssl_check_key_matches(void)
{
    if (private_key.loaded && certificate.loaded) {
        ERR_clear_error();
        if (SSL_CTX_check_private_key(ctx) != 1) {
            stream_ssl_log_errors("private key does not match certificate",
                                  certificate.name);
        }
    }
}

/* Replaces the trusted CA certificates by those in PEM file 'file_name'.
 * Returns 0 or a positive errno value (logged). */
static int
stream_ssl_load_ca_cert(const char *file_name)
{
    STACK_OF(X509_NAME) *ca_names;
    X509_STORE *store;
    FILE *file;
    X509 *cert;
    int n = 0;

    file = fopen(file_name, "r");
    if (!file) {
        int error = errno;
        VLOG_ERR("%s: could not open CA certificate file (%s)", file_name,
                 util_strerror(error));
        return error;
    }

    store = X509_STORE_new();
    ERR_clear_error();
    while ((cert = PEM_read_X509(file, NULL, NULL, NULL)) != NULL) {
        X509_STORE_add_cert(store, cert);
        X509_free(cert);
        n++;
    }
    fclose(file);
    ERR_clear_error();
    if (!n) {
        VLOG_ERR("%s: no CA certificates found", file_name);
        X509_STORE_free(store);
        return EINVAL;
    }

    /* The SSL_CTX frees the old store and client CA list. */
    SSL_CTX_set_cert_store(ctx, store);
    ca_names = SSL_load_client_CA_file(file_name);
    if (ca_names) {
        SSL_CTX_set_client_CA_list(ctx, ca_names);
    }
    ERR_clear_error();
    return 0;
}

/* Adds 'cert' to the trusted CA certificates. */
static void
stream_ssl_trust(X509 *cert)
{
    X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx), cert);
    SSL_CTX_add_client_CA(ctx, cert);
    ERR_clear_error();
}
