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

# A second signal of the same kind ends it at once (the handler is reset on the first: a stop
# that goes unheard must not leave Ctrl+C dead). While it draws a frame of a million triangles
# (about 0.1-0.3 s), the first signal only asks it to stop after that frame; the second, sent
# right after, must kill it by the signal, before it reports or writes anything. Should the
# frame end between the two signals (the stop then won the race), the try is repeated; a
# handler that ignores the second signal loses every try.
second_ok=false
for try in 1 2 3; do
  dir="$work/second-$try"
  rm -rf "$dir"
  mkdir -p "$dir"
  "$bench" --sections raster --scenes grid_1m --paths cpu --threads 1 --frames 1000 --out "$dir" > "$dir/log" 2>&1 &
  pid=$!
  for _ in $(seq 1200); do
    if grep -q "scene grid_1m" "$dir/log" || ! kill -0 "$pid" 2> /dev/null; then break; fi
    sleep 0.1
  done
  sleep 3 # the scene made and its frames under way
  kill -INT "$pid"
  # The second only once the first is delivered (SA_RESETHAND has then made SIGINT no longer
  # caught: bit 2 of SigCgt clear). Sent at once, on a busy machine the two can both be pending
  # before the process runs, and two pending SIGINTs are one.
  for _ in $(seq 200); do
    caught="$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2> /dev/null)" || break
    if [ -z "$caught" ] || (((16#${caught: -1} & 2) == 0)); then break; fi
    sleep 0.01
  done
  kill -INT "$pid" 2> /dev/null || true
  status=0
  wait "$pid" || status=$?
  if ! grep -q "interrupted by" "$dir/log" && [ ! -e "$dir/bench.json" ] && [ "$status" = 130 ]; then
    second_ok=true
    break
  fi
  echo "try $try: the stop ended it first (status $status):"
  cat "$dir/log"
done
$second_ok || { echo "FAILED: a second SIGINT did not end facet-bench at once in 3 tries" >&2; failures=$((failures + 1)); }

[ "$failures" = 0 ] || exit 1
echo "facet-bench: SIGINT and SIGTERM each left the measured records, marked interrupted; a second SIGINT ended it at once"
