/* ovs-ofctl: the OpenFlow switch management utility, with Open vSwitch's
 * commands, options, output and exit codes (see ovs-ofctl(8)).
 *
 * Exit status: 0 on success, 1 on any failure (with "ovs-ofctl: MESSAGE"
 * on stderr).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include "daemon.h"
#include "dirs.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "match.h"
#include "ofp-actions.h"
#include "ofp-errors.h"
#include "ofp-flow.h"
#include "ofp-group.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-packet.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "ofp-print.h"
#include "ofpbuf.h"
#include "poll-loop.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vconn.h"
#include "vlog.h"

/* -O: the versions to offer; OpenFlow 1.0 unless told otherwise, as Open
 * vSwitch's ovs-ofctl. */
static uint32_t allowed_versions = 1u << OFP10_VERSION;

/* --timeout, in seconds (0: none). */
static int timeout;

/* --strict: mod-flows and del-flows take only the flow with exactly the
 * match and priority given. */
static bool strict;

/* --names (1), --no-names (0), or neither (-1): show ports by name only
 * on a console, as Open vSwitch's ovs-ofctl does. */
static int show_names = -1;

/* --sort (ascending, 1) and --rsort (descending, -1), in the order given:
 * dump-flows sorts by each 'field' (NULL: the priority) in turn. */
struct sort_criterion {
    const struct match_field *field;
    int order;
};
static struct sort_criterion *sort_criteria;
static size_t n_sort_criteria;

/* --stats (the default), --no-stats: dump-flows shows the flows'
 * counters, durations and ages. */
static bool show_stats = true;

/* --readd: replace-flows adds every flow of its file, even those the
 * switch has as they are. */
static bool readd;

/* --read-only: refuse the commands that change a switch (and those Open
 * vSwitch's ovs-ofctl counts with them). */
static bool read_only;

/* --may-create: mod-group adds the groups that do not exist. */
static bool may_create;

/* -P, --packet-in-format: the packet-in format monitor asks for (NXPIF_*),
 * or -1 for Open vSwitch's choice. */
static int packet_in_format = -1;

/* -m, --more: how much more monitor and snoop say of each message. */
static int more_verbosity;

/* --timestamp: monitor and snoop print the time before each message. */
static bool timestamp;

/* --unixctl: monitor's and snoop's control socket (NULL: the default). */
static char *unixctl_path;

/* -F, --flow-format: the flow formats (OFPUTIL_P_*) flow commands may
 * use; all by default. */
static uint32_t allowed_flow_formats = OFPUTIL_P_OF10_ANY;

struct ofctl_command {
    const char *name;
    const char *usage;
    int min_args;
    int max_args;
    void (*handler)(int argc, char *argv[]);
};

static const struct ofctl_command *find_command(const char *name);
static bool is_read_write(const char *name);
static void parse_options(int argc, char *argv[]);
static void usage(void) DPS_NO_RETURN;

int
main(int argc, char *argv[])
{
    util_set_program_name(argv[0]);
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    fatal_signal_init();
    parse_options(argc, argv);

    if (optind >= argc) {
        util_fatal(0, "missing command name; use --help for help");
    }

    const char *name = argv[optind];
    const struct ofctl_command *cmd = find_command(name);
    if (!cmd) {
        util_fatal(0, "unknown command '%s'; use --help for help", name);
    }

    int n_args = argc - optind - 1;
    if (n_args < cmd->min_args) {
        util_fatal(0, "'%s' command requires at least %d arguments",
                   cmd->name, cmd->min_args);
    } else if (n_args > cmd->max_args) {
        util_fatal(0, "'%s' command takes at most %d arguments",
                   cmd->name, cmd->max_args);
    }
    if (read_only && is_read_write(cmd->name)) {
        util_fatal(0, "'%s' command does not work in read only mode",
                   cmd->name);
    }
    cmd->handler(n_args + 1, argv + optind);
    return 0;
}

static void
parse_versions(const char *s)
{
    char *copy = xstrdup(s);
    char *save = NULL;

    allowed_versions = 0;
    for (char *name = strtok_r(copy, ", ", &save); name;
         name = strtok_r(NULL, ", ", &save)) {
        int version = ofputil_version_from_string(name);
        if (!version || !(OFPUTIL_SUPPORTED_VERSIONS & (1u << version))) {
            util_fatal(0, "Unknown OpenFlow version: \"%s\"", name);
        }
        allowed_versions |= 1u << version;
    }
    free(copy);
}

/* -F: a comma-separated list of flow formats. */
static void
parse_flow_formats(const char *s)
{
    char *copy = xstrdup(s);
    char *save = NULL;

    allowed_flow_formats = 0;
    for (char *name = strtok_r(copy, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        if (!strcasecmp(name, "openflow10")
            || !strcasecmp(name, "openflow10-table_id")) {
            allowed_flow_formats |= OFPUTIL_P_OF10_STD;
        } else if (!strcasecmp(name, "nxm")
                   || !strcasecmp(name, "nxm-table_id")) {
            allowed_flow_formats |= OFPUTIL_P_OF10_NXM;
        } else if (!strcasecmp(name, "any")) {
            allowed_flow_formats |= OFPUTIL_P_OF10_ANY;
        } else {
            util_fatal(0, "%s: unknown flow protocol", name);
        }
    }
    free(copy);
}

/* --sort=FIELD, --rsort=FIELD ('field' NULL or "priority": by priority). */
static void
add_sort_criterion(const char *field, int order)
{
    const struct match_field *mf = NULL;

    if (field && strcmp(field, "priority")) {
        mf = ofp_parse_field_name(field);
        if (!mf) {
            util_fatal(0, "%s: unknown field name", field);
        }
    }
    sort_criteria = xrealloc(sort_criteria,
                             (n_sort_criteria + 1) * sizeof *sort_criteria);
    sort_criteria[n_sort_criteria++] = (struct sort_criterion) { mf, order };
}

/* -P: Open vSwitch's names of the packet-in formats. */
static int
parse_packet_in_format(const char *name)
{
    if (!strcmp(name, "standard") || !strcmp(name, "openflow10")) {
        return 0;
    } else if (!strcmp(name, "nxt_packet_in")) {
        return 1;
    } else if (!strcmp(name, "nxt_packet_in2")) {
        return 2;
    }
    util_fatal(0, "unknown packet-in format `%s'", name);
}

static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_FIRST = UCHAR_MAX,
        OPT_NAMES,
        OPT_NO_NAMES,
        OPT_SORT,
        OPT_RSORT,
        OPT_STRICT,
        OPT_STATS,
        OPT_NO_STATS,
        OPT_READ_ONLY,
        OPT_READD,
        OPT_MAY_CREATE,
        OPT_TIMESTAMP,
        OPT_UNIXCTL,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"timeout", required_argument, NULL, 't'},
        {"protocols", required_argument, NULL, 'O'},
        {"names", no_argument, NULL, OPT_NAMES},
        {"no-names", no_argument, NULL, OPT_NO_NAMES},
        {"sort", optional_argument, NULL, OPT_SORT},
        {"rsort", optional_argument, NULL, OPT_RSORT},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"stats", no_argument, NULL, OPT_STATS},
        {"no-stats", no_argument, NULL, OPT_NO_STATS},
        {"read-only", no_argument, NULL, OPT_READ_ONLY},
        {"readd", no_argument, NULL, OPT_READD},
        {"may-create", no_argument, NULL, OPT_MAY_CREATE},
        {"packet-in-format", required_argument, NULL, 'P'},
        {"more", no_argument, NULL, 'm'},
        {"timestamp", no_argument, NULL, OPT_TIMESTAMP},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        DAEMON_LONG_OPTIONS,
        {"flow-format", required_argument, NULL, 'F'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    static const char short_options[] = "t:O:F:P:mhVv::";

    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }

        switch (c) {
        case 't':
            if (!util_str_to_int(optarg, 10, &timeout) || timeout < 0) {
                util_fatal(0, "value %s on -t or --timeout is invalid",
                           optarg);
            }
            break;

        case 'O':
            parse_versions(optarg);
            break;

        case 'F':
            parse_flow_formats(optarg);
            break;

        case OPT_STRICT:
            strict = true;
            break;

        case OPT_SORT:
        case OPT_RSORT:
            add_sort_criterion(optarg, c == OPT_SORT ? 1 : -1);
            break;

        case OPT_STATS:
        case OPT_NO_STATS:
            show_stats = c == OPT_STATS;
            break;

        case OPT_READ_ONLY:
            read_only = true;
            break;

        case OPT_READD:
            readd = true;
            break;

        case OPT_MAY_CREATE:
            may_create = true;
            break;

        case 'P':
            packet_in_format = parse_packet_in_format(optarg);
            break;

        case 'm':
            more_verbosity++;
            break;

        case OPT_TIMESTAMP:
            timestamp = true;
            break;

        case OPT_UNIXCTL:
            unixctl_path = optarg;
            break;

        DAEMON_OPTION_HANDLERS

        case OPT_NAMES:
        case OPT_NO_NAMES:
            show_names = c == OPT_NAMES;
            break;

        case 'h':
            usage();

        case 'V':
            util_print_version();
            printf("OpenFlow versions %#x:%#x\n", OFP10_VERSION,
                   OFP15_VERSION);
            exit(EXIT_SUCCESS);

        VLOG_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
}

/* Connections. */

/* Opens 'name': an OpenFlow connection name ("tcp:..."), a socket file, or
 * a bridge (its management socket in the run directory).  Dies with Open
 * vSwitch's messages if that fails. */
static struct vconn *open_vconn__(const char *name, const char *suffix);

static struct vconn *
open_vconn(const char *name)
{
    return open_vconn__(name, "mgmt");
}

/* Opens 'name' as open_vconn() does, a bridge being its socket
 * "<rundir>/<bridge>.<suffix>" ("mgmt", or "snoop" for snoop). */
static struct vconn *
open_vconn__(const char *name, const char *suffix)
{
    long long int timeout_msec = timeout ? timeout * 1000LL : -1;
    struct vconn *vconn;
    struct stat st;
    int error;

    if (strchr(name, ':')) {
        error = vconn_open_block(name, allowed_versions, timeout_msec,
                                 &vconn);
        if (error) {
            util_fatal(0, "connecting to %s (%s)", name,
                       util_strerror(error));
        }
        return vconn;
    }

    char *vconn_name;
    char *bridge_path = xasprintf("%s/%s.%s", dirs_rundir(), name, suffix);
    if (!stat(name, &st) && S_ISSOCK(st.st_mode)) {
        vconn_name = xasprintf("unix:%s", name);
    } else if (!stat(bridge_path, &st) && S_ISSOCK(st.st_mode)) {
        vconn_name = xasprintf("unix:%s", bridge_path);
    } else {
        free(bridge_path);
        util_fatal(0, "%s is not a bridge or a socket", name);
    }
    free(bridge_path);
    error = vconn_open_block(vconn_name, allowed_versions, timeout_msec,
                             &vconn);
    free(vconn_name);
    if (error) {
        util_fatal(0, "%s: failed to connect to socket (%s)", name,
                   util_strerror(error));
    }
    return vconn;
}

static enum ofp_version
version_of(const struct vconn *vconn)
{
    return vconn_get_version(vconn);
}

/* Sends 'request' and returns its reply; dies on a connection error. */
static struct ofpbuf *
transact(struct vconn *vconn, struct ofpbuf *request)
{
    struct ofpbuf *reply;
    int error = vconn_transact(vconn, request, &reply);

    if (error) {
        util_fatal(error, "%s: transaction error", vconn_get_name(vconn));
    }
    return reply;
}

/* Sends 'request' and returns its xid; dies if it cannot be sent. */
static uint32_t
send_request(struct vconn *vconn, struct ofpbuf *request)
{
    uint32_t xid = ntohl(((struct ofp_header *) request->data)->xid);

    if (vconn_send_block(vconn, request)) {
        util_fatal(0, "%s: send failed", vconn_get_name(vconn));
    }
    return xid;
}

/* Returns the next reply with 'xid'; dies if none comes. */
static struct ofpbuf *
recv_reply(struct vconn *vconn, uint32_t xid)
{
    struct ofpbuf *reply;

    if (vconn_recv_xid(vconn, xid, &reply)) {
        util_fatal(0, "%s: receive failed", vconn_get_name(vconn));
    }
    return reply;
}

static void
print_msg(const struct ofpbuf *msg)
{
    char *s = ofp_to_string(msg->data, msg->size, 1);

    fputs(s, stdout);
    free(s);
}

/* Whether output names ports (--names, --no-names, or a console). */
static bool
use_names(void)
{
    return show_names < 0 ? isatty(STDOUT_FILENO) : show_names;
}

static void fetch_port_names(const char *name, struct ofputil_port_map *);
static void fetch_port_map(const char *name, struct ofputil_port_map *);

/* Sends 'request' and prints every part of its multipart reply.  With
 * 'names_from' (a switch) and use_names(), ports are shown by their names
 * on that switch, which are read (as Open vSwitch's ovs-ofctl reads them)
 * once the whole reply is in. */
static void
dump_transaction(struct vconn *vconn, struct ofpbuf *request,
                 const char *names_from)
{
    const struct ofp_header *oh = request->data;
    uint32_t xid = ntohl(oh->xid);
    bool names = names_from && use_names();
    struct ofpbuf **replies = NULL;
    size_t n = 0;
    int error = vconn_send_block(vconn, request);

    if (error) {
        util_fatal(error, "%s: send failed", vconn_get_name(vconn));
    }
    for (bool more = true; more; ) {
        struct ofpbuf *reply;
        error = vconn_recv_xid(vconn, xid, &reply);
        if (error) {
            util_fatal(error, "%s: receive failed", vconn_get_name(vconn));
        }

        const struct ofp_header *roh = reply->data;
        more = ofpmsg_is_stat(roh) && ofpmp_more(roh);
        if (names) {
            replies = xrealloc(replies, (n + 1) * sizeof *replies);
            replies[n++] = reply;
        } else {
            print_msg(reply);
            ofpbuf_delete(reply);
        }
    }
    if (!names) {
        return;
    }

    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;
    fetch_port_names(names_from, &map);
    for (size_t i = 0; i < n; i++) {
        struct ds s = DS_EMPTY_INITIALIZER;

        ofp_print_with_ports(replies[i]->data, replies[i]->size, 1, &map,
                             &s);
        fputs(ds_cstr(&s), stdout);
        ds_destroy(&s);
        ofpbuf_delete(replies[i]);
    }
    free(replies);
    ofputil_port_map_destroy(&map);
}

/* Sends a body-less request of type 'raw' and prints the reply. */
static void
dump_trivial(struct vconn *vconn, enum ofptype type)
{
    enum ofpraw raw = ofpraw_for_type(type, version_of(vconn));

    dump_transaction(vconn, ofpraw_alloc(raw, version_of(vconn),
                                         ofpmsg_next_xid(), 0), NULL);
}

/* Opens 'name', sends it a body-less request of type 'type', prints the
 * reply and closes.  (Open vSwitch's "show" asks for the configuration this
 * way, over a second connection, whose hello takes an xid.) */
static void
dump_trivial_switch(const char *name, enum ofptype type)
{
    struct vconn *vconn = open_vconn(name);

    dump_trivial(vconn, type);
    vconn_close(vconn);
}

static struct ofpbuf *
encode_port_desc_request(enum ofp_version version)
{
    enum ofpraw raw = ofpraw_for_type(OFPTYPE_PORT_DESC_STATS_REQUEST,
                                      version);
    struct ofpbuf *b = ofpraw_alloc(raw, version, ofpmsg_next_xid(), 0);

    if (raw == OFPRAW_OFPST15_PORT_DESC_REQUEST) {
        uint8_t body[8] = { 0xff, 0xff, 0xff, 0xff };
        ofpbuf_put(b, body, sizeof body);
        ofpmsg_update_length(b);
    }
    return b;
}

/* Commands. */

static void
ofctl_show(int argc DPS_UNUSED, char *argv[])
{
    struct vconn *vconn = open_vconn(argv[1]);
    enum ofp_version version = version_of(vconn);
    struct ofpbuf *reply = transact(vconn, ofpraw_alloc(
        OFPRAW_OFPT_FEATURES_REQUEST, version, ofpmsg_next_xid(), 0));

    print_msg(reply);
    ofpbuf_delete(reply);
    if (version != OFP10_VERSION) {
        dump_transaction(vconn, encode_port_desc_request(version), NULL);
    }
    vconn_close(vconn);
    dump_trivial_switch(argv[1], OFPTYPE_GET_CONFIG_REQUEST);
}

static void
ofctl_dump_desc(int argc DPS_UNUSED, char *argv[])
{
    dump_trivial_switch(argv[1], OFPTYPE_DESC_STATS_REQUEST);
}

static void
ofctl_dump_ports_desc(int argc DPS_UNUSED, char *argv[])
{
    struct vconn *vconn = open_vconn(argv[1]);

    dump_transaction(vconn, encode_port_desc_request(version_of(vconn)),
                     NULL);
    vconn_close(vconn);
}

/* Group dumps, as Open vSwitch's ovs-ofctl parses them: "dump-groups
 * SWITCH [GROUP_ID]" (a number, "all" or "any"; anything else is warned
 * about and dumps every group) and "dump-group-stats SWITCH [group_id=ID]"
 * (another keyword is an error). */
static uint32_t
parse_group_arg(int argc, char *argv[], bool stats)
{
    uint32_t group_id = OFPG_ALL;

    if (argc <= 2) {
        return OFPG_ALL;
    }
    if (!stats) {
        if (!ofputil_group_from_string(argv[2], &group_id)) {
            group_id = OFPG_ALL;
        }
        return group_id;
    }

    char *copy = xstrdup(argv[2]);
    char *save = NULL;
    for (char *kv = strtok_r(copy, ", \t", &save); kv;
         kv = strtok_r(NULL, ", \t", &save)) {
        char *value = strchr(kv, '=');
        if (value) {
            *value++ = '\0';
        }
        if (strcmp(kv, "group_id") || !value) {
            util_fatal(0, "unknown keyword %s", kv);
        }
        if (!ofputil_group_from_string(value, &group_id)) {
            util_fatal(0, "invalid group id %s", value);
        }
    }
    free(copy);
    return group_id;
}

static void
dump_groups(int argc, char *argv[], bool stats)
{
    uint32_t group_id = parse_group_arg(argc, argv, stats);
    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;

    if (stats) {
        /* Read and unused, as Open vSwitch's ovs-ofctl does. */
        fetch_port_map(argv[1], &map);
        ofputil_port_map_destroy(&map);
    }

    struct vconn *vconn = open_vconn(argv[1]);
    enum ofp_version version = version_of(vconn);
    enum ofpraw raw = (version == OFP10_VERSION
                       ? (stats ? OFPRAW_NXST_GROUP_REQUEST
                          : OFPRAW_NXST_GROUP_DESC_REQUEST)
                       : ofpraw_for_type(stats
                                         ? OFPTYPE_GROUP_STATS_REQUEST
                                         : OFPTYPE_GROUP_DESC_STATS_REQUEST,
                                         version));
    struct ofpbuf *b = ofpraw_alloc(raw, version, ofpmsg_next_xid(), 0);

    if (raw != OFPRAW_OFPST11_GROUP_DESC_REQUEST) {
        uint8_t body[8] = { 0 };
        ofp_put_be32(body, group_id);
        ofpbuf_put(b, body, sizeof body);
        ofpmsg_update_length(b);
    }
    dump_transaction(vconn, b, NULL);
    vconn_close(vconn);
}

static void
ofctl_dump_groups(int argc, char *argv[])
{
    dump_groups(argc, argv, false);
}

static void
ofctl_dump_group_stats(int argc, char *argv[])
{
    dump_groups(argc, argv, true);
}

static void
ofctl_dump_tables(int argc DPS_UNUSED, char *argv[])
{
    dump_trivial_switch(argv[1], OFPTYPE_TABLE_STATS_REQUEST);
}

/* Returns the number of port 'port_name' (a number, a reserved name or,
 * unless --no-names, a port's name) on switch 'name'; dies if it has no
 * such port. */
static ofp_port_t
port_from_arg(const char *name, const char *port_name)
{
    unsigned int ofp11_port;
    ofp_port_t port;

    if (ofputil_port_parse(port_name, NULL, &port)) {
        return port;
    } else if (util_str_to_uint(port_name, 10, &ofp11_port)
               && ofp_port_from_ofp11(ofp11_port, &port)) {
        return port;
    }

    /* A number out of range is parsed (and warned of) again with the
     * names, as Open vSwitch's ovs-ofctl does. */
    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;
    bool found = false;
    if (show_names) {
        fetch_port_names(name, &map);
        found = ofputil_port_parse(port_name, &map, &port);
    }
    ofputil_port_map_destroy(&map);
    if (!found) {
        util_fatal(0, "%s: unknown port `%s'", name, port_name);
    }
    return port;
}

static void
ofctl_dump_ports(int argc, char *argv[])
{
    struct vconn *vconn = open_vconn(argv[1]);
    enum ofp_version version = version_of(vconn);
    ofp_port_t port = argc > 2 ? port_from_arg(argv[1], argv[2]) : OFPP_ANY;
    struct ofpbuf *request = ofpraw_alloc(
        ofpraw_for_type(OFPTYPE_PORT_STATS_REQUEST, version), version,
        ofpmsg_next_xid(), 8);
    uint8_t *body = ofpbuf_put_zeros(request, 8);

    if (version == OFP10_VERSION) {
        ofp_put_be16(body, port);
    } else {
        ofp_put_be32(body, ofp_port_to_ofp11(port));
    }
    ofpmsg_update_length(request);
    dump_transaction(vconn, request, argv[1]);
    vconn_close(vconn);
}

/* queue-stats SWITCH [PORT [QUEUE]]: every queue of every port by
 * default; QUEUE is "all" or a number, read as atoi() reads it, as Open
 * vSwitch's ovs-ofctl does. */
static void
ofctl_queue_stats(int argc, char *argv[])
{
    struct vconn *vconn = open_vconn(argv[1]);
    enum ofp_version version = version_of(vconn);
    ofp_port_t port = argc > 2 ? port_from_arg(argv[1], argv[2]) : OFPP_ANY;
    uint32_t queue = 0xffffffffu;

    if (argc > 3 && strcasecmp(argv[3], "all")) {
        queue = (uint32_t) strtol(argv[3], NULL, 10);
    }
    if (port == OFPP_ALL) {
        port = OFPP_ANY;        /* As Open vSwitch's: both mean every port. */
    }

    struct ofpbuf *request = ofpraw_alloc(
        (version == OFP10_VERSION ? OFPRAW_OFPST10_QUEUE_REQUEST
         : OFPRAW_OFPST11_QUEUE_REQUEST), version, ofpmsg_next_xid(), 8);
    uint8_t *body = ofpbuf_put_zeros(request, 8);
    if (version == OFP10_VERSION) {
        /* OpenFlow 1.0 says "every port" with OFPP_ALL. */
        ofp_put_be16(body, port == OFPP_ANY ? OFPP_ALL : port);
    } else {
        ofp_put_be32(body, ofp_port_to_ofp11(port));
    }
    ofp_put_be32(body + 4, queue);
    ofpmsg_update_length(request);
    dump_transaction(vconn, request, NULL);
    vconn_close(vconn);
}

static const char *const frag_modes[] = {
    "normal", "drop", "reassemble", "nx-match"
};

/* Asks for the switch config and stores its 4 bytes (flags, miss_send_len)
 * in 'config'. */
static void
fetch_config(struct vconn *vconn, uint8_t config[4])
{
    struct ofpbuf *reply = transact(vconn, ofpraw_alloc(
        OFPRAW_OFPT_GET_CONFIG_REQUEST, version_of(vconn),
        ofpmsg_next_xid(), 0));
    enum ofpraw raw;

    if (ofpraw_pull(&raw, reply) || raw != OFPRAW_OFPT_GET_CONFIG_REPLY) {
        util_fatal(0, "%s: bad reply to get-config request",
                   vconn_get_name(vconn));
    }
    memcpy(config, reply->msg, 4);
    ofpbuf_delete(reply);
}

static void
ofctl_get_frags(int argc DPS_UNUSED, char *argv[])
{
    struct vconn *vconn = open_vconn(argv[1]);
    uint8_t config[4];

    fetch_config(vconn, config);
    puts(frag_modes[config[1] & 3]);
    vconn_close(vconn);
}

static void
ofctl_set_frags(int argc DPS_UNUSED, char *argv[])
{
    int mode = -1;

    for (int i = 0; i < 4; i++) {
        if (!strcmp(argv[2], frag_modes[i])) {
            mode = i;
        }
    }
    if (mode < 0) {
        util_fatal(0, "%s: unknown fragment handling mode", argv[2]);
    }

    struct vconn *vconn = open_vconn(argv[1]);
    enum ofp_version version = version_of(vconn);
    struct ofpbuf *reply;
    uint8_t body[4];

    fetch_config(vconn, body);
    if ((body[1] & 3) != mode) {
        body[1] = (body[1] & ~3) | mode;

        struct ofpbuf *set = ofpraw_alloc(OFPRAW_OFPT_SET_CONFIG, version,
                                          ofpmsg_next_xid(), 4);
        ofpbuf_put(set, body, 4);
        ofpmsg_update_length(set);
        int error = vconn_transact_noreply(vconn, set, &reply);
        if (error) {
            util_fatal(error, "%s: transaction error", argv[1]);
        }
        if (reply) {
            print_msg(reply);
            exit(EXIT_FAILURE);
        }
    }
    vconn_close(vconn);
}

/* Finds port 'port_name' (a number or a name) on 'vconn'. */
static bool
find_port(struct vconn *vconn, const char *port_name,
          struct ofputil_phy_port *pp)
{
    enum ofp_version version = version_of(vconn);
    struct ofpbuf *request = encode_port_desc_request(version);
    uint32_t xid = ntohl(((struct ofp_header *) request->data)->xid);
    ofp_port_t port_no;
    bool by_number = ofputil_port_from_string(port_name, &port_no);
    bool found = false;

    if (vconn_send_block(vconn, request)) {
        util_fatal(0, "%s: send failed", vconn_get_name(vconn));
    }
    for (bool more = true; more; ) {
        struct ofpbuf *reply;
        enum ofpraw raw;

        if (vconn_recv_xid(vconn, xid, &reply)) {
            util_fatal(0, "%s: receive failed", vconn_get_name(vconn));
        }
        more = ofpmp_more(reply->data);
        if (ofpraw_pull(&raw, reply)
            || ofptype_from_ofpraw(raw) != OFPTYPE_PORT_DESC_STATS_REPLY) {
            print_msg(reply);
            exit(EXIT_FAILURE);
        }
        while (!found) {
            if (ofputil_pull_phy_port(version, reply, pp)) {
                break;
            }
            found = (by_number ? pp->port_no == port_no
                     : !strcmp(pp->name, port_name));
        }
        ofpbuf_delete(reply);
    }
    return found;
}

static void
ofctl_mod_port(int argc DPS_UNUSED, char *argv[])
{
    static const struct {
        const char *name;
        uint32_t bit;
        bool on;
    } actions[] = {
        { "up", OFPPC_PORT_DOWN, false },
        { "down", OFPPC_PORT_DOWN, true },
        { "stp", OFPPC_NO_STP, false },
        { "no-stp", OFPPC_NO_STP, true },
        { "receive", OFPPC_NO_RECV, false },
        { "no-receive", OFPPC_NO_RECV, true },
        { "receive-stp", OFPPC_NO_RECV_STP, false },
        { "no-receive-stp", OFPPC_NO_RECV_STP, true },
        { "forward", OFPPC_NO_FWD, false },
        { "no-forward", OFPPC_NO_FWD, true },
        { "flood", OFPPC_NO_FLOOD, false },
        { "no-flood", OFPPC_NO_FLOOD, true },
        { "packet-in", OFPPC_NO_PACKET_IN, false },
        { "no-packet-in", OFPPC_NO_PACKET_IN, true },
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(actions); i++) {
        if (!strcasecmp(argv[3], actions[i].name)) {
            break;
        }
    }
    if (i >= ARRAY_SIZE(actions)) {
        util_fatal(0, "unknown mod-port command '%s'", argv[3]);
    }

    struct vconn *vconn = open_vconn(argv[1]);
    struct ofputil_phy_port pp;
    if (!find_port(vconn, argv[2], &pp)) {
        util_fatal(0, "%s: couldn't find port `%s'", argv[1], argv[2]);
    }

    struct ofputil_port_mod pm = {
        .port_no = pp.port_no,
        .hw_addr = pp.hw_addr,
        .config = actions[i].on ? actions[i].bit : 0,
        .mask = actions[i].bit,
    };
    struct ofpbuf *reply;
    int error = vconn_transact_noreply(
        vconn, ofputil_encode_port_mod(&pm, version_of(vconn)), &reply);
    if (error) {
        util_fatal(error, "%s: transaction error", argv[1]);
    }
    if (reply) {
        print_msg(reply);
        exit(EXIT_FAILURE);
    }
    vconn_close(vconn);
}

static void
ofctl_probe(int argc DPS_UNUSED, char *argv[])
{
    struct vconn *vconn = open_vconn(argv[1]);
    struct ofpbuf *reply = transact(
        vconn, ofputil_encode_echo_request(version_of(vconn)));
    const struct ofp_header *oh = reply->data;

    if (reply->size != sizeof *oh) {
        util_fatal(0, "reply does not match request");
    }
    ofpbuf_delete(reply);
    vconn_close(vconn);
}

static void
ofctl_ofp_print(int argc, char *argv[])
{
    struct ofpbuf b;
    const char *end;
    int verbosity = 2;

    if (argc > 2 && !util_str_to_int(argv[2], 10, &verbosity)) {
        util_fatal(0, "%s: bad verbosity", argv[2]);
    }
    ofpbuf_init(&b, 0);
    ofpbuf_put_hex(&b, argv[1], &end);
    if (*end) {
        util_fatal(0, "trailing garbage following hex bytes");
    }
    char *s = ofp_to_string(b.data, b.size, verbosity);
    fputs(s, stdout);
    free(s);
    ofpbuf_uninit(&b);
}

/* Reads 'n' bytes of 'file' (named 'name') into 'buf'; returns false at the
 * end of the file before the first byte, dies at one after it. */
static bool
read_message_bytes(FILE *file, const char *name, void *buf, size_t n,
                   bool first)
{
    size_t got = fread(buf, 1, n, file);

    if (got == n) {
        return true;
    } else if (ferror(file)) {
        util_fatal(errno, "%s: read failed", name);
    } else if (!got && first) {
        return false;
    }
    util_fatal(0, "%s: unexpected end of file mid-message", name);
}

/* ofp-parse FILE: prints each OpenFlow message of binary FILE ('-':
 * stdin), as Open vSwitch's ovs-ofctl does. */
static void
ofctl_ofp_parse(int argc DPS_UNUSED, char *argv[])
{
    const char *name = argv[1];
    FILE *file = !strcmp(name, "-") ? stdin : fopen(name, "rb");

    if (!file) {
        util_fatal(errno, "%s: open", name);
    }
    for (;;) {
        struct ofp_header oh;

        if (!read_message_bytes(file, name, &oh, sizeof oh, true)) {
            break;
        }
        size_t length = ntohs(oh.length);
        if (length < sizeof oh) {
            util_fatal(0, "%s: %zu-byte message is too short for OpenFlow",
                       name, length);
        }

        struct ofpbuf *msg = ofpbuf_new(length);
        ofpbuf_put(msg, &oh, sizeof oh);
        read_message_bytes(file, name, ofpbuf_put_uninit(msg,
                                                         length - sizeof oh),
                           length - sizeof oh, false);
        char *text = ofp_to_string(msg->data, msg->size,
                                   more_verbosity + 2);
        fputs(text, stdout);
        free(text);
        ofpbuf_delete(msg);
    }
    if (file != stdin) {
        fclose(file);
    }
}

static void
ofctl_encode_hello(int argc DPS_UNUSED, char *argv[])
{
    unsigned long long bitmap;
    char *end;

    errno = 0;
    bitmap = strtoull(argv[1], &end, 0);
    if (errno || *end || end == argv[1] || bitmap > UINT32_MAX
        || !(bitmap & ~1ull)) {
        util_fatal(0, "%s: bad version bitmap", argv[1]);
    }

    struct ofpbuf *hello = ofputil_encode_hello(bitmap);
    struct ds s = DS_EMPTY_INITIALIZER;
    ofp_put_hex_dump(&s, hello->data, hello->size, 0, false);
    ofp_print(hello->data, hello->size, 0, &s);
    fputs(ds_cstr(&s), stdout);
    ds_destroy(&s);
    ofpbuf_delete(hello);
}

static void
ofctl_print_error(int argc DPS_UNUSED, char *argv[])
{
    enum ofperr error = ofperr_from_name(argv[1]);

    if (!error) {
        util_fatal(0, "unknown error \"%s\"", argv[1]);
    }
    for (int version = OFP10_VERSION; version <= OFP15_VERSION; version++) {
        int type = ofperr_get_type(error, version);
        int code = ofperr_get_code(error, version);

        if (type >= OFPERR_NX10_BASE) {
            printf("OpenFlow 1.%d: vendor %#x, type %d, code %d\n",
                   version - 1, NX_VENDOR_ID, type - OFPERR_NX10_BASE, code);
        } else if (type >= 0) {
            printf("OpenFlow 1.%d: vendor 0, type %d, code %d\n",
                   version - 1, type, code);
        }
    }
}

/* Prints how the bytes of 'a' differ from those of 'b', as OVS's tests
 * expect: one line per byte. */
static void
print_differences(const uint8_t *a, size_t a_len, const uint8_t *b,
                  size_t b_len)
{
    size_t n = a_len < b_len ? a_len : b_len;

    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            printf("%2zu: %02x -> %02x\n", i, a[i], b[i]);
        }
    }
    for (size_t i = a_len; i < b_len; i++) {
        printf("%2zu: (none) -> %02x\n", i, b[i]);
    }
    for (size_t i = b_len; i < a_len; i++) {
        printf("%2zu: %02x -> (none)\n", i, a[i]);
    }
}

/* parse-actions VERSION: reads actions of VERSION in hex, one list a line
 * from stdin ('#' starts a comment), and prints each decoded, then how
 * re-encoding it differs from the input. */
static void
ofctl_parse_actions(int argc DPS_UNUSED, char *argv[])
{
    int version = ofputil_version_from_string(argv[1]);
    struct ds line = DS_EMPTY_INITIALIZER;

    if (!version) {
        util_fatal(0, "%s: unknown OpenFlow version", argv[1]);
    }
    while (!ds_get_line(&line, stdin)) {
        char *comment = strchr(ds_cstr(&line), '#');
        if (comment) {
            ds_truncate(&line, comment - line.string);
        }

        struct ofpbuf in;
        const char *end;
        ofpbuf_init(&in, 0);
        ofpbuf_put_hex(&in, ds_cstr(&line), &end);
        end += strspn(end, " \t\r");
        if (*end) {
            util_fatal(0, "Trailing garbage in hex data");
        }
        if (!in.size && !strspn(ds_cstr(&line), "0123456789abcdefABCDEF")) {
            ofpbuf_uninit(&in);
            continue;
        }

        struct ofpbuf ofpacts, out, msg;
        ofpbuf_init(&ofpacts, 0);
        ofpbuf_use_const(&msg, in.data, in.size);
        enum ofperr error = ofpacts_pull_openflow_actions(&msg, in.size,
                                                          version, &ofpacts);
        if (error) {
            printf("bad %s actions: %s\n\n", argv[1],
                   ofperr_get_name(error));
        } else {
            struct ds s = DS_EMPTY_INITIALIZER;
            ds_put_cstr(&s, "actions=");
            ofpacts_format(ofpacts.data, ofpacts.size, NULL, &s);
            puts(ds_cstr(&s));
            ds_destroy(&s);

            ofpbuf_init(&out, 0);
            ofpacts_put_openflow_actions(ofpacts.data, ofpacts.size, &out,
                                         version);
            print_differences(in.data, in.size, out.data, out.size);
            putchar('\n');
            ofpbuf_uninit(&out);
        }
        ofpbuf_uninit(&ofpacts);
        ofpbuf_uninit(&in);
    }
    ds_destroy(&line);
}


/* Flows. */

/* Sends 'msg' and then a barrier, and reads up to the barrier's reply.
 * An error reply is printed on stderr; then, at the barrier, ovs-ofctl
 * exits with status 1. */
static void
transact_noreply(struct vconn *vconn, struct ofpbuf *msg)
{
    struct ofpbuf *barrier = ofputil_encode_barrier_request(
        version_of(vconn));
    uint32_t barrier_xid = ntohl(((struct ofp_header *) barrier->data)->xid);
    bool failed = false;

    if (vconn_send_block(vconn, msg) || vconn_send_block(vconn, barrier)) {
        util_fatal(0, "%s: send failed", vconn_get_name(vconn));
    }
    for (;;) {
        struct ofpbuf *reply;
        int error = vconn_recv_block(vconn, &reply);
        if (error) {
            util_fatal(error, "%s: receive failed", vconn_get_name(vconn));
        }

        const struct ofp_header *oh = reply->data;
        enum ofptype type;
        bool done = (ntohl(oh->xid) == barrier_xid
                     && !ofptype_decode(&type, oh)
                     && type == OFPTYPE_BARRIER_REPLY);
        if (!done && oh->type == 1) {
            char *text = ofp_to_string(reply->data, reply->size, 2);
            fputs(text, stderr);
            free(text);
            failed = true;
        }
        ofpbuf_delete(reply);
        if (done) {
            break;
        }
    }
    if (failed) {
        exit(EXIT_FAILURE);
    }
}

/* Reads the switch's port names into 'map', as Open vSwitch's ovs-ofctl
 * does before it parses flows (over connections of their own: first the
 * table names, which this switch does not have, then the ports); with
 * --no-names, flows take no port names and nothing is read. */
static void
fetch_port_map(const char *name, struct ofputil_port_map *map)
{
    if (!show_names) {
        return;
    }

    /* Table names: OpenFlow 1.0's table stats, later versions' table
     * features (every part of the reply read, none used). */
    struct vconn *vconn = open_vconn(name);
    enum ofp_version version = version_of(vconn);
    struct ofpbuf *request = ofpraw_alloc(
        (version >= OFP13_VERSION ? OFPRAW_OFPST13_TABLE_FEATURES_REQUEST
         : ofpraw_for_type(OFPTYPE_TABLE_STATS_REQUEST, version)),
        version, ofpmsg_next_xid(), 0);
    uint32_t xid = send_request(vconn, request);

    for (bool more = true; more; ) {
        struct ofpbuf *reply = recv_reply(vconn, xid);
        more = ofpmsg_is_stat(reply->data) && ofpmp_more(reply->data);
        ofpbuf_delete(reply);
    }
    vconn_close(vconn);

    fetch_port_names(name, map);
}

/* Reads the names of switch 'name''s ports into 'map' over a connection of
 * their own, as Open vSwitch's ovs-ofctl does: from the features reply in
 * OpenFlow 1.0, from the port descriptions in later versions. */
static void
fetch_port_names(const char *name, struct ofputil_port_map *map)
{
    struct vconn *vconn = open_vconn(name);
    enum ofp_version version = version_of(vconn);
    struct ofpbuf *request = (version == OFP10_VERSION
                              ? ofpraw_alloc(OFPRAW_OFPT_FEATURES_REQUEST,
                                             version, ofpmsg_next_xid(), 0)
                              : encode_port_desc_request(version));
    uint32_t xid = send_request(vconn, request);

    for (bool more = true; more; ) {
        struct ofpbuf *reply = recv_reply(vconn, xid);
        enum ofpraw raw;

        more = ofpmsg_is_stat(reply->data) && ofpmp_more(reply->data);
        bool ports = (!ofpraw_decode(&raw, reply->data)
                      && (raw == OFPRAW_OFPT10_FEATURES_REPLY
                          || (ofptype_from_ofpraw(raw)
                              == OFPTYPE_PORT_DESC_STATS_REPLY)));
        if (!ports) {
            print_msg(reply);
            exit(EXIT_FAILURE);
        }
        ofpraw_pull(&raw, reply);
        if (raw == OFPRAW_OFPT10_FEATURES_REPLY) {
            ofpbuf_try_pull(reply, 24);
        }

        struct ofputil_phy_port pp;
        while (!ofputil_pull_phy_port(version, reply, &pp)) {
            ofputil_port_map_add(map, pp.port_no, pp.name);
        }
        ofpbuf_delete(reply);
    }
    vconn_close(vconn);
}

/* Returns flow formats 'formats' by Open vSwitch's names ("NXM,OXM"), for
 * the caller to free. */
static char *
flow_formats_to_string(uint32_t formats)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    if (formats & OFPUTIL_P_OF10_STD) {
        ds_put_cstr(&s, "OpenFlow10,");
    }
    if (formats & OFPUTIL_P_OF10_NXM) {
        ds_put_cstr(&s, "NXM,");
    }
    if (formats & ~OFPUTIL_P_OF10_ANY) {
        ds_put_cstr(&s, "OXM,");
    }
    ds_chomp(&s, ',');
    return ds_steal_cstr(&s);
}

/* Picks the flow format for flows that 'usable' flow formats can carry,
 * preferring 'preferred', among those -F allows; dies if there is none. */
static enum ofputil_protocol
choose_flow_format(uint32_t usable, enum ofputil_protocol preferred)
{
    uint32_t ok = usable & allowed_flow_formats & OFPUTIL_P_OF10_ANY;

    if (ok & preferred) {
        return preferred;
    } else if (ok & OFPUTIL_P_OF10_STD) {
        return OFPUTIL_P_OF10_STD;
    } else if (ok & OFPUTIL_P_OF10_NXM) {
        return OFPUTIL_P_OF10_NXM;
    } else if (!(usable & OFPUTIL_P_OF10_ANY)) {
        util_fatal(0, "no usable protocol");
    }

    char *usable_s = flow_formats_to_string(usable);
    char *allowed_s = flow_formats_to_string(allowed_flow_formats);
    util_fatal(0, "none of the usable flow formats (%s) is among the allowed "
               "flow formats (%s)", usable_s, allowed_s);
}

/* Opens 'name' for flow messages in '*protocolp', with the Nicira table id
 * extension if 'table_id' (either costs a message and a barrier, as with
 * Open vSwitch's ovs-ofctl).  A connection that negotiated OpenFlow 1.3 or
 * 1.4 speaks OXM instead: '*protocolp' becomes that. */
static struct vconn *
open_vconn_for_flows(const char *name, enum ofputil_protocol *protocolp,
                     bool table_id)
{
    struct vconn *vconn = open_vconn(name);
    enum ofp_version version = version_of(vconn);

    if (version == OFP13_VERSION || version == OFP14_VERSION) {
        /* OXM, the only flow format of OpenFlow 1.3 and 1.4, whose
         * flow_mods carry their table. */
        *protocolp = (version == OFP13_VERSION ? OFPUTIL_P_OF13_OXM
                                               : OFPUTIL_P_OF14_OXM);
        return vconn;
    } else if (version != OFP10_VERSION) {
        util_fatal(0, "%s: flow commands need OpenFlow 1.0, 1.3 or 1.4 "
                   "(-O OpenFlow10, OpenFlow13, OpenFlow14) in this version",
                   name);
    }
    enum ofputil_protocol protocol = *protocolp;
    if (protocol == OFPUTIL_P_OF10_NXM) {
        transact_noreply(vconn, ofputil_encode_set_flow_format(NXFF_NXM));
    }
    if (table_id) {
        transact_noreply(vconn, ofputil_encode_flow_mod_table_id(true));
    }
    return vconn;
}

/* Flows read from a file (add-flows, replace-flows, diff-flows): the text
 * of each and "FILE:LINE", where it came from, for error messages. */
struct flow_lines {
    char **flows;
    char **where;
    size_t n;
};

/* Reads the flows in 'file' ('-': stdin), one a line, into 'lines'; blank
 * lines and lines starting with '#' are skipped.  If 'file' does not open,
 * dies saying "FILE: OPEN_ERROR (reason)", in each command's words. */
static void
read_flow_lines(const char *file, const char *open_error,
                struct flow_lines *lines)
{
    FILE *stream = !strcmp(file, "-") ? stdin : fopen(file, "r");
    struct ds line = DS_EMPTY_INITIALIZER;
    int line_no = 0;

    if (!stream) {
        util_fatal(errno, "%s: %s", file, open_error);
    }
    memset(lines, 0, sizeof *lines);
    while (!ds_get_line(&line, stream)) {
        const char *s = ds_cstr(&line);

        line_no++;
        s += strspn(s, " \t\r\n");
        if (!*s || *s == '#') {
            continue;
        }
        lines->flows = xrealloc(lines->flows,
                                (lines->n + 1) * sizeof *lines->flows);
        lines->where = xrealloc(lines->where,
                                (lines->n + 1) * sizeof *lines->where);
        lines->flows[lines->n] = xstrdup(s);
        lines->where[lines->n] = xasprintf("%s:%d", file, line_no);
        lines->n++;
    }
    if (stream != stdin) {
        fclose(stream);
    }
    ds_destroy(&line);
}

static void
flow_lines_destroy(struct flow_lines *lines)
{
    for (size_t i = 0; i < lines->n; i++) {
        free(lines->flows[i]);
        free(lines->where[i]);
    }
    free(lines->flows);
    free(lines->where);
}

/* Whether each goto_table of flow_mod 'fm' (if it adds or modifies) goes
 * to a later table than the flow's. */
static bool
goto_tables_ok(const struct ofputil_flow_mod *fm)
{
    uint8_t table = fm->table_id == OFPTT_ALL ? 0 : fm->table_id;
    const struct ofpact *a;

    if (fm->command == OFPFC_DELETE || fm->command == OFPFC_DELETE_STRICT) {
        return true;
    }
    OFPACT_FOR_EACH (a, fm->ofpacts, fm->ofpacts_len) {
        if (a->type == OFPACT_GOTO_TABLE
            && ofpact_get_GOTO_TABLE(a)->table_id <= table) {
            return false;
        }
    }
    return true;
}

/* Parses the 'n' flows in 'flows' as flow_mods 'command' into 'fms', their
 * actions into 'ofpacts' (both arrays of 'n', the caller's to free);
 * '*usable' gets the flow formats that can carry them all, '*table_id'
 * whether one names a table.  'where' names each flow's origin for error
 * messages (NULL: none). */
static void
parse_flow_mods(char *flows[], size_t n, int command,
                const struct ofputil_port_map *map, char *where[],
                struct ofputil_flow_mod *fms, struct ofpbuf *ofpacts,
                uint32_t *usable, bool *table_id)
{
    *usable = OFPUTIL_P_ANY;
    *table_id = false;
    for (size_t i = 0; i < n; i++) {
        uint32_t u;

        ofpbuf_init(&ofpacts[i], 64);
        char *error = ofp_parse_flow_mod(&fms[i], flows[i], command, map,
                                         &ofpacts[i], &u);
        if (error) {
            if (where) {
                util_fatal(0, "%s: %s", where[i], error);
            }
            util_fatal(0, "%s", error);
        }
        if (!goto_tables_ok(&fms[i])) {
            /* Open vSwitch's ovs-ofctl checks this before it sends. */
            util_fatal(0, "actions are invalid with specified match "
                       "(OFPBIC_BAD_TABLE_ID)");
        }
        *usable &= u;
        *table_id |= fms[i].table_id != OFPTT_ALL;
    }
}

/* Sends flow_mods 'command' for the 'n' flows in 'flows' to 'name'.
 * 'where' names each flow's origin for error messages (NULL: none). */
static void
flow_mods(const char *name, char *flows[], size_t n, int command,
          char *where[])
{
    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;
    struct ofputil_flow_mod *fms = xcalloc(MAX(n, 1), sizeof *fms);
    struct ofpbuf *ofpacts = xcalloc(MAX(n, 1), sizeof *ofpacts);
    uint32_t usable;
    bool table_id;

    fetch_port_map(name, &map);
    parse_flow_mods(flows, n, command, &map, where, fms, ofpacts, &usable,
                    &table_id);

    enum ofputil_protocol protocol = choose_flow_format(usable,
                                                        OFPUTIL_P_OF10_STD);
    struct vconn *vconn = open_vconn_for_flows(name, &protocol, table_id);
    for (size_t i = 0; i < n; i++) {
        transact_noreply(vconn, ofputil_encode_flow_mod(&fms[i], protocol,
                                                        table_id));
        ofpbuf_uninit(&ofpacts[i]);
    }
    vconn_close(vconn);
    ofputil_port_map_destroy(&map);
    free(ofpacts);
    free(fms);
}

static void
ofctl_add_flow(int argc DPS_UNUSED, char *argv[])
{
    flow_mods(argv[1], &argv[2], 1, OFPFC_ADD, NULL);
}

/* add-flows SWITCH FILE: one flow a line ('-': stdin). */
static void
ofctl_add_flows(int argc DPS_UNUSED, char *argv[])
{
    struct flow_lines lines;

    read_flow_lines(argv[2], "open failed", &lines);
    flow_mods(argv[1], lines.flows, lines.n, OFPFC_ADD, lines.where);
    flow_lines_destroy(&lines);
}

static void
ofctl_mod_flows(int argc DPS_UNUSED, char *argv[])
{
    flow_mods(argv[1], &argv[2], 1,
              strict ? OFPFC_MODIFY_STRICT : OFPFC_MODIFY, NULL);
}

static void
ofctl_del_flows(int argc, char *argv[])
{
    char *all = "";

    flow_mods(argv[1], argc > 2 ? &argv[2] : &all, 1,
              strict ? OFPFC_DELETE_STRICT : OFPFC_DELETE, NULL);
}

/* packet-out SWITCH PACKET-OUT (ovs-ofctl(8)'s "Packet-Out Syntax"), or
 * the older packet-out SWITCH IN_PORT ACTIONS PACKET..., which sends each
 * PACKET with ACTIONS, as Open vSwitch 3.1's ovs-ofctl (its words too:
 * the older form without a packet is "Too many arguments (4)"). */
static void
ofctl_packet_out(int argc, char *argv[])
{
    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;
    struct ofputil_packet_out po;
    struct ofpbuf ofpacts, packet;
    char *error = NULL;

    if (argc == 4) {
        util_fatal(0, "Too many arguments (%d)", argc);
    }
    ofpbuf_init(&ofpacts, 64);
    ofpbuf_init(&packet, 128);
    fetch_port_map(argv[1], &map);
    if (argc == 3) {
        error = ofputil_parse_packet_out(&po, argv[2], &map, &ofpacts,
                                         &packet);
    } else {
        memset(&po, 0, sizeof po);
        po.buffer_id = OFP_NO_BUFFER;
        error = ofpacts_parse(argv[3], &ofpacts, &map);
        if (!error && !ofputil_port_parse(argv[2], &map, &po.in_port)) {
            error = xasprintf("%s: unknown port `%s'", argv[1], argv[2]);
        }
        po.ofpacts = ofpacts.data;
        po.ofpacts_len = ofpacts.size;
    }
    if (error) {
        util_fatal(0, "%s", error);
    }

    struct vconn *vconn = open_vconn(argv[1]);
    enum ofp_version version = version_of(vconn);
    if (version == OFP15_VERSION) {
        util_fatal(0, "%s: packet-out needs OpenFlow 1.0-1.4 in this "
                   "version", argv[1]);
    }
    if (argc == 3) {
        transact_noreply(vconn, ofputil_encode_packet_out(&po, version));
    }
    for (int i = 4; i < argc; i++) {
        const char *msg = ofputil_packet_from_hex(argv[i], &packet);
        if (msg) {
            util_fatal(0, "%s", msg);
        }
        po.packet = packet.data;
        po.packet_len = packet.size;
        transact_noreply(vconn, ofputil_encode_packet_out(&po, version));
    }
    vconn_close(vconn);
    ofputil_port_map_destroy(&map);
    ofpbuf_uninit(&ofpacts);
    ofpbuf_uninit(&packet);
}

static void dump_sorted_flows(struct vconn *, struct ofpbuf *request,
                              const char *name);

/* dump-flows and dump-aggregate: the request for 'argv[2]' (all flows if
 * absent), in NXM unless -F says otherwise or the match needs less, as
 * Open vSwitch's ovs-ofctl prefers. */
static void
dump_flow_stats(int argc, char *argv[], bool aggregate)
{
    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;
    struct ofputil_flow_stats_request fsr;
    uint32_t usable;

    if (argc > 2) {
        fetch_port_map(argv[1], &map);
    }
    char *error = ofp_parse_flow_stats_request(&fsr, aggregate,
                                               argc > 2 ? argv[2] : "",
                                               &map, &usable);
    if (error) {
        util_fatal(0, "%s", error);
    }
    ofputil_port_map_destroy(&map);

    enum ofputil_protocol protocol = choose_flow_format(usable,
                                                        OFPUTIL_P_OF10_NXM);
    struct vconn *vconn = open_vconn_for_flows(argv[1], &protocol, false);
    struct ofpbuf *request = ofputil_encode_flow_stats_request(&fsr,
                                                               protocol);
    if (!aggregate && (n_sort_criteria || use_names() || !show_stats)) {
        dump_sorted_flows(vconn, request, argv[1]);
    } else {
        dump_transaction(vconn, request, NULL);
    }
    vconn_close(vconn);
}

/* A flow of a sorted dump: its statistics, its actions, where it came. */
struct sorted_flow {
    struct ofputil_flow_stats fs;
    struct ofpbuf ofpacts;
    size_t index;
};

/* True if 'match' matches on field 'mf' (some of its bits, and what the
 * field needs). */
static bool
match_has_field(const struct match *match, const struct match_field *mf)
{
    union match_value mask;

    match_field_get_mask(mf, match, &mask);
    for (size_t i = 0; i < mf->n_bytes; i++) {
        if (mask.u8[i]) {
            return match_field_prereqs_ok(mf, match);
        }
    }
    return false;
}

/* Compares 'a' and 'b' by 'sc': a flow that matches on the field comes
 * before one that does not, whichever the order; flows that do are
 * compared by the field's value (its wildcarded bits as zeros). */
static int
compare_by_criterion(const struct sorted_flow *a, const struct sorted_flow *b,
                     const struct sort_criterion *sc)
{
    const struct match_field *mf = sc->field;
    int cmp;

    if (!mf) {
        cmp = (a->fs.priority > b->fs.priority) - (a->fs.priority
                                                     < b->fs.priority);
    } else {
        const struct match *ma = &a->fs.match, *mb = &b->fs.match;
        bool in_a = match_has_field(ma, mf);
        bool in_b = match_has_field(mb, mf);
        if (in_a != in_b) {
            return in_a ? -1 : 1;
        }

        union match_value va, vb;
        match_field_get(mf, &ma->flow, &va);
        match_field_get(mf, &mb->flow, &vb);
        cmp = memcmp(&va, &vb, mf->n_bytes);
    }
    return cmp * sc->order;
}

/* By the --sort and --rsort criteria, then by priority, highest first, as
 * Open vSwitch's ovs-ofctl; flows alike in all keep the switch's order. */
static int
compare_sorted_flows(const void *a_, const void *b_)
{
    static const struct sort_criterion by_priority = { NULL, -1 };
    const struct sorted_flow *a = a_;
    const struct sorted_flow *b = b_;

    for (size_t i = 0; i <= n_sort_criteria; i++) {
        int cmp = compare_by_criterion(a, b, (i < n_sort_criteria
                                              ? &sort_criteria[i]
                                              : &by_priority));
        if (cmp) {
            return cmp;
        }
    }
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Sends flow stats 'request' and returns in '*flowsp' the '*np' flows of
 * its reply, in the switch's order, each with its actions. */
static void
fetch_flows(struct vconn *vconn, struct ofpbuf *request,
            struct sorted_flow **flowsp, size_t *np)
{
    uint32_t xid = send_request(vconn, request);
    struct sorted_flow *flows = NULL;
    size_t n = 0, allocated = 0;

    for (bool more = true; more; ) {
        struct ofpbuf *reply = recv_reply(vconn, xid);
        const struct ofp_header *oh = reply->data;
        enum ofptype type;
        if (ofptype_decode(&type, oh) || type != OFPTYPE_FLOW_STATS_REPLY) {
            print_msg(reply);
            exit(EXIT_FAILURE);
        }
        more = ofpmp_more(oh);
        for (;;) {
            if (n >= allocated) {
                allocated = MAX(16, 2 * allocated);
                flows = xrealloc(flows, allocated * sizeof *flows);
            }
            struct sorted_flow *sf = &flows[n];
            ofpbuf_init(&sf->ofpacts, 64);
            int error = ofputil_decode_flow_stats_reply(&sf->fs, reply,
                                                        &sf->ofpacts);
            if (error) {
                ofpbuf_uninit(&sf->ofpacts);
                if (error != EOF) {
                    util_fatal(0, "parse error in reply (%s)",
                               ofperr_to_string(error));
                }
                break;
            }
            sf->fs.ofpacts = sf->ofpacts.data;
            sf->fs.ofpacts_len = sf->ofpacts.size;
            sf->index = n++;
        }
        ofpbuf_delete(reply);
    }
    *flowsp = flows;
    *np = n;
}

/* dump-flows with --sort or --rsort, --no-stats or names: sends
 * 'request', gathers every flow of the reply, sorts them if asked and
 * prints them one a line, without the reply's header or the flows' ages,
 * as Open vSwitch's ovs-ofctl does. */
static void
dump_sorted_flows(struct vconn *vconn, struct ofpbuf *request,
                  const char *name)
{
    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;
    struct sorted_flow *flows;
    size_t n;

    fetch_flows(vconn, request, &flows, &n);
    if (use_names()) {
        fetch_port_names(name, &map);
    }
    if (n && n_sort_criteria) {
        qsort(flows, n, sizeof *flows, compare_sorted_flows);
    }
    for (size_t i = 0; i < n; i++) {
        struct ds s = DS_EMPTY_INITIALIZER;

        /* Open vSwitch's ovs-ofctl shows no ages here. */
        flows[i].fs.idle_age = flows[i].fs.hard_age = -1;
        ds_put_char(&s, ' ');
        ofputil_flow_stats_format(&s, &flows[i].fs, &map, show_stats);
        puts(ds_cstr(&s));
        ds_destroy(&s);
        ofpbuf_uninit(&flows[i].ofpacts);
    }
    free(flows);
    ofputil_port_map_destroy(&map);
}

static void
ofctl_dump_flows(int argc, char *argv[])
{
    dump_flow_stats(argc, argv, false);
}

static void
ofctl_dump_aggregate(int argc, char *argv[])
{
    dump_flow_stats(argc, argv, true);
}

/* diff-flows and replace-flows. */

/* What a source (a switch or a file) says of one flow. */
struct flow_entry {
    uint8_t table_id;
    int priority;
    struct match match;
    char *match_s;              /* 'match' as text, for the order. */
    int source;                 /* 0: the first source, 1: the second. */
    size_t index;               /* Its place in the entries. */
    uint64_t cookie;
    uint16_t idle_timeout, hard_timeout, importance;
    struct ofputil_flow_mod fm; /* As a file gives it (an add). */
    struct ofpbuf ofpacts;
};

/* The entries of both sources. */
struct flow_entries {
    struct flow_entry *entries;
    size_t n;
};

static struct flow_entry *
flow_entries_add(struct flow_entries *fes, int source, uint8_t table_id,
                 int priority, const struct match *match)
{
    fes->entries = xrealloc(fes->entries, (fes->n + 1) * sizeof *fes->entries);

    struct flow_entry *fe = &fes->entries[fes->n];
    struct ds s = DS_EMPTY_INITIALIZER;
    memset(fe, 0, sizeof *fe);
    fe->table_id = table_id;
    fe->priority = priority;
    fe->match = *match;
    match_format(match, NULL, &s, priority, OFP_DEFAULT_PRIORITY);
    fe->match_s = ds_steal_cstr(&s);
    fe->source = source;
    fe->index = fes->n++;
    return fe;
}

/* True if 'name' names a file, as Open vSwitch's ovs-ofctl decides: it
 * starts with '/' or '.', or it has no ':' and such a file exists. */
static bool
source_is_file(const char *name)
{
    struct stat st;

    if (name[0] == '/' || name[0] == '.') {
        return true;
    }
    return !strchr(name, ':') && !stat(name, &st);
}

/* Reads the flows of file 'file' as source 'source' into 'fes' (ports
 * named by 'map', may be empty); returns the flow formats that can carry
 * them all and, in '*table_id', whether one names a table. */
static uint32_t
read_flows_from_file(const char *file, int source,
                     const struct ofputil_port_map *map,
                     struct flow_entries *fes, bool *table_id)
{
    struct flow_lines lines;
    uint32_t usable;

    read_flow_lines(file, "open", &lines);

    struct ofputil_flow_mod *fms = xcalloc(MAX(lines.n, 1), sizeof *fms);
    struct ofpbuf *ofpacts = xcalloc(MAX(lines.n, 1), sizeof *ofpacts);
    parse_flow_mods(lines.flows, lines.n, OFPFC_ADD, map, lines.where, fms,
                    ofpacts, &usable, table_id);
    for (size_t i = 0; i < lines.n; i++) {
        const struct ofputil_flow_mod *fm = &fms[i];
        struct flow_entry *fe = flow_entries_add(
            fes, source, fm->table_id != OFPTT_ALL ? fm->table_id : 0,
            fm->priority, &fm->match);

        fe->cookie = fm->new_cookie != UINT64_MAX ? fm->new_cookie
                                                  : fm->cookie;
        fe->idle_timeout = fm->idle_timeout;
        fe->hard_timeout = fm->hard_timeout;
        fe->importance = fm->importance;
        fe->fm = *fm;
        fe->ofpacts = ofpacts[i];
        fe->fm.ofpacts = fe->ofpacts.data;
        fe->fm.ofpacts_len = fe->ofpacts.size;
    }
    free(ofpacts);
    free(fms);
    flow_lines_destroy(&lines);
    return usable;
}

/* Reads every flow of the switch on 'vconn' (talking flow format
 * 'protocol') as source 'source' into 'fes'. */
static void
read_flows_from_vconn(struct vconn *vconn, enum ofputil_protocol protocol,
                      int source, struct flow_entries *fes)
{
    struct ofputil_flow_stats_request fsr;
    struct sorted_flow *flows;
    uint32_t usable;
    size_t n;

    char *error = ofp_parse_flow_stats_request(&fsr, false, "", NULL,
                                               &usable);
    if (error) {
        util_fatal(0, "%s", error);
    }
    fetch_flows(vconn, ofputil_encode_flow_stats_request(&fsr, protocol),
                &flows, &n);
    for (size_t i = 0; i < n; i++) {
        const struct ofputil_flow_stats *fs = &flows[i].fs;
        struct flow_entry *fe = flow_entries_add(fes, source, fs->table_id,
                                                 fs->priority, &fs->match);

        fe->cookie = fs->cookie;
        fe->idle_timeout = fs->idle_timeout;
        fe->hard_timeout = fs->hard_timeout;
        fe->importance = fs->importance;
        fe->ofpacts = flows[i].ofpacts;
    }
    free(flows);
}

/* Reads source 'name' (a file or a switch) as source 'source'. */
static void
read_flows_from_source(const char *name, int source,
                       struct flow_entries *fes)
{
    if (source_is_file(name)) {
        bool table_id;
        read_flows_from_file(name, source, NULL, fes, &table_id);
    } else {
        enum ofputil_protocol protocol = choose_flow_format(
            OFPUTIL_P_OF10_ANY, OFPUTIL_P_OF10_NXM);
        struct vconn *vconn = open_vconn_for_flows(name, &protocol, false);
        read_flows_from_vconn(vconn, protocol, source, fes);
        vconn_close(vconn);
    }
}

/* The order of the differences: by table, then priority (highest first),
 * then match as text; one flow's entries by source, then as they came. */
static int
compare_flow_entries(const void *a_, const void *b_)
{
    const struct flow_entry *a = a_;
    const struct flow_entry *b = b_;
    int cmp;

    if (a->table_id != b->table_id) {
        return a->table_id < b->table_id ? -1 : 1;
    } else if (a->priority != b->priority) {
        return a->priority > b->priority ? -1 : 1;
    } else if ((cmp = strcmp(a->match_s, b->match_s))) {
        return cmp;
    } else if (a->source != b->source) {
        return a->source < b->source ? -1 : 1;
    }
    return a->index < b->index ? -1 : a->index > b->index;
}

static bool
same_flow(const struct flow_entry *a, const struct flow_entry *b)
{
    return (a->table_id == b->table_id && a->priority == b->priority
            && match_equal(&a->match, &b->match));
}

/* True if 'a' and 'b' say the same of their flow: actions, cookie,
 * timeouts and importance.  The actions are compared as text: the same
 * action parsed and decoded from the wire may keep different notes of
 * where it came from. */
static bool
same_version(const struct flow_entry *a, const struct flow_entry *b)
{
    if (a->cookie != b->cookie || a->idle_timeout != b->idle_timeout
        || a->hard_timeout != b->hard_timeout
        || a->importance != b->importance) {
        return false;
    }

    struct ds a_s = DS_EMPTY_INITIALIZER, b_s = DS_EMPTY_INITIALIZER;
    ofpacts_format(a->ofpacts.data, a->ofpacts.size, NULL, &a_s);
    ofpacts_format(b->ofpacts.data, b->ofpacts.size, NULL, &b_s);
    bool same = !strcmp(ds_cstr(&a_s), ds_cstr(&b_s));
    ds_destroy(&a_s);
    ds_destroy(&b_s);
    return same;
}

/* Sorts 'fes' and calls 'cb' once per flow with what each source says of
 * it last ('versions[i]' NULL if source 'i' does not have it). */
static void
flow_entries_for_each(struct flow_entries *fes,
                      void (*cb)(struct flow_entry *versions[2], void *aux),
                      void *aux)
{
    if (fes->n) {
        qsort(fes->entries, fes->n, sizeof *fes->entries,
              compare_flow_entries);
    }

    bool *done = xcalloc(MAX(fes->n, 1), sizeof *done);
    for (size_t i = 0; i < fes->n; i++) {
        struct flow_entry *versions[2] = { NULL, NULL };

        if (done[i]) {
            continue;
        }
        /* Entries with the same text are together; among them, those of
         * the same flow. */
        for (size_t j = i; j < fes->n
                 && !strcmp(fes->entries[j].match_s, fes->entries[i].match_s)
                 && fes->entries[j].priority == fes->entries[i].priority
                 && fes->entries[j].table_id == fes->entries[i].table_id;
             j++) {
            if (!done[j] && same_flow(&fes->entries[i], &fes->entries[j])) {
                versions[fes->entries[j].source] = &fes->entries[j];
                done[j] = true;
            }
        }
        cb(versions, aux);
    }
    free(done);
}

static void
flow_entries_destroy(struct flow_entries *fes)
{
    for (size_t i = 0; i < fes->n; i++) {
        free(fes->entries[i].match_s);
        ofpbuf_uninit(&fes->entries[i].ofpacts);
    }
    free(fes->entries);
}

/* Appends what 'fe' says of its flow, as diff-flows prints it, ports by
 * their names in 'map'. */
static void
format_flow_entry(struct ds *s, const struct flow_entry *fe,
                  const struct ofputil_port_map *map)
{
    if (fe->table_id) {
        ds_put_format(s, "table=%"PRIu8" ", fe->table_id);
    }
    if (map->n) {
        match_format(&fe->match, map, s, fe->priority, OFP_DEFAULT_PRIORITY);
    } else {
        ds_put_cstr(s, fe->match_s);
    }
    if (fe->cookie) {
        ds_put_format(s, " cookie=0x%"PRIx64, fe->cookie);
    }
    if (fe->idle_timeout) {
        ds_put_format(s, " idle_timeout=%"PRIu16, fe->idle_timeout);
    }
    if (fe->hard_timeout) {
        ds_put_format(s, " hard_timeout=%"PRIu16, fe->hard_timeout);
    }
    if (fe->importance) {
        ds_put_format(s, " importance=%"PRIu16, fe->importance);
    }
    ds_put_cstr(s, " actions=");
    ofpacts_format(fe->ofpacts.data, fe->ofpacts.size, map, s);
}

/* What diff-flows has found: whether the sources differ, and the names
 * of the ports (with names shown). */
struct flow_differences {
    bool found;
    struct ofputil_port_map map;
};

static void
print_flow_difference(struct flow_entry *versions[2], void *fd_)
{
    struct flow_differences *fd = fd_;

    if (versions[0] && versions[1] && same_version(versions[0], versions[1])) {
        return;
    }
    for (int i = 0; i < 2; i++) {
        if (versions[i]) {
            struct ds s = DS_EMPTY_INITIALIZER;

            ds_put_char(&s, i ? '+' : '-');
            format_flow_entry(&s, versions[i], &fd->map);
            puts(ds_cstr(&s));
            ds_destroy(&s);
        }
    }
    fd->found = true;
}

/* diff-flows SOURCE1 SOURCE2: "-" for what only SOURCE1 has, "+" for what
 * only SOURCE2 has, both for a flow they say differently of; exits with
 * status 2 if there is a difference.  With names shown, ports are named
 * as the first source that is a switch names them. */
static void
ofctl_diff_flows(int argc DPS_UNUSED, char *argv[])
{
    struct flow_differences fd = { false, OFPUTIL_PORT_MAP_INITIALIZER };
    struct flow_entries fes = { NULL, 0 };

    read_flows_from_source(argv[1], 0, &fes);
    read_flows_from_source(argv[2], 1, &fes);
    if (use_names()) {
        for (int i = 1; i <= 2; i++) {
            if (!source_is_file(argv[i])) {
                fetch_port_names(argv[i], &fd.map);
                break;
            }
        }
    }
    flow_entries_for_each(&fes, print_flow_difference, &fd);
    flow_entries_destroy(&fes);
    ofputil_port_map_destroy(&fd.map);
    if (fd.found) {
        exit(2);
    }
}

/* What replace-flows sends to 'vconn' in flow format 'protocol'. */
struct replacement {
    struct vconn *vconn;
    enum ofputil_protocol protocol;
};

/* Sends 'fm' (in every table: Open vSwitch's replace-flows sends no table
 * ids). */
static void
send_replacement(struct replacement *r, struct ofputil_flow_mod *fm)
{
    fm->table_id = OFPTT_ALL;
    transact_noreply(r->vconn, ofputil_encode_flow_mod(fm, r->protocol,
                                                       false));
}

/* The deletes: flows the switch (source 0) has and the file lacks. */
static void
replace_delete(struct flow_entry *versions[2], void *r)
{
    if (versions[0] && !versions[1]) {
        struct ofputil_flow_mod fm;

        ofputil_flow_mod_init(&fm);
        fm.command = OFPFC_DELETE_STRICT;
        fm.priority = versions[0]->priority;
        fm.match = versions[0]->match;
        send_replacement(r, &fm);
    }
}

/* The adds: flows of the file (source 1) the switch lacks or has
 * otherwise (or all of them, with --readd). */
static void
replace_add(struct flow_entry *versions[2], void *r)
{
    if (versions[1] && (readd || !versions[0]
                        || !same_version(versions[0], versions[1]))) {
        struct ofputil_flow_mod fm = versions[1]->fm;

        send_replacement(r, &fm);
    }
}

/* replace-flows SWITCH FILE: makes the switch's flows those of FILE: the
 * deletes first, then the adds (Open vSwitch's ovs-ofctl mixes them in the
 * order of its hash table), in NXM unless -F says otherwise. */
static void
ofctl_replace_flows(int argc DPS_UNUSED, char *argv[])
{
    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;
    struct flow_entries fes = { NULL, 0 };
    bool table_id;

    fetch_port_map(argv[1], &map);
    uint32_t usable = read_flows_from_file(argv[2], 1, &map, &fes,
                                           &table_id);
    ofputil_port_map_destroy(&map);

    struct replacement r;
    r.protocol = choose_flow_format(usable, OFPUTIL_P_OF10_NXM);
    r.vconn = open_vconn_for_flows(argv[1], &r.protocol, false);
    if (table_id && r.protocol & OFPUTIL_P_OF10_ANY) {
        /* Open vSwitch's replace-flows cannot ask for table ids in
         * OpenFlow 1.0 (OpenFlow 1.3+ flow_mods carry them). */
        util_fatal(0, "switch does not support any of the usable flow "
                   "formats (%s)", (usable & OFPUTIL_P_OF10_STD
                                    ? "OXM,OpenFlow10+table_id,"
                                      "NXM+table_id,OpenFlow11"
                                    : "OXM,NXM+table_id"));
    }
    read_flows_from_vconn(r.vconn, r.protocol, 0, &fes);
    flow_entries_for_each(&fes, replace_delete, &r);
    flow_entries_for_each(&fes, replace_add, &r);
    vconn_close(r.vconn);
    flow_entries_destroy(&fes);
}

/* Groups. */

/* Parses the groups of add-group, mod-group, del-groups, insert-buckets
 * and remove-buckets (group_mod 'command'): 'argv[2]', or 'dflt' without
 * it, or with "-" (and for add-groups, 'file' names a file) one a line
 * ('keywords': a line may start with its command), into '*gmsp' and '*np';
 * '*usable' gets the versions that can carry them all. */
static void
parse_group_mods(const char *name, const char *group, const char *file,
                 int command, bool keywords,
                 struct ofputil_group_mod **gmsp, size_t *np,
                 uint32_t *usable)
{
    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;
    struct flow_lines lines;
    char *one[] = { (char *) group };

    fetch_port_map(name, &map);
    if (file) {
        read_flow_lines(file, "open failed", &lines);
    } else {
        lines.flows = one;
        lines.where = NULL;
        lines.n = 1;
    }

    struct ofputil_group_mod *gms = xcalloc(MAX(lines.n, 1), sizeof *gms);
    *usable = OFPUTIL_SUPPORTED_VERSIONS;
    for (size_t i = 0; i < lines.n; i++) {
        uint32_t u;
        char *error = ofputil_parse_group_mod(&gms[i], command, keywords,
                                              lines.flows[i], &map, &u);
        if (error) {
            if (file) {
                util_fatal(0, "%s: %s", lines.where[i], error);
            }
            util_fatal(0, "%s", error);
        }
        *usable &= u;
    }
    *gmsp = gms;
    *np = lines.n;
    if (file) {
        flow_lines_destroy(&lines);
    }
    ofputil_port_map_destroy(&map);
}

/* Sends the 'n' group_mods of 'gms' to 'name', each with a barrier, and
 * frees them.  Dies as Open vSwitch's ovs-ofctl does if none of the
 * versions -O allows can carry them ('usable'), or if the version the
 * switch talks cannot carry one. */
static void
send_group_mods(const char *name, struct ofputil_group_mod *gms, size_t n,
                uint32_t usable)
{
    if (!(usable & allowed_versions)) {
        struct ds u = DS_EMPTY_INITIALIZER, a = DS_EMPTY_INITIALIZER;

        for (int v = OFP10_VERSION; v <= OFP15_VERSION; v++) {
            const char *oxm = v == OFP10_VERSION ? "OpenFlow10,NXM" : "OXM";
            if (usable & (1u << v)) {
                ds_put_format(&u, "%s%s", u.length ? "," : "", oxm);
                if (v != OFP10_VERSION) {
                    ds_put_format(&u, "-OpenFlow1%d", v - 1);
                }
            }
            if (allowed_versions & (1u << v)) {
                ds_put_format(&a, "%s%s", a.length ? "," : "", oxm);
                if (v != OFP10_VERSION) {
                    ds_put_format(&a, "-OpenFlow1%d", v - 1);
                }
            }
        }
        util_fatal(0, "none of the usable flow formats (%s) is among the "
                   "allowed flow formats (%s)", ds_cstr(&u), ds_cstr(&a));
    }

    struct vconn *vconn = open_vconn(name);
    enum ofp_version version = version_of(vconn);
    for (size_t i = 0; i < n; i++) {
        struct ofputil_group_mod *gm = &gms[i];

        if (version != OFP10_VERSION && version < OFP15_VERSION
            && (gm->command == OFPGC15_INSERT_BUCKET
                || gm->command == OFPGC15_REMOVE_BUCKET)) {
            util_fatal(0, "%s needs OpenFlow 1.5 or later ('-O OpenFlow15')",
                       (gm->command == OFPGC15_INSERT_BUCKET
                        ? "insert-bucket" : "remove-bucket"));
        }
        transact_noreply(vconn, ofputil_encode_group_mod(version, gm));
        ofputil_group_mod_uninit(gm);
    }
    vconn_close(vconn);
    free(gms);
}

/* add-group, mod-group, del-groups, insert-buckets, remove-buckets: one
 * group, or "-" for a file of them on stdin ('keywords' as in
 * parse_group_mods()). */
static void
group_mod_command(int argc, char *argv[], int command, bool keywords,
                  const char *dflt)
{
    const char *group = argc > 2 ? argv[2] : dflt;
    bool from_stdin = !strcmp(group, "-");
    struct ofputil_group_mod *gms;
    uint32_t usable;
    size_t n;

    parse_group_mods(argv[1], group, from_stdin ? "-" : NULL, command,
                     from_stdin && keywords, &gms, &n, &usable);
    send_group_mods(argv[1], gms, n, usable);
}

static void
ofctl_add_group(int argc, char *argv[])
{
    group_mod_command(argc, argv, OFPGC11_ADD, true, "");
}

/* add-groups SWITCH FILE: one group a line, each of which may start with
 * its command ("delete group_id=1"). */
static void
ofctl_add_groups(int argc DPS_UNUSED, char *argv[])
{
    struct ofputil_group_mod *gms;
    uint32_t usable;
    size_t n;

    parse_group_mods(argv[1], NULL, argv[2], OFPGC11_ADD, true, &gms, &n,
                     &usable);
    send_group_mods(argv[1], gms, n, usable);
}

static void
ofctl_mod_group(int argc, char *argv[])
{
    group_mod_command(argc, argv,
                      may_create ? OFPGC11_ADD_OR_MOD : OFPGC11_MODIFY,
                      false, "");
}

static void
ofctl_del_groups(int argc, char *argv[])
{
    group_mod_command(argc, argv, OFPGC11_DELETE, false, "group_id=all");
}

static void
ofctl_insert_buckets(int argc, char *argv[])
{
    group_mod_command(argc, argv, OFPGC15_INSERT_BUCKET, false, "");
}

static void
ofctl_remove_buckets(int argc, char *argv[])
{
    group_mod_command(argc, argv, OFPGC15_REMOVE_BUCKET, false, "");
}

static void
ofctl_dump_group_features(int argc DPS_UNUSED, char *argv[])
{
    struct vconn *vconn = open_vconn(argv[1]);
    enum ofp_version version = version_of(vconn);
    enum ofpraw raw = (version == OFP10_VERSION
                       ? OFPRAW_NXST_GROUP_FEATURES_REQUEST
                       : OFPRAW_OFPST12_GROUP_FEATURES_REQUEST);

    dump_transaction(vconn, ofpraw_alloc(raw, version, ofpmsg_next_xid(), 0),
                     NULL);
    vconn_close(vconn);
}

/* parse-group GROUP: the group_mod (add) that GROUP is, as Open vSwitch's
 * ovs-ofctl prints it, in the lowest version -O allows. */
static void
ofctl_parse_group(int argc DPS_UNUSED, char *argv[])
{
    struct ofputil_group_mod gm;
    uint32_t usable;
    char *error = ofputil_parse_group_mod(&gm, OFPGC11_ADD, false, argv[1],
                                          NULL, &usable);
    int version;

    if (error) {
        util_fatal(0, "%s", error);
    }
    for (version = OFP10_VERSION; version <= OFP15_VERSION; version++) {
        if (allowed_versions & usable & (1u << version)) {
            break;
        }
    }
    printf("usable protocols: any\nchosen version: %s\n",
           ofputil_version_to_string(version));

    struct ofpbuf *msg = ofputil_encode_group_mod(version, &gm);
    print_msg(msg);
    ofpbuf_delete(msg);
    ofputil_group_mod_uninit(&gm);
}

/* monitor and snoop. */

/* What the control commands of monitor_vconn() share with it. */
struct monitor {
    struct vconn *vconn;
    bool exiting;
    bool blocked;
    struct unixctl_conn *barrier_conn;  /* Waiting for a barrier reply. */
};

/* Prints 'msg' on stderr as monitor does, after 'prefix'. */
static void
monitor_print(const char *prefix, const struct ofpbuf *msg)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    if (timestamp) {
        ds_put_strftime(&s, "%Y-%m-%d %H:%M:%S.###: ", time_wall_msec(),
                        true);
    }
    ds_put_cstr(&s, prefix);
    ofp_print(msg->data, msg->size, more_verbosity + 2, &s);
    fputs(ds_cstr(&s), stderr);
    fflush(stderr);
    ds_destroy(&s);
}

static void
monitor_exit(struct unixctl_conn *conn, int argc DPS_UNUSED,
             const char *argv[] DPS_UNUSED, void *m_)
{
    struct monitor *m = m_;

    m->exiting = true;
    unixctl_command_reply(conn, NULL);
}

/* ofctl/send OFMSG...: sends each message (in hex), printing it. */
static void
monitor_send(struct unixctl_conn *conn, int argc, const char *argv[],
             void *m_)
{
    struct monitor *m = m_;
    struct ds reply = DS_EMPTY_INITIALIZER;

    for (int i = 1; i < argc; i++) {
        struct ofpbuf *msg = ofpbuf_new(64);
        const struct ofp_header *oh;
        const char *end;

        ofpbuf_put_hex(msg, argv[i], &end);
        oh = msg->data;
        const char *error = (*end ? "Trailing garbage in hex data"
                             : msg->size < sizeof *oh
                             ? "Message too short for OpenFlow"
                             : ntohs(oh->length) != msg->size
                             ? "Message size does not match length in "
                               "OpenFlow header"
                             : NULL);
        if (error) {
            ofpbuf_delete(msg);
            unixctl_command_reply_error(conn, error);
            ds_destroy(&reply);
            return;
        }
        monitor_print("send: ", msg);
        int retval = vconn_send_block(m->vconn, msg);
        if (retval) {
            unixctl_command_reply_error(conn, util_strerror(retval));
            ds_destroy(&reply);
            return;
        }
        ds_put_cstr(&reply, "sent\n");
    }
    unixctl_command_reply(conn, ds_cstr(&reply));
    ds_destroy(&reply);
}

/* ofctl/packet-out PACKET-OUT: sends a packet-out ("Packet-Out Syntax"). */
static void
monitor_packet_out(struct unixctl_conn *conn, int argc DPS_UNUSED,
                   const char *argv[], void *m_)
{
    struct monitor *m = m_;
    struct ofputil_packet_out po;
    struct ofpbuf ofpacts, packet;

    ofpbuf_init(&ofpacts, 64);
    ofpbuf_init(&packet, 128);
    char *error = ofputil_parse_packet_out(&po, argv[1], NULL, &ofpacts,
                                           &packet);
    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
    } else {
        struct ofpbuf *msg = ofputil_encode_packet_out(
            &po, version_of(m->vconn));
        monitor_print("send: ", msg);
        int retval = vconn_send_block(m->vconn, msg);
        if (retval) {
            unixctl_command_reply_error(conn, util_strerror(retval));
        } else {
            unixctl_command_reply(conn, NULL);
        }
    }
    ofpbuf_uninit(&ofpacts);
    ofpbuf_uninit(&packet);
}

/* ofctl/set-output-file FILE: monitor's output goes to FILE. */
static void
monitor_set_output_file(struct unixctl_conn *conn, int argc DPS_UNUSED,
                        const char *argv[], void *m_ DPS_UNUSED)
{
    int fd = open(argv[1], O_CREAT | O_TRUNC | O_WRONLY, 0666);

    if (fd < 0) {
        unixctl_command_reply_error(conn, util_strerror(errno));
        return;
    }
    fflush(stderr);
    dup2(fd, STDERR_FILENO);
    close(fd);
    unixctl_command_reply(conn, NULL);
}

static void
monitor_block(struct unixctl_conn *conn, int argc DPS_UNUSED,
              const char *argv[], void *m_)
{
    struct monitor *m = m_;
    bool block = !strcmp(argv[0], "ofctl/block");

    if (m->blocked == block) {
        unixctl_command_reply_error(conn, block ? "already blocking"
                                                : "already unblocked");
        return;
    }
    m->blocked = block;
    unixctl_command_reply(conn, NULL);
}

/* ofctl/barrier: answers once the switch has answered a barrier. */
static void
monitor_barrier(struct unixctl_conn *conn, int argc DPS_UNUSED,
                const char *argv[] DPS_UNUSED, void *m_)
{
    struct monitor *m = m_;

    if (m->barrier_conn) {
        unixctl_command_reply_error(conn, "already waiting for barrier "
                                    "reply");
        return;
    }
    int retval = vconn_send_block(m->vconn, ofputil_encode_barrier_request(
                                      version_of(m->vconn)));
    if (retval) {
        unixctl_command_reply_error(conn, util_strerror(retval));
        return;
    }
    m->barrier_conn = conn;
}

/* Prints every message 'vconn' receives on stderr, answering echo requests
 * if 'echo' (monitor; not snoop, whose switch answers), as a daemon with a
 * control socket, as Open vSwitch's monitor and snoop do. */
static void
monitor_vconn(struct vconn *vconn, bool echo)
{
    struct monitor m = { vconn, false, false, NULL };
    struct unixctl_server *server;

    daemon_save_fd(STDERR_FILENO);
    daemon_save_fd(STDOUT_FILENO);
    daemon_start();
    int error = unixctl_server_create(unixctl_path, &server);
    if (error) {
        util_fatal(error, "failed to create unixctl server");
    }
    unixctl_command_register("exit", "", 0, 0, monitor_exit, &m);
    unixctl_command_register("ofctl/send", "OFMSG...", 1, INT_MAX,
                             monitor_send, &m);
    unixctl_command_register("ofctl/packet-out",
                             "\"in_port=<port> packet=<hex data> "
                             "actions=...\"", 1, 1, monitor_packet_out, &m);
    unixctl_command_register("ofctl/set-output-file", "FILE", 1, 1,
                             monitor_set_output_file, &m);
    unixctl_command_register("ofctl/block", "", 0, 0, monitor_block, &m);
    unixctl_command_register("ofctl/unblock", "", 0, 0, monitor_block, &m);
    unixctl_command_register("ofctl/barrier", "", 0, 0, monitor_barrier,
                             &m);
    daemon_complete();

    while (!m.exiting) {
        fatal_signal_run();
        unixctl_server_run(server);
        while (!m.blocked && !m.exiting) {
            struct ofpbuf *msg;
            int retval = vconn_recv(vconn, &msg);
            if (retval == EAGAIN) {
                break;
            } else if (retval) {
                util_fatal(0, "vconn_recv (%s)",
                           retval == EOF ? "End of file"
                           : util_strerror(retval));
            }

            enum ofptype type;
            monitor_print("", msg);
            if (ofptype_decode(&type, msg->data)) {
                type = OFPTYPE_HELLO;   /* Nothing to do. */
            }
            if (type == OFPTYPE_BARRIER_REPLY && m.barrier_conn) {
                unixctl_command_reply(m.barrier_conn, NULL);
                m.barrier_conn = NULL;
            } else if (type == OFPTYPE_ECHO_REQUEST && echo) {
                retval = vconn_send_block(
                    vconn, ofputil_encode_echo_reply(msg->data));
                if (retval) {
                    util_fatal(retval, "failed to send echo reply");
                }
            }
            ofpbuf_delete(msg);
        }
        if (m.exiting) {
            break;
        }
        vconn_run(vconn);
        vconn_run_wait(vconn);
        if (!m.blocked) {
            vconn_recv_wait(vconn);
        }
        unixctl_server_wait(server);
        fatal_signal_wait();
        poll_block();
    }
    vconn_close(vconn);
    unixctl_server_destroy(server);
}

/* The OpenFlow 1.0-1.2 config flag for packet-ins on an invalid TTL. */
#define OFPC_INVALID_TTL_TO_CONTROLLER 4

/* Sends 'config' (flags, miss_send_len) to 'vconn' as a set_config, with a
 * barrier. */
static void
set_config(struct vconn *vconn, const uint8_t config[4])
{
    struct ofpbuf *set = ofpraw_alloc(OFPRAW_OFPT_SET_CONFIG,
                                      version_of(vconn), ofpmsg_next_xid(),
                                      4);
    ofpbuf_put(set, config, 4);
    ofpmsg_update_length(set);
    transact_noreply(vconn, set);
}

/* Asks 'vconn' for packet-in format 'format'; true if the switch takes it.
 * With 'must_succeed', an error reply is printed and fatal. */
static bool
set_packet_in_format(struct vconn *vconn, int format, bool must_succeed)
{
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_NXT_SET_PACKET_IN_FORMAT,
                                      version_of(vconn), ofpmsg_next_xid(),
                                      4);
    uint8_t body[4];

    ofp_put_be32(body, format);
    ofpbuf_put(msg, body, 4);
    ofpmsg_update_length(msg);
    if (must_succeed) {
        transact_noreply(vconn, msg);
        return true;
    }

    struct ofpbuf *reply;
    int error = vconn_transact_noreply(vconn, msg, &reply);
    if (error) {
        util_fatal(error, "talking to %s", vconn_get_name(vconn));
    }
    ofpbuf_delete(reply);
    return !reply;
}

/* monitor SWITCH [MISSLEN] [invalid_ttl] [watch:[SPEC...]]: as Open
 * vSwitch's: each argument in turn (a miss length and invalid_ttl through
 * get_config and set_config), then the packet-in format (-P's, or
 * NXT_PACKET_IN2, or in OpenFlow 1.0 NXT_PACKET_IN if the switch refuses
 * that), then every message the switch sends is printed on stderr. */
static void
ofctl_monitor(int argc, char *argv[])
{
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "invalid_ttl")) {
            allowed_versions &= 1u << OFP10_VERSION;
            if (!allowed_versions) {
                util_fatal(0, "invalid_ttl requires one of the OpenFlow "
                           "versions OpenFlow10, OpenFlow11, OpenFlow12 but "
                           "none is enabled (use -O)");
            }
        }
    }

    struct vconn *vconn = open_vconn(argv[1]);
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        uint8_t config[4];

        if (arg[0] >= '0' && arg[0] <= '9') {
            fetch_config(vconn, config);
            ofp_put_be16(config + 2, atoi(arg));
            set_config(vconn, config);
        } else if (!strcmp(arg, "invalid_ttl")) {
            fetch_config(vconn, config);
            if (!(config[1] & OFPC_INVALID_TTL_TO_CONTROLLER)) {
                config[1] |= OFPC_INVALID_TTL_TO_CONTROLLER;
                set_config(vconn, config);
                fetch_config(vconn, config);
                if (!(config[1] & OFPC_INVALID_TTL_TO_CONTROLLER)) {
                    util_fatal(0, "setting invalid_ttl_to_controller "
                               "failed (this switch probably doesn't "
                               "support this flag)");
                }
            }
        } else if (!strncmp(arg, "watch:", 6)) {
            util_fatal(0, "%s: flow monitoring is not supported by this "
                       "ovs-ofctl yet", arg);
        } else {
            util_fatal(0, "%s: unsupported \"monitor\" argument", arg);
        }
    }

    if (packet_in_format >= 0) {
        set_packet_in_format(vconn, packet_in_format, true);
    } else if (!set_packet_in_format(vconn, 2, false)
               && version_of(vconn) == OFP10_VERSION) {
        set_packet_in_format(vconn, 1, false);
    }
    monitor_vconn(vconn, true);
}

/* snoop SWITCH: prints what the switch and its controller say to each other,
 * from the switch's "<rundir>/<bridge>.snoop". */
static void
ofctl_snoop(int argc DPS_UNUSED, char *argv[])
{
    monitor_vconn(open_vconn__(argv[1], "snoop"), false);
}

static void ofctl_list_commands(int argc, char *argv[]);
static void ofctl_help(int argc, char *argv[]);

static const struct ofctl_command commands[] = {
    /* In the order of Open vSwitch's list-commands, with its usages. */
    { "show", "switch", 1, 1, ofctl_show },
    { "monitor", "switch [misslen] [invalid_ttl] [watch:[...]]",
      1, 3, ofctl_monitor },
    { "snoop", "switch", 1, 1, ofctl_snoop },
    { "dump-desc", "switch", 1, 1, ofctl_dump_desc },
    { "dump-tables", "switch", 1, 1, ofctl_dump_tables },
    { "dump-flows", "switch", 1, 2, ofctl_dump_flows },
    { "dump-aggregate", "switch", 1, 2, ofctl_dump_aggregate },
    { "queue-stats", "switch [port [queue]]", 1, 3, ofctl_queue_stats },
    { "add-flow", "switch flow", 2, 2, ofctl_add_flow },
    { "add-flows", "switch file", 2, 2, ofctl_add_flows },
    { "mod-flows", "switch flow", 2, 2, ofctl_mod_flows },
    { "del-flows", "switch [flow]", 1, 2, ofctl_del_flows },
    { "replace-flows", "switch file", 2, 2, ofctl_replace_flows },
    { "diff-flows", "source1 source2", 2, 2, ofctl_diff_flows },
    { "packet-out", "switch \"in_port=<port> packet=<hex data> actions=...\"",
      2, INT_MAX, ofctl_packet_out },
    { "dump-ports", "switch [port]", 1, 2, ofctl_dump_ports },
    { "dump-ports-desc", "switch [port]", 1, 2, ofctl_dump_ports_desc },
    { "mod-port", "switch iface act", 3, 3, ofctl_mod_port },
    { "get-frags", "switch", 1, 1, ofctl_get_frags },
    { "set-frags", "switch frag_mode", 2, 2, ofctl_set_frags },
    { "probe", "target", 1, 1, ofctl_probe },
    { "ofp-parse", "file", 1, 1, ofctl_ofp_parse },
    { "add-group", "switch group", 1, 2, ofctl_add_group },
    { "add-groups", "switch file", 2, 2, ofctl_add_groups },
    { "mod-group", "switch group", 1, 2, ofctl_mod_group },
    { "del-groups", "switch [group]", 1, 2, ofctl_del_groups },
    { "insert-buckets", "switch [group]", 1, 2, ofctl_insert_buckets },
    { "remove-buckets", "switch [group]", 1, 2, ofctl_remove_buckets },
    { "dump-groups", "switch [group]", 1, 2, ofctl_dump_groups },
    { "dump-group-stats", "switch [group]", 1, 2, ofctl_dump_group_stats },
    { "dump-group-features", "switch", 1, 1, ofctl_dump_group_features },
    { "help", "", 0, INT_MAX, ofctl_help },
    { "list-commands", "", 0, INT_MAX, ofctl_list_commands },

    /* Undocumented commands for testing. */
    { "parse-group", "", 1, 1, ofctl_parse_group },
    { "parse-actions", "", 1, 1, ofctl_parse_actions },
    { "print-error", "", 1, 1, ofctl_print_error },
    { "ofp-print", "", 1, 2, ofctl_ofp_print },
    { "encode-hello", "", 1, 1, ofctl_encode_hello },
};

static const struct ofctl_command *
find_command(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
        if (!strcmp(commands[i].name, name)) {
            return &commands[i];
        }
    }
    return NULL;
}

/* True if command 'name' is one --read-only refuses: those that change a
 * switch, and those Open vSwitch's ovs-ofctl counts with them (diff-flows
 * and the commands for testing). */
static bool
is_read_write(const char *name)
{
    static const char *const names[] = {
        "mod-port", "set-frags", "add-flow", "add-flows", "mod-flows",
        "del-flows", "replace-flows", "diff-flows", "packet-out",
        "add-group", "add-groups", "mod-group", "del-groups",
        "insert-buckets", "remove-buckets",
        "print-error", "ofp-print", "encode-hello", "parse-actions",
        "parse-group", "ofp-parse",
    };

    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (!strcmp(name, names[i])) {
            return true;
        }
    }
    return false;
}

static void
ofctl_list_commands(int argc DPS_UNUSED, char *argv[] DPS_UNUSED)
{
    printf("The available commands are:\n");
    for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
        printf("  %-23s %s\n", commands[i].name, commands[i].usage);
    }
}

static void
ofctl_help(int argc DPS_UNUSED, char *argv[] DPS_UNUSED)
{
    usage();
}

static void
usage(void)
{
    /* Open vSwitch's text, less the commands and options dpswitch's
     * ovs-ofctl does not have. */
    printf("%s: OpenFlow switch management utility\n"
           "usage: %s [OPTIONS] COMMAND [ARG...]\n"
           "\nFor OpenFlow switches:\n"
           "  show SWITCH                 show OpenFlow information\n"
           "  dump-desc SWITCH            print switch description\n"
           "  dump-tables SWITCH          print table stats\n"
           "  mod-port SWITCH IFACE ACT   modify port behavior\n"
           "  get-frags SWITCH            print fragment handling behavior\n"
           "  set-frags SWITCH FRAG_MODE  set fragment handling behavior\n"
           "      FRAG_MODE: normal, drop, reassemble, nx-match\n"
           "  dump-ports SWITCH [PORT]    print port statistics\n"
           "  dump-ports-desc SWITCH [PORT]  print port descriptions\n"
           "  dump-flows SWITCH           print all flow entries\n"
           "  dump-flows SWITCH FLOW      print matching FLOWs\n"
           "  dump-aggregate SWITCH       print aggregate flow statistics\n"
           "  dump-aggregate SWITCH FLOW  print aggregate stats for FLOWs\n"
           "  queue-stats SWITCH [PORT [QUEUE]]  dump queue stats\n"
           "  add-flow SWITCH FLOW        add flow described by FLOW\n"
           "  add-flows SWITCH FILE       add flows from FILE\n"
           "  mod-flows SWITCH FLOW       modify actions of matching FLOWs\n"
           "  del-flows SWITCH [FLOW]     delete matching FLOWs\n"
           "  replace-flows SWITCH FILE   replace flows with those in FILE\n"
           "  diff-flows SOURCE1 SOURCE2  compare flows from two sources\n"
           "  packet-out SWITCH IN_PORT ACTIONS PACKET...\n"
           "                              execute ACTIONS on PACKET\n"
           "  monitor SWITCH [MISSLEN] [invalid_ttl] [watch:[...]]\n"
           "                              print packets received from SWITCH\n"
           "  snoop SWITCH                snoop on SWITCH and its controller\n"
           "  add-group SWITCH GROUP      add group described by GROUP\n"
           "  add-groups SWITCH FILE      add group from FILE\n"
           "  [--may-create] mod-group SWITCH GROUP   modify specific group\n"
           "  del-groups SWITCH [GROUP]   delete matching GROUPs\n"
           "  insert-buckets SWITCH [GROUP] add buckets to GROUP\n"
           "  remove-buckets SWITCH [GROUP] remove buckets from GROUP\n"
           "  dump-group-features SWITCH  print group features\n"
           "  dump-groups SWITCH [GROUP]  print group description\n"
           "  dump-group-stats SWITCH [GROUP]  print group statistics\n"
           "\nFor OpenFlow switches and controllers:\n"
           "  probe TARGET                probe whether TARGET is up\n"
           "SWITCH or TARGET is an active OpenFlow connection method.\n"
           "\nOther commands:\n"
           "  ofp-parse FILE              print messages read from FILE\n"
           "\nActive OpenFlow connection methods:\n"
           "  tcp:HOST[:PORT]         PORT (default: 6653) at remote HOST\n"
           "  ssl:HOST[:PORT]         SSL PORT (default: 6653) at remote "
           "HOST\n"
           "  unix:FILE               Unix domain socket named FILE\n"
           "\nDaemon options:\n"
           "  --detach                run in background as daemon\n"
           "  --monitor               creates a process to monitor this "
           "daemon\n"
           "  --user=username[:group] changes the effective daemon "
           "user:group\n"
           "  --no-chdir              do not chdir to '/'\n"
           "  --pidfile[=FILE]        create pidfile (default: %s/%s.pid)\n"
           "  --overwrite-pidfile     with --pidfile, start even if already "
           "running\n"
           "\nOpenFlow version options:\n"
           "  -V, --version           display version information\n"
           "  -O, --protocols         set allowed OpenFlow versions\n"
           "                          (default: OpenFlow10)\n"
           "\nLogging options:\n"
           "  -vSPEC, --verbose=SPEC   set logging levels\n"
           "  -v, --verbose            set maximum verbosity level\n"
           "  --log-file[=FILE]        enable logging to specified FILE\n"
           "                           (default: %s/%s.log)\n"
           "  --syslog-method=(libc|unix:file|udp:ip:port)\n"
           "                           specify how to send messages to "
           "syslog daemon\n"
           "  --syslog-target=HOST:PORT  also send syslog msgs to HOST:PORT "
           "via UDP\n"
           "\nOther options:\n"
           "  --strict                    use strict match for flow "
           "commands\n"
           "  --read-only                 do not execute read/write "
           "commands\n"
           "  --readd                     replace flows that haven't "
           "changed\n"
           "  -F, --flow-format=FORMAT    force particular flow format\n"
           "  -P, --packet-in-format=FRMT force particular packet in format\n"
           "  -m, --more                  be more verbose printing OpenFlow\n"
           "  --timestamp                 (monitor, snoop) print timestamps\n"
           "  -t, --timeout=SECS          give up after SECS seconds\n"
           "  --sort[=field]              sort in ascending order\n"
           "  --rsort[=field]             sort in descending order\n"
           "  --names                     show port names instead of "
           "numbers\n"
           "  --no-names                  show port numbers, but not names\n"
           "  --unixctl=SOCKET            set control socket name\n"
           "  -h, --help                  display this help message\n"
           "  -V, --version               display version information\n",
           util_program_name(), util_program_name(), dirs_rundir(),
           util_program_name(), dirs_logdir(), util_program_name());
    exit(EXIT_SUCCESS);
}
