#!/usr/bin/env bash
# facet-bench stopped by SIGINT or SIGTERM while it measures: it says so, exits with 128 + the
# signal's number, starts no case after it, and bench.csv and bench.json still hold what it had
# measured, marked "interrupted" (without a handler the signal kills it and nothing is written).
# usage: bench_signals.sh FACET_BENCH WORK_DIR
set -euo pipefail
bench="$1" work="$2"
failures=0
fail() { echo "FAILED: SIG$sig: $*" >&2; failures=$((failures + 1)); }

for sig in INT TERM; do
  dir="$work/$sig"
  rm -rf "$dir"
  mkdir -p "$dir"
  "$bench" --quick --out "$dir" > "$dir/log" 2>&1 &
  pid=$!
  # Signalled once the vertex sweep has begun: some records are measured, the raster ones not.
  for _ in $(seq 1200); do
    if grep -q "sweep n =" "$dir/log" || ! kill -0 "$pid" 2> /dev/null; then break; fi
    sleep 0.1
  done
  # Stopped while the log is read, so the cases it shows started are exactly those started before
  # the signal; on SIGCONT the signal is handled before facet-bench goes on.
  kill -STOP "$pid"
  started="$(grep -cE '^  (sweep n =|scene )' "$dir/log" || true)"
  kill -s "$sig" "$pid"
  kill -CONT "$pid"
  status=0
  wait "$pid" || status=$?
  cat "$dir/log"
  expected=$((128 + $(kill -l "$sig")))
  [ "$status" = "$expected" ] || fail "exit status $status, expected $expected"
  grep -Eq "^facet-bench: interrupted by SIG$sig after [1-9][0-9]* records$" "$dir/log" || fail "no 'interrupted' line"
  grep -q '"interrupted": true' "$dir/bench.json" 2> /dev/null || fail "bench.json is missing or not marked interrupted"
  grep -q '"section": "vertex"' "$dir/bench.json" 2> /dev/null || fail "bench.json has no vertex record"
  [ "$(grep -cE '^  (sweep n =|scene )' "$dir/log")" = "$started" ] || fail "a case started after the signal"
  [ "$(grep -c '^vertex,' "$dir/bench.csv" 2> /dev/null)" -ge 1 ] || fail "bench.csv has no vertex record"
done
[ "$failures" = 0 ] || exit 1
echo "facet-bench: SIGINT and SIGTERM each left the measured records, marked interrupted"
