#!/usr/bin/env bash
# The crash-state enumerator (Tests/CrashStates): real demo-cli runs recorded call by call under
# the iofault library, every state a crash may leave after each call built from the record
# (unsynced changes lost or kept in order, writes torn at 512-byte sectors, names not durable
# before their folder's fsync), each read back by a fault-free demo-cli and judged by one oracle.
#
#   scripts/crash-states.sh                      every workload, whole
#   scripts/crash-states.sh --sample 150         150 crash states of each recording (what CI runs)
#   scripts/crash-states.sh --workloads updates,ledger
#   scripts/crash-states.sh --plant in-place     a planted breakage: must report violations
#   scripts/crash-states.sh --bin PATH ...       another build of demo-cli
# Other options go to the enumerator (--recoveries N --jobs J --no-strace --verbose --keep).
# Prints "N crash states checked, M violations" and exits 1 when M is not 0. Needs cc, python3
# and strace; builds demo-cli (debug) unless --bin is given.
set -euo pipefail
exec "$(dirname "$0")/iofault-run.sh" .build/crash-states Tests/CrashStates/crash_states.py "$@"
