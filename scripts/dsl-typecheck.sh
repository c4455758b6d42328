#!/usr/bin/env bash
# How long the compiler takes to type-check a client file of 50 rules written with Automaton's
# `|` / `=>` DSL (Tests/AutomatonTests/DSL/DocumentEditorRules.swift), on its own, against the
# Automaton module built in debug. Prints the slowest function bodies (-debug-time-function-bodies)
# and the wall time of the whole `swiftc -typecheck` run; exits 1 if the rules' function body
# takes a second or more.
#
#   scripts/dsl-typecheck.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
file="$root/Tests/AutomatonTests/DSL/DocumentEditorRules.swift"

swift build --package-path "$root" --target Automaton >/dev/null
modules="$(swift build --package-path "$root" --show-bin-path)/Modules"

started=$(date +%s%N)
timings="$(swiftc -typecheck -swift-version 6 -I "$modules" "$file" -Xfrontend -debug-time-function-bodies 2>&1)"
finished=$(date +%s%N)

echo "== function bodies over 5 ms"
echo "$timings" | sort -rn | awk -F '\t' '$1 + 0 >= 5 { sub(/@.*$/, "", $3); print "   " $1 "  " $3 }'
echo "== whole swiftc -typecheck run: $(( (finished - started) / 1000000 )) ms"

rules_ms="$(echo "$timings" | awk '/mappings\(\)/ { sub(/ms$/, "", $1); print int($1) }' | head -1)"
if [ -z "$rules_ms" ]; then
    echo "dsl-typecheck.sh: no timing for mappings(); the compiler said:" >&2
    echo "$timings" >&2
    exit 1
fi
if [ "$rules_ms" -ge 1000 ]; then
    echo "dsl-typecheck.sh: the 50 rules took $rules_ms ms to type-check (the bar is under 1000 ms)" >&2
    exit 1
fi
