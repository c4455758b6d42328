#!/usr/bin/env bash
# Processes of 0.2 and of this build update one document at once, and no update is lost.
#
#   scripts/mixed-versions.sh                  # builds 0.2's storage-stress in a temporary worktree
#   scripts/mixed-versions.sh --old PATH       # uses a storage-stress built from 0.2 already
#   scripts/mixed-versions.sh --runs 5 …       # five runs (three by default)
#
# Each run: this build makes the `counter` document (a two-slot file); then two loops launch
# 0.2's `storage-stress app-group FOLDER add 1` 50 times each while two writers of this build
# run processes that add 1 to it 200 times each — long-lived stores, which write through the
# document they keep open — one after the other until 0.2's loops have ended. Both versions must
# then read 1 + 200 × those processes + 100, and every process must have exited 0.
# This shows what the CHANGELOG's "Upgrading from 0.2" says of processes of both versions
# sharing a folder: each writer holds the document's own lock from its read to its commit, so
# neither writes over a change it has not read.
#
# 0.2 is the tag `0.2.0` when it exists, else the commit whose CHANGELOG released it (bb74756; fetched
# when a shallow clone lacks it, and the check skipped, saying so, when it cannot be).
# Needs git and the Swift toolchain; the build takes about a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

old=""
runs=3
while [[ $# -gt 0 ]]; do
    case "$1" in
        --old) old="$2"; shift 2 ;;
        --runs)
            [[ "${2:-}" =~ ^[1-9][0-9]?$ ]] || { echo "mixed-versions.sh: --runs takes 1 to 99" >&2; exit 2; }
            runs="$2"; shift 2 ;;
        *) echo "usage: scripts/mixed-versions.sh [--old PATH] [--runs N]" >&2; exit 2 ;;
    esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/mixed-versions.XXXXXX")"
cleanup() {
    if [[ -d "$work/old" ]]; then git worktree remove --force "$work/old" >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

if [[ -z "$old" ]]; then
    release="bb747569bf6ce3daec5ca1ddd568264f0a214d67"
    if git rev-parse -q --verify "refs/tags/0.2.0" >/dev/null; then
        release="0.2.0"
    elif ! git cat-file -e "$release^{commit}" 2>/dev/null; then
        # A shallow clone: fetch that one commit, or say plainly that the check did not run.
        git fetch -q --depth=1 origin "$release" 2>/dev/null || {
            echo "mixed-versions.sh: SKIPPED: 0.2 ($release) is not in this clone's history and could not be fetched"
            exit 0
        }
    fi
    git worktree add -q --detach "$work/old" "$release"
    (cd "$work/old" && swift build --product storage-stress >"$work/old-build.log" 2>&1) || {
        tail -20 "$work/old-build.log" >&2
        echo "mixed-versions.sh: 0.2 ($release) did not build" >&2
        exit 1
    }
    old="$work/old/.build/debug/storage-stress"
fi
new="$(swift build --show-bin-path)/storage-stress"
[[ -x "$old" ]] || { echo "mixed-versions.sh: no executable at $old" >&2; exit 2; }
[[ -x "$new" ]] || { echo "mixed-versions.sh: no executable at $new (swift build --product storage-stress)" >&2; exit 2; }

failed=0
for run in $(seq "$runs"); do
    folder="$work/run$run"
    mkdir "$folder"
    : >"$folder/failures"
    "$new" app-group "$folder/data" add 1 >/dev/null
    started="$(date +%s%N)"
    # 0.2's launches, two loops of 50; when both have ended, the 0.3 writers stop.
    (
        for loop in 1 2; do
            (
                for launch in $(seq 50); do
                    "$old" app-group "$folder/data" add 1 >/dev/null 2>>"$folder/errors" || echo "0.2 launch $loop.$launch" >>"$folder/failures"
                done
                echo "0.2 loop $loop ended after $((($(date +%s%N) - started) / 1000000)) ms" >>"$folder/times"
            ) &
        done
        wait
        touch "$folder/done"
    ) &
    # This build's writers: processes of 200 updates each, one after the other, for as long as
    # 0.2's loops run, so that the two versions write at once throughout.
    for writer in 1 2; do
        (
            batches=0
            while [[ ! -e "$folder/done" ]]; do
                "$new" app-group "$folder/data" add 1 200 >/dev/null 2>>"$folder/errors" || echo "0.3 writer $writer" >>"$folder/failures"
                batches=$((batches + 1))
            done
            echo "$batches" >"$folder/batches$writer"
            echo "0.3 writer $writer ended after $((($(date +%s%N) - started) / 1000000)) ms, $batches processes" >>"$folder/times"
        ) &
    done
    wait
    expected="count $((1 + 200 * ($(cat "$folder/batches1") + $(cat "$folder/batches2")) + 100))"
    read_old="$("$old" app-group "$folder/data" show)"
    read_new="$("$new" app-group "$folder/data" show)"
    echo "run $run: 0.2 reads \"$read_old\", this build \"$read_new\" (expected $expected); $(sort "$folder/times" | paste -sd ';' -)"
    if [[ "$read_old" != "$expected" || "$read_new" != "$expected" || -s "$folder/failures" ]]; then
        failed=1
        sed 's/^/  failed: /' "$folder/failures" >&2
        head -5 "$folder/errors" >&2 || true
    fi
done
if [[ "$failed" != 0 ]]; then
    echo "mixed-versions.sh: an update was lost or a process failed" >&2
    exit 1
fi
echo "mixed versions: $runs runs, no update lost"
