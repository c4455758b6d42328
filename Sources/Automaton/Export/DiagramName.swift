/// Turns values into names that diagram languages accept.
enum DiagramName {
    /// Letters, digits and `_` kept; anything else becomes `_`.
    static func identifier(_ value: some Any) -> String {
        let text = String(describing: value)
        let mapped = text.unicodeScalars.map { scalar -> Character in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
                ? Character(scalar) : "_"
        }
        return mapped.isEmpty ? "_" : String(mapped)
    }

    /// The description on one line.
    static func label(_ value: some Any) -> String {
        String(String(describing: value).map { $0.isNewline ? " " : $0 })
    }

    /// A double-quoted DOT string.
    static func quoted(_ value: some Any) -> String {
        var escaped = "\""
        for character in String(describing: value) {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case _ where character.isNewline: escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped + "\""
    }
}
