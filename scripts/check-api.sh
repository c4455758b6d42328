#!/usr/bin/env bash
# Compares the public API of the library products with the last minor release and fails on a
# change that could break an app's source, other than those listed in
# scripts/api-breakage-allowlist.txt.
#
# Before 1.0, source stays stable within a minor version: 0.2.x compares against 0.2.0. From the
# day the tag `0.2.0` exists, the script compares against it by default, and the allowlist must
# be emptied then (0.2.x adds, it does not break). Until that tag exists it compares against
# 0.1.0 (commit 764c1ab), and the allowlist holds what 0.2.0 changes on purpose:
# - what an app must change, each listed under "Upgrading from 0.1" in CHANGELOG.md
#   (`PersistentStoreCore.key`; `StoreStorage`'s key-based requirements and the key-based
#   methods of `FileStorage` and `InMemoryStorage`, which the check reports as renamed to the
#   `StoreDocument` forms);
# - what every call written for 0.1.0 still compiles against: new cases of StorageError,
#   StorageNotice, StoreIssue and PurchaseError (CHANGELOG.md says what a `switch` over them
#   needs); requirements with a default implementation (`PurchaseBackend.finish(_:)`, the
#   `StoreDocument` requirements of `StoreStorage`); initializers that gained a parameter with a
#   default value (`StoreChange(old:new:origin:)`, `FileStorage(…, lockTimeout:, …)`,
#   `UserProfileStoreStub.init` and `PurchaseStoreStub.init` with `center:`);
#   `PersistentStoreCore.update(_:)`, now generic over the body's error (a body that throws
#   nothing still makes it throw `StorageError`); `NotificationChannel.boostEnded`, whose payload
#   `BoostEnd` became a typealias of the kit's `CountdownEnd` (the same type under its old name);
#   and `NotificationChannel.userInfo(carrying:old:new:)`, a `package` function (no app can
#   call it) that the check lists because it was `@inlinable`.
#
# Usage: scripts/check-api.sh [BASELINE]   (a tag or commit; by default as above)
# Takes about ten minutes on two cores (it builds both versions), so it is not a step of
# .ci/run; run it before a release.
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse -q --verify "refs/tags/0.2.0" >/dev/null; then
    default_baseline="0.2.0"
else
    default_baseline="764c1ab"   # the commit of 0.1.0, until 0.2.0 is tagged
fi
baseline="${1:-$default_baseline}"
swift package --scratch-path .build/api-check diagnose-api-breaking-changes "$baseline" \
    --products SingletonStores Stores Timers StoreObservation \
    --breakage-allowlist-path scripts/api-breakage-allowlist.txt
