/// What demo-postgres prints is one line for each line it means, whatever text it holds.
enum Terminal {
    /// `text` with each character that could move the cursor, start a line, change a terminal's
    /// state or reorder what a line shows written as an escape: a line break as `\n`, a carriage
    /// return as `\r`, a tab as `\t`; the other C0 controls, DEL, the C1 controls, the line and
    /// paragraph separators and the bidirectional marks, embeddings, overrides and isolates as
    /// `\u{…}` in hexadecimal (the characters the library's error messages escape). A backslash
    /// is left as it is: an error message has its own escapes already.
    ///
    /// For instance, `"a\u{1B}[2J\u{202E}b"` prints as `a\u{1B}[2J\u{202E}b`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControlOrFormatting) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case _ where isControlOrFormatting(scalar): shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func isControlOrFormatting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
