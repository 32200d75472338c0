# Shell functions of tests/ovsdb-replication.at and tests/ovsdb-relay.at
# (sourced; needs $dps_test_dir and the testsuite's dps_* functions).

# rpl_start NAME BINARY [ARG]...: serves NAME.db on NAME.sock, with NAME.ctl,
# NAME.pid and NAME.log in the test directory.
rpl_start () {
    rpl_n=$1
    rly_start "$@" "$rpl_n.db"
}

# rpl_stop NAME: kills NAME's server and waits until it is gone.
rpl_stop () {
    rpl_pidfile=$dps_test_dir/$1.pid
    dps_kill_pidfile "$rpl_pidfile"
    dps_wait_cond () { test ! -e "$rpl_pidfile"; }
    dps_wait until
}

# rpl_names NAME TABLE: the sorted "name"s of TABLE's rows on NAME's server,
# each followed by a space.
rpl_names () {
    ovsdb-client transact unix:"$dps_test_dir/$1.sock" \
        '["R",{"op":"select","table":"'"$2"'","where":[],"columns":["name"]}]' \
        | tr '{' '\n' | sed -n 's/.*"name":"\([^"]*\)".*/\1/p' | sort \
        | tr '\n' ' '
}

# rpl_insert NAME TABLE ROW-NAME: inserts a row into TABLE on NAME's server.
rpl_insert () {
    ovsdb-client transact unix:"$dps_test_dir/$1.sock" \
        '["R",{"op":"insert","table":"'"$2"'","row":{"name":"'"$3"'"}}]'
}

# rpl_appctl NAME COMMAND [ARG]...: ovs-appctl to NAME's server.
rpl_appctl () {
    rpl_n=$1
    shift
    ovs-appctl -t "$dps_test_dir/$rpl_n.ctl" "$@"
}

# rly_start NAME BINARY [ARG]...: starts ovsdb-server BINARY detached,
# serving the ARGs (databases such as "relay:R:unix:active.sock") on
# NAME.sock, with NAME.ctl, NAME.pid and NAME.log in the test directory.
rly_start () {
    rly_n=$1 rly_bin=$2
    shift 2
    "$rly_bin" --detach --no-chdir --pidfile="$dps_test_dir/$rly_n.pid" \
        --unixctl="$dps_test_dir/$rly_n.ctl" \
        --log-file="$dps_test_dir/$rly_n.log" \
        --remote=punix:"$dps_test_dir/$rly_n.sock" "$@"
}

# rly_server_schema NAME DB: the "schema" column of DB's row in the
# "_Server" database of NAME's server, as the JSON text it holds.
rly_server_schema () {
    ovsdb-client transact unix:"$dps_test_dir/$1.sock" \
        '["_Server",{"op":"select","table":"Database","where":[["name","==","'"$2"'"]],"columns":["schema"]}]' \
        | sed 's/^.*"schema":"\(.*\)"}]}]$/\1/; s/\\"/"/g; s/\\\\/\\/g'
}
