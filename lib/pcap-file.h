/* pcap-file: packet capture files in the classic libpcap format, as
 * tcpdump, Wireshark and scapy read them and Open vSwitch's dummy ports
 * write them (options:tx_pcap, options:rxq_pcap).
 *
 * A file is a 24-byte header (magic 0xa1b2c3d4 in the writer's byte order,
 * version 2.4, snapshot length 262144, link type 1, Ethernet) followed by
 * one record per packet: seconds, microseconds, captured length, original
 * length, then the captured bytes.
 *
 * The writer writes whole packets, every segment of a chain, and flushes
 * each record at once, so that a test may read the file while the daemon
 * runs.  The reader accepts either byte order and the nanosecond variant
 * (magic 0xa1b23c4d), and rejects other link types.
 *
 * Threads: a pcap_file belongs to one thread at a time; callers that share
 * one lock around it.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef PCAP_FILE_H
#define PCAP_FILE_H 1

#include <stddef.h>
#include <stdint.h>
#include "compiler.h"

struct dp_packet;
struct rte_mempool;

#define PCAP_FILE_MAGIC 0xa1b2c3d4      /* Microsecond timestamps. */
#define PCAP_FILE_MAGIC_NSEC 0xa1b23c4d /* Nanosecond timestamps. */
#define PCAP_FILE_SNAPLEN 262144
#define PCAP_FILE_LINKTYPE_ETHERNET 1

struct pcap_file;

/* Opening.  Each returns 0 and the file in '*filep', or a positive errno
 * (EINVAL for a file that is not a pcap file of Ethernet frames) with
 * '*filep' NULL. */
int pcap_file_open_write(const char *file_name, struct pcap_file **filep)
    DPS_WARN_UNUSED_RESULT;
int pcap_file_open_read(const char *file_name, struct pcap_file **filep)
    DPS_WARN_UNUSED_RESULT;
void pcap_file_close(struct pcap_file *);
const char *pcap_file_name(const struct pcap_file *);

/* Writing.  pcap_file_write() records every byte of 'packet' (every
 * segment), up to the snapshot length; pcap_file_write_data() records
 * 'size' bytes of 'data'.  Both stamp the record with the current time and
 * flush it.  Return 0 or a positive errno. */
int pcap_file_write(struct pcap_file *, const struct dp_packet *packet);
int pcap_file_write_data(struct pcap_file *, const void *data, size_t size);

/* Reading.  pcap_file_read_data() stores the next record's captured bytes
 * in '*datap' (malloc()ed; free() it), their number in '*sizep' and the
 * record's time in microseconds since the epoch in '*usecp' (if nonnull).
 * pcap_file_read() makes a packet of them from 'pool' (a chain if the pool's
 * segments are smaller).  Both return 0, EOF at the clean end of the file,
 * EINVAL for a truncated or malformed record, ENOBUFS if the pool ran out,
 * or another positive errno. */
int pcap_file_read_data(struct pcap_file *, void **datap, size_t *sizep,
                        long long int *usecp);
int pcap_file_read(struct pcap_file *, struct rte_mempool *pool,
                   struct dp_packet **packetp);

#endif /* pcap-file.h */
