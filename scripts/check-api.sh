#!/usr/bin/env bash
# Compares the public API of the library products with the last minor release and fails on a
# change that could break an app's source, other than those listed in
# scripts/api-breakage-allowlist.txt.
#
# Before 1.0, source stays stable within a minor version, and a new minor version changes only
# what its CHANGELOG's "Upgrading from" rows say. So 0.3 compares against 0.2.0: the tag `0.2.0`
# when it exists, else the commit whose CHANGELOG released 0.2.0 (bb74756). The allowlist holds
# what 0.3 changes on purpose, each with its "Upgrading from 0.2" row in CHANGELOG.md:
# - new cases of `StorageError` (`backendUnreachable`, `commitOutcomeUnknown`) and of
#   `StorageWatchMechanism` (`serverPush`): a `switch` that lists every case adds them.
# The declarations 0.3 took out of the public API into `package` (`StoreDocument.validKey()`,
# `StoreLaunchVariants.maximumNameLength`, the initializers only the library makes…) are not
# reported by the tool here (it seems to list `package` declarations with the public ones);
# their rows are in the CHANGELOG all the same. (0.2.0 itself was checked against 0.1.0, commit 764c1ab.)
#
# Usage: scripts/check-api.sh [BASELINE]   (a tag or commit; by default as above)
# Takes about ten minutes on two cores (it builds both versions), so it is not a step of
# .ci/run; run it before a release.
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse -q --verify "refs/tags/0.2.0" >/dev/null; then
    default_baseline="0.2.0"
else
    default_baseline="bb74756"   # the commit that released 0.2.0, until it is tagged
fi
baseline="${1:-$default_baseline}"
swift package --scratch-path .build/api-check diagnose-api-breaking-changes "$baseline" \
    --products SingletonStores Stores Timers StoreObservation \
    --breakage-allowlist-path scripts/api-breakage-allowlist.txt
