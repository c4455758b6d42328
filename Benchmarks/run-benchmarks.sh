#!/bin/sh
# Runs every SingletonStores benchmark in one go (release build) and prints one table.
#
#   Benchmarks/run-benchmarks.sh                  # everything (~12 min after the first build)
#   Benchmarks/run-benchmarks.sh --quick          # every row, shortened: under 4 minutes
#   Benchmarks/run-benchmarks.sh --no-peers       # without the peers and the harness (offline)
#   Benchmarks/run-benchmarks.sh --filter 'read.*' --no-countdown --no-costs
#
# --quick            one interleaved launch, countdowns of 3 ticks (idle), short cost rows
# --no-peers         build without swift-dependencies, Swinject, OpenCombine, GRDB and
#                    ordo-one/benchmark: for a machine that cannot fetch packages. Ours and the
#                    limit come from the interleaved blocks; peer cells say "not run"
# --filter REGEX     only the micro-benchmarks whose name matches (ordo-one/benchmark --filter)
# --no-micro         skip the micro-benchmarks and the interleaved ratios
# --no-countdown     skip the real-clock countdown accuracy runs
# --no-costs         skip the cost rows (persisted update, cross-process latency, energy, idle,
#                    cost against history, launch, dragged slider, memory and handles)
#
# The persisted-update and slider rows count fsyncs with strace when it is installed
# (Debian: apt-get install strace); without it those cells are left out.
# --keep DIR         keep the raw exports (JMH JSON, pairs, countdown and cost JSON) in DIR
set -eu
cd "$(dirname "$0")"

filter=""
micro=1
countdown=1
costs=1
quick=0
peers=1
keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --filter) filter="$2"; shift 2 ;;
        --no-micro) micro=0; shift ;;
        --no-countdown) countdown=0; shift ;;
        --no-costs) costs=0; shift ;;
        --quick) quick=1; shift ;;
        --no-peers) peers=0; shift ;;
        --keep) keep="$2"; shift 2 ;;
        *) echo "run-benchmarks.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

out="${keep:-$(mktemp -d)}"
mkdir -p "$out"
# Only the parts run now are replaced: with --keep DIR, a part run earlier stays in the table.
if [ "$micro" = 1 ]; then rm -f "$out/Current_run.jmh.json" "$out"/pairs-*.json; fi
if [ "$countdown" = 1 ]; then rm -f "$out/countdown.json"; fi
if [ "$costs" = 1 ]; then rm -f "$out/costs.json"; fi

scratch=.build
if [ "$peers" = 0 ]; then
    export BENCHMARKS_WITHOUT_PEERS=1
    scratch=.build-no-peers
fi

echo "Building (release)…" >&2
# SwiftPM does not recompile a client when only an @inlinable body in the library changed, so
# the benchmark modules are always recompiled (a few seconds) to measure the library as it is.
touch Sources/*/*.swift Benchmarks/*/*.swift
# Nor does it see a source file added to the library since the last build ("cannot find type
# in scope"): the build plan is made again (a few seconds).
rm -f "$scratch/release.yaml" "$scratch/release/description.json"
swift build -c release --scratch-path "$scratch" >&2
bin="$scratch/release"

if [ "$micro" = 1 ]; then
    if [ "$peers" = 1 ]; then
        echo "Micro-benchmarks (ordo-one/benchmark)…" >&2
        set -- --format jmh --path "$out" --no-progress
        if [ -n "$filter" ]; then set -- "$@" --filter "$filter"; fi
        swift package --scratch-path "$scratch" --allow-writing-to-directory "$out" benchmark "$@" >&2
    fi
    # The harness times one benchmark after the other, so a ratio of its medians can compare ours
    # in one of the host's slow spells with the limit in a quick one. bench-probe times each target
    # pair in alternating blocks instead, in several launches: each launch has its own hash seed,
    # which moves NotificationCenter's cost for both sides by up to 2x.
    launches="1 2 3 4 5"
    if [ "$quick" = 1 ]; then launches="1"; fi
    echo "Interleaved ratios (bench-probe pairs)…" >&2
    for launch in $launches; do
        "$bin/bench-probe" pairs --json "$out/pairs-$launch.json" >&2
    done
fi

if [ "$countdown" = 1 ]; then
    echo "Countdown accuracy on the real clock, each variant together with the limit…" >&2
    if [ "$quick" = 1 ]; then
        "$bin/countdown-accuracy" --together --ticks 3 --conditions idle --json "$out/countdown.json" >&2
    else
        "$bin/countdown-accuracy" --together --json "$out/countdown.json" >&2
    fi
fi

if [ "$costs" = 1 ]; then
    # The history row launches the app itself: the root package's demo-cli, release build.
    echo "Building demo-cli (release) for the cost against history…" >&2
    (cd .. && swift build -c release --product demo-cli >&2)
    demo_cli="$(cd .. && swift build -c release --show-bin-path)/demo-cli"
    rm -f "$out/strace-profile-set.txt"
    if command -v strace >/dev/null 2>&1; then
        echo "Syncs and renames of one demo-cli profile set on an existing document (strace)…" >&2
        # Its verdict line (ok or FAIL) goes into the table; a FAIL is a row's verdict, not an error.
        ../scripts/strace-profile-set.sh "$demo_cli" >"$out/strace-profile-set.txt" 2>&1 || true
    fi
    echo "Costs: persisted update, cross-process latency, energy, idle watchers, history, launch, slider, handles…" >&2
    if [ "$quick" = 1 ]; then
        "$bin/cost-benchmarks" --quick --demo-cli "$demo_cli" --json "$out/costs.json" >&2
    else
        "$bin/cost-benchmarks" --demo-cli "$demo_cli" --json "$out/costs.json" >&2
    fi
fi

echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(swift --version 2>&1 | head -1)"
mode="release build"
if [ "$quick" = 1 ]; then mode="$mode, --quick"; fi
if [ "$peers" = 0 ]; then mode="$mode, --no-peers"; fi
echo "Run: $(date -u '+%Y-%m-%d %H:%M UTC'); $mode; medians per operation"
echo
set --
if [ -f "$out/Current_run.jmh.json" ]; then set -- "$@" --jmh "$out/Current_run.jmh.json"; fi
if [ -f "$out/countdown.json" ]; then set -- "$@" --countdown "$out/countdown.json"; fi
if [ -f "$out/costs.json" ]; then set -- "$@" --costs "$out/costs.json"; fi
if [ -f "$out/strace-profile-set.txt" ]; then set -- "$@" --strace-profile-set "$out/strace-profile-set.txt"; fi
for pairs in "$out"/pairs-*.json; do
    if [ -f "$pairs" ]; then set -- "$@" --pairs "$pairs"; fi
done
"$bin/benchmark-table" "$@"
