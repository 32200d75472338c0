#! /bin/sh
# ovsdb-bench.sh: dpswitch's ovsdb-server side by side with Open vSwitch's.
#
# Usage: tests/perf/ovsdb-bench.sh BUILD_DIR [REF_OVSDB_SERVER]
#
# Runs, for each server, in a private directory under /tmp:
#   - transactions per second: 1 client and 10 clients, small inserts and
#     updates (perf-ovsdb txn);
#   - monitor fan-out: one writer, 50 monitoring clients (perf-ovsdb fanout);
#   - start-up time and resident memory with a 100,000-row database.
# and prints a table with the ratio ours/theirs (higher is better for
# rates; lower is better for time and memory).  The two servers run in
# turns, OVSDB_BENCH_ROUNDS times (default 3); the table shows medians.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

set -e
build=${1:?usage: $0 BUILD_DIR [REF_OVSDB_SERVER]}
ref=${2:-/usr/sbin/ovsdb-server}
build=`cd "$build" && pwd`
tool=$build/ovsdb/ovsdb-tool
perf=$build/tests/perf/perf-ovsdb
dir=`mktemp -d /tmp/ovsdb-bench.XXXXXX`
trap 'for p in "$dir"/*.pid; do test -f "$p" && kill `cat "$p"` 2>/dev/null; done; rm -rf "$dir"' 0
OVS_RUNDIR=$dir OVS_LOGDIR=$dir OVS_DBDIR=$dir
export OVS_RUNDIR OVS_LOGDIR OVS_DBDIR

cat > "$dir/schema" <<'EOS'
{"name": "T", "tables": {"A": {"columns": {
  "name": {"type": "string"}, "n": {"type": "integer"},
  "tags": {"type": {"key": "string", "value": "string",
                    "min": 0, "max": "unlimited"}}},
  "indexes": [["name"]], "isRoot": true}}}
EOS

# A 100,000-row database, written once and copied: the schema record from
# our tool, then one record that inserts every row.
"$tool" create "$dir/big.db" "$dir/schema"
python3 - "$dir/big.db" <<'EOP'
import hashlib, json, sys, uuid
rows = {str(uuid.uuid4()): {"name": "row%d" % i, "n": i,
                            "tags": ["map", [["k", "v%d" % i]]]}
        for i in range(100000)}
data = (json.dumps({"A": rows, "_date": 0, "_is_diff": True},
                   separators=(",", ":")) + "\n").encode()
with open(sys.argv[1], "ab") as f:
    f.write(b"OVSDB JSON %d %s\n" % (len(data),
                                     hashlib.sha1(data).hexdigest().encode()))
    f.write(data)
EOP

run_server () {  # run_server NAME BINARY DB
    "$2" --detach --no-chdir --pidfile="$dir/$1.pid" \
        --log-file="$dir/$1.log" --remote="punix:$dir/$1.sock" \
        --unixctl="$dir/$1.ctl" "$3" 2>/dev/null
}

stop_server () {
    pid=`cat "$dir/$1.pid"`
    kill $pid
    while kill -0 $pid 2>/dev/null; do
        sleep 0.1
    done
    rm -f "$dir/$1.pid"
}

measure () {  # measure NAME BINARY -> sets r_* variables
    rm -f "$dir/small.db"
    "$tool" create "$dir/small.db" "$dir/schema"
    run_server $1 "$2" "$dir/small.db"
    # Each run lasts about a second: shorter ones (0.1-0.3 s) were
    # decided by scheduling noise more than by the servers.
    r_txn1=`"$perf" txn "unix:$dir/$1.sock" 1 10000`
    r_txn10=`"$perf" txn "unix:$dir/$1.sock" 10 5000`
    r_fanout=`"$perf" fanout "unix:$dir/$1.sock" 50 3000`
    stop_server $1

    cp "$dir/big.db" "$dir/big-$1.db"
    start=`date +%s%N`
    run_server $1 "$2" "$dir/big-$1.db"
    "$perf" ready "unix:$dir/$1.sock" > /dev/null
    r_start=$(( (`date +%s%N` - start) / 1000000 ))
    r_rss=`awk '/VmRSS/ {print $2}' /proc/\`cat "$dir/$1.pid"\`/status`
    stop_server $1
}

# The machine may be shared and busy: run the servers in turns, ours then
# theirs, ROUNDS times, and report the median of each figure.
rounds=${OVSDB_BENCH_ROUNDS:-3}
o_all= t_all=
i=0
while [ $i -lt $rounds ]; do
    measure ours "$build/ovsdb/ovsdb-server"
    o_all="$o_all$r_txn1 $r_txn10 $r_fanout $r_start $r_rss
"
    measure theirs "$ref"
    t_all="$t_all$r_txn1 $r_txn10 $r_fanout $r_start $r_rss
"
    i=$((i + 1))
done
median () {  # median COLUMN < rows
    awk -v c=$1 '{ print $c }' | sort -n \
        | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] \
                                    : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
o_txn1=`printf '%s' "$o_all" | median 1`
o_txn10=`printf '%s' "$o_all" | median 2`
o_fanout=`printf '%s' "$o_all" | median 3`
o_start=`printf '%s' "$o_all" | median 4`
o_rss=`printf '%s' "$o_all" | median 5`
t_txn1=`printf '%s' "$t_all" | median 1`
t_txn10=`printf '%s' "$t_all" | median 2`
t_fanout=`printf '%s' "$t_all" | median 3`
t_start=`printf '%s' "$t_all" | median 4`
t_rss=`printf '%s' "$t_all" | median 5`

ratio () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
printf '%-34s %12s %12s %8s\n' "measure" "dpswitch" "OVS 3.1" "ratio"
printf '%-34s %12s %12s %8s\n' "txn/s, 1 client" $o_txn1 $t_txn1 `ratio $o_txn1 $t_txn1`
printf '%-34s %12s %12s %8s\n' "txn/s, 10 clients" $o_txn10 $t_txn10 `ratio $o_txn10 $t_txn10`
printf '%-34s %12s %12s %8s\n' "txn/s, 50 monitors" $o_fanout $t_fanout `ratio $o_fanout $t_fanout`
printf '%-34s %12s %12s %8s\n' "start-up ms, 100k rows" $o_start $t_start `ratio $o_start $t_start`
printf '%-34s %12s %12s %8s\n' "RSS kB, 100k rows" $o_rss $t_rss `ratio $o_rss $t_rss`
