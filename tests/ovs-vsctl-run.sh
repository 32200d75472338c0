#! /bin/sh
# ovs-vsctl-run.sh SERVER VSCTL SCRIPT OUTPUT
#
# Runs the ovs-vsctl command lines in SCRIPT (one per line, without the
# program name) with VSCTL against a fresh Open_vSwitch database served by
# SERVER (an ovsdb-server binary) in the directory ./SERVER-VSCTL-RUN, and
# writes to OUTPUT, for each line: "$ LINE", the command's standard output
# and error with UUIDs replaced by <uuid>, the time and sequence number of
# log lines replaced by "LOG" (their module, level and text stay), lines
# sorted (so that records listed in UUID order compare equal), and
# "rc=STATUS".  Used by tests/ovs-vsctl-diff.at to compare Debian's
# ovs-vsctl with ours.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

server=$1 vsctl=$2 script=$3 output=$4
dir=`pwd`/run.$$
rm -rf "$dir" && mkdir "$dir" || exit 1
ovsdb-tool create "$dir/conf.db" "$abs_top_srcdir/vswitchd/vswitch.ovsschema" \
    || exit 1
"$server" --detach --no-chdir --pidfile="$dir/ovsdb-server.pid" \
    --log-file="$dir/ovsdb-server.log" --unixctl="$dir/ovsdb-server.ctl" \
    --remote="punix:$dir/db.sock" "$dir/conf.db" 2>"$dir/server.err" \
    || { cat "$dir/server.err" >&2; exit 1; }
trap 'kill `cat "$dir/ovsdb-server.pid"` 2>/dev/null' 0

uuid='[0-9a-f]\{8\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}'
while read -r line; do
    echo "\$ $line"
    eval "\"\$vsctl\" --db=unix:\"\$dir\"/db.sock --timeout=20 $line" \
        > "$dir/cmd.out" 2>&1
    rc=$?
    sed -e "s/$uuid/<uuid>/g" \
        -e 's/^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[^|]*|[0-9]*|/LOG|/' \
        "$dir/cmd.out" | LC_ALL=C sort
    echo "rc=$rc"
done < "$script" > "$output"
