#!/usr/bin/env bash
# Builds the iofault library (Tests/FaultSpace/iofault.c) into OUT, then runs a search that
# loads it into demo-cli: `python3 SCRIPT --bin DEMO_CLI --shim OUT/iofault.so ARGS...`, where
# DEMO_CLI is the `--bin PATH` given among ARGS, or else a debug build of demo-cli made now.
# Shared by scripts/fault-space.sh and scripts/crash-states.sh.
#
#   scripts/iofault-run.sh OUT SCRIPT [--bin PATH] [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
out="$1"
script="$2"
shift 2
mkdir -p "$out"
cc -shared -fPIC -O1 -Wall -Werror -o "$out/iofault.so" Tests/FaultSpace/iofault.c -ldl -lpthread
bin=""
args=()
while (($#)); do
    case "$1" in
        --bin) bin="$2"; shift 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
if [[ -z "$bin" ]]; then
    swift build --product demo-cli >/dev/null
    bin="$(swift build --show-bin-path)/demo-cli"
fi
exec python3 "$script" --bin "$bin" --shim "$out/iofault.so" "${args[@]+"${args[@]}"}"
