#!/usr/bin/env bash
# Compares the public API of the library products with release 0.1.0 and fails on a change
# that could break an app's source, other than the ones listed in
# scripts/api-breakage-allowlist.txt: the new cases of StorageError, StorageNotice, StoreIssue
# and PurchaseError (CHANGELOG.md says what a `switch` over them needs), PurchaseBackend's
# `finish(_:)` (a requirement with a default implementation, so conformers compile unchanged), and two initializers that
# gained a parameter with a default value (`StoreChange(old:new:origin:)`,
# `FileStorage(…, lockTimeout:, …)`), which every call written for 0.1.0 still compiles against;
# `StoreStorage`'s requirements that take a `StoreDocument` (each with a default implementation
# that calls the key-based requirement an older storage implements, so conformers compile
# unchanged), and the key-based methods of `FileStorage` and `InMemoryStorage`, now taking a
# `StoreDocument` (the check calls them renamed), which calls written for 0.1.0 still reach
# through the protocol's deprecated forwards;
# and `NotificationChannel.userInfo(carrying:old:new:)`, a `package` function (no app can call
# it) that the check lists because it was `@inlinable`; `NotificationChannel.boostEnded`, whose
# payload `BoostEnd` became a typealias of the kit's `CountdownEnd` (the same type under its old
# name, so every use compiles unchanged); and the `center:` parameter with a default that
# `UserProfileStoreStub.init` and `PurchaseStoreStub.init` gained (the contracts' new `center`
# requirements have a default implementation, which the check accepts). Takes about ten minutes
# on two cores (it builds both
# versions), so it is not a step of .ci/run; run it before a release.
set -euo pipefail
cd "$(dirname "$0")/.."
baseline="${1:-764c1ab}"   # the commit of 0.1.0
swift package --scratch-path .build/api-check diagnose-api-breaking-changes "$baseline" \
    --products SingletonStores Stores Timers StoreObservation \
    --breakage-allowlist-path scripts/api-breakage-allowlist.txt
