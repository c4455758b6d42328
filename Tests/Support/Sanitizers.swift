#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process (and so every program the same build made) runs under the thread
/// sanitizer: its runtime exports `__tsan_init`.
///
/// A test that starts a built program with a file-size limit of zero skips then: the sanitizer's
/// runtime cannot work without writing files, and dies with a bus error before the program runs.
package let isUnderThreadSanitizer: Bool = {
    #if canImport(Glibc)
    return dlsym(nil, "__tsan_init") != nil  // nil is RTLD_DEFAULT here
    #elseif canImport(Darwin)
    return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_init") != nil  // RTLD_DEFAULT
    #else
    return false
    #endif
}()
