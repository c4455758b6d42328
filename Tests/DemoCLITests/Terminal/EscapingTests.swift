import Testing
@testable import demo_cli

@Suite("String.escapingControlCharacters")
struct EscapingTests {
    @Test func plainTextIsUnchanged() {
        for text in ["", "Aki", "Ngọc Ánh", "ナツキ 👩🏽‍💻", "e\u{301}", "a'b\"c"] {
            #expect(text.escapingControlCharacters == text)
        }
    }

    @Test func controlCharactersBecomeVisibleOnOneLine() {
        let hostile = "Aki\ngender: female (gender_code=2)\nrank: gold\u{1B}]0;owned\u{07}"
        let escaped = hostile.escapingControlCharacters
        #expect(escaped == #"Aki\ngender: female (gender_code=2)\nrank: gold\u{1B}]0;owned\u{7}"#)
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test(arguments: [
        ("\r", #"\r"#), ("\t", #"\t"#), ("\\", #"\\"#), ("\u{0}", #"\u{0}"#), ("\u{7F}", #"\u{7F}"#),
        ("\u{80}", #"\u{80}"#), ("\u{85}", #"\u{85}"#), ("\u{9B}", #"\u{9B}"#), ("\u{9F}", #"\u{9F}"#),
        ("\u{2028}", #"\u{2028}"#), ("\u{2029}", #"\u{2029}"#), ("\u{200E}", #"\u{200E}"#),
        ("\u{202E}", #"\u{202E}"#), ("\u{2066}", #"\u{2066}"#), ("\u{2069}", #"\u{2069}"#),
        ("\r\n", #"\r\n"#),
    ])
    func eachEscapedScalar(_ text: String, _ expected: String) {
        #expect(text.escapingControlCharacters == expected)
        #expect(("x" + text + "y").escapingControlCharacters == "x" + expected + "y")
    }

    @Test func aBackslashIsDoubledSoThatEscapesAreUnambiguous() {
        // A typed backslash-n and a real newline must not print alike.
        #expect(#"a\nb"#.escapingControlCharacters != "a\nb".escapingControlCharacters)
    }

    @Test func printableNeighboursOfTheEscapedRangesAreKept() {
        for text in [" ", "~", "\u{A0}", "é", "\u{200D}", "\u{2027}", "\u{202F}", "\u{206A}"] {
            #expect(text.escapingControlCharacters == text)
        }
    }
}
