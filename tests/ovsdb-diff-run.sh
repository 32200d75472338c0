#! /bin/sh
# ovsdb-diff-run.sh SERVER CLIENT SCHEMA SCRIPT OUTPUT
#
# Starts SERVER (an ovsdb-server binary) in ./run.PID on a fresh database
# created from SCHEMA, listening on punix:$dir/db.sock, then runs each line
# of SCRIPT (blank lines and lines starting with "#" skipped) as a shell
# command in $dir with $client (CLIENT, an ovsdb-client binary), $server
# (SERVER), $remote (unix:$dir/db.sock), $dir and $ctl (the server's
# control socket) set, and
# writes to OUTPUT, for each line: "$ LINE", the command's standard output
# and error with log lines dropped, $dir replaced by DIR and each UUID
# replaced by <N>, N
# counting distinct UUIDs in order of first appearance in the whole
# output, and "rc=STATUS".  Used by tests/ovsdb-diff.at to compare our
# ovsdb-server and ovsdb-client with Debian's.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

server=$1 client=$2 schema=$3 script=$4 output=$5
dir=`pwd`/run.$$
rm -rf "$dir" && mkdir "$dir" || exit 1
ovsdb-tool create "$dir/db" "$schema" || exit 1
ctl=$dir/ovsdb-server.ctl
remote=unix:$dir/db.sock
"$server" --detach --no-chdir --pidfile="$dir/ovsdb-server.pid" \
    --log-file="$dir/ovsdb-server.log" --unixctl="$ctl" \
    --remote="punix:$dir/db.sock" "$dir/db" 2>"$dir/server.err" \
    || { cat "$dir/server.err" >&2; exit 1; }
trap 'kill `cat "$dir/ovsdb-server.pid"` 2>/dev/null' 0

while read -r line; do
    case $line in
        '' | '#'*) continue ;;
    esac
    echo "\$ $line"
    (cd "$dir" && eval "$line") > "$dir/cmd.out" 2>&1
    rc=$?
    sed -e '/^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T.*|/d' \
        -e "s|$dir|DIR|g" "$dir/cmd.out"
    echo "rc=$rc"
done < "$script" | awk '
    BEGIN {
        h = "[0-9a-f]"; h4 = h h h h; h8 = h4 h4; h12 = h8 h4
        re = h8 "-" h4 "-" h4 "-" h4 "-" h12
        n = 0
    }
    {
        out = ""
        while (match($0, re)) {
            u = substr($0, RSTART, RLENGTH)
            if (!(u in seen)) {
                seen[u] = n++
            }
            out = out substr($0, 1, RSTART - 1) "<" seen[u] ">"
            $0 = substr($0, RSTART + RLENGTH)
        }
        print out $0
    }' > "$output"
