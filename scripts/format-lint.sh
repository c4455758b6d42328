#!/usr/bin/env bash
# Lints Sources, Tests and Benchmarks with the toolchain's swift-format (`swift format`), every
# finding an error. The rules are those `.swift-format` enables; Benchmarks/.swift-format is the
# same file except that benchmark fixtures need no documentation comments (swift-format reads
# the nearest configuration and merges none, so the copy must stay whole; this script checks it).
#
# --debug-disable-pretty-print: swift-format's lint also compares each file with what its pretty
# printer would write (line breaks, continuation indentation, column alignment), and no setting
# turns that off or makes it match the code as written (swiftlang/swift-format#764, #964). The
# flag, hidden but present since 2020, keeps the rules and skips only that comparison, so this
# checks the rules and not the layout. If a toolchain drops it, the run fails loudly.
set -euo pipefail
cd "$(dirname "$0")/.."

expected="$(sed 's/"AllPublicDeclarationsHaveDocumentation" : true/"AllPublicDeclarationsHaveDocumentation" : false/' .swift-format)"
if ! diff <(printf '%s\n' "$expected") Benchmarks/.swift-format >/dev/null; then
    echo "Benchmarks/.swift-format must be .swift-format with AllPublicDeclarationsHaveDocumentation false:" >&2
    diff <(printf '%s\n' "$expected") Benchmarks/.swift-format >&2 || true
    exit 1
fi

swift format lint --strict --debug-disable-pretty-print --recursive --parallel Sources Tests Benchmarks
