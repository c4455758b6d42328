import Automaton
import Testing

/// The 50-rule table of DocumentEditorRules.swift reads as written: the first rule that matches
/// decides, wildcards and predicates included.
@Suite struct DocumentEditorRulesTests {
    static let mapping = EffectMapping(firstOf: DocumentEditorRules.mappings())

    @Test func theTableHasFiftyRulesAndAnswersEveryPair() {
        #expect(DocumentEditorRules.mappings().count == 50)
        for state in DocumentState.allCases {
            for input in DocumentInput.allCases {
                #expect(Self.mapping(state, input) != nil, "\(input) in \(state)")
            }
        }
    }

    @Test func earlierRulesWin() {
        #expect(Self.mapping(.closing, .reset)?.state == .closed)  // `.reset | .any` before `.any | .closing`
        #expect(Self.mapping(.closing, .open)?.state == .closing)
        #expect(Self.mapping(.closed, .saved)?.state == .closed)  // late answers after closing
        #expect(Self.mapping(.readOnly, .type)?.state == .readOnly)  // before `isEdit | .any`
        #expect(Self.mapping(.viewing, .type)?.state == .editing)
    }

    @Test func effectsAreAttachedWhereWritten() {
        #expect(Self.mapping(.closed, .open)?.effect.isNone == false)
        #expect(Self.mapping(.opening, .opened)?.effect.isNone == true)
        #expect(Self.mapping(.viewing, .edit)?.effect.isNone == true)
        #expect(Self.mapping(.saving, .close)?.effect.isNone == false)
    }
}
