#!/usr/bin/env bash
# Fuzz every parser with libFuzzer (clang, ASan + UBSan) for a bounded time each.
#   scripts/fuzz.sh [SECONDS]      default 60 s per target
# Env: FUZZ_BUILD_DIR (default build/fuzz), FUZZ_TARGETS (space-separated subset),
#      FUZZ_JOBS (build jobs and targets run at once, default nproc), FUZZ_SEEDS_ONLY=1 (keep new inputs out of the
#      checked-in corpus: fuzz a scratch copy; scripts/test.sh uses this), FUZZ_BUILD_ONLY=1
#      (build the targets and stop: test.sh builds them beside the sanitizer suites).
# Each target starts from tests/fuzz/corpus/<name>/. Prints per target: executions, exec/s,
# coverage (cov = edges, ft = features) and corpus size from libFuzzer's final stats; a crash
# leaves its input in <build>/fuzz-artifacts/<name>/ (make it a seed + a regression test).
# The last line is "N passed, N failed"; the exit status is non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
dir=${FUZZ_BUILD_DIR:-build/fuzz}
jobs=${FUZZ_JOBS:-$(nproc)}

if ! command -v clang++ >/dev/null; then
    echo "fuzz: clang++ is missing (Debian: clang, libclang-rt-14-dev)"; echo "0 passed, 1 failed"; exit 1
fi
mkdir -p "$dir"
if ! CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DTETHER_FUZZ=ON -DTETHER_BUILD_TESTS=OFF -DTETHER_BUILD_BENCH=OFF >"$dir/configure.log" 2>&1; then
    cat "$dir/configure.log"; echo "0 passed, 1 failed"; exit 1
fi
if ! cmake --build "$dir" --target fuzzers -j "$jobs" >"$dir/build.log" 2>&1; then
    grep -E 'error' "$dir/build.log" | head -40; echo "0 passed, 1 failed"; exit 1
fi
if [ "${FUZZ_BUILD_ONLY:-0}" = 1 ]; then echo "fuzz: targets built in $dir"; exit 0; fi

targets=${FUZZ_TARGETS:-$(cd tests/fuzz && ls fuzz_*.cpp | sed 's/\.cpp$//' | tr '\n' ' ')}
# One target: its libFuzzer run, then one result line (and the crash's lines) in its .result.
fuzz_one() { # target
    local t=$1 name=${1#fuzz_}
    local seeds=tests/fuzz/corpus/$name
    local work=$dir/fuzz-corpus/$name   # new inputs land here; the seeds stay as checked in
    local art=$dir/fuzz-artifacts/$name
    mkdir -p "$work" "$art"
    [ "${FUZZ_SEEDS_ONLY:-0}" = 1 ] && rm -rf "${work:?}"/*
    local log=$dir/fuzz-$name.log rc execs rate last cov ft corp result
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp \
        timeout $((seconds + 120)) "$dir/tests/fuzz/$t" "$work" "$seeds" -max_total_time="$seconds" \
        -print_final_stats=1 -rss_limit_mb=1024 -malloc_limit_mb=256 -timeout=10 -artifact_prefix="$art/" >"$log" 2>&1
    rc=$?
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
    rate=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}' | tail -1)
    last=$(grep -E '#[0-9]+.*(DONE|cov:)' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | awk '{print $2}' | tail -1)
    ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | awk '{print $2}' | tail -1)
    corp=$(grep -oE 'corp: [0-9]+' <<<"$last" | awk '{print $2}' | tail -1)
    if [ $rc -eq 0 ]; then result=ok; else result="FAILED (rc $rc, see $log)"; fi
    {
        printf '%-24s %12s %10s %8s %8s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result"
        if [ $rc -ne 0 ]; then grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -8; fi
    } >"$dir/fuzz-$name.result"
    return $rc
}
# Each target is one process on one core: FUZZ_JOBS of them run at once (the time per target
# stays SECONDS; the phase takes SECONDS x targets / FUZZ_JOBS).
pass=0 fail=0
for t in $targets; do rm -f "$dir/fuzz-${t#fuzz_}.result"; done
running=0
for t in $targets; do
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
    fuzz_one "$t" &
    running=$((running + 1))
done
wait
printf '%-24s %12s %10s %8s %8s %8s  %s\n' target executions exec/s cov ft corpus result
for t in $targets; do
    res=$dir/fuzz-${t#fuzz_}.result
    if [ -s "$res" ] && head -1 "$res" | grep -q ' ok$'; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
    if [ -s "$res" ]; then cat "$res"; else printf '%-24s  FAILED (no result)\n' "$t"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
