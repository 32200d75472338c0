#! /bin/sh
# Usage: fuzz-long-check.sh MAKE CORPUS
#
# Checks the merge step of "make fuzz-long" on the jsonrpc target, run from
# the build directory of a --enable-fuzzing build.  A scratch corpus holds
# two inputs of CORPUS (the committed jsonrpc corpus) under their own
# names; the scratch findings hold a copy of one of them under another
# name, which brings no coverage, and a third input of CORPUS, which does.
# fuzz-long, replaying only (-runs=0, so that the findings are exactly
# these), must add the third input alone, keep the corpus's inputs as they
# are, and on a second run add nothing.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

set -e
make=$1
src=$2
tmp=${TMPDIR:-/tmp}/dps-fuzz-long-check.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/corpus/jsonrpc" "$tmp/long/jsonrpc"
cp "$src/request-echo" "$src/error" "$tmp/corpus/jsonrpc/"
cp "$src/request-echo" "$tmp/long/jsonrpc/echo-again"
cp "$src/reply-and-notify" "$tmp/long/jsonrpc/"

run() {
    $make -s fuzz-long FUZZ_LONG_TARGETS=jsonrpc FUZZ_LONG_FLAGS=-runs=0 \
        FUZZ_LONG_DIR="$tmp/long" FUZZ_CORPUS_DIR="$tmp/corpus" \
        > "$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
    grep '^jsonrpc: ' "$tmp/out"
}

fail() {
    echo "fuzz-long-check: $*" >&2
    ls -l "$tmp/corpus/jsonrpc" >&2
    exit 1
}

line=$(run)
case $line in
    "jsonrpc: 1 new inputs in "*) ;;
    *) fail "first merge: expected 1 new input, got: $line" ;;
esac
set -- $(ls "$tmp/corpus/jsonrpc")
[ $# = 3 ] || fail "expected 3 inputs in the corpus, found $#"
cmp -s "$src/request-echo" "$tmp/corpus/jsonrpc/request-echo" \
    || fail "request-echo changed"
cmp -s "$src/error" "$tmp/corpus/jsonrpc/error" || fail "error changed"
found=
for f in "$tmp"/corpus/jsonrpc/*; do
    cmp -s "$f" "$src/reply-and-notify" && found=$f
done
[ -n "$found" ] || fail "reply-and-notify was not added"

line=$(run)
case $line in
    "jsonrpc: 0 new inputs in "*) ;;
    *) fail "second merge: expected no new input, got: $line" ;;
esac
echo "PASS: fuzz-long merges only inputs that add coverage"
