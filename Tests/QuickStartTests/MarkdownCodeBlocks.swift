extension String {
    /// The contents of every ```swift block of a Markdown text, in order: what the README and
    /// article checks compare with their mirrors.
    var swiftBlocks: [String] {
        var blocks: [String] = []
        var rest = self[...]
        while let open = rest.range(of: "```swift\n"), let close = rest[open.upperBound...].range(of: "```") {
            blocks.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return blocks
    }
}
