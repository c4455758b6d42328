#!/usr/bin/env bash
# Counts the source files one persisted update passes through on its way to the disk: every file
# of SingletonStores and Stores with a function that runs from `PersistentStoreCore.update` (what
# `ValueStore.update {}` and the built-in stores call) to the first `fdatasync`, in a
# `demo-cli profile set` of an existing profile. Prints the files in the order they are first
# entered, with how many calls each took, then "files to the sync: N".
#
#   scripts/files-to-sync.sh                      # .build/debug/demo-cli
#   scripts/files-to-sync.sh PATH-TO-DEMO-CLI     # a debug build: inlining would hide files
#   scripts/files-to-sync.sh --long-lived [PATH-TO-STORAGE-STRESS]
#   scripts/files-to-sync.sh --max 15 --long-lived …  # exits 1 when the count is above 15
#
# --long-lived counts the second of two updates of one `ValueStore` in one process instead
# (`storage-stress app-group FOLDER add 1 2`, after a first run made the document): the update of
# a store that has written before, which goes through the document it kept open.
#
# How: gdb puts a breakpoint on every function of the two modules (their symbols, from nm, less
# the compiler's outlined copies and value witnesses, which have no source line of their own),
# counts them only between the update's entry and the fdatasync, and reads each one's file from
# the debug information. Takes about a minute. Needs gdb, nm and swift-demangle. Builds nothing.
set -euo pipefail

long_lived=false
max=""
if [[ "${1:-}" == "--max" ]]; then
    [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "files-to-sync.sh: --max takes a number of files" >&2; exit 2; }
    max="$2"
    shift 2
fi
if [[ "${1:-}" == "--long-lived" ]]; then
    long_lived=true
    shift
    binary="${1:-.build/debug/storage-stress}"
else
    binary="${1:-.build/debug/demo-cli}"
fi
[[ -x "$binary" ]] || { echo "files-to-sync.sh: no executable at $binary (swift build --product demo-cli, or storage-stress)" >&2; exit 2; }
command -v gdb >/dev/null || { echo "files-to-sync.sh: gdb is not installed" >&2; exit 2; }
binary="$(readlink -f "$binary")"

work="$(mktemp -d "${TMPDIR:-/tmp}/files-to-sync.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# The compiler's own helpers (outlined copies and destroys of a value, value witnesses) are left
# out: the debug information files each under whichever source file it was first emitted for,
# though no line of that file runs.
nm --defined-only "$binary" | awk '$2 ~ /[tT]/ && ($3 ~ /^\$s15SingletonStores/ || $3 ~ /^\$s6Stores/) {print $1, $3}' >"$work/all-symbols"
cut -d' ' -f2 "$work/all-symbols" | swift demangle >"$work/demangled"
paste -d'\t' "$work/all-symbols" "$work/demangled" \
    | awk -F'\t' '$2 !~ /^outlined / && $2 !~ / value witness for / {print $1}' >"$work/symbols"
if $long_lived; then
    "$binary" app-group "$work/data" add 1 >/dev/null
    arguments=(app-group "$work/data" add 1 2)
else
    "$binary" --data-dir "$work/data" profile set --nickname First >/dev/null
    arguments=(--data-dir "$work/data" profile set --nickname Second)
fi

cat >"$work/trace.py" <<PYTHON
import gdb
files, order, state = {}, [], {"on": False}

class Entered(gdb.Breakpoint):
    def stop(self):
        if state["on"]:
            sal = gdb.selected_frame().find_sal()
            if sal.symtab is not None and "/Sources/" in sal.symtab.filename:
                name = sal.symtab.filename
                if name not in files:
                    files[name] = 0
                    order.append(name)
                files[name] += 1
        return False

class Update(gdb.Breakpoint):
    def stop(self):
        # Each update starts a count of its own: the last one printed is the last update's.
        if not state["on"]:
            files.clear()
            del order[:]
        state["on"] = True
        return False

class Sync(gdb.Breakpoint):
    def stop(self):
        if state["on"]:
            state["on"] = False
            for name in order:
                print("%6d  %s" % (files[name], name))
            print("files to the sync: %d" % len(order))
        return False

gdb.execute("set pagination off")
gdb.execute("break main")
gdb.execute("run")
base = None
for line in gdb.execute("info proc mappings", to_string=True).splitlines():
    if "$binary" in line:
        base = int(line.split()[0], 16)
        break
for line in open("$work/symbols"):
    offset, name = line.split()
    address = "*0x%x" % (base + int(offset, 16))
    if name.startswith("\$s15SingletonStores19PersistentStoreCoreC6update"):
        Update(address, internal=True)
    Entered(address, internal=True)
Sync("fdatasync", internal=True)
gdb.execute("continue")
PYTHON
# Every update's count is printed; the last one is kept.
gdb -q -batch -x "$work/trace.py" --args "$binary" "${arguments[@]}" 2>/dev/null \
    | grep -E '^ *[0-9]+  /|^files to the sync' | sed "s#$(pwd)/##" >"$work/windows"
last="$(grep -n '^files to the sync' "$work/windows" | tail -2 | head -1 | cut -d: -f1)"
count="$(grep -c '^files to the sync' "$work/windows" || true)"
if [[ "$count" -gt 1 ]]; then tail -n "+$((last + 1))" "$work/windows"; else cat "$work/windows"; fi >"$work/last"
cat "$work/last"
files="$(sed -n 's/^files to the sync: //p' "$work/last")"
[[ -n "$files" ]] || { echo "files-to-sync.sh: the update never reached fdatasync" >&2; exit 1; }
if [[ -n "$max" && "$files" -gt "$max" ]]; then
    echo "files-to-sync.sh: $files files, more than $max" >&2
    exit 1
fi
