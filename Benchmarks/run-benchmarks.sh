#!/bin/sh
# Runs every SingletonStores benchmark in one go (release build) and prints one table.
#
#   Benchmarks/run-benchmarks.sh                  # everything (~7 min after the first build)
#   Benchmarks/run-benchmarks.sh --quick          # countdowns of 3 ticks, idle only
#   Benchmarks/run-benchmarks.sh --filter 'read.*' --no-countdown
#
# --filter REGEX     only the micro-benchmarks whose name matches (ordo-one/benchmark --filter)
# --no-micro         skip the micro-benchmarks
# --no-countdown     skip the real-clock countdown accuracy runs
# --quick            countdown accuracy over 3 ticks, idle only
# --keep DIR         keep the raw exports (JMH JSON, countdown JSON) in DIR
set -eu
cd "$(dirname "$0")"

filter=""
micro=1
countdown=1
countdown_args=""
keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --filter) filter="$2"; shift 2 ;;
        --no-micro) micro=0; shift ;;
        --no-countdown) countdown=0; shift ;;
        --quick) countdown_args="--ticks 3 --conditions idle"; shift ;;
        --keep) keep="$2"; shift 2 ;;
        *) echo "run-benchmarks.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

out="${keep:-$(mktemp -d)}"
mkdir -p "$out"
if [ "$micro" = 1 ]; then rm -f "$out/Current_run.jmh.json" "$out"/pairs-*.json; fi
if [ "$countdown" = 1 ]; then rm -f "$out/countdown.json"; fi

echo "Building (release)…" >&2
# SwiftPM does not recompile a client when only an @inlinable body in the library changed, so
# the benchmark modules are always recompiled (a few seconds) to measure the library as it is.
touch Sources/*/*.swift Benchmarks/*/*.swift
swift build -c release --scratch-path .build >&2

if [ "$micro" = 1 ]; then
    echo "Micro-benchmarks (ordo-one/benchmark)…" >&2
    set -- --format jmh --path "$out" --no-progress
    if [ -n "$filter" ]; then set -- "$@" --filter "$filter"; fi
    swift package --scratch-path .build --allow-writing-to-directory "$out" benchmark "$@" >&2
    # The harness times one benchmark after the other, so a ratio of its medians can compare ours
    # in one of the host's slow spells with the limit in a quick one. bench-probe times each target
    # pair in alternating blocks instead, in five launches: each launch has its own hash seed,
    # which moves NotificationCenter's cost for both sides by up to 2x.
    echo "Interleaved ratios (bench-probe pairs, 5 launches)…" >&2
    for launch in 1 2 3 4 5; do
        .build/release/bench-probe pairs --json "$out/pairs-$launch.json" >&2
    done
fi

if [ "$countdown" = 1 ]; then
    echo "Countdown accuracy on the real clock…" >&2
    # shellcheck disable=SC2086
    .build/release/countdown-accuracy $countdown_args --json "$out/countdown.json" >&2
fi

echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(swift --version 2>&1 | head -1)"
echo "Run: $(date -u '+%Y-%m-%d %H:%M UTC'); release build; medians per operation"
echo
set --
if [ -f "$out/Current_run.jmh.json" ]; then set -- "$@" --jmh "$out/Current_run.jmh.json"; fi
if [ -f "$out/countdown.json" ]; then set -- "$@" --countdown "$out/countdown.json"; fi
for pairs in "$out"/pairs-*.json; do
    if [ -f "$pairs" ]; then set -- "$@" --pairs "$pairs"; fi
done
.build/release/benchmark-table "$@"
