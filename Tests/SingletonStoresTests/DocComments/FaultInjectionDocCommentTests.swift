// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of a doc comment, laid out as the
// comment shows it, so the formatter leaves this file alone.)
// The doc-comment example of FaultInjection, verbatim between the markers, so that it always
// compiles; QuickStartTests/DocCommentSnippetTests checks that it matches. It is compiled, not
// run: the handler it installs is the process's only one, and it kills the process that writes
// a cart — here, the test runner. The storage-stress helper's --crash-at does the same in a
// process of its own, for the crash tests.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

// Doc "SingletonStores/Support/FaultInjection.swift" snippet 1: begin
import SingletonStores

// In the helper process a crash test launches, before its first write:
func crashOnceTheCartIsWritten() {
    FaultInjection.install { point in
        if point == .didWrite("cart") { kill(getpid(), SIGKILL) }
    }
}
// Doc "SingletonStores/Support/FaultInjection.swift" snippet 1: end

@Test func faultInjectionPointsOfTheExample() {
    // What the example compares against: the point reached right after the cart's document is
    // written.
    #expect(FaultInjection.Point.didWrite("cart").name == "cart:after-write")
}
