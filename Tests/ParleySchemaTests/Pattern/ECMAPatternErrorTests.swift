import ParleySchema
import Testing

/// Invalid patterns fail with `.syntax` and an offset, unimplemented features with `.unsupported`,
/// and limits with `.budgetExceeded`: never a crash, hang or unbounded allocation.
@Suite struct ECMAPatternErrorTests {
    func error(_ pattern: String, unicode: Bool = true,
               limits: ECMAPattern.Limits = .default) -> PatternError? {
        do {
            _ = try ECMAPattern(pattern, unicode: unicode, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// Invalid in both modes.
    @Test(arguments: [
        "(", ")", "a)", "(?:a", "[a", "[b-a]", "*", "a**", "+a", "?", "a{2,1}", "\\", "(?<n>a)(?<n>b)",
        "(?<1a>x)", "(?<>x)", "(?x)", "(?i)abc", "(?ims)a", "(?P<n>x)", "(?#c)a", "^*", "$+", "\\b*", "(?<=a)+", "a|*",
        "x{3}{", "a{2}{3}",
        "a*{2}", "a{1000}{1000}",
    ])
    func invalidEverywhere(_ pattern: String) {
        for unicode in [true, false] where !(pattern == "x{3}{" && !unicode) {
            let error = error(pattern, unicode: unicode)
            #expect(error?.code == .syntax, "/\(pattern)/\(unicode ? "u" : ""): \(String(describing: error))")
            #expect(error?.offset != nil)
        }
    }

    /// Annex B accepts these without `u`; the `u` grammar rejects them.
    @Test(arguments: [
        "]", "{", "}", "a{", "a{1", "a{,5}", "\\q", "\\c", "\\c1", "\\x4", "\\u12", "\\u{12", "\\01", "\\1",
        "\\8", "[\\d-z]", "[a-\\w]", "[\\B]", "[\\1]", "\\k", "(?=a)*", "\\p{Nope}", "\\p{L", "\\P", "[\\k]", "\\-",
    ])
    func invalidOnlyWithUnicode(_ pattern: String) throws {
        #expect(error(pattern, unicode: true)?.code == .syntax, "/\(pattern)/u")
        _ = try ECMAPattern(pattern, unicode: false)
    }

    @Test func errorsNameTheirPlace() {
        #expect(error("abc[b-a]")?.offset == 5)
        #expect(error("ab(cd")?.offset == 2)
        #expect(error("a)")?.offset == 1)
        #expect(error("🐲)", unicode: true)?.offset == 1)
        #expect(error("🐲)", unicode: false)?.offset == 2)
        #expect(error("a**")?.description == "syntax at offset 2: nothing to repeat")
    }

    @Test(arguments: ["\\p{Script=Greek}", "\\p{sc=Latn}", "\\p{Script_Extensions=Greek}", "\\p{scx=Grek}",
                      "\\p{Extended_Pictographic}", "\\p{Emoji_Component}", "(?i:a)", "(?-s:a)",
                      "(?ms-i:a)"])
    func unimplementedFeaturesAreUnsupported(_ pattern: String) {
        #expect(error(pattern)?.code == .unsupported, "\(pattern)")
    }

    @Test func unknownPropertyValuesAreSyntaxErrors() {
        #expect(error("\\p{Script=}")?.code == .syntax)
        #expect(error("\\p{Foo=Bar}")?.code == .syntax)
        #expect(error("\\p{gc=Greek}")?.code == .syntax)
    }

    @Test(arguments: ["(?:a{1000}){1000}", "a{100001}", "a{0,2147483647}", "a{99999999999999999999}",
                      "(?=a{1000}){1000}", "\\1(?:(a){1000}){1000}", "(?:[a-z]{300}){400}"])
    func programsOverTheSizeLimitAreRefused(_ pattern: String) {
        #expect(error(pattern, unicode: false)?.code == .budgetExceeded, "\(pattern)")
    }

    @Test func theSizeLimitIsAdjustable() throws {
        let small = ECMAPattern.Limits(maxProgramSize: 50)
        #expect(error("a{100}", limits: small)?.code == .budgetExceeded)
        #expect(try ECMAPattern("a{40}", unicode: true, limits: small).matches(String(repeating: "a", count: 40)))
        #expect(try ECMAPattern("(?:a{1000}){10}", unicode: true).matches(String(repeating: "a", count: 10_000)))
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000)
        #expect(error(deep)?.code == .budgetExceeded)
        let classes = String(repeating: "(?:[a]", count: 10_000) + String(repeating: ")", count: 10_000)
        #expect(error(classes)?.code == .budgetExceeded)
        let fine = String(repeating: "(", count: 400) + "a" + String(repeating: ")", count: 400)
        #expect(error(fine) == nil)
    }
}
