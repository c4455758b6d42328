extension String {
    /// The string with every character that could move the cursor, start a new line, change the
    /// terminal's state or reorder the text shown as a visible escape, so that text from storage
    /// or from the command line prints as exactly one line and cannot forge output.
    ///
    /// ```swift
    /// let shown = "Aki\ngender: female\u{1B}]0;owned\u{07}".escapingControlCharacters
    /// // Aki\ngender: female\u{1B}]0;owned\u{7}   (one line, printed as these characters)
    /// ```
    ///
    /// Escaped, per Unicode scalar:
    /// - `\n`, `\r`, `\t` as those two characters, and the backslash itself as `\\`, so an
    ///   escape in the output always means an escaped character;
    /// - every other C0 control (U+0000–U+001F, including ESC), DEL (U+007F) and every C1
    ///   control (U+0080–U+009F, including CSI and NEL) as `\u{…}` in hexadecimal;
    /// - the line and paragraph separators (U+2028, U+2029), which some terminals and viewers
    ///   break lines at;
    /// - the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
    ///   U+202A–U+202E, U+2066–U+2069), which can make a line read differently from what it
    ///   contains.
    ///
    /// Everything else — letters of any script, emoji, combining marks — is kept as it is.
    package var escapingControlCharacters: String {
        escaping(backslashes: true)
    }

    /// ``escapingControlCharacters`` with the backslash left as it is: for a message made of
    /// text that may be escaped already (a path a message escaped as it named it), which stays as
    /// it was, and text from outside (a reason a server gave), whose control and formatting
    /// characters are escaped here.
    ///
    /// ```swift
    /// let shown = "could not open /tmp/a\\u{1B}b: \u{1B}[2Jgone".escapingControlCharactersLeavingBackslashes
    /// // could not open /tmp/a\u{1B}b: \u{1B}[2Jgone   (the first escape as it was, the second made)
    /// ```
    package var escapingControlCharactersLeavingBackslashes: String {
        escaping(backslashes: false)
    }

    /// The string with its control and formatting characters escaped, and its backslashes too
    /// when `backslashes` is set.
    private func escaping(backslashes: Bool) -> String {
        guard unicodeScalars.contains(where: { (backslashes && $0 == "\\") || Self.isControlOrFormatting($0) }) else {
            return self
        }
        var escaped = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\\" where backslashes: escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where Self.isControlOrFormatting(scalar):
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// JSON text with every character ``escapingControlCharacters`` escapes that JSON leaves
    /// raw — DEL, the C1 controls, the line and paragraph separators and the bidirectional
    /// marks, embeddings, overrides and isolates — written as a JSON `\u` escape, so that a
    /// document printed to a terminal cannot change its state or reorder what it shows.
    ///
    /// ```swift
    /// let shown = "{\"nickname\":\"Aki\u{9B}31m\"}".escapingControlCharactersInJSON
    /// // {"nickname":"Aki\u009B31m"}   (still valid JSON: the same strings once decoded)
    /// ```
    ///
    /// Call it on valid JSON only: there such characters can only be inside strings, where the
    /// escape stands for the very same character. The C0 controls are left as they are (every
    /// JSON encoder escapes them in strings; outside, they are the white space between values),
    /// and so is a backslash (in JSON it starts an escape).
    package var escapingControlCharactersInJSON: String {
        guard unicodeScalars.contains(where: Self.isRawInJSON) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            if Self.isRawInJSON(scalar) {
                let digits = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whether `scalar` is escaped by ``escapingControlCharacters`` but may stand raw in JSON
    /// text: every such character but the C0 controls (valid JSON holds those only as the
    /// white space between its values).
    private static func isRawInJSON(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x1F && isControlOrFormatting(scalar)
    }

    private static func isControlOrFormatting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
