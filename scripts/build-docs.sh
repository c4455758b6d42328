#!/usr/bin/env bash
# Builds the documentation of every library product into one static site, with the Swift
# toolchain alone (no package plugin):
#
#   1. `swift build` builds the package in .build/docs (apart from the normal build, which it
#      leaves alone), and `swift package dump-symbol-graph` extracts each module's symbol graphs;
#   2. `docc convert --warnings-as-errors` turns each module's catalog (Sources/…/<Module>.docc)
#      and that module's graphs into a site under <site>/<Module>/, so a broken symbol or article
#      link, a topic naming a missing symbol, or a doc comment documenting a parameter that
#      does not exist fails the build;
#   3. every article must be listed on its module's landing page, and the articles the package
#      promises (below) must exist with their titles; otherwise the script fails.
#
# The integration packages' libraries (Integrations/Postgres: SingletonStoresPostgres) are built
# the same way in their own package folder, with its own build (its first build compiles
# PostgresNIO, several minutes), and get a part of the site of their own.
#
# Usage: scripts/build-docs.sh [SITE]        (SITE defaults to .build/docs/site)
#
# DocC pages load their content with fetch, so open the site through a web server, not file://:
#   python3 -m http.server --directory .build/docs/site 8000
#   then http://localhost:8000/ (each library's documentation is under /<Module>/documentation/).
# Or, to edit one catalog with live reload (after a first run, which leaves the graphs behind):
#   docc preview Sources/Timers/Timers.docc --additional-symbol-graph-dir .build/docs/graphs/Timers
set -euo pipefail
cd "$(dirname "$0")/.."

site="${1:-.build/docs/site}"
scratch=".build/docs"
graphs_by_module="$scratch/graphs"

# Every library product, in the order the landing page of the site lists them.
root_modules=(SingletonStores Stores SingletonStoresTesting StoreObservation Timers Automaton)
# The libraries of the integration packages: module, package folder.
integrations=("SingletonStoresPostgres|Integrations/Postgres")
modules=("${root_modules[@]}")
for entry in "${integrations[@]}"; do modules+=("${entry%%|*}"); done

# The articles the package promises: module, file name (without .md), title.
required_articles=(
    "SingletonStores|GettingStarted|Getting started"
    "SingletonStores|FromAPlainSingleton|From a plain singleton"
    "SingletonStores|Errors|Errors"
    "SingletonStores|PersistenceAndRecovery|Persistence and recovery"
    "SingletonStores|SwiftUIAndUIKit|SwiftUI and UIKit"
    "SingletonStores|ACountdownOfYourOwn|A countdown of your own"
    "SingletonStores|AStorageOfYourOwn|A storage of your own"
    "SingletonStores|HowADocumentIsStored|How a document is stored"
    "SingletonStoresTesting|TestingWithStores|Testing with stores"
    "Timers|CountdownsThatAgree|Countdowns that agree"
    "Automaton|ScreenFlowsAsStateMachines|Screen flows as state machines"
    "SingletonStoresPostgres|StoresSharedAcrossMachines|Stores shared across machines"
)

package_of() { # module: the folder of the package it belongs to
    local entry
    for entry in "${integrations[@]}"; do
        [[ "${entry%%|*}" == "$1" ]] && { echo "${entry#*|}"; return; }
    done
    echo "."
}

catalog_of() {
    case "$1" in
        StoreObservation) echo "Sources/Observation/StoreObservation.docc" ;;
        *) echo "$(package_of "$1")/Sources/$1/$1.docc" | sed 's#^\./##' ;;
    esac
}

bundle_id_of() { echo "com.github.singletonstores.$1"; }

lowercased() { echo "$1" | tr '[:upper:]' '[:lower:]'; }

fail() {
    echo "error: $*" >&2
    exit 1
}

# The toolchain's docc: on the PATH (Linux toolchains), through xcrun (Xcode), or beside swift.
docc="${DOCC:-}"
[[ -n "$docc" ]] || docc="$(command -v docc || true)"
[[ -n "$docc" ]] || docc="$(xcrun --find docc 2>/dev/null || true)"
[[ -n "$docc" ]] || docc="$(dirname "$(command -v swift)")/docc"
[[ -x "$docc" ]] || fail "docc was not found; it ships with the Swift toolchain (set DOCC to its path)"

echo "== swift build (scratch path $scratch, apart from the normal build)"
swift build --scratch-path "$scratch"

echo "== symbol graphs (swift package dump-symbol-graph)"
# SwiftPM writes the graphs beside the build folder. It also tries the synthesized test-runner
# modules, which it never builds, and then exits with an error although every library's graph
# was written; so the graphs are removed first and checked below instead of the exit status.
graphs="$(dirname "$(swift build --scratch-path "$scratch" --show-bin-path)")/symbolgraph"
dump_log="$scratch/dump-symbol-graph.log"
rm -rf "$graphs"
swift package --scratch-path "$scratch" dump-symbol-graph \
    --minimum-access-level public --emit-extension-block-symbols --skip-inherited-docs >"$dump_log" 2>&1 || true
for module in "${root_modules[@]}"; do
    [[ -f "$graphs/$module.symbols.json" ]] || { cat "$dump_log" >&2; fail "no symbol graph for $module in $graphs"; }
done
graphs_of() { echo "$graphs"; }  # module: the folder its package's graphs were written to

# Each integration package in its own folder, with its own build (CI has built it already).
integration_graphs=()
for entry in "${integrations[@]}"; do
    module="${entry%%|*}" folder="${entry#*|}"
    echo "== symbol graphs of $folder"
    (cd "$folder" && swift build --target "$module")
    package_graphs="$(cd "$folder" && dirname "$(swift build --show-bin-path)")/symbolgraph"
    rm -rf "$package_graphs"
    (cd "$folder" && swift package dump-symbol-graph \
        --minimum-access-level public --emit-extension-block-symbols --skip-inherited-docs) >"$dump_log" 2>&1 || true
    [[ -f "$package_graphs/$module.symbols.json" ]] || { cat "$dump_log" >&2; fail "no symbol graph for $module in $package_graphs"; }
    integration_graphs+=("$module|$package_graphs")
done
graphs_of() {
    local entry
    for entry in "${integration_graphs[@]}"; do
        [[ "${entry%%|*}" == "$1" ]] && { echo "${entry#*|}"; return; }
    done
    echo "$graphs"
}

rm -rf "$site" "$graphs_by_module"
mkdir -p "$site"
shopt -s nullglob
for module in "${modules[@]}"; do
    catalog="$(catalog_of "$module")"
    [[ -d "$catalog" ]] || fail "$module has no documentation catalog at $catalog"
    # Only this module's graphs: its own symbols, and its extensions of other modules' types
    # (<Module>@<Other>.symbols.json). Other modules' graphs would make their symbols its own.
    mkdir -p "$graphs_by_module/$module"
    module_graphs="$(graphs_of "$module")"
    cp "$module_graphs/$module.symbols.json" "$module_graphs/$module"@*.symbols.json "$graphs_by_module/$module/"

    echo "== docc convert $catalog"
    "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$graphs_by_module/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$(bundle_id_of "$module")" \
        --output-path "$site/$module" \
        --transform-for-static-hosting \
        --hosting-base-path "$module" \
        --warnings-as-errors
done
shopt -u nullglob

echo "== landing pages list every article"
# The landing page's data (minified JSON) lists each curated page's identifier in a topic
# section; each article has a page of its own, whose data carries its title.
listed_on_landing_page() { # module stem
    local module="$1" stem="$2"
    local landing="$site/$module/data/documentation/$(lowercased "$module").json"
    local identifier="doc://$(bundle_id_of "$module")/documentation/$module/$stem"
    [[ -f "$landing" ]] || fail "$module: no landing page data at $landing"
    # JSON may escape the slashes of a string ("doc:\/\/…"); compare without the escapes.
    sed 's#\\/#/#g' "$landing" | grep -o '"topicSections":\[.*' | grep -o '"identifiers":\[[^]]*\]' \
        | grep -F "\"$identifier\"" >/dev/null  # not -q: an early exit is a SIGPIPE upstream, a failure under pipefail
}
article_data() { # module stem
    echo "$site/$1/data/documentation/$(lowercased "$1")/$(lowercased "$2").json"
}

for module in "${modules[@]}"; do
    catalog="$(catalog_of "$module")"
    while IFS= read -r article; do
        stem="$(basename "$article" .md)"
        [[ "$stem" == "$module" ]] && continue   # the landing page itself
        listed_on_landing_page "$module" "$stem" \
            || fail "$module: the article $stem ($article) is not listed on the landing page; add <doc:$stem> to a topic group of $catalog/$module.md"
    done < <(find "$catalog" -name '*.md' | sort)
done

for entry in "${required_articles[@]}"; do
    IFS='|' read -r module stem title <<<"$entry"
    data="$(article_data "$module" "$stem")"
    [[ -f "$data" ]] || fail "$module: the article \"$title\" was not built (expected $data; is $(catalog_of "$module")/$stem.md missing?)"
    grep -qF "\"title\":\"$title\"" "$data" || fail "$module: $stem.md is not titled \"$title\""
    listed_on_landing_page "$module" "$stem" || fail "$module: \"$title\" is not listed on the landing page"
    [[ -f "$site/$module/documentation/$(lowercased "$module")/$(lowercased "$stem")/index.html" ]] \
        || fail "$module: no static page for \"$title\""
    echo "   $module lists \"$title\""
done

# A front page linking to each module's documentation.
{
    echo '<!DOCTYPE html>'
    echo '<html lang="en"><head><meta charset="utf-8"><title>SingletonStores documentation</title></head><body>'
    echo '<h1>SingletonStores documentation</h1><ul>'
    for module in "${modules[@]}"; do
        echo "<li><a href=\"$module/documentation/$(lowercased "$module")/\">$module</a></li>"
    done
    echo '</ul></body></html>'
} >"$site/index.html"

echo "== documentation built in $site"
