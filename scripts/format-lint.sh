#!/usr/bin/env bash
# Lints Sources, Tests and Benchmarks with the toolchain's swift-format (`swift format`), every
# finding an error. The rules are those `.swift-format` enables; Benchmarks/.swift-format is the
# same file except that benchmark fixtures need no documentation comments (swift-format reads
# the nearest configuration and merges none, so the copy must stay whole; this script checks it).
#
# The lint checks the rules and the layout: the code is as `swift format format` writes it. Run
# `swift format format -i -r --parallel Sources Tests Benchmarks` before committing. Two kinds of
# code keep their own layout, each marked for the formatter: the documentation mirrors
# (`// swift-format-ignore-file`: their code is a verbatim copy of an article) and the
# transition tables whose columns are aligned by hand (`// swift-format-ignore`).
set -euo pipefail
cd "$(dirname "$0")/.."

expected="$(sed 's/"AllPublicDeclarationsHaveDocumentation" : true/"AllPublicDeclarationsHaveDocumentation" : false/' .swift-format)"
if ! diff <(printf '%s\n' "$expected") Benchmarks/.swift-format >/dev/null; then
    echo "Benchmarks/.swift-format must be .swift-format with AllPublicDeclarationsHaveDocumentation false:" >&2
    diff <(printf '%s\n' "$expected") Benchmarks/.swift-format >&2 || true
    exit 1
fi

swift format lint --strict --recursive --parallel Sources Tests Benchmarks Integrations/Postgres/Sources Integrations/Postgres/Tests Integrations/Postgres/Package.swift
