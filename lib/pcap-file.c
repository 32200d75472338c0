/* Classic libpcap files.  See pcap-file.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "pcap-file.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "dp-packet.h"
#include "util.h"

struct pcap_file {
    FILE *stream;
    char *name;
    bool swapped;               /* Reading a file of the other byte order. */
    bool nsec;                  /* Reading nanosecond timestamps. */
    uint32_t snaplen;           /* Of the file being read. */
};

/* The file header, in the writer's byte order. */
struct pcap_file_header {
    uint32_t magic;
    uint16_t version_major;
    uint16_t version_minor;
    int32_t thiszone;
    uint32_t sigfigs;
    uint32_t snaplen;
    uint32_t linktype;
};

/* Each record's header. */
struct pcap_record_header {
    uint32_t ts_sec;
    uint32_t ts_frac;           /* Microseconds, or nanoseconds. */
    uint32_t incl_len;          /* Bytes that follow. */
    uint32_t orig_len;          /* Bytes the packet had. */
};

_Static_assert(sizeof(struct pcap_file_header) == 24, "pcap header");
_Static_assert(sizeof(struct pcap_record_header) == 16, "pcap record");

static struct pcap_file *pcap_file_create(FILE *, const char *file_name);
static int pcap_file_write_record(struct pcap_file *, uint32_t size,
                                  uint32_t orig_size);
static int pcap_file_finish_record(struct pcap_file *);
static uint32_t pcap_file_u32(const struct pcap_file *, uint32_t);

/* Creates (or truncates) 'file_name' and writes the file header. */
int
pcap_file_open_write(const char *file_name, struct pcap_file **filep)
{
    struct pcap_file_header h = {
        .magic = PCAP_FILE_MAGIC,
        .version_major = 2,
        .version_minor = 4,
        .snaplen = PCAP_FILE_SNAPLEN,
        .linktype = PCAP_FILE_LINKTYPE_ETHERNET,
    };
    FILE *stream;

    *filep = NULL;
    stream = fopen(file_name, "wb");
    if (!stream) {
        return errno;
    }
    if (fwrite(&h, sizeof h, 1, stream) != 1 || fflush(stream)) {
        int error = errno ? errno : EIO;

        fclose(stream);
        return error;
    }
    *filep = pcap_file_create(stream, file_name);
    return 0;
}

/* Opens 'file_name' and reads and checks its header. */
int
pcap_file_open_read(const char *file_name, struct pcap_file **filep)
{
    struct pcap_file_header h;
    struct pcap_file *file;
    FILE *stream;

    *filep = NULL;
    stream = fopen(file_name, "rb");
    if (!stream) {
        return errno;
    }
    file = pcap_file_create(stream, file_name);
    if (fread(&h, sizeof h, 1, stream) != 1) {
        pcap_file_close(file);
        return EINVAL;
    }
    switch (h.magic) {
    case PCAP_FILE_MAGIC:
        break;
    case PCAP_FILE_MAGIC_NSEC:
        file->nsec = true;
        break;
    case 0xd4c3b2a1:
        file->swapped = true;
        break;
    case 0x4d3cb2a1:
        file->swapped = file->nsec = true;
        break;
    default:
        pcap_file_close(file);
        return EINVAL;
    }
    file->snaplen = pcap_file_u32(file, h.snaplen);
    if (pcap_file_u32(file, h.linktype) != PCAP_FILE_LINKTYPE_ETHERNET) {
        pcap_file_close(file);
        return EINVAL;
    }
    *filep = file;
    return 0;
}

/* Closes 'file' (NULL is allowed). */
void
pcap_file_close(struct pcap_file *file)
{
    if (file) {
        fclose(file->stream);
        free(file->name);
        free(file);
    }
}

/* The name 'file' was opened with. */
const char *
pcap_file_name(const struct pcap_file *file)
{
    return file->name;
}

/* Records 'packet', every segment of it. */
int
pcap_file_write(struct pcap_file *file, const struct dp_packet *packet)
{
    uint32_t size = dp_packet_size(packet);
    uint32_t left = MIN(size, PCAP_FILE_SNAPLEN);
    int error;

    error = pcap_file_write_record(file, left, size);
    for (const struct rte_mbuf *seg = &packet->mbuf; !error && seg && left;
         seg = seg->next) {
        uint32_t n = MIN(left, seg->data_len);

        if (n && fwrite(rte_pktmbuf_mtod(seg, const char *), n, 1,
                        file->stream) != 1) {
            error = errno ? errno : EIO;
        }
        left -= n;
    }
    return error ? error : pcap_file_finish_record(file);
}

/* Records 'size' bytes of 'data'. */
int
pcap_file_write_data(struct pcap_file *file, const void *data, size_t size)
{
    uint32_t n = MIN(size, PCAP_FILE_SNAPLEN);
    int error;

    error = pcap_file_write_record(file, n, MIN(size, UINT32_MAX));
    if (!error && n && fwrite(data, n, 1, file->stream) != 1) {
        error = errno ? errno : EIO;
    }
    return error ? error : pcap_file_finish_record(file);
}

/* Reads the next record. */
int
pcap_file_read_data(struct pcap_file *file, void **datap, size_t *sizep,
                    long long int *usecp)
{
    struct pcap_record_header h;
    size_t n;
    void *data;

    *datap = NULL;
    *sizep = 0;
    n = fread(&h, 1, sizeof h, file->stream);
    if (n != sizeof h) {
        return ferror(file->stream) ? EIO : n ? EINVAL : EOF;
    }

    uint32_t size = pcap_file_u32(file, h.incl_len);
    uint32_t frac = pcap_file_u32(file, h.ts_frac);
    if (size > MAX(file->snaplen, PCAP_FILE_SNAPLEN)
        || frac >= (file->nsec ? 1000000000u : 1000000u)) {
        return EINVAL;
    }
    data = xmalloc(size ? size : 1);
    if (size && fread(data, size, 1, file->stream) != 1) {
        free(data);
        return ferror(file->stream) ? EIO : EINVAL;
    }
    if (usecp) {
        *usecp = (pcap_file_u32(file, h.ts_sec) * 1000000LL
                  + (file->nsec ? frac / 1000 : frac));
    }
    *datap = data;
    *sizep = size;
    return 0;
}

/* Reads the next record into a packet from 'pool'. */
int
pcap_file_read(struct pcap_file *file, struct rte_mempool *pool,
               struct dp_packet **packetp)
{
    size_t size;
    void *data;
    int error;

    *packetp = NULL;
    error = pcap_file_read_data(file, &data, &size, NULL);
    if (!error) {
        *packetp = dp_packet_alloc_data(pool, data, size);
        if (!*packetp) {
            error = ENOBUFS;
        }
        free(data);
    }
    return error;
}

/* Helpers. */

static struct pcap_file *
pcap_file_create(FILE *stream, const char *file_name)
{
    struct pcap_file *file = xzalloc(sizeof *file);

    file->stream = stream;
    file->name = xstrdup(file_name);
    file->snaplen = PCAP_FILE_SNAPLEN;
    return file;
}

static int
pcap_file_write_record(struct pcap_file *file, uint32_t size,
                       uint32_t orig_size)
{
    struct pcap_record_header h;
    struct timeval now;

    gettimeofday(&now, NULL);
    h.ts_sec = now.tv_sec;
    h.ts_frac = now.tv_usec;
    h.incl_len = size;
    h.orig_len = orig_size;
    errno = 0;
    return fwrite(&h, sizeof h, 1, file->stream) == 1 ? 0
           : errno ? errno : EIO;
}

static int
pcap_file_finish_record(struct pcap_file *file)
{
    errno = 0;
    return fflush(file->stream) ? (errno ? errno : EIO) : 0;
}

static uint32_t
pcap_file_u32(const struct pcap_file *file, uint32_t x)
{
    return file->swapped ? __builtin_bswap32(x) : x;
}
