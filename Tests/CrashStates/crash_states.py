#!/usr/bin/env python3
"""The crash-state enumerator: every state a file system may leave after a crash during a
recorded run of real processes, each read back by the real reader and judged by one oracle.

1. Record. Each workload runs demo-cli processes on a data folder under the iofault library
   (Tests/FaultSpace/iofault.c) with IOFAULT_RECORD set: every call that changes the folder
   (open with O_CREAT/O_TRUNC, write/pwrite with offset and bytes, ftruncate, fallocate,
   fsync/fdatasync of a file or folder, rename, unlink, mkdir, link) is recorded in the order it
   took effect across processes. Each process also runs under `strace -f -y -e trace=file,desc`;
   a changing system call on the folder that strace saw and the record lacks (Foundation acting
   behind the library's back) is reported as an error.
2. Build the crash states (see README.md, "The model"): after each recorded call, every file
   and folder keeps what its last completed sync made durable plus any prefix of its later
   changes, the last of them possibly torn at 512-byte sectors into new, zero or old bytes (an
   append's size is persisted before its data); a name's creation, rename or removal is not
   durable until its folder's fsync, and the folder itself not until the one above it is synced.
3. Check each distinct state: it is materialised in a fresh folder and the real reader (a
   fault-free demo-cli `profile show` / `purchase show`) reads it. The oracle: the value read is
   one the live run showed at some moment between the last acknowledged write (a process that
   exited 0) and the crash — so one that was written, no older than the last acknowledged, no
   newer than the last issued — the document is never reported damaged (never a mix) and never
   read as the default when it had a value; and for the purchases ledger, each payment made in
   the run is credited exactly once. A bounded number of states are then recovered by the next
   writer, itself recorded and crashed the same way, and judged again (a second crash during
   recovery holds the same).

Usage: crash_states.py --bin DEMO_CLI --shim IOFAULT_SO [--workloads a,b] [--skip c] [--plant NAME]
                       [--sample N] [--recoveries N] [--jobs J] [--no-strace] [--verbose]
The last line reads "N crash states checked, M violations".
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import fcntl
import hashlib
import itertools
import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "FaultSpace"))
import document_file  # noqa: E402  (the reader's view of a document file: plain JSON or two slots)

SECTOR = 512
# A torn write of up to this many sectors is enumerated in every combination of new, zero and
# old bytes per sector; a longer one in the patterns of `tear_patterns`.
FULL_TEAR_SECTORS = 3
# The most states one crash point may have; past it the point's states are not checked and the
# run says so (and fails): the bound is part of the proof, never silently cut.
STATES_PER_POINT_CAP = 4000
RUN_TIMEOUT = 60
TEMPORARY = "~w-"  # in the name of a writer's temporary file
LARGEST = [0]  # the most states one crash point had (before identical ones were merged)
FORGET = [True]  # a failed sync may forget what it failed to write (--no-forget: it leaves it pending)
PLANTS = ["no-file-sync", "no-folder-sync", "in-place", "current-slot", "ftruncate-prealloc"]
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "v1")


# ---- workloads

class Step:
    def __init__(self, args: list[str], fault: tuple[str, str] | None = None):
        self.args = args
        self.fault = fault  # (IOFAULT_KIND, IOFAULT_AT_CALL)

    def label(self) -> str:
        text = " ".join(a if len(a) <= 20 else f"<{len(a)} chars>" for a in self.args)
        return text + (f" [{self.fault[0]} at {self.fault[1]}]" if self.fault else "")


class Workload:
    def __init__(self, name: str, groups: list[list[Step]], readers: list[str], recovery: list[str],
                 setup: list[list[str]] | None = None, plant_first_format: bool = False,
                 setup_until=None, grows_to: tuple[list[str], int] | None = None):
        self.name = name
        self.groups = groups  # the steps of a group run at once, as separate processes
        self.readers = readers  # "profile" and/or "ledger"
        self.recovery = recovery  # the next writer's command, for the second crash
        self.setup = setup or []
        self.plant_first_format = plant_first_format
        # (command, done(data folder) -> bool): run before the recording until done, at most 100 times
        self.setup_until = setup_until
        self.grows_to = grows_to  # (documents, slot size): one of them ends with slots this big


def profile(nickname: str, fault=None) -> list[Step]:
    return [Step(["profile", "set", "--nickname", nickname], fault)]


def buy(items: int) -> list[Step]:
    return [Step(["purchase", "buy", "--items", str(items)])]


# A nickname whose profile outgrows a two-slot file's first slots (4,096 bytes): written the
# rename way, into a file with slots of 8,192; and one that outgrows those (slots of 16,384).
PAST_4K, PAST_8K = 4600, 9000
# The ledger-growth workload buys before it is recorded until the ledger's or the receipts'
# document holds this many bytes (a little short of a 4 KiB slot); the recorded purchases then
# take it past its first slots.
LEDGER_SETUP_BYTES = 3550


def make_workloads() -> dict[str, Workload]:
    w: dict[str, Workload] = {}
    w["create"] = Workload("create", [profile("c1")], ["profile"], ["profile", "set", "--nickname", "r"])
    w["updates"] = Workload("updates", [profile("u1"), profile("u2"), profile("u3")], ["profile"],
                            ["profile", "set", "--nickname", "r"], setup=[["profile", "set", "--nickname", "u0"]])
    # Each bigger than the last (1, 2, 5, 10, 18 sectors), past a 4 KiB slot and past an 8 KiB one,
    # each growth followed by a write that fits the grown slots (written in place).
    w["growth"] = Workload("growth", [profile("g" * n) for n in (300, 900, 2200, PAST_4K, PAST_4K + 100,
                                                                 PAST_8K, PAST_8K + 100)], ["profile"],
                           ["profile", "set", "--nickname", "r"], setup=[["profile", "set", "--nickname", "g0"]],
                           grows_to=(["profile.json"], 16384))
    w["ledger"] = Workload("ledger", [buy(1), buy(2), buy(3), [Step(["boost", "use"])]], ["ledger"],
                           ["purchase", "buy", "--items", "1"])
    w["ledger-growth"] = Workload("ledger-growth", [buy(1), buy(2), buy(3), buy(1), [Step(["boost", "use"])]],
                                  ["ledger"], ["purchase", "buy", "--items", "1"],
                                  setup_until=(["purchase", "buy", "--items", "1"], ledger_near_slot),
                                  grows_to=(["purchases.json", "receipts.json"], 8192))
    w["two-writers"] = Workload(
        "two-writers", [profile("A") + profile("B"), buy(1) + buy(2)], ["profile", "ledger"],
        ["profile", "set", "--nickname", "r"], setup=[["profile", "set", "--nickname", "w0"]])
    w["migration"] = Workload("migration", [profile("m1"), buy(1)], ["profile", "ledger"],
                              ["purchase", "buy", "--items", "1"], plant_first_format=True)
    # Faults in the rename way: the faulted write outgrows the document's slots (the temporary
    # file's write and fsync, the rename, the folder's fsync).
    for kind, calls in (("EIO", ["write:1", "fsync:1", "rename:1", "fsync:2"]), ("ENOSPC", ["write:1", "fsync:1"])):
        for call in calls:
            name = f"fault-{kind}-{call.replace(':', '')}"
            w[name] = Workload(name, [profile("f1"), profile("f2" + "x" * PAST_4K, (kind, call)), profile("f3")],
                               ["profile"], ["profile", "set", "--nickname", "r"],
                               setup=[["profile", "set", "--nickname", "f0"]])
    # Faults in place: the faulted write fits its slot (the pwrite of the slot, the document's
    # fdatasync; and that flush failing twice: the first time, and again in its handling).
    for kind in ("EIO", "ENOSPC"):
        for name, call in (("pwrite1", "write:1"), ("fdatasync1", "fdatasync:1"),
                           ("fdatasync1-2", "fdatasync:1,fdatasync:2")):
            if kind == "ENOSPC" and name == "fdatasync1-2":
                continue
            name = f"fault-{kind}-{name}"
            w[name] = Workload(name, [profile("f1"), profile("f2", (kind, call)), profile("f3")], ["profile"],
                               ["profile", "set", "--nickname", "r"], setup=[["profile", "set", "--nickname", "f0"]])
    # A purchase whose receipts' flush fails twice: the receipt and the ledger must agree.
    w["fault-EIO-buy-fdatasync1-2"] = Workload(
        "fault-EIO-buy-fdatasync1-2", [buy(1), [Step(["purchase", "buy", "--items", "2"], ("EIO", "fdatasync:1,fdatasync:2"))],
                                       buy(3)], ["ledger"], ["purchase", "buy", "--items", "1"], setup=[["purchase", "buy", "--items", "1"]])
    # Every other command that changes the folder, one after the other.
    w["commands"] = Workload(
        "commands", [[Step(["target", "set", "dev01"])], [Step(["boost", "start", "--seconds", "600"])],
                     [Step(["boost", "stop"])], [Step(["boost", "use"])], [Step(["purchase", "restore"])],
                     [Step(["target", "set", "production"])]],
        ["boost", "target", "ledger"], ["boost", "stop"], setup=[["purchase", "buy", "--items", "2"]])
    # Every command that changes the folder: reset removes the documents (and must flush the folder).
    w["reset"] = Workload("reset", [[Step(["reset", "--yes"])], profile("n1")], ["profile", "ledger"],
                          ["profile", "set", "--nickname", "r"],
                          setup=[["purchase", "buy", "--items", "2"], ["profile", "set", "--nickname", "z0"]])
    return w


def ledger_near_slot(data: str) -> bool:
    sizes = [len(document_file.envelope_bytes(open(os.path.join(data, name), "rb").read()) or b"")
             for name in ("purchases.json", "receipts.json") if os.path.exists(os.path.join(data, name))]
    return max(sizes, default=0) >= LEDGER_SETUP_BYTES


def check_growth(workload: Workload, data: str) -> list[str]:
    """Whether a growth workload did grow a two-slot document past its first slots (nothing to
    check where the documents are plain JSON)."""
    names, size = workload.grows_to
    sizes = {}
    for name in names:
        try:
            with open(os.path.join(data, name), "rb") as f:
                content = f.read(document_file.HEADER)
        except OSError:
            continue
        if not document_file.is_two_slot(content):
            return []
        sizes[name] = document_file.slot_size(content)
    if not any(s >= size for s in sizes.values()):
        return [f"the workload never grew {' or '.join(names)} to slots of {size} bytes (slots at the end: {sizes}): "
                "it does not test what it is named for"]
    return []


# ---- running demo-cli

class Runner:
    def __init__(self, demo_cli: str, shim: str, work: str, use_strace: bool):
        self.demo_cli, self.shim, self.work, self.use_strace = demo_cli, shim, work, use_strace

    def env(self, data: str) -> dict:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("SINGLETON_STORES_") and not k.startswith("IOFAULT_") and k != "LD_PRELOAD"}
        env["HOME"] = os.path.dirname(data)
        env["TERM"] = "dumb"
        env["SINGLETON_STORES_LOCK_TIMEOUT"] = "30"
        return env

    def run(self, data: str, args: list[str]):
        try:
            done = subprocess.run([self.demo_cli, "--data-dir", data] + args, env=self.env(data),
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=RUN_TIMEOUT)
            return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired:
            return None, "", "(no exit within %d s)" % RUN_TIMEOUT

    def start_recorded(self, data: str, step: Step, record: str, plant: str, trace: str) -> subprocess.Popen:
        extra = {"LD_PRELOAD": self.shim, "IOFAULT_DIR": data, "IOFAULT_RECORD": record}
        if plant:
            extra["IOFAULT_PLANT"] = plant
        if step.fault:
            extra["IOFAULT_KIND"], extra["IOFAULT_AT_CALL"] = step.fault
        command = [self.demo_cli, "--data-dir", data] + step.args
        env = self.env(data)
        if self.use_strace:
            prefix = ["strace", "-f", "-y", "-qq", "-s", "64", "-e", "trace=file,desc", "-o", trace]
            for key, value in extra.items():
                prefix += ["-E", f"{key}={value}"]
            command = prefix + command
        else:
            env.update(extra)
        return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)


def mark(record: str, text: str):
    """Appends a marker line to the record, under the lock the recorded processes take."""
    with open(record, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(f"M {text}\n")
        f.flush()
        fcntl.flock(f, fcntl.LOCK_UN)


# ---- the record

def unhex(text: str) -> str:
    return bytes.fromhex(text).decode("utf-8", errors="replace") if text != "-" else ""


class Recording:
    """A recorded run: the folder before it, the calls that changed it, and when each process
    was acknowledged (exited 0)."""

    def __init__(self):
        self.initial: dict[str, tuple[int, bytes]] | None = None  # name -> (inode, bytes); None: no folder
        self.events: list[tuple] = []  # each: (kind, pid, *fields)
        self.acks: list[int] = []  # positions (events before) at which a process was acknowledged
        self.steps: list[tuple[int, int, str, int | None, int]] = []  # (start, end position, label, exit, index)
        self.alone: set[int] = set()  # the indices of steps that ran alone in their group
        self.plant_acts = 0
        self.problems: list[str] = []  # the record itself is wrong (a change outside the folder ...)
        self.outputs: list[str] = []


def snapshot_folder(data: str) -> dict[str, tuple[int, bytes]] | None:
    if not os.path.isdir(data):
        return None
    result = {}
    for name in sorted(os.listdir(data)):
        path = os.path.join(data, name)
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            raise SystemExit(f"the folder holds something other than a regular file: {path}")
        with open(path, "rb") as f:
            result[name] = (info.st_ino, f.read())
    return result


def record_workload(runner: Runner, workload: Workload, plant: str, base: str, initial_state=None,
                    groups: list[list[Step]] | None = None) -> Recording:
    """Sets the workload's starting state up (unrecorded), then runs its groups recorded."""
    home = os.path.join(base, "home")
    data = os.path.join(home, "data")
    os.makedirs(home, exist_ok=True)
    if initial_state is not None:
        materialise(initial_state, data)
    if workload.plant_first_format and initial_state is None:
        os.makedirs(data, mode=0o700)
        for fixture, key in [("purchases.json", "purchases"), ("receipts.json", "receipts"),
                             ("profile-full.json", "profile")]:
            shutil.copyfile(os.path.join(FIXTURES, fixture), os.path.join(data, key + ".json"))
            os.chmod(os.path.join(data, key + ".json"), 0o600)
    if initial_state is None:
        for args in workload.setup:
            code, out, err = runner.run(data, args)
            if code != 0:
                raise SystemExit(f"{workload.name}: setting up, demo-cli {' '.join(args)} exited {code}: {out}{err}")
        if workload.setup_until:
            args, done = workload.setup_until
            for _ in range(100):
                if done(data):
                    break
                code, out, err = runner.run(data, args)
                if code != 0:
                    raise SystemExit(f"{workload.name}: setting up, demo-cli {' '.join(args)} exited {code}: {out}{err}")
            else:
                raise SystemExit(f"{workload.name}: setting up, 100 runs of demo-cli {' '.join(args)} did not reach "
                                 "the state the workload needs")
    rec = Recording()
    rec.initial = snapshot_folder(data)
    record = os.path.join(base, "record.txt")
    open(record, "w").close()
    traces: list[tuple[int, str]] = []
    for group in groups if groups is not None else workload.groups:
        processes = []
        for step in group:
            index = len(processes) + len(traces)
            trace = os.path.join(base, f"strace-{index}.txt")
            mark(record, f"begin {index} {json.dumps(step.label())}")
            if len(group) == 1:
                rec.alone.add(index)
            processes.append((index, step, runner.start_recorded(data, step, record, plant, trace), trace))
        for index, step, process, trace in processes:
            try:
                out, err = process.communicate(timeout=RUN_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                out, err = process.communicate()
            mark(record, f"end {index} {process.returncode}")
            rec.outputs.append(f"{step.label()}: exit {process.returncode}: "
                               f"{(out + err).decode(errors='replace').strip()[:300]}")
            traces.append((index, trace))
    parse_record(record, rec, {index: pid for index, trace in traces if (pid := traced_pid(trace)) is not None})
    if runner.use_strace:
        rec.problems += compare_with_strace(record, traces, data)
    return rec


def traced_pid(trace: str) -> int | None:
    """The process id of the run strace traced into `trace` (its first line's), if any."""
    try:
        with open(trace, errors="replace") as f:
            for line in f:
                match = re.match(r"^(\d+)\s", line)
                if match:
                    return int(match.group(1))
    except OSError:
        pass
    return None


def parse_record(record: str, rec: Recording, pids: dict[int, int] | None = None):
    """Reads the record. A process's acknowledgement is placed after its own last call, not at
    its end marker: of processes run at once, the harness marks each end as it collects it, which
    may be after calls of the others (a write in place of a second writer, not yet synced, would
    then count as acknowledged). `pids` maps each step to its process id, where strace told."""
    starts: dict[int, tuple[int, str]] = {}
    last_after: dict[int, int] = {}  # pid -> position just after its last call
    pids = pids or {}
    with open(record) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "M":
                position = len(rec.events)
                if parts[1] == "begin":
                    starts[int(parts[2])] = (position, json.loads(line.split(" ", 3)[3]))
                else:
                    index, code = int(parts[2]), int(parts[3])
                    start, label = starts.get(index, (0, "?"))
                    rec.steps.append((start, position, label, code, index))
                    if code == 0:
                        pid = pids.get(index)
                        rec.acks.append(position if pid is None else min(position, last_after.get(pid, start)))
                continue
            pid, call, fields = int(parts[0]), parts[1], parts[2:]
            if call == "plant":
                rec.plant_acts += 1
                continue
            for i, field in enumerate(fields):
                if call in ("open", "syncdir", "syncdirfail", "rename", "unlink", "rmdir", "mkdir", "link", "symlink") and \
                        (i == 0 or (i == 1 and call in ("rename", "link"))):
                    fields[i] = unhex(field)
            rec.events.append((call, pid, *fields))
            last_after[pid] = len(rec.events)


STRACE_KIND = {
    "write": "write", "pwrite64": "write", "writev": "write", "pwritev": "write", "pwritev2": "write",
    "fsync": "sync", "fdatasync": "sync", "sync_file_range": "sync", "syncfs": "sync",
    "ftruncate": "setsize", "truncate": "setsize", "fallocate": "fallocate",
    "rename": "rename", "renameat": "rename", "renameat2": "rename",
    "unlink": "unlink", "unlinkat": "unlink", "rmdir": "unlink",
    "mkdir": "mkdir", "mkdirat": "mkdir", "link": "link", "linkat": "link", "symlink": "link", "symlinkat": "link",
    "copy_file_range": "other", "sendfile": "other", "splice": "other", "mknod": "other", "mknodat": "other",
    "open": "open", "openat": "open", "creat": "open", "openat2": "open",
}
RECORD_KIND = {"write": "write", "sync": "sync", "syncdir": "sync", "setsize": "setsize", "fallocate": "fallocate",
               "rename": "rename", "unlink": "unlink", "rmdir": "unlink", "mkdir": "mkdir", "link": "link",
               "symlink": "link", "open": "open"}


def strace_calls(trace: str, data: str) -> collections.Counter:
    """The changing system calls on the folder that strace saw succeed, by kind."""
    seen = collections.Counter()
    pending: dict[str, str] = {}
    inside = lambda path: path == data or path.startswith(data + "/")
    try:
        lines = open(trace, errors="replace").read().splitlines()
    except OSError:
        return seen
    for line in lines:
        match = re.match(r"^(\d+)\s+(.*)$", line)
        if not match:
            continue
        pid, text = match.groups()
        if text.endswith("<unfinished ...>"):
            pending[pid] = text[: -len("<unfinished ...>")]
            continue
        resumed = re.match(r"^<\.\.\. (\w+) resumed>(.*)$", text)
        if resumed:
            text = pending.pop(pid, resumed.group(1) + "(") + resumed.group(2)
        call = re.match(r"^(\w+)\((.*)\)\s+=\s+(-?\d+)", text)
        if not call:
            continue
        name, args, result = call.group(1), call.group(2), int(call.group(3))
        kind = STRACE_KIND.get(name)
        if kind is None or result < 0:
            continue
        if kind == "open" and not re.search(r"O_CREAT|O_TRUNC", args):
            continue
        # The paths the call names: descriptors shown as N</path>, quoted names joined to the
        # descriptor before them (the *at calls), absolute quoted paths.
        paths = []
        fds = re.findall(r"(?:^|, )(?:\d+|AT_FDCWD)<([^>]*)>", args)
        names = re.findall(r'"((?:[^"\\]|\\.)*)"', args)
        if kind in ("write", "sync", "setsize", "fallocate", "other"):
            first = re.match(r"^\d+<([^>]*)>", args)
            paths = [first.group(1)] if first else []
        else:
            for i, quoted in enumerate(names):
                if quoted.startswith("/"):
                    paths.append(quoted)
                elif i < len(fds):
                    paths.append(fds[i].rstrip("/") + "/" + quoted)
        if any(inside(p) for p in paths):
            seen[kind] += 1
    return seen


def compare_with_strace(record: str, traces: list[tuple[int, str]], data: str) -> list[str]:
    seen = collections.Counter()
    for _, trace in traces:
        seen += strace_calls(trace, data)
    counted = collections.Counter()
    with open(record) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0] != "M" and parts[1] in RECORD_KIND:
                if parts[1] == "syncdir" and unhex(parts[2]) == "..":
                    continue  # the folder above: strace names a path outside the folder
                counted[RECORD_KIND[parts[1]]] += 1
    problems = []
    for kind, n in sorted(seen.items()):
        if counted[kind] < n:
            problems.append(f"strace -f saw {n} changing {kind} call(s) on the folder, the record has {counted[kind]}: "
                            "a change made behind the recorder's back")
    return problems


# ---- the model: what a crash may leave

class Model:
    """The recording as changes to objects — each file's bytes (by inode), the folder's names,
    the folder's own existence (a name in the folder above it) — and the syncs that make them
    durable."""

    def __init__(self, rec: Recording):
        self.rec = rec
        self.problems: list[str] = []
        self.inode_of_real: dict[int, int] = {}
        self.initial_content: dict[int, bytes] = {}
        self.initial_names: dict[str, int] = {}
        self.folder_existed = rec.initial is not None
        next_id = itertools.count(1)
        for name, (ino, content) in (rec.initial or {}).items():
            node = next(next_id)
            self.inode_of_real[ino] = node
            self.initial_content[node] = content
            self.initial_names[name] = node
        # per object: [(position, change)], [sync positions]
        self.changes: dict[tuple, list[tuple[int, tuple]]] = collections.defaultdict(list)
        self.syncs: dict[tuple, list[int]] = collections.defaultdict(list)
        # Syncs that failed: what each failed to write may be forgotten (see `pending`).
        self.failed_syncs: dict[tuple, list[int]] = collections.defaultdict(list)
        self.describe: list[str] = []
        for position, event in enumerate(rec.events):
            call, pid, *fields = event
            self.describe.append(describe_event(event))

            def node_of(real: str) -> int | None:
                node = self.inode_of_real.get(int(real))
                if node is None:
                    self.problems.append(f"call {position + 1} ({self.describe[-1]}) changes a file the record "
                                         "never saw made or found")
                return node

            def flat(name: str) -> bool:
                if name.startswith("!") or "/" in name or name in (".", ".."):
                    self.problems.append(f"call {position + 1} ({self.describe[-1]}) names {name!r}: the model "
                                         "knows the folder's own files only")
                    return False
                return True

            if call == "open":
                name, real, created, truncated = fields[0], int(fields[1]), fields[2] == "1", fields[3] == "1"
                if created:
                    if flat(name):
                        node = next(next_id)
                        self.inode_of_real[real] = node
                        self.initial_content[node] = b""
                        self.changes[("names",)].append((position, ("create", name, node)))
                if truncated:
                    node = node_of(str(real))
                    if node is not None:
                        self.changes[("file", node)].append((position, ("setsize", 0)))
            elif call == "write":
                node = node_of(fields[0])
                if node is not None:
                    data = bytes.fromhex(fields[2]) if fields[2] != "-" else b""
                    self.changes[("file", node)].append((position, ("write", int(fields[1]), data)))
            elif call == "setsize":
                node = node_of(fields[0])
                if node is not None:
                    self.changes[("file", node)].append((position, ("setsize", int(fields[1]))))
            elif call == "fallocate":
                node = node_of(fields[0])
                mode, offset, length = int(fields[1]), int(fields[2]), int(fields[3])
                if node is not None and mode & 1 == 0:  # not FALLOC_FL_KEEP_SIZE: the size grows
                    self.changes[("file", node)].append((position, ("extend", offset + length)))
            elif call == "sync":
                node = node_of(fields[0])
                if node is not None:
                    self.syncs[("file", node)].append(position)
            elif call == "syncdir":
                if fields[0] == ".":
                    self.syncs[("names",)].append(position)
                elif fields[0] == "..":
                    self.syncs[("folder",)].append(position)
            elif call == "syncfail":
                node = node_of(fields[0])
                if node is not None:
                    self.failed_syncs[("file", node)].append(position)
            elif call == "syncdirfail":
                if fields[0] == ".":
                    self.failed_syncs[("names",)].append(position)
                elif fields[0] == "..":
                    self.failed_syncs[("folder",)].append(position)
            elif call == "rename":
                if int(fields[2]) not in (0, 1):  # RENAME_NOREPLACE succeeded: a rename to a free name
                    self.problems.append(f"call {position + 1}: renameat2 with flags {fields[2]} is not modelled")
                if flat(fields[0]) and flat(fields[1]):
                    self.changes[("names",)].append((position, ("rename", fields[0], fields[1])))
            elif call == "unlink":
                if flat(fields[0]):
                    self.changes[("names",)].append((position, ("unlink", fields[0])))
            elif call == "link":
                if flat(fields[0]) and flat(fields[1]):
                    self.changes[("names",)].append((position, ("link", fields[0], fields[1])))
            elif call in ("mkdir", "rmdir"):
                if fields[0] == ".":
                    self.changes[("folder",)].append((position, (call,)))
                else:
                    self.problems.append(f"call {position + 1} ({self.describe[-1]}): folders inside the folder "
                                         "are not modelled")
            elif call == "symlink":
                self.problems.append(f"call {position + 1}: a symbolic link made in the folder is not modelled")
        self.points = len(rec.events) + 1

    def pending(self, key: tuple, point: int) -> tuple[list[tuple[tuple, bool]], list[tuple]]:
        """The changes of `key` made before `point`: (synced, not yet synced). Each synced change
        comes with whether it may have been forgotten: made before a sync that failed, with no
        successful sync between them, it may be on the disk or not, whatever syncs follow (on
        Linux a failed fsync may drop the pages or entries it failed to write and mark them clean,
        so a later fsync writes nothing of them: what was written before must be written again)."""
        made = [(p, c) for p, c in self.changes.get(key, []) if p < point]
        synced = sorted(s for s in self.syncs.get(key, []) if s < point)
        failed = sorted(f for f in self.failed_syncs.get(key, []) if f < point) if FORGET[0] else []
        last = synced[-1] if synced else -1
        durable, later = [], []
        for p, change in made:
            if p > last:
                later.append(change)
                continue
            done_by = next(s for s in synced if s > p)
            durable.append((change, any(p < f < done_by for f in failed)))
        return durable, later

    @staticmethod
    def durable_choices(durable: list[tuple[tuple, bool]]) -> list[tuple[list[tuple], str]]:
        """The synced changes as a crash may leave them: all that could not be forgotten, and of
        those that could, each prefix (in the order they were made)."""
        optional = sum(1 for _, forgettable in durable if forgettable)
        choices = []
        for kept in range(optional, -1, -1):
            seen, changes = 0, []
            for change, forgettable in durable:
                if forgettable:
                    seen += 1
                    if seen > kept:
                        continue
                changes.append(change)
            how = "" if kept == optional else f"{optional - kept}/{optional} changes a failed sync forgot lost"
            choices.append((changes, how))
        return choices


def tear_patterns(sectors: int) -> list[tuple[str, ...]]:
    """How a write of `sectors` sectors may be torn: each sector new (N), old (O) or zero (Z),
    never all new (that is the write persisted whole). Up to FULL_TEAR_SECTORS sectors, every
    combination; past it, each prefix and each suffix new with the rest old or zero, and each
    single sector old or zero with the rest new."""
    if sectors <= FULL_TEAR_SECTORS:
        return [p for p in itertools.product("NOZ", repeat=sectors) if set(p) != {"N"}]
    patterns = set()
    for rest in "OZ":
        for j in range(sectors):
            patterns.add(tuple("N" * j + rest * (sectors - j)))
            patterns.add(tuple(rest * (sectors - j) + "N" * j))
        for i in range(sectors):
            patterns.add(tuple("N" * i + rest + "N" * (sectors - i - 1)))
    patterns.discard(tuple("N" * sectors))
    return sorted(patterns)


def apply_file_change(content: bytearray, change: tuple, pattern: tuple[str, ...] | None = None) -> bytearray:
    kind = change[0]
    if kind == "setsize":
        size = change[1]
        return content[:size] if size <= len(content) else content + bytes(size - len(content))
    if kind == "extend":
        return content + bytes(max(0, change[1] - len(content)))
    offset, data = change[1], change[2]
    old = content + bytes(max(0, offset + len(data) - len(content)))  # the size is persisted first
    new = bytearray(old)
    new[offset:offset + len(data)] = data
    if pattern is None:
        return new
    result = bytearray(old)
    first = offset // SECTOR
    for i, how in enumerate(pattern):
        start = max(offset, (first + i) * SECTOR)
        end = min(offset + len(data), (first + i + 1) * SECTOR)
        if how == "N":
            result[start:end] = new[start:end]
        elif how == "Z":
            result[start:end] = bytes(end - start)
    return result


def sectors_of(change: tuple) -> int:
    offset, data = change[1], change[2]
    if not data:
        return 0
    return (offset + len(data) - 1) // SECTOR - offset // SECTOR + 1


def file_variants(model: Model, node: int, point: int, live_only=False, tears=True) -> list[tuple[bytes, str]]:
    """The bytes the file `node` may hold after a crash at `point`, each with how (torn writes
    left out unless `tears`)."""
    synced, pending = model.pending(("file", node), point)
    if live_only:
        content = bytearray(model.initial_content.get(node, b""))
        for change in [c for c, _ in synced] + pending:
            content = apply_file_change(content, change)
        return [(bytes(content), "all")]
    variants = []
    for durable, forgot in Model.durable_choices(synced):
        content = bytearray(model.initial_content.get(node, b""))
        for change in durable:
            content = apply_file_change(content, change)
        prefix = forgot + "; " if forgot else ""
        variants.append((bytes(content), prefix + (f"0/{len(pending)} unsynced changes" if pending else "synced")))
        for count, change in enumerate(pending, 1):
            before = content
            content = apply_file_change(content, change)
            variants.append((bytes(content), prefix + f"{count}/{len(pending)} unsynced changes"))
            if change[0] == "write" and tears:
                for pattern in tear_patterns(sectors_of(change)):
                    variants.append((bytes(apply_file_change(before, change, pattern)),
                                     prefix + f"{count - 1}/{len(pending)} unsynced changes + change {count} torn "
                                     f"{''.join(pattern)} (N new, O old, Z zero, per 512-byte sector)"))
    return variants


def names_variants(model: Model, point: int, live_only=False) -> list[tuple[dict[str, int], str]]:
    synced, pending = model.pending(("names",), point)
    if live_only:
        names = dict(model.initial_names)
        for change in [c for c, _ in synced] + pending:
            names = apply_name_change(names, change)
        return [(names, "all")]
    variants = []
    for durable, forgot in Model.durable_choices(synced):
        names = dict(model.initial_names)
        for change in durable:
            names = apply_name_change(names, change)
        prefix = forgot + "; " if forgot else ""
        variants.append((dict(names), prefix + f"0/{len(pending)} unsynced name changes"))
        for count, change in enumerate(pending, 1):
            names = apply_name_change(names, change)
            variants.append((dict(names), prefix + f"{count}/{len(pending)} unsynced name changes"))
    return variants


def apply_name_change(names: dict[str, int], change: tuple) -> dict[str, int]:
    names = dict(names)
    kind = change[0]
    if kind == "create":
        names[change[1]] = change[2]
    elif kind == "rename":
        if change[1] in names:
            names[change[2]] = names.pop(change[1])
    elif kind == "unlink":
        names.pop(change[1], None)
    elif kind == "link":
        if change[1] in names:
            names[change[2]] = names[change[1]]
    return names


def folder_variants(model: Model, point: int, live_only=False) -> list[tuple[bool, str]]:
    synced, pending = model.pending(("folder",), point)
    durable = [c for c, _ in synced]  # the folder's own creation: a failed sync of the folder above is not modelled
    exists = model.folder_existed
    for change in durable:
        exists = change[0] == "mkdir"
    if live_only:
        for change in pending:
            exists = change[0] == "mkdir"
        return [(exists, "all")]
    variants = [(exists, "the folder's own creation not persisted" if pending else "")]
    for change in pending:
        exists = change[0] == "mkdir"
        variants.append((exists, ""))
    return variants


def states_at(model: Model, point: int, live_only=False):
    """Every state a crash just before `point` (after `point` recorded calls) may leave, each
    once: {key: (state, description)}; state is None (no folder) or {name: bytes}."""
    result = {}
    count = 0
    for exists, folder_how in folder_variants(model, point, live_only):
        if not exists:
            result.setdefault(state_key(None), (None, folder_how or "no folder"))
            count += 1
            continue
        for names, names_how in names_variants(model, point, live_only):
            nodes = sorted(set(names.values()))
            per_node = [file_variants(model, node, point, live_only) for node in nodes]
            total = 1
            for variants in per_node:
                total *= len(variants)
            if total > STATES_PER_POINT_CAP:
                # Past the bound, a file named only as a temporary in this state (never read as a
                # document) has its writes kept or lost, not torn; a torn one is still built
                # wherever it has a document's name.
                per_node = [file_variants(model, node, point, live_only,
                                          tears=any(TEMPORARY not in n for n, v in names.items() if v == node))
                            for node in nodes]
                total = 1
                for variants in per_node:
                    total *= len(variants)
            if total > STATES_PER_POINT_CAP:
                raise OverflowError(f"{total} states at call {point}")
            LARGEST[0] = max(LARGEST[0], total)
            for combination in itertools.product(*per_node):
                contents = {node: variant[0] for node, variant in zip(nodes, combination)}
                state = {name: contents[node] for name, node in names.items()}
                how = "; ".join([h for h in (folder_how, names_how) if partial(h)] +
                                [f"{name_of(names, node)}: {variant[1]}" for node, variant in zip(nodes, combination)
                                 if partial(variant[1])])
                result.setdefault(state_key(state), (state, how))
                count += 1
    return result


def partial(how: str) -> bool:
    """Whether a variant's description says that something made was lost or torn."""
    counts = re.search(r"(\d+)/(\d+) unsynced", how)
    return "torn" in how or "not persisted" in how or "forgot" in how or \
        bool(counts and counts.group(1) != counts.group(2))


def name_of(names: dict[str, int], node: int) -> str:
    return "/".join(sorted(n for n, v in names.items() if v == node))


def state_key(state) -> str:
    if state is None:
        return "no-folder"
    digest = hashlib.sha1()
    for name in sorted(state):
        digest.update(name.encode() + b"\0" + hashlib.sha1(state[name]).digest())
    return digest.hexdigest()


def materialise(state, data: str):
    if state is None:
        return
    os.makedirs(data, mode=0o700)
    os.chmod(data, 0o700)
    for name, content in state.items():
        path = os.path.join(data, name)
        with open(path, "wb") as f:
            f.write(content)
        os.chmod(path, 0o600)


def describe_event(event: tuple) -> str:
    call, pid, *fields = event
    if call == "write":
        return f"pid {pid} write {len(fields[2]) // 2 if fields[2] != '-' else 0} bytes at {fields[1]} (inode {fields[0]})"
    if call == "open":
        return f"pid {pid} open {fields[0]}" + (" (created)" if fields[2] == "1" else "") + \
            (" (truncated)" if fields[3] == "1" else "")
    return f"pid {pid} {call} " + " ".join(str(f) for f in fields)


def self_test() -> int:
    """Checks the model on a made-up record: an overwrite inside a file's bytes (a two-slot
    file's in-place write) is torn per sector into new, old or zero bytes; an fdatasync makes
    the bytes and the size durable; a file's creation is durable only once its folder is synced."""
    old, new = b"A" * 2048, b"B" * 1024
    rec = Recording()
    rec.initial = {"doc.json": (11, old)}
    rec.events = [("write", 1, "11", "512", new.hex()), ("sync", 1, "11"),
                  ("write", 1, "11", "2048", new.hex()), ("setsize", 1, "11", "4096"), ("sync", 1, "11"),
                  ("open", 1, "new.json", "12", "1", "0"), ("write", 1, "12", "0", new.hex()), ("sync", 1, "12"),
                  ("syncdir", 1, ".")]
    model = Model(rec)
    failures = []

    def contents(point: int, name: str = "doc.json") -> set:
        return {None if state is None or name not in state else state[name] for state, _ in states_at(model, point).values()}

    before = contents(1)  # after the overwrite, before its sync
    want = {old, old[:512] + new + old[1536:], old[:512] + b"A" * 512 + new[512:] + old[1536:],
            old[:512] + bytes(512) + new[512:] + old[1536:], old[:512] + new[:512] + bytes(512) + old[1536:]}
    if not want <= before:
        failures.append("an overwrite is not torn into new, old and zero sectors")
    if any(len(c) != 2048 for c in before):
        failures.append("an overwrite inside the file changed its size")
    if contents(2) != {old[:512] + new + old[1536:]}:
        failures.append("an fdatasync did not make the overwrite durable")
    grown = old[:512] + new + old[1536:] + new + bytes(1024)
    if grown not in contents(4) or old[:512] + new + old[1536:] not in contents(4):
        failures.append("an append and a size change not yet synced are not each kept or lost")
    if contents(5) != {grown}:
        failures.append("an fdatasync did not make an append and a size change durable")
    if contents(8, "new.json") != {None, new}:
        failures.append("a file made and synced is not missing before its folder's sync")
    if contents(9, "new.json") != {new}:
        failures.append("the folder's sync did not make a file's creation durable")
    # A failed sync forgets: an overwrite made before a sync that failed may be lost even after a
    # later sync succeeds; written again before that sync, it is durable.
    forgot = Recording()
    forgot.initial = {"doc.json": (11, old)}
    forgot.events = [("write", 1, "11", "0", new.hex()), ("syncfail", 1, "11"), ("sync", 1, "11"),
                     ("write", 1, "11", "1024", new.hex()), ("syncfail", 1, "11"),
                     ("write", 1, "11", "1024", new.hex()), ("sync", 1, "11")]
    model = Model(forgot)
    if contents(3) != {old, new + old[1024:]}:
        failures.append("a sync after a failed one made what the failed one forgot durable")
    if contents(7) != {old[:1024] + new, new + new}:
        failures.append("a write made again after a failed sync was not made durable by the next sync")
    FORGET[0] = False
    if contents(3) != {new + old[1024:]}:
        failures.append("with --no-forget, a later sync does not make the earlier write durable")
    FORGET[0] = True
    for failure in failures:
        print("SELF-TEST FAILED: " + failure)
    print(f"the model's self-test: {10 - len(failures)} of 10 checks passed")
    return 1 if failures else 0


# ---- reading a state back, and the oracle

class Reader:
    def __init__(self, runner: Runner, work: str):
        self.runner, self.work = runner, work
        self.cache: dict[tuple, dict] = {}
        self.lock = threading.Lock()
        self.runs = 0

    def read(self, readers: tuple[str, ...], key: str, state) -> dict:
        with self.lock:
            cached = self.cache.get((readers, key))
        if cached is not None:
            return cached
        scratch = tempfile.mkdtemp(dir=self.work, prefix="read-")
        try:
            data = os.path.join(scratch, "data")
            materialise(state, data)
            result = {"value": [], "damaged": [], "problems": [], "text": ""}
            for reader in readers:
                args = READER_COMMANDS[reader]
                code, out, err = self.runner.run(data, args)
                if reader == "boost":
                    # The time left moves with the clock: a running boost reads as running.
                    out = re.sub(r"^Boost: \d+:\d\d left\.", "Boost: running.", out, flags=re.M)
                result["text"] += f"[{' '.join(args)}: exit {code}] {out.strip()} {err.strip()}\n"
                if code != 0:
                    result["problems"].append(f"the reader `{' '.join(args)}` exited {code}")
                for line in err.splitlines():
                    if re.search(r"damaged|could not be read|unreadable|not in the app's format", line):
                        result["damaged"].append(line.strip()[:400])
                result["value"].append(out.strip())
                if reader == "ledger":
                    result["receipts"], result["ledger_ids"] = ledger_facts(data)
            result["value"] = "\n".join(result["value"])
            with self.lock:
                self.cache[(readers, key)] = result
                self.runs += 1
            return result
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


READER_COMMANDS = {"profile": ["profile", "show"], "ledger": ["purchase", "show"], "boost": ["boost", "status"],
                   "target": ["target", "show"]}


def ledger_facts(data: str):
    """The receipt ids in the receipts document, and how often each receipt id is credited in
    the ledger, as the reader left them."""
    def load(name):
        return document_file.load(os.path.join(data, name))
    receipts = load("receipts.json")
    ids = set()
    if isinstance(receipts, dict) and isinstance(receipts.get("value"), list):
        ids = {r.get("id") for r in receipts["value"] if isinstance(r, dict) and isinstance(r.get("id"), str)}
    ledger = load("purchases.json")
    credited = collections.Counter()
    if isinstance(ledger, dict) and isinstance(ledger.get("value"), dict):
        for entry in ledger["value"].get("entries", []):
            if isinstance(entry, dict) and isinstance(entry.get("receiptID"), str):
                credited[entry["receiptID"]] += 1
    return sorted(ids), dict(credited)


class Judge:
    """The oracle of one recording: the value a crash state reads must be one the live run
    showed between the last acknowledgement and the crash."""

    def __init__(self, workload: Workload, model: Model, reader: Reader, initial_receipts: set[str]):
        self.workload, self.model, self.reader = workload, model, reader
        self.readers = tuple(workload.readers)
        self.live: list[dict] = []
        self.initial_receipts = initial_receipts
        # The payments the ledger credited before the run (an older version's receipts may be gone).
        self.initial_credits: set[str] = set()
        ledger = (model.rec.initial or {}).get("purchases.json")
        envelope = document_file.envelope(ledger[1]) if ledger else None
        if isinstance(envelope, dict) and isinstance(envelope.get("value"), dict):
            self.initial_credits = {e.get("receiptID") for e in envelope["value"].get("entries", []) if isinstance(e, dict)}

    def read_live(self):
        for point in range(self.model.points):
            states = states_at(self.model, point, live_only=True)
            (key, (state, _)), = states.items()
            self.live.append(self.reader.read(self.readers, key, state))

    def reported(self) -> list[str]:
        """What each command reported is what the live run read once it ended: a `profile set`
        that exited 0 (done) or 4 (done, not confirmed on disk), alone in its group, left its
        nickname to be read, until another command ran."""
        problems = []
        steps = self.model.rec.steps
        for start, end, label, code, index in steps:
            match = re.match(r"^profile set --nickname (\S{1,20})(?: \[|$)", label)
            if code not in (0, 4) or index not in self.model.rec.alone or not match or "profile" not in self.readers:
                continue
            shown = self.live[min(end, len(self.live) - 1)]["value"]
            if not re.search(rf"^nickname: {re.escape(match.group(1))}$", shown, re.M):
                problems.append(f"`{label}` exited {code} (done), but what was read once it ended is "
                                f"{short(shown)!r}")
        return problems

    def allowed(self, point: int) -> tuple[set[str], int]:
        acked = max([a for a in self.model.rec.acks if a <= point], default=0)
        values = {self.live[j]["value"] for j in range(acked, point + 1)
                  if not self.live[j]["damaged"] and not self.live[j]["problems"]}
        return values, acked

    def judge(self, point: int, result: dict) -> list[str]:
        problems = list(result["problems"])
        if result["damaged"]:
            problems.append("the document was read as damaged (a mix of writes, or torn): " + result["damaged"][0])
        values, acked = self.allowed(point)
        if result["value"] not in values and not result["damaged"]:
            newest = self.live[point]["value"]
            problems.append(f"read a value the run never showed between its last acknowledged write (call {acked}) "
                            f"and the crash: {short(result['value'])!r}; allowed: "
                            f"{sorted(short(v) for v in values)!r} (live now: {short(newest)!r})")
        if "ledger" in self.readers and "receipts" in result:
            for receipt in result["receipts"]:
                if receipt in self.initial_receipts:
                    continue
                times = result["ledger_ids"].get(receipt, 0)
                if times != 1:
                    problems.append(f"the payment {receipt} is credited {times} times in the ledger (must be once)")
            for receipt in result["ledger_ids"]:
                if receipt not in result["receipts"] and receipt not in self.initial_receipts \
                        and receipt not in self.initial_credits:
                    problems.append(f"the ledger credits the payment {receipt}, which no receipt holds: "
                                    "an item credited that nothing paid for")
        return problems


def short(value: str) -> str:
    return re.sub(r"(.)\1{20,}", lambda m: f"{m.group(1)}×{len(m.group(0))}", value.replace("\n", " | "))[:300]


# ---- running a workload

class Outcome:
    def __init__(self, name: str):
        self.name = name
        self.states = 0
        self.distinct = 0
        self.violations: list[str] = []
        self.errors: list[str] = []
        self.recovered = 0
        self.plant_acts = 0
        self.calls = 0


def check_recording(workload: Workload, rec: Recording, reader: Reader, outcome: Outcome, sample: int,
                    rng: random.Random, label: str, jobs: int) -> list[tuple[int, str, object]]:
    """Enumerates and judges the crash states of one recording; returns the distinct states only
    a crash reaches (not any live one), for the second crash."""
    outcome.errors += [f"{label}: {p}" for p in rec.problems]
    model = Model(rec)
    outcome.errors += [f"{label}: {p}" for p in model.problems]
    if model.problems:
        return []
    initial_receipts = set()
    if rec.initial and "receipts.json" in rec.initial:
        try:
            initial_receipts = {r.get("id") for r in document_file.envelope(rec.initial["receipts.json"][1])["value"]}
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
    judge = Judge(workload, model, reader, initial_receipts)
    judge.read_live()
    outcome.violations += [f"{label}: {problem}" for problem in judge.reported()]
    live_keys = set()
    for point in range(model.points):
        (key, _), = states_at(model, point, live_only=True).items()
        live_keys.add(key)
    cases = []
    for point in range(model.points):
        try:
            states = states_at(model, point)
        except OverflowError as error:
            outcome.errors.append(f"{label}: the bound was exceeded: {error} (past {STATES_PER_POINT_CAP})")
            continue
        for key, (state, how) in states.items():
            cases.append((point, key, state, how))
    if sample and len(cases) > sample:
        cases = rng.sample(cases, sample)
    outcome.states += len(cases)
    outcome.distinct += len({key for _, key, _, _ in cases})
    outcome.calls += len(rec.events)

    def check(case):
        point, key, state, how = case
        result = reader.read(judge.readers, key, state)
        return case, result, judge.judge(point, result)

    crash_only = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for (point, key, state, how), result, problems in pool.map(check, cases):
            if problems:
                after = model.describe[point - 1] if point else "before the first call"
                names = "none (no folder)" if state is None else ", ".join(
                    f"{n} ({len(b)} bytes)" for n, b in sorted(state.items()))
                for problem in problems:
                    outcome.violations.append(
                        f"{label} | crash after call {point} of {len(rec.events)} ({after}): {problem}\n"
                        f"    state: {how or 'everything made so far'}\n    files: {names}\n"
                        f"    reader: {short(result['text'])}")
            elif key not in live_keys:
                crash_only.setdefault(key, (point, key, state))
    return sorted(crash_only.values(), key=lambda c: (c[0], c[1]))


def run_workload(runner: Runner, workload: Workload, plant: str, reader: Reader, args, outcome: Outcome):
    base = tempfile.mkdtemp(dir=runner.work, prefix=workload.name + "-")
    rng = random.Random(args.seed)
    rec = record_workload(runner, workload, plant, base)
    outcome.plant_acts += rec.plant_acts
    if workload.grows_to and not plant:
        outcome.errors += check_growth(workload, os.path.join(base, "home", "data"))
    if args.verbose:
        for line in rec.outputs:
            print(f"  {workload.name}: {line}", flush=True)
    crash_only = check_recording(workload, rec, reader, outcome, args.sample, rng, workload.name, args.jobs)
    # The second crash: the next writer recovers a state only a crash leaves, recorded and
    # crashed again; its states are judged the same way (from the state the crash left).
    if args.recoveries and crash_only:
        step = max(1, len(crash_only) // args.recoveries)
        for n, (point, key, state) in enumerate(crash_only[::step][: args.recoveries]):
            again = tempfile.mkdtemp(dir=runner.work, prefix=workload.name + "-again-")
            second = record_workload(runner, workload, plant, again, initial_state=state,
                                     groups=[[Step(workload.recovery)]])
            outcome.plant_acts += second.plant_acts
            check_recording(workload, second, reader, outcome, args.sample, rng,
                            f"{workload.name} (second crash, recovering the state of call {point})", args.jobs)
            outcome.recovered += 1
            if not args.keep:
                shutil.rmtree(again, ignore_errors=True)
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the demo-cli executable")
    parser.add_argument("--shim", required=True, help="iofault.so")
    parser.add_argument("--self-test", action="store_true", help="only check the model on a made-up record")
    parser.add_argument("--workloads", default="", help="comma-separated; all when empty")
    parser.add_argument("--skip", default="", help="comma-separated workloads to leave out")
    parser.add_argument("--plant", default="", choices=[""] + PLANTS)
    parser.add_argument("--sample", type=int, default=0, help="check N crash states of each recording (fixed seed)")
    parser.add_argument("--recoveries", type=int, default=4,
                        help="states of each workload recovered by the next writer and crashed again")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-strace", action="store_true", help="skip the comparison with strace -f")
    parser.add_argument("--no-forget", action="store_true",
                        help="a failed sync leaves what it failed to write pending (a later sync makes it durable), "
                             "instead of the default model in which it may forget it")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()

    workloads = make_workloads()
    chosen = [w for w in args.workloads.split(",") if w] or list(workloads)
    for name in chosen:
        if name not in workloads and not any(w.startswith(name) for w in workloads):
            parser.error(f"unknown workload {name}; one of {', '.join(workloads)}")
    chosen = [w for w in workloads if w in chosen or any(w.startswith(c + "-") for c in chosen)]
    skipped = [w for w in args.skip.split(",") if w]
    chosen = [w for w in chosen if w not in skipped and not any(w.startswith(s + "-") for s in skipped)]
    if not args.no_strace and shutil.which("strace") is None:
        parser.error("strace is needed to check the record (or pass --no-strace)")
    work = tempfile.mkdtemp(prefix="crash-states-")
    FORGET[0] = not args.no_forget
    runner = Runner(os.path.abspath(args.bin), os.path.abspath(args.shim), work, not args.no_strace)
    reader = Reader(runner, work)
    started = time.time()
    outcomes = []
    for name in chosen:
        outcome = Outcome(name)
        try:
            run_workload(runner, workloads[name], args.plant, reader, args, outcome)
        except Exception as error:  # a harness failure is an error, never hidden
            outcome.errors.append(f"{name}: the harness failed: {error!r}")
        outcomes.append(outcome)
        for line in outcome.errors[:5] if not args.verbose else outcome.errors:
            print("ERROR " + line, flush=True)
        if len(outcome.errors) > 5 and not args.verbose:
            print(f"  ... and {len(outcome.errors) - 5} more errors of {name}", flush=True)
        for line in outcome.violations[:5] if not args.verbose else outcome.violations:
            print("VIOLATION " + line, flush=True)
        if len(outcome.violations) > 5 and not args.verbose:
            print(f"  ... and {len(outcome.violations) - 5} more violations of {name}", flush=True)
        print(f"{name:24} {outcome.calls:4} calls recorded, {outcome.states:6} crash states "
              f"({outcome.distinct} distinct), {outcome.recovered} recovered and crashed again, "
              f"{len(outcome.violations)} violations{', %d errors' % len(outcome.errors) if outcome.errors else ''}"
              f"{', plant acted %d times' % outcome.plant_acts if args.plant else ''}"
              f" ({time.time() - started:.0f} s)", flush=True)
    total = sum(o.states for o in outcomes)
    violations = sum(len(o.violations) for o in outcomes)
    errors = sum(len(o.errors) for o in outcomes)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print(f"(the reader ran on {reader.runs} distinct states; at most {LARGEST[0]} states at one crash point, "
          f"the bound being {STATES_PER_POINT_CAP}; {time.time() - started:.0f} s)")
    if args.plant and sum(o.plant_acts for o in outcomes) == 0:
        print(f"{total} crash states checked, {violations + errors} violations")
        print(f"the plant {args.plant} never acted: this engine makes no call it changes "
              "(it is written for the two-slot document file); nothing was proven")
        return 2
    if errors:
        print(f"{errors} errors (the record or the harness): counted as violations")
    print(f"{total} crash states checked, {violations + errors} violations")
    return 1 if violations + errors else 0


if __name__ == "__main__":
    sys.exit(main())
