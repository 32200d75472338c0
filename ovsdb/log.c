/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "log.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "util.h"

/* Longest header line accepted: magic, a length, a 40-digit hash. */
#define MAX_HEADER 128

struct ovsdb_log {
    char *name;
    int fd;
    int lock_fd;                /* Lockfile descriptor, or -1. */
    bool writable;
    const char *magic;          /* OVSDB_LOG_JSON or OVSDB_LOG_CLUSTER. */
    off_t offset;               /* End of the last good record read. */
    off_t size;                 /* File size when opened. */
    size_t n_records;           /* Good records read or written. */
    bool read_error;            /* Reading stopped at a bad record. */
    off_t last_offset;          /* Where the last record written began,
                                 * or -1 if it is synced or taken back. */
    bool tail_dirty;            /* A record that must be taken back (its
                                 * fsync failed) is still in the file:
                                 * the file must be cut to 'offset'. */
};

static struct ovsdb_error *identify_magic(int fd, const char *name,
                                          const char **magicp);
static bool parse_header(char *line, const char *magic,
                         unsigned long long *lengthp, char sha1[41]);
static unsigned long long remaining_size(struct ovsdb_log *);
static struct ovsdb_error *lock_file(const char *name, int *lock_fdp);
static struct ovsdb_error *write_all(int fd, const char *, size_t, off_t);
static void sha1_hex(const void *, size_t, char hex[41]);
static struct ovsdb_error *fsync_parent_dir(const char *name);
static char *follow_symlinks(const char *name);

/* Opens the log 'name' in 'mode' and stores it in '*logp'. */
struct ovsdb_error *
ovsdb_log_open(const char *name_, enum ovsdb_log_open_mode mode,
               struct ovsdb_log **logp)
{
    int lock_fd = -1, flags, fd;
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    struct stat st;
    char *name;

    /* As Open vSwitch does, work on the file a symbolic link points to,
     * even a dangling one ("ovsdb-tool create" then creates the target),
     * and lock, compact and sync next to the target. */
    *logp = NULL;
    name = follow_symlinks(name_);
    if (mode != OVSDB_LOG_READ_ONLY) {
        error = lock_file(name, &lock_fd);
        if (error) {
            free(name);
            return error;
        }
    }

    switch (mode) {
    case OVSDB_LOG_READ_ONLY:
        flags = O_RDONLY;
        break;
    case OVSDB_LOG_READ_WRITE:
        flags = O_RDWR;
        break;
    case OVSDB_LOG_CREATE_EXCL:
        flags = O_RDWR | O_CREAT | O_EXCL;
        break;
    case OVSDB_LOG_CREATE:
    default:
        flags = O_RDWR | O_CREAT | O_TRUNC;
        break;
    }
    fd = open(name, flags | O_CLOEXEC, 0640);
    if (fd < 0) {
        int e = errno;

        if (lock_fd >= 0) {
            close(lock_fd);
        }
        error = ovsdb_io_error(e, "%s: %s failed", name_,
                               (mode == OVSDB_LOG_CREATE_EXCL
                                || mode == OVSDB_LOG_CREATE)
                               ? "create" : "open");
        free(name);
        return error;
    }
    if (mode == OVSDB_LOG_CREATE_EXCL || mode == OVSDB_LOG_CREATE) {
        error = fsync_parent_dir(name);
        if (error) {
            close(fd);
            if (lock_fd >= 0) {
                close(lock_fd);
            }
            free(name);
            return error;
        }
    }

    log = xzalloc(sizeof *log);
    log->magic = OVSDB_LOG_JSON;
    if (mode == OVSDB_LOG_READ_ONLY || mode == OVSDB_LOG_READ_WRITE) {
        error = identify_magic(fd, name_, &log->magic);
        if (error) {
            close(fd);
            if (lock_fd >= 0) {
                close(lock_fd);
            }
            free(log);
            free(name);
            return error;
        }
    }
    log->name = name;
    log->fd = fd;
    log->lock_fd = lock_fd;
    log->writable = mode != OVSDB_LOG_READ_ONLY;
    log->size = fstat(fd, &st) ? 0 : st.st_size;
    log->last_offset = -1;
    *logp = log;
    return NULL;
}

/* Closes 'log' and releases its lock. */
void
ovsdb_log_close(struct ovsdb_log *log)
{
    if (log) {
        close(log->fd);
        if (log->lock_fd >= 0) {
            close(log->lock_fd);
        }
        free(log->name);
        free(log);
    }
}

/* Returns the file name of 'log'. */
const char *
ovsdb_log_get_name(const struct ovsdb_log *log)
{
    return log->name;
}

/* Returns the kind of records in 'log': OVSDB_LOG_JSON (a standalone
 * database) or OVSDB_LOG_CLUSTER (a clustered one), as its first record
 * says; a log created here is OVSDB_LOG_JSON until ovsdb_log_set_magic()
 * says otherwise. */
const char *
ovsdb_log_get_magic(const struct ovsdb_log *log)
{
    return log->magic;
}

/* Makes the records that newly created 'log' (with nothing written yet)
 * gets from now on carry 'magic', OVSDB_LOG_JSON or OVSDB_LOG_CLUSTER. */
void
ovsdb_log_set_magic(struct ovsdb_log *log, const char *magic)
{
    log->magic = !strcmp(magic, OVSDB_LOG_CLUSTER) ? OVSDB_LOG_CLUSTER
                                                    : OVSDB_LOG_JSON;
}

/* Reads the next record of 'log' into '*jsonp', or stores NULL at the end
 * of the file.  A truncated, corrupted or unparsable record is an error;
 * reading then stops there, and the offset stays at the end of the last
 * good record. */
struct ovsdb_error *
ovsdb_log_read(struct ovsdb_log *log, json_t **jsonp)
{
    char header[MAX_HEADER + 1], expected[41], actual[41];
    unsigned long long length;
    struct ovsdb_error *error;
    json_error_t jerror;
    size_t header_len;
    char *data;
    ssize_t n;

    *jsonp = NULL;
    if (log->read_error) {
        return NULL;
    }

    n = pread(log->fd, header, MAX_HEADER, log->offset);
    if (n < 0) {
        log->read_error = true;
        return ovsdb_io_error(errno, "%s: read failed", log->name);
    } else if (n == 0) {
        return NULL;
    }
    header[n] = '\0';
    data = memchr(header, '\n', n);
    header_len = data ? (size_t) (data - header + 1) : 0;
    if (data) {
        *data = '\0';
    }
    if (!parse_header(header, log->magic, &length, expected) || !data) {
        /* 'header' now ends where parsing stopped being sure of it (after
         * the magic word, if there was one), as Open vSwitch reports it. */
        log->read_error = true;
        return ovsdb_error("syntax error", "%s: parse error at offset %lld "
                           "in header line \"%s\"", log->name,
                           (long long) log->offset, header);
    }
    if (length > remaining_size(log)) {
        /* Longer than the rest of the file: a torn record (or a length
         * that no allocation could hold). */
        log->read_error = true;
        return ovsdb_io_error(EOF, "%s: error reading %llu bytes starting "
                              "at offset %lld", log->name, length,
                              (long long) (log->offset + header_len));
    }

    data = xmalloc(length + 1);
    n = pread(log->fd, data, length, log->offset + header_len);
    if (n < 0 || (unsigned long long) n != length) {
        int e = n < 0 ? errno : EOF;

        free(data);
        log->read_error = true;
        return ovsdb_io_error(e, "%s: error reading %llu bytes starting at "
                              "offset %lld", log->name, length,
                              (long long) (log->offset + header_len));
    }
    data[length] = '\0';

    sha1_hex(data, length, actual);
    if (strcasecmp(actual, expected)) {
        error = ovsdb_error("syntax error", "%s: %llu bytes starting at "
                            "offset %lld have SHA-1 hash %s but should have "
                            "hash %s", log->name, length,
                            (long long) (log->offset + header_len), actual,
                            expected);
        free(data);
        log->read_error = true;
        return error;
    }

    *jsonp = json_loadb(data, length, JSON_DECODE_ANY, &jerror);
    if (!*jsonp) {
        error = ovsdb_error("syntax error", "%s: %llu bytes starting at "
                            "offset %lld are not valid JSON (%s)",
                            log->name, length,
                            (long long) (log->offset + header_len),
                            jerror.text);
        free(data);
        log->read_error = true;
        return error;
    }
    free(data);
    if (!json_is_object(*jsonp)) {
        json_decref(*jsonp);
        *jsonp = NULL;
        log->read_error = true;
        return ovsdb_error("syntax error", "%s: %llu bytes starting at "
                           "offset %lld are not a JSON object", log->name,
                           length, (long long) (log->offset + header_len));
    }
    log->offset += header_len + length;
    log->n_records++;
    return NULL;
}

/* Returns the offset just past the last good record read or written. */
off_t
ovsdb_log_get_offset(const struct ovsdb_log *log)
{
    return log->offset;
}

/* Returns the size the file had when it was opened. */
off_t
ovsdb_log_get_size(const struct ovsdb_log *log)
{
    return log->size;
}

/* Returns the number of good records read or written so far. */
size_t
ovsdb_log_get_n_records(const struct ovsdb_log *log)
{
    return log->n_records;
}

/* Discards everything after the last good record of writable 'log' (a torn
 * or corrupted tail found by ovsdb_log_read()).  Stores in '*n_bytesp' how
 * many bytes went. */
struct ovsdb_error *
ovsdb_log_truncate_tail(struct ovsdb_log *log, off_t *n_bytesp)
{
    struct stat st;

    *n_bytesp = 0;
    if (fstat(log->fd, &st)) {
        return ovsdb_io_error(errno, "%s: stat failed", log->name);
    }
    if (st.st_size > log->offset) {
        if (ftruncate(log->fd, log->offset)) {
            return ovsdb_io_error(errno, "%s: cannot truncate to length "
                                  "%lld", log->name,
                                  (long long) log->offset);
        }
        *n_bytesp = st.st_size - log->offset;
    }
    log->read_error = false;
    return NULL;
}

/* Appends 'json' as a record to 'log', which must have been read to its
 * end (or its bad tail truncated). */
struct ovsdb_error *
ovsdb_log_write(struct ovsdb_log *log, const json_t *json)
{
    struct ds header = DS_EMPTY_INITIALIZER, data = DS_EMPTY_INITIALIZER;
    struct ovsdb_error *error;

    if (!log->writable) {
        return ovsdb_io_error(EBADF, "%s: not open for writing", log->name);
    }
    if (log->read_error || log->tail_dirty) {
        off_t n;

        /* A bad tail, or a record taken back whose truncation failed: the
         * new record must not land after it. */
        error = ovsdb_log_truncate_tail(log, &n);
        if (error) {
            return error;
        }
        log->tail_dirty = false;
    }

    ovsdb_log_compose_record(json, log->magic, &header, &data);
    ds_put_buffer(&header, data.string, data.length);
    /* pwrite() at the end we know: one system call per record, not a
     * seek and a write. */
    error = write_all(log->fd, header.string, header.length, log->offset);
    if (error) {
        /* Leave no partial record behind. */
        if (ftruncate(log->fd, log->offset)) {
            /* The reader will find the torn tail and drop it. */
        }
        error = ovsdb_wrap_error(error, "%s: write failed", log->name);
    } else {
        log->last_offset = log->offset;
        log->offset += header.length;
        log->n_records++;
    }
    ds_destroy(&header);
    ds_destroy(&data);
    return error;
}

/* Makes everything written to 'log' so far durable.
 *
 * If that fails, the record written last (the one whose durability the
 * caller asked for, and whose transaction it is about to refuse) is taken
 * back: the file is cut to where that record began, so that a later open
 * does not replay a transaction its client was told failed.  (After a
 * failed fsync the kernel may or may not have the record on disk, and may
 * forget that it failed; retrying the fsync proves nothing.)  If the cut
 * fails too, the next ovsdb_log_write() retries it and fails while it
 * cannot be done, so that nothing is ever appended after the refused
 * record.  The records written before it stay: their transactions were
 * acknowledged. */
struct ovsdb_error *
ovsdb_log_commit_block(struct ovsdb_log *log)
{
    struct ovsdb_error *error;
    int err;

    if (!fdatasync(log->fd) || !fsync(log->fd)) {
        log->last_offset = -1;
        return NULL;
    }
    err = errno;
    error = ovsdb_io_error(err, "%s: fsync failed", log->name);
    if (log->last_offset >= 0) {
        log->offset = log->last_offset;
        log->n_records--;
        log->last_offset = -1;
        if (ftruncate(log->fd, log->offset)) {
            log->tail_dirty = true;
        }
    }
    return error;
}

/* Replaces the whole contents of 'log' by the 'n' 'records': they are
 * written to "<name>.tmp", synced, and renamed over the log, whose
 * directory is synced too.  On error 'log' is unchanged. */
struct ovsdb_error *
ovsdb_log_replace(struct ovsdb_log *log, json_t *const *records, size_t n)
{
    char *tmp_name = xasprintf("%s.tmp", log->name);
    struct ovsdb_log *tmp;
    struct ovsdb_error *error;
    size_t i;

    error = ovsdb_log_open(tmp_name, OVSDB_LOG_CREATE, &tmp);
    if (!error) {
        tmp->magic = log->magic;
    }
    for (i = 0; !error && i < n; i++) {
        error = ovsdb_log_write(tmp, records[i]);
    }
    if (!error) {
        error = ovsdb_log_commit_block(tmp);
    }
    if (!error && rename(tmp_name, log->name)) {
        error = ovsdb_io_error(errno, "%s: rename to %s failed", tmp_name,
                               log->name);
    }
    if (!error) {
        error = fsync_parent_dir(log->name);
    }
    if (error) {
        if (tmp) {
            unlink(tmp_name);
        }
        ovsdb_log_close(tmp);
        free(tmp_name);
        return error;
    }

    /* Adopt the new file; the lock on the old name stays ours. */
    close(log->fd);
    log->fd = tmp->fd;
    tmp->fd = -1;
    log->offset = tmp->offset;
    log->size = tmp->offset;
    log->n_records = tmp->n_records;
    log->read_error = false;
    log->last_offset = -1;
    log->tail_dirty = false;
    if (tmp->lock_fd >= 0) {
        close(tmp->lock_fd);
        tmp->lock_fd = -1;
    }
    free(tmp->name);
    free(tmp);
    free(tmp_name);
    return NULL;
}

/* Stores in 'header' and 'data' the framing line and the body of a record
 * that holds 'json', in a log of 'magic' records (OVSDB_LOG_JSON or
 * OVSDB_LOG_CLUSTER). */
void
ovsdb_log_compose_record(const json_t *json, const char *magic,
                         struct ds *header, struct ds *data)
{
    char hex[41];

    ovsdb_json_to_ds(json, 0, data);
    ds_put_char(data, '\n');
    sha1_hex(data->string, data->length, hex);
    ds_put_format(header, "OVSDB %s %zu %s\n", magic, data->length, hex);
}

/* Stores in '*magicp' the kind of log that 'fd' (named 'name') holds, from
 * its first header line. */
static struct ovsdb_error *
identify_magic(int fd, const char *name, const char **magicp)
{
    static const char *const magics[] = { OVSDB_LOG_JSON, OVSDB_LOG_CLUSTER };
    char start[32];
    ssize_t n = pread(fd, start, sizeof start - 1, 0);
    size_t i;

    if (n < 0) {
        return ovsdb_io_error(errno, "%s: read failed", name);
    }
    start[n] = '\0';
    for (i = 0; i < ARRAY_SIZE(magics); i++) {
        size_t len = strlen(magics[i]);

        if (!strncmp(start, "OVSDB ", 6)
            && !strncmp(start + 6, magics[i], len) && start[6 + len] == ' ') {
            *magicp = magics[i];
            return NULL;
        }
    }
    return ovsdb_error("ovsdb error", "%s: %s", name,
                       n ? "unexpected file format"
                       : "cannot identify file type");
}

/* Parses header 'line' (without its new-line), "OVSDB <magic> <length>
 * <sha1>" with single spaces, where <magic> must be 'magic' and <sha1> is
 * 40 hexadecimal digits, into '*lengthp' and 'sha1'.  As Open vSwitch's
 * reader does, the length is read as an unsigned number (so a "-1" is huge
 * and fails later as a short read), and 'line' is cut after the magic word
 * once one is found, so that an error quotes only what came before. */
static bool
parse_header(char *line, const char *magic, unsigned long long *lengthp,
             char sha1[41])
{
    char *word, *space, *end;
    size_t i;

    if (strncmp(line, "OVSDB ", 6)) {
        return false;
    }
    word = line + 6;
    space = strchr(word, ' ');
    if (!space) {
        return false;
    }
    *space = '\0';
    if (strcmp(word, magic)
        || (!isdigit((unsigned char) space[1])
            && space[1] != '-' && space[1] != '+')) {
        return false;
    }
    errno = 0;
    *lengthp = strtoull(space + 1, &end, 10);
    if (errno || end == space + 1 || *end != ' ') {
        return false;
    }
    end++;
    for (i = 0; i < 40; i++) {
        if (!isxdigit((unsigned char) end[i])) {
            return false;
        }
        sha1[i] = end[i];
    }
    sha1[40] = '\0';
    return end[40] == '\0';
}

/* Returns how many bytes 'log''s file holds past its read offset. */
static unsigned long long
remaining_size(struct ovsdb_log *log)
{
    struct stat st;

    if (log->size <= log->offset && !fstat(log->fd, &st)) {
        /* Appended to since it was opened. */
        log->size = st.st_size;
    }
    return log->size > log->offset ? log->size - log->offset : 0;
}

static struct ovsdb_error *
lock_file(const char *name, int *lock_fdp)
{
    char *copy1 = xstrdup(name), *copy2 = xstrdup(name);
    char *lock_name = xasprintf("%s/.%s.~lock~", dirname(copy1),
                                basename(copy2));
    struct flock lock;
    int fd;

    free(copy1);
    free(copy2);
    fd = open(lock_name, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        struct ovsdb_error *error = ovsdb_io_error(errno, "%s: failed to "
                                                   "open lock file",
                                                   lock_name);
        free(lock_name);
        return error;
    }
    memset(&lock, 0, sizeof lock);
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &lock)) {
        int e = errno;

        close(fd);
        free(lock_name);
        return ovsdb_io_error(e, "%s: failed to lock lockfile", name);
    }
    free(lock_name);
    *lock_fdp = fd;
    return NULL;
}

static struct ovsdb_error *
write_all(int fd, const char *p, size_t size, off_t offset)
{
    while (size) {
        ssize_t n = pwrite(fd, p, size, offset);

        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return ovsdb_io_error(errno, NULL);
        }
        p += n;
        size -= n;
        offset += n;
    }
    return NULL;
}

static void
sha1_hex(const void *data, size_t size, char hex[41])
{
    /* One context and one fetched algorithm for the life of the process:
     * EVP_Digest() looks the algorithm up and allocates a context on every
     * call, which cost as much as hashing a small record. */
    static const EVP_MD *sha1;
    static EVP_MD_CTX *ctx;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0, i;

    if (!ctx) {
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
        sha1 = EVP_MD_fetch(NULL, "SHA1", NULL);
#else
        sha1 = EVP_sha1();
#endif
        ctx = EVP_MD_CTX_new();
        if (!sha1 || !ctx) {
            util_fatal(0, "SHA-1 is not available");
        }
    }
    if (!EVP_DigestInit_ex(ctx, sha1, NULL)
        || !EVP_DigestUpdate(ctx, data, size)
        || !EVP_DigestFinal_ex(ctx, digest, &len)
        || len != 20) {
        util_fatal(0, "SHA-1 computation failed");
    }
    for (i = 0; i < len; i++) {
        static const char digits[] = "0123456789abcdef";

        hex[i * 2] = digits[digest[i] >> 4];
        hex[i * 2 + 1] = digits[digest[i] & 0xf];
    }
    hex[40] = '\0';
}

static struct ovsdb_error *
fsync_parent_dir(const char *name)
{
    char *copy = xstrdup(name);
    int fd = open(dirname(copy), O_RDONLY | O_CLOEXEC);
    int error = 0;

    if (fd < 0 || (fsync(fd) && errno != EINVAL)) {
        error = errno;
    }
    if (fd >= 0) {
        close(fd);
    }
    free(copy);
    return error ? ovsdb_io_error(error, "%s: fsync of directory failed",
                                  name) : NULL;
}

/* Returns the name of the file that 'name' finally names after following
 * up to 10 symbolic links (a relative link is relative to the link's
 * directory), which need not exist.  The caller must free() it. */
static char *
follow_symlinks(const char *name)
{
    char *current = xstrdup(name);
    int i;

    for (i = 0; i < 10; i++) {
        char target[4096];
        ssize_t n = readlink(current, target, sizeof target - 1);
        char *next;

        if (n < 0) {
            break;
        }
        target[n] = '\0';
        if (target[0] == '/' || !strchr(current, '/')) {
            next = xstrdup(target);
        } else {
            char *copy = xstrdup(current);

            next = xasprintf("%s/%s", dirname(copy), target);
            free(copy);
        }
        free(current);
        current = next;
    }
    return current;
}
