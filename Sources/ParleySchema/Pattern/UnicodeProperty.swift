/// A Unicode property a `\p{…}` escape names: General_Category values or a binary property.
/// Script and Script_Extensions are not offered: `Unicode.Scalar.Properties` does not expose them.
struct UnicodeProperty: Sendable {
    private let test: @Sendable (Unicode.Scalar) -> Bool

    private init(_ test: @escaping @Sendable (Unicode.Scalar) -> Bool) { self.test = test }

    func contains(_ scalar: Unicode.Scalar) -> Bool { test(scalar) }

    /// Outcome of resolving the text between the braces.
    enum Resolution {
        case property(UnicodeProperty)
        case unknown
        case unsupported(String)
    }

    /// Resolves `Name`, `Name=Value` (General_Category, gc, Script, sc, Script_Extensions, scx).
    static func resolve(_ text: String) -> Resolution {
        if let equals = text.firstIndex(of: "=") {
            let name = String(text[..<equals])
            let value = String(text[text.index(after: equals)...])
            switch name {
            case "General_Category", "gc":
                return generalCategory(value).map { .property($0) } ?? .unknown
            case "Script", "sc", "Script_Extensions", "scx":
                guard isPropertyValueName(value) else { return .unknown }
                return .unsupported("\\p{\(name)=…}: Swift's Unicode.Scalar.Properties has no script data")
            default:
                return .unknown
            }
        }
        if let property = generalCategory(text) { return .property(property) }
        if let test = binaryProperties[text] { return .property(UnicodeProperty(test)) }
        if unsupportedBinaryProperties.contains(text) {
            return .unsupported("\\p{\(text)}: Swift's Unicode.Scalar.Properties does not offer this property")
        }
        return .unknown
    }

    private static func isPropertyValueName(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == "_"
            || ($0.isASCII && $0.properties.isAlphabetic) }
    }

    private static func generalCategory(_ name: String) -> UnicodeProperty? {
        guard let categories = generalCategoryAliases[name] else { return nil }
        return UnicodeProperty { categories.contains($0.properties.generalCategory) }
    }

    /// Every General_Category value by its short name, long name and other aliases
    /// (Unicode's PropertyValueAliases.txt), with the groups (L, LC, M, N, P, S, Z, C).
    private static let generalCategoryAliases: [String: Set<Unicode.GeneralCategory>] = {
        typealias Category = Unicode.GeneralCategory
        let values: [([String], [Category])] = [
            (["Lu", "Uppercase_Letter"], [.uppercaseLetter]),
            (["Ll", "Lowercase_Letter"], [.lowercaseLetter]),
            (["Lt", "Titlecase_Letter"], [.titlecaseLetter]),
            (["LC", "Cased_Letter"], [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]),
            (["Lm", "Modifier_Letter"], [.modifierLetter]),
            (["Lo", "Other_Letter"], [.otherLetter]),
            (["L", "Letter"], [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]),
            (["Mn", "Nonspacing_Mark"], [.nonspacingMark]),
            (["Mc", "Spacing_Mark"], [.spacingMark]),
            (["Me", "Enclosing_Mark"], [.enclosingMark]),
            (["M", "Mark", "Combining_Mark"], [.nonspacingMark, .spacingMark, .enclosingMark]),
            (["Nd", "Decimal_Number", "digit"], [.decimalNumber]),
            (["Nl", "Letter_Number"], [.letterNumber]),
            (["No", "Other_Number"], [.otherNumber]),
            (["N", "Number"], [.decimalNumber, .letterNumber, .otherNumber]),
            (["Pc", "Connector_Punctuation"], [.connectorPunctuation]),
            (["Pd", "Dash_Punctuation"], [.dashPunctuation]),
            (["Ps", "Open_Punctuation"], [.openPunctuation]),
            (["Pe", "Close_Punctuation"], [.closePunctuation]),
            (["Pi", "Initial_Punctuation"], [.initialPunctuation]),
            (["Pf", "Final_Punctuation"], [.finalPunctuation]),
            (["Po", "Other_Punctuation"], [.otherPunctuation]),
            (["P", "Punctuation", "punct"], [.connectorPunctuation, .dashPunctuation, .openPunctuation,
                                             .closePunctuation, .initialPunctuation, .finalPunctuation,
                                             .otherPunctuation]),
            (["Sm", "Math_Symbol"], [.mathSymbol]),
            (["Sc", "Currency_Symbol"], [.currencySymbol]),
            (["Sk", "Modifier_Symbol"], [.modifierSymbol]),
            (["So", "Other_Symbol"], [.otherSymbol]),
            (["S", "Symbol"], [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]),
            (["Zs", "Space_Separator"], [.spaceSeparator]),
            (["Zl", "Line_Separator"], [.lineSeparator]),
            (["Zp", "Paragraph_Separator"], [.paragraphSeparator]),
            (["Z", "Separator"], [.spaceSeparator, .lineSeparator, .paragraphSeparator]),
            (["Cc", "Control", "cntrl"], [.control]),
            (["Cf", "Format"], [.format]),
            (["Cs", "Surrogate"], [.surrogate]),
            (["Co", "Private_Use"], [.privateUse]),
            (["Cn", "Unassigned"], [.unassigned]),
            (["C", "Other"], [.control, .format, .surrogate, .privateUse, .unassigned]),
        ]
        var table: [String: Set<Category>] = [:]
        for (names, categories) in values {
            for name in names { table[name] = Set(categories) }
        }
        return table
    }()

    /// ECMA-262's binary properties (table-binary-unicode-properties) that Swift can answer,
    /// by long and short name.
    private static let binaryProperties: [String: @Sendable (Unicode.Scalar) -> Bool] = {
        let values: [([String], @Sendable (Unicode.Scalar) -> Bool)] = [
            (["ASCII"], { $0.isASCII }),
            (["Any"], { _ in true }),
            (["Assigned"], { $0.properties.generalCategory != .unassigned }),
            (["ASCII_Hex_Digit", "AHex"], { $0.properties.isASCIIHexDigit }),
            (["Alphabetic", "Alpha"], { $0.properties.isAlphabetic }),
            (["Bidi_Control", "Bidi_C"], { $0.properties.isBidiControl }),
            (["Bidi_Mirrored", "Bidi_M"], { $0.properties.isBidiMirrored }),
            (["Case_Ignorable", "CI"], { $0.properties.isCaseIgnorable }),
            (["Cased"], { $0.properties.isCased }),
            (["Changes_When_Casefolded", "CWCF"], { $0.properties.changesWhenCaseFolded }),
            (["Changes_When_Casemapped", "CWCM"], { $0.properties.changesWhenCaseMapped }),
            (["Changes_When_Lowercased", "CWL"], { $0.properties.changesWhenLowercased }),
            (["Changes_When_NFKC_Casefolded", "CWKCF"], { $0.properties.changesWhenNFKCCaseFolded }),
            (["Changes_When_Titlecased", "CWT"], { $0.properties.changesWhenTitlecased }),
            (["Changes_When_Uppercased", "CWU"], { $0.properties.changesWhenUppercased }),
            (["Dash"], { $0.properties.isDash }),
            (["Default_Ignorable_Code_Point", "DI"], { $0.properties.isDefaultIgnorableCodePoint }),
            (["Deprecated", "Dep"], { $0.properties.isDeprecated }),
            (["Diacritic", "Dia"], { $0.properties.isDiacritic }),
            (["Emoji"], { $0.properties.isEmoji }),
            (["Emoji_Modifier", "EMod"], { $0.properties.isEmojiModifier }),
            (["Emoji_Modifier_Base", "EBase"], { $0.properties.isEmojiModifierBase }),
            (["Emoji_Presentation", "EPres"], { $0.properties.isEmojiPresentation }),
            (["Extender", "Ext"], { $0.properties.isExtender }),
            (["Grapheme_Base", "Gr_Base"], { $0.properties.isGraphemeBase }),
            (["Grapheme_Extend", "Gr_Ext"], { $0.properties.isGraphemeExtend }),
            (["Hex_Digit", "Hex"], { $0.properties.isHexDigit }),
            (["IDS_Binary_Operator", "IDSB"], { $0.properties.isIDSBinaryOperator }),
            (["IDS_Trinary_Operator", "IDST"], { $0.properties.isIDSTrinaryOperator }),
            (["ID_Continue", "IDC"], { $0.properties.isIDContinue }),
            (["ID_Start", "IDS"], { $0.properties.isIDStart }),
            (["Ideographic", "Ideo"], { $0.properties.isIdeographic }),
            (["Join_Control", "Join_C"], { $0.properties.isJoinControl }),
            (["Logical_Order_Exception", "LOE"], { $0.properties.isLogicalOrderException }),
            (["Lowercase", "Lower"], { $0.properties.isLowercase }),
            (["Math"], { $0.properties.isMath }),
            (["Noncharacter_Code_Point", "NChar"], { $0.properties.isNoncharacterCodePoint }),
            (["Pattern_Syntax", "Pat_Syn"], { $0.properties.isPatternSyntax }),
            (["Pattern_White_Space", "Pat_WS"], { $0.properties.isPatternWhitespace }),
            (["Quotation_Mark", "QMark"], { $0.properties.isQuotationMark }),
            (["Radical"], { $0.properties.isRadical }),
            (["Regional_Indicator", "RI"], { (0x1F1E6...0x1F1FF).contains($0.value) }),
            (["Sentence_Terminal", "STerm"], { $0.properties.isSentenceTerminal }),
            (["Soft_Dotted", "SD"], { $0.properties.isSoftDotted }),
            (["Terminal_Punctuation", "Term"], { $0.properties.isTerminalPunctuation }),
            (["Unified_Ideograph", "UIdeo"], { $0.properties.isUnifiedIdeograph }),
            (["Uppercase", "Upper"], { $0.properties.isUppercase }),
            (["Variation_Selector", "VS"], { $0.properties.isVariationSelector }),
            (["White_Space", "space"], { $0.properties.isWhitespace }),
            (["XID_Continue", "XIDC"], { $0.properties.isXIDContinue }),
            (["XID_Start", "XIDS"], { $0.properties.isXIDStart }),
        ]
        var table: [String: @Sendable (Unicode.Scalar) -> Bool] = [:]
        for (names, test) in values {
            for name in names { table[name] = test }
        }
        return table
    }()

    /// Binary properties ECMA-262 lists that Swift's properties cannot answer.
    private static let unsupportedBinaryProperties: Set<String> = [
        "Emoji_Component", "EComp", "Extended_Pictographic", "ExtPict",
    ]
}
