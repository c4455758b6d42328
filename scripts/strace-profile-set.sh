#!/usr/bin/env bash
# Counts the syncs, renames and resizes of one persisted update of an existing document: what a
# `demo-cli profile set` costs the file system once the profile exists.
#
#   scripts/strace-profile-set.sh                      # .build/debug/demo-cli
#   scripts/strace-profile-set.sh .build/release/demo-cli
#
# Builds nothing: give it a demo-cli binary (`swift build --product demo-cli` makes the default
# one). In a temporary data folder (`--data-dir`) it runs `profile set` once to create the
# document, then once more with another nickname under
# `strace -f -c -e trace=fsync,fdatasync,rename,renameat,renameat2,ftruncate,fallocate`, prints
# the counts; then once more under `strace -f -y` of the calls that look at a file (`stat`,
# `fstat`, `newfstatat`, `statx`…), counting those that look at the document and ask for its
# times (any but a `statx` whose mask leaves the times out). On Linux 6.13 and later such a look
# makes the next write of the document also write its inode to the disk (see `FileInfo` in
# `Files/DocumentFile.swift`).
#
# Then it counts every system call of an update of a long-lived store: `storage-stress` (built
# with the package: `swift build --product storage-stress`, or give its path as the second
# argument) increments a counter document through one `FileStorage` 1 time and 201 times, each
# under `strace -f -c`; the difference over 200 is the calls an update makes once the store has
# written before (the document kept open: `flock`, a look at it, `pread`, `pwrite`,
# `fdatasync`, `flock`). One verdict line:
#   ok: one sync, no rename, the document's times never asked for, N calls an update  (exit 0)
#   FAIL: <what differs from that, or more than 6 calls an update>               (exit 1)
# Exit 2 when it could not measure (no strace, no binary, demo-cli failed).
set -euo pipefail

binary="${1:-.build/debug/demo-cli}"
stress="${2:-.build/debug/storage-stress}"
if [ ! -x "$binary" ]; then
    echo "strace-profile-set.sh: no executable demo-cli at $binary (build it: swift build --product demo-cli)" >&2
    exit 2
fi
if [ ! -x "$stress" ]; then
    echo "strace-profile-set.sh: no executable storage-stress at $stress (build it: swift build --product storage-stress)" >&2
    exit 2
fi
if ! command -v strace >/dev/null 2>&1; then
    echo "strace-profile-set.sh: strace is not installed (Debian: apt-get install strace)" >&2
    exit 2
fi

folder="$(mktemp -d "${TMPDIR:-/tmp}/strace-profile-set.XXXXXX")"
trap 'rm -rf "$folder"' EXIT
data="$folder/data"
summary="$folder/strace.txt"

# The calls named, less those this architecture has no system call for (aarch64 has no plain
# `rename` nor `stat`), comma-separated: strace refuses an unknown name.
known_calls() {
    local known="" call
    for call in "$@"; do
        if strace -f -qq -e trace="$call" -o /dev/null true 2>/dev/null; then known="$known${known:+,}$call"; fi
    done
    echo "$known"
}
calls="$(known_calls fsync fdatasync rename renameat renameat2 ftruncate fallocate)"

if ! "$binary" --data-dir "$data" profile set --nickname First >"$folder/create.txt" 2>&1; then
    echo "strace-profile-set.sh: creating the document failed:" >&2
    cat "$folder/create.txt" >&2
    exit 2
fi
if ! strace -f -c -e trace="$calls" -o "$summary" "$binary" --data-dir "$data" profile set --nickname Second \
    >"$folder/update.txt" 2>&1; then
    echo "strace-profile-set.sh: the traced update failed:" >&2
    cat "$folder/update.txt" >&2
    exit 2
fi
looks="$folder/looks.txt"
stat_calls="$(known_calls stat lstat fstat newfstatat fstatat64 statx)"
if ! strace -f -y -e trace="$stat_calls" -o "$looks" "$binary" --data-dir "$data" profile set --nickname Second \
    >"$folder/looks-update.txt" 2>&1; then
    echo "strace-profile-set.sh: the second traced update failed:" >&2
    cat "$folder/looks-update.txt" >&2
    exit 2
fi
# A look at the document (by its path, or by a descriptor strace names with it) asks for its
# times unless it is a statx whose requested mask (the argument before the result) has neither
# STATX_MTIME, STATX_CTIME, STATX_ATIME, STATX_BTIME nor a set that includes them.
document_look_lines="$(grep -E 'profile\.json' "$looks" | grep -E 'stat[a-z0-9]*\(' || true)"
time_looks_listed="$(while IFS= read -r line; do
    [ -n "$line" ] || continue
    if [[ "$line" == *"statx("* ]]; then
        mask="$(grep -oE ', STATX_[A-Z_|]+, \{' <<<"$line" || true)"
        if [ -n "$mask" ] && ! grep -qE 'STATX_(MTIME|CTIME|ATIME|BTIME|BASIC_STATS|ALL)' <<<"$mask"; then continue; fi
    fi
    echo "$line"
done <<<"$document_look_lines")"
document_looks="$(grep -c . <<<"$document_look_lines" || true)"
time_looks="$(grep -c . <<<"$time_looks_listed" || true)"
shown="$("$binary" --data-dir "$data" profile show 2>/dev/null || true)"
if ! grep -q "^nickname: Second$" <<<"$shown"; then
    echo "strace-profile-set.sh: the traced update did not leave the new nickname in the document" >&2
    exit 2
fi

# `strace -c` columns: % time, seconds, usecs/call, calls, [errors,] syscall.
count() {
    awk -v name="$1" '$NF == name && $4 ~ /^[0-9]+$/ { print $4; found = 1 } END { if (!found) print 0 }' "$summary"
}
echo "demo-cli profile set on an existing document ($binary), strace -f -c:"
total_syncs=0
total_renames=0
total_resizes=0
for call in fsync fdatasync rename renameat renameat2 ftruncate fallocate; do
    n="$(count "$call")"
    printf '  %-10s %s\n' "$call" "$n"
    case "$call" in
        fsync | fdatasync) total_syncs=$((total_syncs + n)) ;;
        rename*) total_renames=$((total_renames + n)) ;;
        *) total_resizes=$((total_resizes + n)) ;;
    esac
done

echo "  looks at the document: $document_looks; asking for its times: $time_looks"
if [ -n "$time_looks_listed" ]; then echo "$time_looks_listed" | sed 's/^/    /'; fi

# Every call of one run of storage-stress counting `$1` updates, in a folder of its own.
all_calls() {
    local run="$folder/stress-$1"
    mkdir -p "$run"
    if ! strace -f -c -o "$run/strace.txt" "$stress" "$run/data" "$1" >"$run/out.txt" 2>&1; then
        echo "strace-profile-set.sh: storage-stress failed:" >&2
        cat "$run/out.txt" >&2
        exit 2
    fi
    awk '$NF == "total" { print $4 }' "$run/strace.txt"
}
one="$(all_calls 1)"
many="$(all_calls 201)"
per_update=$(((many - one + 100) / 200))
echo "an update of a long-lived store (storage-stress, strace -f -c, 201 updates less 1, over 200): $per_update system calls"

problems=()
if [ "$total_syncs" -ne 1 ]; then problems+=("$total_syncs syncs (fsync + fdatasync), not one"); fi
if [ "$total_renames" -ne 0 ]; then problems+=("$total_renames rename(s)"); fi
if [ "$total_resizes" -ne 0 ]; then problems+=("$total_resizes resize(s) (ftruncate + fallocate)"); fi
if [ "$time_looks" -ne 0 ]; then problems+=("$time_looks look(s) at the document asking for its times"); fi
if [ "$per_update" -gt 6 ]; then problems+=("$per_update system calls an update of a long-lived store, more than 6"); fi
if [ "${#problems[@]}" -eq 0 ]; then
    echo "ok: one sync, no rename, the document's times never asked for, $per_update calls an update"
    exit 0
fi
(
    IFS=';'
    echo "FAIL: ${problems[*]}" | sed 's/;/; /g'
)
exit 1
