#!/usr/bin/env bash
# Builds the fuzz targets of Fuzz/ (libFuzzer and AddressSanitizer, from the toolchain) and runs
# them on their seed corpora. See Fuzz/README.md.
#
#   scripts/fuzz.sh --list              the targets
#   scripts/fuzz.sh TARGET SECONDS      fuzz one target for SECONDS seconds
#   scripts/fuzz.sh all SECONDS         fuzz every target, SECONDS seconds each (FUZZ_JOBS at once)
#   scripts/fuzz.sh TARGET FILE…        run one target once on each FILE (reproduce a crash)
#
# Each run starts from a temporary copy of Fuzz/Corpus/TARGET, so the checked-in corpus stays
# as it is. A crash stops the target, prints the error and stack and the path of the crashing
# input (kept under .build-fuzz/crashes/TARGET/), and the script exits 1 once every target ran.
# Environment: FUZZ_SCRATCH_PATH (default .build-fuzz), FUZZ_ARGS (more libFuzzer options),
# FUZZ_JOBS (targets fuzzed at once by `all`; default: one per processor).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${FUZZ_SCRATCH_PATH:-$root/.build-fuzz}"
fuzz="$root/Fuzz"

usage() {
    sed -n '5,8s/^#  //p' "$0" >&2
    exit 2
}

targets() {
    for dir in "$fuzz"/Sources/fuzz-*/; do basename "$dir" | sed 's/^fuzz-//'; done
}

build() {
    mkdir -p "$scratch"
    local log="$scratch/fuzz-build.log" started=$SECONDS
    echo "== building the fuzz targets in ${scratch#"$root"/}"
    # -parse-as-library: libFuzzer drives each target from its @main; -enable-testing: the
    # targets `@testable import Stores` to decode the internal document types. No cached build
    # plan: SwiftPM does not notice files added to or removed from the root package, which this
    # package depends on by path, and would compile the sources it saw last time.
    if ! swift build --package-path "$fuzz" --scratch-path "$scratch" --disable-build-manifest-caching \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing \
        >"$log" 2>&1; then
        # gold warns about every AddressSanitizer symbol it cannot export; they are harmless.
        grep -v "Cannot export local symbol" "$log" | tail -40 >&2
        echo "fuzz.sh: the build failed; the whole log is $log" >&2
        exit 1
    fi
    bin="$(swift build --package-path "$fuzz" --scratch-path "$scratch" --show-bin-path)"
    echo "   built in $((SECONDS - started)) s"
}

# Runs libFuzzer for one target; 0 when it found nothing.
run() {
    local target="$1"; shift
    local executable="$bin/fuzz-$target"
    [ -x "$executable" ] || { echo "fuzz.sh: unknown target '$target' (see --list)" >&2; return 2; }
    local crashes="$scratch/crashes/$target/" work log status=0
    mkdir -p "$crashes"
    work="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$target.XXXXXX")"
    log="$work/fuzz.log"
    local options=(-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$crashes" -print_final_stats=1)
    [ -f "$fuzz/Dictionaries/$target.dict" ] && options+=(-dict="$fuzz/Dictionaries/$target.dict")
    if [ "$#" -eq 1 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
        echo "== fuzz-$target for $1 s"
        cp -R "$fuzz/Corpus/$target" "$work/corpus"
        options+=(-max_total_time="$1" "$work/corpus")
    else
        echo "== fuzz-$target on $# file(s)"
        options+=("$@")
    fi
    # Swift's own crash reporter would hold the output open; libFuzzer and ASan print the stack.
    # shellcheck disable=SC2086
    SWIFT_BACKTRACE=enable=no "$executable" "${options[@]}" ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
        echo "   no crash: $(grep -E '^#[0-9]+' "$log" | tail -1)"
    else
        # The error, the symbolized stack and the input: not libFuzzer's progress lines, not the
        # Swift runtime's unsymbolized copy of the stack.
        grep -vE "^#[0-9]+\s+(NEW|REDUCE|pulse|INITED|RELOAD)|^INFO: |^[0-9]+ +[^ ]+ +0x[0-9a-f]+ |^Current stack trace:|^stat::|^MS: |^0x" "$log" | tail -50
        local input
        input="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)"
        [ -z "$input" ] && input="$(sed -n 's/^Running: \(.*\)$/\1/p' "$log" | tail -1)"
        echo "fuzz.sh: fuzz-$target failed (exit $status) on ${input:-the inputs in $crashes}"
        echo "   reproduce: scripts/fuzz.sh $target ${input:-FILE}"
    fi
    rm -rf "$work"
    return "$status"
}

[ "$#" -ge 1 ] || usage
if [ "$1" = "--list" ]; then
    targets
    exit 0
fi
[ "$#" -ge 2 ] || usage
build
if [ "$1" = "all" ]; then
    [[ "$2" =~ ^[0-9]+$ ]] && [ "$#" -eq 2 ] || usage
    # libFuzzer runs on one thread: FUZZ_JOBS targets (default: one per processor) run at once,
    # each printing when it is done, in the order of --list.
    jobs="${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}"
    [[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: FUZZ_JOBS must be a positive whole number, not '$jobs'" >&2; exit 2; }
    mapfile -t all_targets < <(targets)
    outputs="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-outputs.XXXXXX")"
    failed=()
    for ((first = 0; first < ${#all_targets[@]}; first += jobs)); do
        batch=("${all_targets[@]:first:jobs}")
        pids=()
        for target in "${batch[@]}"; do
            run "$target" "$2" >"$outputs/$target" 2>&1 &
            pids+=("$!")
        done
        for index in "${!batch[@]}"; do
            status=0
            wait "${pids[$index]}" || status=$?
            cat "$outputs/${batch[$index]}"
            [ "$status" -eq 0 ] || failed+=("${batch[$index]}")
        done
    done
    rm -rf "$outputs"
    if [ "${#failed[@]}" -gt 0 ]; then
        echo "fuzz.sh: crashes in ${failed[*]}" >&2
        exit 1
    fi
    echo "fuzz.sh: no crash in $(targets | wc -l | tr -d ' ') targets"
else
    target="$1"; shift
    run "$target" "$@" || exit 1
fi
