#!/usr/bin/env bash
# The fault-space search of demo-cli's state-changing commands (Tests/FaultSpace/fault_space.py):
# every file-system call each command makes on its data folder, in each starting state, failed
# with ENOSPC, EIO or EACCES or cut by SIGKILL just before or after it, and each lock it takes held
# past the lock timeout; then one oracle on what a relaunch finds (money conserved, each receipt
# credited once, the exit status and text true, nothing but the library's files changed).
#
#   scripts/fault-space.sh                  the whole space; prints "fault space: N cases, M violations"
#   scripts/fault-space.sh --sample 2       2 cases per command × fault kind (what CI runs)
#   scripts/fault-space.sh --coverage ...   also checks the numbered calls against strace -f
#   scripts/fault-space.sh --bin PATH ...   search another build of demo-cli
# Other options go to the search (--commands buy,use --states fresh --faults EIO --jobs 2 --verbose).
# Needs cc and python3 (and strace for --coverage); builds demo-cli (debug) unless --bin is given.
set -euo pipefail
exec "$(dirname "$0")/iofault-run.sh" .build/fault-space Tests/FaultSpace/fault_space.py "$@"
