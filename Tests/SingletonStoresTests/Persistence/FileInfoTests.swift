#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// The storage's look at a document file (`FileInfo`) gives what `lstat` and `fstat` give of it,
/// but its times, which it never asks for.
@Suite("A look at a file without its times")
struct FileInfoTests {
    static func expectSame(_ look: FileInfo?, _ info: stat, _ what: String) {
        #expect(look?.stamp.device == UInt64(truncatingIfNeeded: info.st_dev), "\(what): device")
        #expect(look?.stamp.inode == UInt64(truncatingIfNeeded: info.st_ino), "\(what): inode")
        #expect(look?.mode == info.st_mode, "\(what): mode")
        #expect(look?.owner == info.st_uid, "\(what): owner")
        #expect(look?.links == Int(info.st_nlink), "\(what): links")
        #expect(look?.size == Int64(info.st_size), "\(what): size")
    }

    @Test func aLookGivesWhatStatGivesOfAFileALinkAndAFolder() throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "document.json").path(percentEncoded: false)
            try Data(repeating: 7, count: 1_234).write(to: URL(fileURLWithPath: file))
            #expect(link(file, file + ".second-name") == 0)
            let symbolic = folder.appending(path: "link.json").path(percentEncoded: false)
            #expect(symlink(file, symbolic) == 0)
            for path in [file, symbolic, folder.path(percentEncoded: false)] {
                var info = stat()
                #expect(lstat(path, &info) == 0)
                Self.expectSame(FileInfo.of(path: path), info, path)
            }
            let look = try #require(FileInfo.of(path: file))
            #expect(look.isRegularFile && look.links == 2 && look.size == 1_234)
            #expect(FileInfo.of(path: symbolic)?.isRegularFile == false, "a link is not followed")

            let descriptor = open(file, O_RDONLY | O_CLOEXEC)
            #expect(descriptor >= 0)
            defer { close(descriptor) }
            var info = stat()
            #expect(fstat(descriptor, &info) == 0)
            Self.expectSame(FileInfo.of(descriptor: descriptor), info, "the open file")
            #expect(FileInfo.of(descriptor: descriptor)?.stamp == FileStamp.of(path: file))

            #expect(FileInfo.of(path: folder.appending(path: "missing").path(percentEncoded: false)) == nil)
            #expect(errno == ENOENT)
            #expect(FileInfo.of(descriptor: -1) == nil)
            #expect(errno == EBADF)
        }
    }

    /// A polled watch tells a two-slot file's versions apart by their sequence, so it never asks
    /// for that file's times; a plain file's identity still has them.
    @Test func onlyAPlainFilesIdentityHasItsTimes() throws {
        try TwoSlotFileTests.withSavedCounter { _, file, folder in
            let slots = try #require(FileIdentity.of(file.path(percentEncoded: false)))
            #expect(slots.sequence != nil)
            #expect(slots.modified == 0 && slots.statusChanged == 0)
            let plain = folder.appending(path: "plain.json")
            try Data(#"{"formatVersion":2,"value":1}"#.utf8).write(to: plain)
            let identity = try #require(FileIdentity.of(plain.path(percentEncoded: false)))
            #expect(identity.sequence == nil)
            #expect(identity.modified > 0 && identity.statusChanged > 0)
        }
    }
}
#endif
