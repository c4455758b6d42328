"""Reading a document file as the library's reader does, for the searches' own checks (the
receipts a run paid for, the entries the ledger credited): a plain JSON envelope (formats 1 and
2), or a two-slot file (format 3) — a 4,096-byte header naming the slot size S, then two slots of
S bytes, each `{"sequence":"<20 digits>","length":"<10 digits>","crc32c":"<8 hex>","document":`
+ the envelope (`length` bytes) + `}`, or `null`; the file is 4,096 + 2S bytes (any other length
is damage); the valid slot (CRC32C over the sequence and length digits and the envelope) with the
highest sequence is the document.

Shared by Tests/FaultSpace/fault_space.py and Tests/CrashStates/crash_states.py.
"""

from __future__ import annotations

import json
import re

HEADER = 4096
_HEADER = re.compile(rb'^\{"formatVersion":3,"layout":"two slots","slotSize":"(\d{10})","slots":\[')
_SLOT = re.compile(rb'^\{"sequence":"(\d{20})","length":"(\d{10})","crc32c":"([0-9A-Fa-f]{8})","document":')


def _table() -> list[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _table()


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def is_two_slot(content: bytes) -> bool:
    return _HEADER.match(content[:HEADER]) is not None


def slot_size(content: bytes) -> int:
    """The slot size a two-slot file's header names (0 when it is not one)."""
    header = _HEADER.match(content[:HEADER])
    return int(header.group(1)) if header else 0


def slots(content: bytes) -> list[tuple[int, bytes] | None]:
    """The two slots of a two-slot file, each (sequence, envelope bytes) when valid, else None."""
    header = _HEADER.match(content[:HEADER])
    if header is None:
        return []
    size = int(header.group(1))
    if len(content) != HEADER + 2 * size:
        return [None, None]  # the file is written whole: another length is damage, never a crash's doing
    result: list[tuple[int, bytes] | None] = []
    for i in range(2):
        region = content[HEADER + i * size: HEADER + (i + 1) * size]
        slot = _SLOT.match(region)
        if slot is None:
            result.append(None)
            continue
        sequence, length, checksum = slot.group(1), slot.group(2), int(slot.group(3), 16)
        payload = region[slot.end(): slot.end() + int(length)]
        valid = len(payload) == int(length) and crc32c(sequence + length + payload) == checksum
        result.append((int(sequence), payload) if valid else None)
    return result


def envelope_bytes(content: bytes) -> bytes | None:
    """The JSON envelope the reader takes from a document file's bytes: the file itself when it is
    plain JSON, the newest valid slot of a two-slot file, None when a two-slot file has none."""
    if not is_two_slot(content):
        return content
    valid = [s for s in slots(content) if s is not None]
    return max(valid)[1] if valid else None


def envelope(content: bytes):
    """The envelope as a JSON value (a dict for the library's documents), or None."""
    data = envelope_bytes(content)
    if data is None:
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def load(path: str):
    """`envelope` of the file at `path`; None when it can't be read."""
    try:
        with open(path, "rb") as f:
            return envelope(f.read())
    except OSError:
        return None


def newer_format(content: bytes) -> bytes:
    """The same document as a version newer than this one would write it: its first
    `formatVersion` one higher (the header's in a two-slot file; the length is kept)."""
    return re.sub(rb'("formatVersion" ?: ?)(\d)', lambda m: m.group(1) + str(int(m.group(2)) + 1).encode(),
                  content, count=1)
