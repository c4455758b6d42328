#!/usr/bin/env bash
# Prints how many public declarations each library module has: what an app can name after
# `import <Module>`.
#
# What it counts: the symbols of the module's symbol graphs (`swift symbolgraph-extract` on the
# module as `swift build` built it, its extensions of other modules' types included) whose access
# is `public` or `open`: types, cases, initializers, methods, properties, subscripts, operators,
# associated types and protocol requirements, each once. What it leaves out: members the
# compiler synthesizes or a type inherits from a protocol of another module (`!=`,
# `hashValue`, a default implementation it does not declare), `package` and internal symbols,
# and `@_spi` symbols (no app sees them without naming the SPI).
#
# Beside each count: how many of those symbols are deprecated, how many are deprecated in a file
# other than the module's `Deprecations.swift` (where what stays deprecated must live), and how
# many have no doc comment.
#
# Usage: scripts/count-public-api.sh [--skip-build] [MODULE...]
#   MODULE defaults to every library product. --skip-build reads the modules the last
#   `swift build` left (in the default build folder).
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
if [[ "${1:-}" == "--skip-build" ]]; then
    build=0
    shift
fi
modules=("$@")
if [[ ${#modules[@]} -eq 0 ]]; then
    modules=(SingletonStores Stores Timers StoreObservation SingletonStoresTesting Automaton)
fi

if [[ $build -eq 1 ]]; then
    for module in "${modules[@]}"; do
        swift build --target "$module" >/dev/null
    done
fi
bin="$(swift build --show-bin-path)"
triple="$(basename "$(dirname "$bin")")"
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT

printf '%-24s %7s %11s %20s %14s\n' module public deprecated "outside Deprecations" undocumented
for module in "${modules[@]}"; do
    mkdir -p "$graphs/$module"
    swift symbolgraph-extract -module-name "$module" -I "$bin/Modules" -target "$triple" \
        -output-dir "$graphs/$module" -minimum-access-level public -skip-synthesized-members >/dev/null
    jq -rs '
        [.[].symbols[] | select(.accessLevel == "public" or .accessLevel == "open")]
        | unique_by(.identifier.precise)
        | (map(select(any(.availability[]?; .isUnconditionallyDeprecated == true or has("deprecated"))))) as $deprecated
        | [length,
           ($deprecated | length),
           ($deprecated | map(select((.location.uri // "") | endswith("/Deprecations.swift") | not)) | length),
           (map(select(.docComment == null)) | length)]
        | @tsv' "$graphs/$module"/*.symbols.json |
        while IFS=$'\t' read -r count deprecated outside undocumented; do
            printf '%-24s %7s %11s %20s %14s\n' "$module" "$count" "$deprecated" "$outside" "$undocumented"
        done
done
