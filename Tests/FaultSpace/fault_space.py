#!/usr/bin/env python3
"""The fault-space search: every file-system call a state-changing demo-cli command makes on its
data folder, in each starting state, times each fault, then one oracle after a relaunch.

For each command and starting state the command is run once, clean, under the iofault library
(iofault.c), which numbers every call the process makes on the data folder (open, read, write,
fsync, rename, unlink, mkdir, flock, stat, chmod, listing, watching ...), whatever thread or
library makes it. Then, for each numbered call, the command runs again from the same starting
state with that call failing with ENOSPC, EIO or EACCES, or with the process killed just before
or just after it; and, for each lock file it takes, once with that lock held by a live process
past the lock timeout. After each run the holders are gone and the folder is read back by fresh,
fault-free runs of demo-cli (purchase show, boost status, profile show) and from the documents
themselves, and one oracle is checked:

- money: items owned = owned before + pending before + items of the receipts this run paid for
  - items spent; each receipt credited once; a payment is taken only when the ledger can take
  it; a spent item always has its boost running (and a boost started from an item spends one);
- the exit status agrees with what happened: 0 done, 4 done but not flushed (judged as 0; the text
  must say a power cut may undo it), 3 paid and not yet credited (buy only),
  1 nothing done; killed runs may leave either, never half; anything else (a trap, a hang) is
  a violation; the text says the same (never "try again" or a failure after a payment);
- nothing but the library's own files changed: the files a state plants (another program's
  documents, a FIFO, another user's file) and everything outside the data folder are unchanged.

Pairs (PAIR): each call whose failure starts a recovery (a write, flush, rename, removal) fails,
and each call the run then makes fails too (EIO) or is preceded by a kill. A late flush (LATE):
each fsync/fdatasync fails after 300 ms while other processes read; what they read must be the
value before or the one that stands after.

Usage: fault_space.py --bin DEMO_CLI --shim IOFAULT_SO [--sample N] [--jobs J]
                      [--commands a,b] [--states a,b] [--faults a,b] [--coverage] [--verbose]
The last line reads "fault space: N cases, M violations".
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import random
import select
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import uuid

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import document_file  # noqa: E402  (the reader's view of a document file, shared with the crash states)

ERROR_FAULTS = ["ENOSPC", "EIO", "EACCES"]
KILL_FAULTS = ["KILL_BEFORE", "KILL_AFTER"]
LOCK_FAULT = "LOCK_HELD"
# A fault inside the handling of a fault: a first call failing (EIO; ENOSPC for a write), then each
# call the run makes after it — the recovery — failing with EIO, or the process killed before it.
PAIR_FAULT = "PAIR"
PAIR_FIRST_CALLS = {"write", "fsync", "fdatasync", "rename", "unlink", "ftruncate"}
PAIR_SECOND_KINDS = ["EIO", "KILL_BEFORE"]
PAIR_KILLED_CALLS = PAIR_FIRST_CALLS | {"open", "mkdir", "chmod", "link"}
# A flush that fails late: each fsync/fdatasync of the command fails with EIO after LATE_MS, while
# other processes read the folder over and over; what they printed is checked too.
LATE_FAULT = "LATE"
LATE_MS = 300
LATE_READS = 40
ALL_FAULTS = ERROR_FAULTS + KILL_FAULTS + [LOCK_FAULT, PAIR_FAULT, LATE_FAULT]

LOCK_TIMEOUT = "0.3"
RUN_TIMEOUT = 60

COMMANDS = {
    "buy": ["purchase", "buy", "--items", "2"],
    "restore": ["purchase", "restore"],
    "show": ["purchase", "show"],
    "use": ["boost", "use"],
    "start": ["boost", "start", "--seconds", "600"],
    "stop": ["boost", "stop"],
    "profile": ["profile", "set", "--nickname", "Zed"],
    "reset": ["reset", "--yes"],
}

# Which starting states each command is searched in.
COMMON_STATES = ["fresh", "owned", "pending", "stopped-holder", "old-format"]
LEDGER_STATES = ["foreign-ledger", "lock-folder", "other-user-ledger", "newer-ledger"]
BOOST_STATES = ["foreign-boost", "fifo-boost"]
STATES_OF = {
    "buy": COMMON_STATES + LEDGER_STATES + ["pile-up"],
    "restore": COMMON_STATES + LEDGER_STATES,
    "show": COMMON_STATES + LEDGER_STATES + ["pile-up", "pending-unusable-ledger"],
    "use": COMMON_STATES + LEDGER_STATES + BOOST_STATES,
    "start": COMMON_STATES + BOOST_STATES,
    "stop": COMMON_STATES + BOOST_STATES,
    "profile": COMMON_STATES + ["foreign-profile"],
    "reset": COMMON_STATES + LEDGER_STATES + BOOST_STATES + ["foreign-profile", "pending-unusable-ledger"],
}

# States whose ledger can never take a payment until the user moves a file away.
UNUSABLE_LEDGER = set(LEDGER_STATES) | {"pending-unusable-ledger"}
UNUSABLE_BOOST = set(BOOST_STATES)

PILE_UP = 330  # more pending receipts than a ledger remembers ids of


class Harness:
    def __init__(self, demo_cli: str, shim: str, work: str, verbose: bool):
        self.demo_cli = demo_cli
        self.shim = shim
        self.work = work
        self.verbose = verbose
        self.templates: dict[str, dict] = {}
        self.lock = threading.Lock()
        self.fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "v1")

    # ---- running demo-cli

    def run(self, data: str, args: list[str], env_extra: dict | None = None, timeout: int = RUN_TIMEOUT):
        env = {k: v for k, v in os.environ.items() if not k.startswith("SINGLETON_STORES_") and k != "LD_PRELOAD"}
        env["SINGLETON_STORES_LOCK_TIMEOUT"] = LOCK_TIMEOUT
        env["HOME"] = os.path.dirname(data)
        env["TERM"] = "dumb"
        if env_extra:
            env.update(env_extra)
        try:
            done = subprocess.run(
                [self.demo_cli, "--data-dir", data] + args,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=timeout,
            )
            return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired as expired:
            out = (expired.stdout or b"").decode(errors="replace")
            err = (expired.stderr or b"").decode(errors="replace")
            return None, out, err

    def run_traced(self, data: str, args: list[str], log: str, at: int | str = 0, kind: str = ""):
        """`at` is a call number, or several ("12,15") with a kind for each ("EIO,KILL_BEFORE")."""
        extra = {"LD_PRELOAD": self.shim, "IOFAULT_DIR": data, "IOFAULT_LOG": log}
        if at:
            extra["IOFAULT_AT"] = str(at)
            extra["IOFAULT_KIND"] = kind
        return self.run(data, args, extra)

    def env_of(self, data: str, extra: dict) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SINGLETON_STORES_") and k != "LD_PRELOAD"}
        env["SINGLETON_STORES_LOCK_TIMEOUT"] = LOCK_TIMEOUT
        env["HOME"] = os.path.dirname(data)
        env["TERM"] = "dumb"
        env.update(extra)
        return env

    def run_late(self, data: str, args: list[str], log: str, call: str, reader: list[str]):
        """Runs the command with `call` ("fdatasync:2") failing with EIO after LATE_MS, and the
        reader again and again (at most LATE_READS times) while it runs: the command's outcome and
        what each read printed."""
        extra = {"LD_PRELOAD": self.shim, "IOFAULT_DIR": data, "IOFAULT_LOG": log, "IOFAULT_AT_CALL": call,
                 "IOFAULT_KIND": "EIO", "IOFAULT_DELAY_MS": str(LATE_MS)}
        process = subprocess.Popen([self.demo_cli, "--data-dir", data] + args, env=self.env_of(data, extra),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        reads = []
        deadline = time.time() + RUN_TIMEOUT
        while process.poll() is None and len(reads) < LATE_READS and time.time() < deadline:
            code, out, err = self.run(data, reader)
            reads.append(out)
        try:
            out, err = process.communicate(timeout=max(1, deadline - time.time()))
            return process.returncode, out.decode(errors="replace"), err.decode(errors="replace"), reads
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
            return None, out.decode(errors="replace"), err.decode(errors="replace"), reads

    # ---- starting states

    def build_templates(self, states: set[str]):
        root = os.path.join(self.work, "templates")
        os.makedirs(root, exist_ok=True)
        for name in sorted(states):
            base = os.path.join(root, name)
            os.makedirs(base)
            data = os.path.join(base, "data")
            planted = self.make_state(name, data)
            self.templates[name] = {"base": base, "planted": planted}
            self.templates[name]["facts"] = self.facts_of_copy(name)

    def buy_while_held(self, data: str, count: int):
        lock = os.path.join(data, "purchases.lock")
        holder = Holder(lock)
        try:
            for _ in range(count):
                code, out, err = self.run(data, ["purchase", "buy"], {"SINGLETON_STORES_LOCK_TIMEOUT": "0"})
                if code != 3:
                    raise SystemExit(f"setting up pending receipts: buy exited {code}: {out}{err}")
        finally:
            holder.stop()

    def pile_up(self, data: str, count: int):
        """Adds `count` receipts not yet credited to the receipts document, each a copy of the
        newest one (written by the library itself) with a new id: what `count` more purchases
        made while the ledger was held leave, without running them one by one."""
        path = os.path.join(data, "receipts.json")
        document = document_file.load(path)  # written back as plain JSON, which the library reads
        model = next(r for r in reversed(document["value"]) if r.get("credited") is False)
        for _ in range(count):
            receipt = dict(model)
            receipt["id"] = str(uuid.uuid4()).upper()
            document["value"].append(receipt)
        with open(path, "w") as f:
            json.dump(document, f, indent=2)

    def must(self, data: str, args: list[str]):
        code, out, err = self.run(data, args)
        if code != 0:
            raise SystemExit(f"setting up a state: demo-cli {' '.join(args)} exited {code}: {out}{err}")

    def make_state(self, name: str, data: str) -> list[str]:
        """Makes the starting state `name` in `data`; returns the files planted there that are not
        the library's (they must never change)."""
        planted: list[str] = []
        if name == "fresh":
            return planted  # the data folder does not exist yet
        if name in ("owned", "pending", "stopped-holder", "pile-up"):
            self.must(data, ["purchase", "buy", "--items", "3"])
            self.must(data, ["profile", "set", "--nickname", "Ann"])
            if name == "pending":
                self.buy_while_held(data, 2)
            if name == "pile-up":
                self.buy_while_held(data, 1)
                self.pile_up(data, PILE_UP - 1)
            return planted
        if name == "pending-unusable-ledger":
            os.makedirs(data, mode=0o700)  # a folder the library did not make
            self.must(data, ["purchase", "buy", "--items", "3"])
            self.buy_while_held(data, 2)
            planted.append(write(data, "purchases.json", '{"purchases": [{"sku": "a book", "price": 9.99}]}\n'))
            return planted
        if name == "old-format":
            os.makedirs(data, mode=0o700)
            for fixture, key in [("purchases.json", "purchases"), ("receipts.json", "receipts"),
                                 ("profile-full.json", "profile"), ("boost-stopped.json", "boost")]:
                shutil.copyfile(os.path.join(self.fixtures, fixture), os.path.join(data, key + ".json"))
                os.chmod(os.path.join(data, key + ".json"), 0o600)
            return planted
        if name in UNUSABLE_LEDGER:
            os.makedirs(data, mode=0o700)  # a folder the library did not make
            if name == "foreign-ledger":
                planted.append(write(data, "purchases.json", '{"purchases": [{"sku": "a book", "price": 9.99}]}\n'))
            elif name == "lock-folder":
                os.mkdir(os.path.join(data, "purchases.lock"))
                planted.append(os.path.join(data, "purchases.lock"))
            elif name == "other-user-ledger":
                os.chmod(data, 0o1777)  # a shared, sticky folder
                path = write(data, "purchases.json", '{"formatVersion": 2, "value": {"entries": []}, "valueVersion": 2}\n')
                os.chown(path, 65534, 65534)
                planted.append(path)
            elif name == "newer-ledger":
                shutil.rmtree(data)
                self.must(data, ["purchase", "buy", "--items", "6"])
                path = os.path.join(data, "purchases.json")
                with open(path, "rb") as f:
                    content = f.read()
                with open(path, "wb") as f:
                    f.write(document_file.newer_format(content))
                planted.append(path)  # a newer version's document: this version must leave it as it is
            return planted
        if name in UNUSABLE_BOOST:
            os.makedirs(data, mode=0o700)
            self.must(data, ["purchase", "buy", "--items", "2"])
            if name == "foreign-boost":
                planted.append(write(data, "boost.json", '{"rocket": "boost", "fuel": 7}\n'))
            else:
                os.mkfifo(os.path.join(data, "boost.json"), 0o600)
                planted.append(os.path.join(data, "boost.json"))
            return planted
        if name == "foreign-profile":
            os.makedirs(data, mode=0o700)
            planted.append(write(data, "profile.json", '{"formatVersion": 3, "thesis": {"font": "Garamond"}}\n'))
            planted.append(write(data, "profile.lock", ""))
            return planted
        raise SystemExit(f"unknown state {name}")

    def copy_state(self, name: str, into: str) -> str:
        template = self.templates[name]["base"]
        subprocess.run(["cp", "-a", template + "/.", into], check=True)
        return os.path.join(into, "data")

    def facts_of_copy(self, name: str) -> dict:
        scratch = tempfile.mkdtemp(dir=self.work, prefix="facts-")
        data = self.copy_state(name, scratch)
        facts = self.facts(data)
        shutil.rmtree(scratch, ignore_errors=True)
        # The items a launch shows while another process holds the ledger (it can't credit what
        # is paid and pending, nor write a migrated ledger): what a reader may see while a
        # command runs.
        scratch = tempfile.mkdtemp(dir=self.work, prefix="facts-")
        data = self.copy_state(name, scratch)
        facts["items_held"] = None
        lock = os.path.join(data, "purchases.lock")
        if os.path.isdir(data) and (os.path.isfile(lock) or not os.path.lexists(lock)):
            holder = Holder(lock)
            try:
                code, out, err = self.run(data, ["boost", "status"])
                match = re.search(r"(\d+) boost items? (?:owned|left)", out)
                facts["items_held"] = int(match.group(1)) if match else None
            finally:
                holder.stop()
        shutil.rmtree(scratch, ignore_errors=True)
        return facts

    # ---- reading the outcome back

    def receipts(self, data: str) -> dict[str, dict]:
        path = os.path.join(data, "receipts.json")
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):
                return {}
        except OSError:
            return {}
        document = document_file.load(path)
        value = document.get("value") if isinstance(document, dict) else None
        if not isinstance(value, list):
            return {}
        result = {}
        for entry in value:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                result[entry["id"]] = entry
        return result

    def facts(self, data: str, profile: bool = True) -> dict:
        """What fault-free runs read back: items owned (after a launch has credited what is
        pending), whether a boost runs, the nickname; and the receipts on disk."""
        facts: dict = {"receipts": self.receipts(data)}
        # One launch credits what is pending, then reads the items owned and the boost.
        code, out, err = self.run(data, ["boost", "status"])
        match = re.search(r"(\d+) boost items? (?:owned|left)", out)
        facts["items"] = int(match.group(1)) if match else None
        facts["boost_status"] = out.strip()
        facts["boost_running"] = bool(re.search(r"^Boost: \S+ left", out, re.M)) and not re.search(
            r"^Boost: 0?0:00 left", out, re.M)
        facts["nickname"] = None
        if profile:
            code, out, err = self.run(data, ["profile", "show"])
            match = re.search(r"^nickname: (.*)$", out, re.M)
            facts["nickname"] = match.group(1) if match else None
        facts["receipts_after_launch"] = self.receipts(data)
        return facts


class Holder:
    """A live process holding an exclusive flock on `path` (made if missing), optionally stopped."""

    def __init__(self, path: str, stopped: bool = False):
        code = (
            "import fcntl, os, sys, time\n"
            "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "sys.stdout.write('held\\n'); sys.stdout.flush()\n"
            "time.sleep(3600)\n"
        )
        self.process = subprocess.Popen([sys.executable, "-c", code, path], stdout=subprocess.PIPE)
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 30)
        if not ready or self.process.stdout.readline() != b"held\n":
            self.stop()
            raise RuntimeError(f"no lock could be held on {path} within 30 s")
        if stopped:
            os.kill(self.process.pid, signal.SIGSTOP)

    def stop(self):
        try:
            os.kill(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()


def write(folder: str, name: str, text: str) -> str:
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o600)
    return path


def snapshot(root: str) -> dict[str, tuple]:
    """Every file below `root`: type, mode, owner, inode and a hash of its bytes."""
    result = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            digest = ""
            if stat.S_ISREG(info.st_mode):
                try:
                    with open(path, "rb") as f:
                        digest = hashlib.sha1(f.read()).hexdigest()
                except OSError:
                    digest = "?"
            result[path] = (stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode), info.st_uid, info.st_ino, digest)
    return result


def items_of(receipt: dict) -> int:
    product = receipt.get("product")
    if isinstance(product, dict) and product.get("kind") == "boostItems":
        count = product.get("count")
        return count if isinstance(count, int) else 0
    return 0


def says_nothing_happened(text: str) -> bool:
    """Whether the command's own words (not a warning about what a launch read) say nothing was
    done, or advise trying again without saying not to buy again."""
    own = "\n".join(line for line in text.splitlines() if not line.startswith("demo-cli: warning:"))
    if re.search(r"nothing was (changed|charged|bought|done)|nothing was read or changed", own, re.I):
        return True
    return bool(re.search(r"try again", own, re.I)) and not re.search(r"do not buy", own, re.I)


def printed_items(out: str):
    match = re.search(r"You own (\d+) boost item", out)
    return int(match.group(1)) if match else None


# What reads the folder while a late flush fails, and what of its output is compared.
LATE_READER = {
    "profile": ["profile", "show"],
    "buy": ["boost", "status"], "use": ["boost", "status"], "start": ["boost", "status"], "stop": ["boost", "status"],
}


def read_value(command: str, out: str):
    """What a reader printed, as the value the oracle compares: the nickname for the profile, the
    items owned and whether a boost runs for the others; None when it printed neither."""
    if command == "profile":
        match = re.search(r"^nickname: (.*)$", out, re.M)
        return match.group(1) if match else None
    match = re.search(r"(\d+) boost items? (?:owned|left)", out)
    running = bool(re.search(r"^Boost: \S+ left", out, re.M)) and not re.search(r"^Boost: 0?0:00 left", out, re.M)
    return (int(match.group(1)), running) if match else None


def judge_reads(case, reads: list[str], before: dict, after: dict) -> list[str]:
    """Every value another process read while the command ran is, part by part, the one before or
    the one that stands after it: never a version that was then taken back. (A command that
    changes two documents, an item spent and then its boost started, may be read between them.)"""
    if case.command == "profile":
        parts = [("nickname", {before["nickname"], after["nickname"]})]
    else:
        # Paid purchases not yet credited are credited by the first launch that can write the
        # ledger: one that can't (the command holds it) shows the items owned without them.
        items = {before["items"], after["items"], before.get("items_held")}
        parts = [("items owned", items), ("boost running", {before["boost_running"], after["boost_running"]})]
    for out in reads:
        value = read_value(case.command, out)
        if value is None:
            continue
        values = [value] if case.command == "profile" else list(value)
        for (name, allowed), read in zip(parts, values):
            if read not in allowed:
                return [f"a reader read {name} {read!r} while the command ran, neither the value before nor the one "
                        f"that stands after it ({sorted(allowed, key=str)}): a version that was taken back"]
    return []


class Case:
    def __init__(self, command: str, state: str, fault: str, at: int, lock: str | None = None, call: str = "",
                 first: str = "", at2: int = 0, kind2: str = "", call2: str = "", late: str = ""):
        self.command, self.state, self.fault, self.at, self.lock, self.call = command, state, fault, at, lock, call
        # A pair: `first` (EIO, ENOSPC) at call `at`, then `kind2` at call `at2` of that faulted run.
        self.first, self.at2, self.kind2, self.call2 = first, at2, kind2, call2
        # A late flush: the n-th call of a kind ("fdatasync:2").
        self.late = late

    def label(self) -> str:
        if self.fault == PAIR_FAULT:
            return (f"{self.command} | {self.state} | {self.first} at call {self.at} ({self.call}), then "
                    f"{self.kind2} at call {self.at2} ({self.call2})")
        if self.fault == LATE_FAULT:
            return f"{self.command} | {self.state} | EIO after {LATE_MS} ms at {self.late}, readers running"
        where = f"lock {os.path.basename(self.lock)}" if self.lock else f"call {self.at} ({self.call})"
        return f"{self.command} | {self.state} | {self.fault} at {where}"


def judge(h: Harness, case: Case, code, out: str, err: str, before: dict, after: dict,
          planted_before: dict, planted_after: dict, outside_before: dict, outside_after: dict) -> list[str]:
    problems: list[str] = []
    text = out + err
    killed = code == -signal.SIGKILL
    if code is None:
        problems.append("hung: no exit within %d s" % RUN_TIMEOUT)
        return problems
    if code not in (0, 1, 3, 4) and not killed:
        problems.append(f"exit status {code} (a trap or an unknown status)")
    if code == 4:
        # Done, but a flush failed (StorageError.notDurable): judged as done, and said so.
        if "power cut" not in text:
            problems.append("exit 4 (done, not flushed) without saying a power cut may undo it")
        code = 0
    if code == 3 and case.command != "buy":
        problems.append("exit 3 from a command that takes no payment")

    # Nothing but the library's own files changed.
    for path, was in planted_before.items():
        now = planted_after.get(path)
        if now != was:
            problems.append(f"a file that is not the library's changed: {path} {was} -> {now}")
    for path, was in outside_before.items():
        if outside_after.get(path) != was:
            problems.append(f"a file outside the data folder changed: {path}")
    for path in outside_after:
        if path not in outside_before:
            problems.append(f"a file appeared outside the data folder: {path}")

    # Money.
    receipts_before = before["receipts"]
    receipts_now = after["receipts"]
    new = {rid: r for rid, r in receipts_now.items() if rid not in receipts_before}
    paid = sum(items_of(r) for r in new.values())
    # A receipt not yet credited may leave the receipts document only once credited (the money
    # check below sees one that was not); where no launch can credit it, it must stay.
    lost = [rid for rid, r in receipts_before.items() if r.get("credited") is False and rid not in receipts_now]
    if lost and case.state in UNUSABLE_LEDGER | {"pending-unusable-ledger"}:
        problems.append(f"{len(lost)} paid, uncredited receipt(s) deleted while the ledger can't credit them")
    if before["items"] is not None and after["items"] is not None and case.command != "reset":
        spent = before["items"] + paid - after["items"]
        if spent < 0:
            problems.append(f"credited more than was paid: {before['items']} owned + {paid} paid -> {after['items']}")
        elif case.command == "use":
            if spent > 1:
                problems.append(f"one use spent {spent} items")
            if spent == 1 and not after["boost_running"] and not before["boost_running"]:
                problems.append(f"an item was spent and no boost runs ({after['boost_status']!r})")
            if spent == 0 and after["boost_running"] and not before["boost_running"]:
                problems.append("a boost runs that no item paid for")
        elif spent != 0:
            problems.append(f"{spent} item(s) lost: {before['items']} owned + {paid} paid -> {after['items']}")
    if new and case.state in UNUSABLE_LEDGER:
        problems.append(f"a payment was taken ({paid} items) with a ledger that can't be credited")
    if len(new) > 1:
        problems.append(f"{len(new)} payments taken by one command")

    if killed:
        return problems
    # The exit status and the text agree with what happened.
    if case.command == "buy":
        if code == 0 and not new:
            problems.append("exit 0 but no payment was taken")
        if code == 0 and new and printed_items(out) is not None and after["items"] is not None \
                and printed_items(out) > after["items"]:
            problems.append(f"said 'You own {printed_items(out)}' but {after['items']} are owned")
        if code == 3 and not new:
            problems.append("exit 3 (recorded, not yet credited) but no payment was taken")
        if code == 1 and new:
            problems.append("exit 1 (nothing done) after a payment was taken")
        if new and says_nothing_happened(text):
            problems.append("says nothing was done, or to try again, after a payment was taken")
    elif case.command == "use":
        spent = None
        if before["items"] is not None and after["items"] is not None:
            spent = before["items"] - after["items"]
        if code == 0 and spent == 0:
            problems.append("exit 0 (used an item) but no item was spent")
        if code == 0 and not after["boost_running"]:
            problems.append(f"exit 0 (boost started) but no boost runs ({after['boost_status']!r})")
        if code == 1 and spent:
            problems.append("exit 1 (nothing done) but an item was spent")
    elif case.command == "start":
        if code == 0 and not after["boost_running"]:
            problems.append(f"exit 0 but no boost runs ({after['boost_status']!r})")
        if code == 1 and after["boost_running"] != before["boost_running"]:
            problems.append("exit 1 (nothing done) but the boost changed")
    elif case.command == "stop":
        if code == 0 and after["boost_running"]:
            problems.append("exit 0 but the boost still runs")
        if code == 1 and after["boost_running"] != before["boost_running"]:
            problems.append("exit 1 (nothing done) but the boost stopped")
    elif case.command == "profile":
        if code == 0 and after["nickname"] != "Zed":
            problems.append(f"exit 0 but the nickname is {after['nickname']!r}")
        if code == 1 and after["nickname"] != before["nickname"]:
            problems.append("exit 1 (nothing done) but the profile changed")
    elif case.command == "restore":
        if code == 1 and after["items"] is not None and before["items"] is not None and after["items"] != before["items"]:
            pass  # a launch may credit pending receipts before the restore fails: not the restore's doing
    return problems


def run_case(h: Harness, case: Case) -> list[str]:
    scratch = tempfile.mkdtemp(dir=h.work, prefix="case-")
    try:
        data = h.copy_state(case.state, scratch)
        write(scratch, "outside.txt", "not the library's\n")
        template = h.templates[case.state]
        planted = [p.replace(template["base"], scratch, 1) for p in template["planted"]]
        planted_before = {p: v for p, v in snapshot(scratch).items() if p in planted}
        outside_before = {p: v for p, v in snapshot(scratch).items() if not p.startswith(data)}
        holders = []
        if case.state == "stopped-holder":
            holders.append(Holder(os.path.join(data, "purchases.lock"), stopped=True))
        if case.fault == LOCK_FAULT and case.lock:
            lock_path = os.path.join(data, os.path.basename(case.lock))
            if case.state == "stopped-holder" and os.path.basename(lock_path) == "purchases.lock":
                return ["(not reached)"]  # the state itself holds it past the timeout
            if os.path.lexists(lock_path) and not stat.S_ISREG(os.lstat(lock_path).st_mode):
                return []  # not a file a process can hold
            if not os.path.isdir(data):
                os.makedirs(data, mode=0o700)
            holders.append(Holder(lock_path))
        log = os.path.join(scratch, "calls.log")
        reads: list[str] = []
        if case.fault == LOCK_FAULT:
            code, out, err = h.run(data, COMMANDS[case.command])
        elif case.fault == PAIR_FAULT:
            code, out, err = h.run_traced(data, COMMANDS[case.command], log, f"{case.at},{case.at2}",
                                          f"{case.first},{case.kind2}")
        elif case.fault == LATE_FAULT:
            code, out, err, reads = h.run_late(data, COMMANDS[case.command], log, case.late, LATE_READER[case.command])
        else:
            code, out, err = h.run_traced(data, COMMANDS[case.command], log, case.at, case.fault)
        for holder in holders:
            holder.stop()
        faults_hit = []
        if os.path.exists(log):
            with open(log) as f:
                faults_hit = [line.strip() for line in f if line.rstrip().endswith("<fault>")]
        faulted = " / ".join(faults_hit)
        wanted = 2 if case.fault == PAIR_FAULT else 1
        if case.fault != LOCK_FAULT and len(faults_hit) < wanted:
            return ["(not reached)"]
        snap = snapshot(scratch)
        planted_after = {p: v for p, v in snap.items() if p in planted}
        for p in planted:
            planted_after.setdefault(p, None)
        outside_after = {p: v for p, v in snap.items() if not p.startswith(data) and p != log}
        outside_before.pop(log, None)
        after = h.facts(data, profile=case.command in ("profile", "reset"))
        before = template["facts"]
        problems = judge(h, case, code, out, err, before, after, planted_before, planted_after, outside_before,
                         outside_after)
        if case.fault == LATE_FAULT:
            problems += judge_reads(case, reads, before, after)
        if problems:
            detail = f"    exit {code}; faulted: {faulted or '-'}\n    out: {out.strip()[:300]!r}\n    err: {err.strip()[:300]!r}"
            problems = [p + "\n" + detail for p in problems]
        return problems
    finally:
        if h.verbose:
            print("  ran", case.label(), flush=True)
        shutil.rmtree(scratch, ignore_errors=True)


def read_call_log(log: str) -> list[tuple[int, str, str]]:
    """The calls the shim numbered, as (number, call, path), from its log (none if it wrote none)."""
    calls = []
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                parts = line.rstrip("\n").split(" ", 2)
                if len(parts) == 3:
                    calls.append((int(parts[0]), parts[1], parts[2]))
    return calls


def trace_calls(h: Harness, command: str, state: str) -> list[tuple[int, str, str]]:
    scratch = tempfile.mkdtemp(dir=h.work, prefix="trace-")
    try:
        data = h.copy_state(state, scratch)
        log = os.path.join(scratch, "calls.log")
        holders = [Holder(os.path.join(data, "purchases.lock"), stopped=True)] if state == "stopped-holder" else []
        h.run_traced(data, COMMANDS[command], log)
        for holder in holders:
            holder.stop()
        return [(n, call, path.replace(data, "<data>")) for n, call, path in read_call_log(log)]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def pair_cases(h: Harness, command: str, state: str, calls: list[tuple[int, str, str]],
               first_limit: int = 0, seed: int = 0) -> list[Case]:
    """For each call whose failure starts a recovery (a write, a flush, a rename, a removal), the
    command is run with that call failing and its calls numbered again: each call made after it —
    the handling of the fault — is then a case of its own, failing with EIO or killed before it."""
    cases = []
    firsts = [(n, call, path, first) for n, call, path in calls if call in PAIR_FIRST_CALLS
              for first in (["EIO", "ENOSPC"] if call == "write" else ["EIO"])]
    if first_limit and len(firsts) > first_limit:
        firsts = random.Random(f"{seed}-{command}-{state}").sample(firsts, first_limit)
    for n, call, path, first in firsts:
        if True:
            scratch = tempfile.mkdtemp(dir=h.work, prefix="pair-")
            try:
                data = h.copy_state(state, scratch)
                log = os.path.join(scratch, "calls.log")
                holders = [Holder(os.path.join(data, "purchases.lock"), stopped=True)] if state == "stopped-holder" else []
                h.run_traced(data, COMMANDS[command], log, n, first)
                for holder in holders:
                    holder.stop()
                after = [(m, c, p.replace(data, "<data>")) for m, c, p in read_call_log(log) if m > n]
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            for m, second_call, second_path in after:
                for kind in PAIR_SECOND_KINDS:
                    if kind.startswith("KILL") and second_call not in PAIR_KILLED_CALLS:
                        continue
                    cases.append(Case(command, state, PAIR_FAULT, n, call=f"{call} {os.path.basename(path)}",
                                      first=first, at2=m, kind2=kind,
                                      call2=f"{second_call} {os.path.basename(second_path)}"))
    return cases


STRACE_CATEGORY = {
    "openat": "open", "open": "open", "creat": "open", "read": "read", "pread64": "read", "readv": "read",
    "write": "write", "pwrite64": "write", "writev": "write", "fsync": "fsync", "fdatasync": "fdatasync",
    "ftruncate": "ftruncate", "fallocate": "fallocate", "flock": "flock", "fchmod": "chmod", "chmod": "chmod",
    "fchmodat": "chmod", "fchown": "chown", "fchownat": "chown", "newfstatat": "stat", "fstat": "stat",
    "statx": "stat", "lstat": "stat", "stat": "stat", "access": "access", "faccessat": "access",
    "faccessat2": "access", "rename": "rename", "renameat": "rename", "renameat2": "rename", "unlink": "unlink",
    "unlinkat": "unlink", "rmdir": "unlink", "mkdir": "mkdir", "mkdirat": "mkdir", "getdents64": "readdir",
    "inotify_add_watch": "watch", "readlink": "readlink", "readlinkat": "readlink", "utimensat": "utime",
    "linkat": "link", "link": "link", "symlinkat": "link",
}
STRACE_IGNORED = {"close", "lseek", "fcntl", "ioctl", "execve", "fadvise64", "mmap", "munmap", "getcwd", "dup", "dup2",
                  "dup3", "chdir", "fchdir"}


def coverage(h: Harness, command: str, state: str) -> list[str]:
    """Runs the command clean under `strace -f -y` with the shim loaded, and names the system
    calls on the data folder that strace saw and the shim did not number in the same run."""
    scratch = tempfile.mkdtemp(dir=h.work, prefix="cover-")
    try:
        data = h.copy_state(state, scratch)
        trace = os.path.join(scratch, "strace.txt")
        log = os.path.join(scratch, "cover.log")
        env = {k: v for k, v in os.environ.items() if not k.startswith("SINGLETON_STORES_")}
        env["SINGLETON_STORES_LOCK_TIMEOUT"] = LOCK_TIMEOUT
        subprocess.run(["strace", "-f", "-y", "-qq", "-s", "300", "-o", trace,
                        "-E", "LD_PRELOAD=" + h.shim, "-E", "IOFAULT_DIR=" + data, "-E", "IOFAULT_LOG=" + log,
                        h.demo_cli, "--data-dir", data] + COMMANDS[command],
                       env=env, capture_output=True, timeout=RUN_TIMEOUT)
        seen = collections.Counter()
        with open(trace) as f:
            for line in f:
                if data not in line:
                    continue
                match = re.match(r"^\d+\s+(?:<\.\.\. )?(\w+)", line)
                if not match or "resumed>" in line and "<..." in line:
                    continue
                name = match.group(1)
                if name in STRACE_IGNORED or '("/proc/self/fd/' in line:
                    continue  # the shim naming a descriptor's file, not a call of the command's
                if name in ("read", "pread64", "readv", "write", "pwrite64", "writev") and "<" + data not in line:
                    continue  # the folder's path in the bytes written (a message), not a call on it
                seen[STRACE_CATEGORY.get(name, "unknown:" + name)] += 1
        calls = read_call_log(log)
        counted = collections.Counter("open" if call == "opendir" else call for _, call, _ in calls)
        # glibc's opendir checks the folder it opened with an fstat of its own, inside the call
        # the shim numbers (and fails) as one.
        counted["stat"] += sum(1 for _, call, _ in calls if call == "opendir")
        problems = []
        for category, n in sorted(seen.items()):
            if category.startswith("unknown:"):
                problems.append(f"{command} | {state}: strace saw {n} {category[8:]} call(s) on the folder the shim does not number")
            elif category == "readdir":
                if counted["readdir"] == 0:
                    problems.append(f"{command} | {state}: strace saw folder listings the shim did not number")
            elif counted[category] < n:
                problems.append(f"{command} | {state}: strace saw {n} {category} call(s) on the folder, the shim numbered {counted[category]}")
        return problems
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the demo-cli executable")
    parser.add_argument("--shim", required=True, help="iofault.so")
    parser.add_argument("--sample", type=int, default=0,
                        help="run N cases for each command and fault kind (chosen with a fixed seed) instead of all")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--commands", default=",".join(COMMANDS))
    parser.add_argument("--states", default="")
    parser.add_argument("--faults", default=",".join(ALL_FAULTS))
    parser.add_argument("--coverage", action="store_true", help="also compare the shim's calls with strace -f")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()

    commands = [c for c in args.commands.split(",") if c]
    faults = [f for f in args.faults.split(",") if f]
    only_states = set(s for s in args.states.split(",") if s)
    for c in commands:
        if c not in COMMANDS:
            parser.error(f"unknown command {c}; one of {', '.join(COMMANDS)}")
    for f in faults:
        if f not in ALL_FAULTS:
            parser.error(f"unknown fault {f}; one of {', '.join(ALL_FAULTS)}")
    if os.geteuid() != 0:
        print("not root: the other-user state is left out", file=sys.stderr)

    work = tempfile.mkdtemp(prefix="fault-space-")
    os.chmod(work, 0o755)
    h = Harness(os.path.abspath(args.bin), os.path.abspath(args.shim), work, args.verbose)
    started = time.time()
    pairs = [(c, s) for c in commands for s in STATES_OF[c]
             if (not only_states or s in only_states) and (s != "other-user-ledger" or os.geteuid() == 0)]
    states = set(s for _, s in pairs)
    print(f"making {len(states)} starting states ...", flush=True)
    h.build_templates(states)

    print(f"numbering the calls of {len(pairs)} command × state pairs ...", flush=True)
    cases: list[Case] = []
    call_counts = {}
    traced = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for (command, state), calls in zip(pairs, pool.map(lambda pair: trace_calls(h, *pair), pairs)):
            traced[(command, state)] = calls
        if PAIR_FAULT in faults:
            print("numbering the calls each fault's handling makes, for the pairs ...", flush=True)
            limit = args.sample if args.sample else 0
            pair_lists = dict(zip(pairs, pool.map(
                lambda pair: pair_cases(h, pair[0], pair[1], traced[pair], limit, args.seed), pairs)))
    for command, state in pairs:
        calls = traced[(command, state)]
        call_counts[(command, state)] = len(calls)
        locks = sorted(set(path for _, call, path in calls if call == "flock"))
        for fault in faults:
            if fault == LOCK_FAULT:
                cases += [Case(command, state, fault, 0, lock=path) for path in locks]
            elif fault == PAIR_FAULT:
                cases += pair_lists[(command, state)]
            elif fault == LATE_FAULT:
                if command in LATE_READER:
                    seen = collections.Counter()
                    for _, call, path in calls:
                        if call in ("fsync", "fdatasync"):
                            seen[call] += 1
                            cases.append(Case(command, state, fault, 0, late=f"{call}:{seen[call]}",
                                              call=f"{call} {os.path.basename(path)}"))
            else:
                cases += [Case(command, state, fault, n, call=f"{call} {os.path.basename(path)}") for n, call, path in calls]
    full = len(cases)
    if args.sample:
        rng = random.Random(args.seed)
        by_kind = collections.defaultdict(list)
        for case in cases:
            by_kind[(case.command, case.fault)].append(case)
        cases = []
        for key in sorted(by_kind):
            group = by_kind[key]
            cases += rng.sample(group, min(args.sample, len(group)))
        print(f"the whole space has {full} cases; running a sample of {len(cases)} "
              f"({args.sample} per command and fault kind, seed {args.seed})", flush=True)
    else:
        print(f"running all {full} cases with {args.jobs} jobs ...", flush=True)

    violations: list[tuple[Case, str]] = []
    not_reached = 0
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_case, h, case): case for case in cases}
        for future in concurrent.futures.as_completed(futures):
            case = futures[future]
            done += 1
            try:
                problems = future.result()
            except Exception as error:  # a harness failure is reported as a violation, never hidden
                problems = [f"the harness failed: {error!r}"]
            if problems == ["(not reached)"]:
                not_reached += 1
                continue
            for problem in problems:
                violations.append((case, problem))
                print(f"VIOLATION {case.label()}: {problem}", flush=True)
            if done % 200 == 0:
                print(f"  {done}/{len(cases)} cases, {len(violations)} violations, {time.time() - started:.0f} s",
                      flush=True)

    cover_problems: list[str] = []
    if args.coverage:
        print("comparing the shim's calls with strace -f ...", flush=True)
        for command, state in pairs:
            cover_problems += coverage(h, command, state)
        for problem in cover_problems:
            print("COVERAGE " + problem)

    print()
    print("calls numbered per command and state:")
    for (command, state), n in sorted(call_counts.items()):
        print(f"  {command:8} {state:18} {n:4} calls")
    by_rule = collections.Counter(problem.split("\n")[0].split(":")[0] for _, problem in violations)
    for rule, n in by_rule.most_common():
        print(f"  {n:5} × {rule}")
    checked = len(cases) - not_reached
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"work folder kept: {work}")
    print(f"({not_reached} cases not counted: their numbered call was not reached in that run, or the "
          f"state itself holds the lock; "
          f"{time.time() - started:.0f} s)")
    if args.coverage:
        print(f"coverage: {len(cover_problems)} system-call kinds on the folder not numbered by the shim")
    print(f"fault space: {checked} cases, {len(violations)} violations")
    return 1 if violations or cover_problems else 0


if __name__ == "__main__":
    sys.exit(main())
