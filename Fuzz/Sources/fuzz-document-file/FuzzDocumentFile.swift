import Foundation
import FuzzSupport
@testable import SingletonStores
import Stores

/// A document file's bytes as `FileStorage` reads them: the two-slot layout (header, two slots,
/// sequence numbers, lengths, checksums) or a plain document of an earlier version, then the
/// document in it, decoded as the profile.
///
/// Beyond "never traps", each input checks what the readers of the file rely on:
/// - a file that starts as a two-slot file gives the envelope of its valid slot with the highest
///   sequence, or is reported damaged, never something else;
/// - the sequence a watcher peeks at is never lower than the current slot's;
/// - a write of the next version into the older slot, as a transaction makes it, reads back as
///   the current one, and leaves the other slot's bytes as they were.
@main
enum FuzzDocumentFile {
    static func main() { runLibFuzzer(fuzzDocumentFile) }
}

/// Never read or written: `stored(_:at:)` reads the bytes it is given.
private let storage = FileStorage(folder: URL(filePath: "/nonexistent/fuzz-document-file", directoryHint: .isDirectory))
private let file = URL(filePath: "/nonexistent/fuzz-document-file/profile.json")

/// libFuzzer's test function: also named so for libFuzzer's own `main`, which the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocumentFile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    let (stored, slots) = storage.stored(.bytes(bytes), at: file)
    guard let stored else { preconditionFailure("bytes that are there were read as no file") }
    _ = stored.damage.map { String(describing: $0) }
    guard SlotFile.isSlotFile(bytes) else {
        precondition(slots == nil, "a plain document was read as a two-slot file")
        precondition(stored.bytes == bytes, "a plain document's bytes were changed on reading")
        decodeAsProfile(stored.bytes)
        return 0
    }
    let read = try? SlotFile.read(bytes)
    guard let slots, let current = slots.current else {
        precondition(read?.current == nil, "a file with a whole slot was read as damaged")
        precondition(stored.damage != nil, "a two-slot file with no whole slot was read as a document")
        return 0
    }
    // The current slot's envelope, unless it holds no envelope at all and the other slot does.
    let other = slots.slots.first { $0.index != current.index }
    let givesWay =
        !DocumentFile.startsLikeADocument(current.envelope) && other.map { DocumentFile.startsLikeADocument($0.envelope) } == true
    precondition(
        stored.bytes == (givesWay ? other?.envelope : current.envelope),
        "the envelope read is neither the current slot's nor, for a current slot that holds none, the other's")
    precondition(stored.damage == nil, "a two-slot file with a whole slot was reported damaged")
    let peeked = SlotFile.peekSequence { offset, length in
        guard offset < bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + length)])
    }
    precondition((peeked ?? 0) >= current.sequence, "a watcher would peek at an older sequence than the current one")
    decodeAsProfile(current.envelope)
    writeTheNextVersion(over: bytes, slots: slots, current: current)
    return 0
}

/// Writes version `current.sequence + 1` into the older slot, as a write in place does, and
/// reads the file back.
private func writeTheNextVersion(over bytes: Data, slots: SlotFile.Contents, current: SlotFile.Slot) {
    let size = slots.slotSize
    let older = slots.older
    let (next, overflow) = current.sequence.addingReportingOverflow(1)
    let offset = SlotFile.headerSize + older * size
    guard !overflow, bytes.count >= SlotFile.headerSize + 2 * size else { return }
    // Another version's document: the current one with a byte more, when it fits.
    var envelope = current.envelope
    envelope.append(UInt8(ascii: " "))
    guard let slot = SlotFile.slot(older, slotSize: size, sequence: next, envelope: envelope) else { return }
    var written = bytes
    written.replaceSubrange(offset..<(offset + size), with: slot)
    guard let after = try? SlotFile.read(written), let now = after.current else {
        preconditionFailure("a file with a version just written reads as damaged")
    }
    precondition(now.index == older && now.sequence == next && now.envelope == envelope, "the version written is not the one read")
    let kept = SlotFile.headerSize + current.index * size
    precondition(written[kept..<(kept + size)] == bytes[kept..<(kept + size)], "the current slot was touched")
}

private func decodeAsProfile(_ envelope: Data) {
    _ = envelope.withUnsafeBytes { Documents.decode(UserProfile.self, $0) }
}
