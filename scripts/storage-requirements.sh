#!/usr/bin/env bash
# Shows that a storage of your own must write the three requirements of StoreStorage that have no
# default (documentLocation(forKey:) has one: nil). Type-checks, against the built SingletonStores module, a storage with all three
# requirements (it must compile: the flags are right), then the same storage with each
# requirement left out in turn: each must fail, the compiler saying that the type does not
# conform to StoreStorage and naming the requirement left out. Prints the compiler's errors for
# the storage without transaction(_:waits:_:).
#
# Usage: scripts/storage-requirements.sh     (builds the SingletonStores module first if needed)
set -euo pipefail
cd "$(dirname "$0")/.."

bin_path="$(swift build --show-bin-path)"
modules="$bin_path/Modules"
[ -d "$modules" ] || modules="$bin_path"  # older toolchains keep the modules beside the products
if [ ! -e "$modules/SingletonStores.swiftmodule" ]; then
    swift build --target SingletonStores >/dev/null
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/storage-requirements.XXXXXX")"
trap 'rm -rf "$work"' EXIT

read_requirement='    func read(_ key: String) throws(StorageError) -> StoredBytes? { nil }'
transaction_requirement='    func transaction<Result>(
        _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? {
        DocumentCommit(try body(nil).result)
    }'
watch_requirement='    func watch(
        forKey key: String, _ watching: StorageWatching, onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch? { nil }'

# Writes a storage with the requirements named in $@ (read, transaction, watch) to $work/<name>.swift.
write_storage() {
    local name="$1"
    shift
    {
        echo "import Foundation"
        echo "import SingletonStores"
        echo ""
        echo "struct MyStorage: StoreStorage {"
        for requirement in "$@"; do
            case "$requirement" in
            read) echo "$read_requirement" ;;
            transaction) echo "$transaction_requirement" ;;
            watch) echo "$watch_requirement" ;;
            esac
        done
        echo "}"
    } >"$work/$name.swift"
}

# The kit imports an internal C module (SingletonStoresFileInfo); a client that SwiftPM does not
# build finds it through its module map.
file_info_map="$bin_path/SingletonStoresFileInfo.build/module.modulemap"
typecheck() {
    swiftc -typecheck -swift-version 6 -diagnostic-style llvm -I "$modules" -Xcc -fmodule-map-file="$file_info_map" \
        "$work/$1.swift" 2>&1
}

write_storage complete read transaction watch
if ! output="$(typecheck complete)"; then
    echo "A storage with all three requirements does not compile; the check can't be trusted:" >&2
    echo "$output" >&2
    exit 1
fi

failed=0
for missing in read transaction watch; do
    case "$missing" in
    # The compiler names a one-parameter function by its base name alone: 'read'.
    read) write_storage "without-$missing" transaction watch; requirement="read(_:)" named="'read'" ;;
    transaction)
        write_storage "without-$missing" read watch
        requirement="transaction(_:waits:_:)" named="'transaction(_:waits:_:)'"
        ;;
    watch)
        write_storage "without-$missing" read transaction
        requirement="watch(forKey:_:onChange:)" named="'watch(forKey:_:onChange:)'"
        ;;
    esac
    if output="$(typecheck "without-$missing")"; then
        echo "FAIL: a storage without $requirement compiles: give the requirement no default." >&2
        failed=1
        continue
    fi
    if ! grep -q "type 'MyStorage' does not conform to protocol 'StoreStorage'" <<<"$output" \
        || ! grep -qF "protocol requires function $named" <<<"$output"; then
        echo "FAIL: a storage without $requirement does not compile, but the compiler does not say that it" >&2
        echo "does not conform to StoreStorage and that it needs $requirement:" >&2
        echo "$output" >&2
        failed=1
        continue
    fi
    if [ "$missing" = transaction ]; then
        echo "A storage without $requirement does not compile; the compiler says:"
        grep -E ": (error|note): " <<<"$output" | sed 's/^/    /'
    fi
    echo "ok: a storage without $requirement does not compile, and the compiler names it"
done
exit "$failed"
