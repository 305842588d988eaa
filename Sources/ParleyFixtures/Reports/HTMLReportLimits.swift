/// How much of each exchange the HTML report shows, so a 50 MB body does not make a 50 MB page.
/// Whatever is cut is said where it was cut. ``CheckOptions/previewLimits`` applies the same
/// limits when an exchange is checked, so a report holds only a ``ValuePreview`` of each body.
public struct HTMLReportLimits: Sendable, Hashable {
    /// The most characters of text (a text body, a body that did not decode) shown per exchange.
    /// Default 16 Ki.
    public var maxTextCharacters = 16 * 1024
    /// The most values of a decoded tree shown per exchange. Default 1,000.
    public var maxTreeNodes = 1_000
    /// The most characters of one string in a decoded tree. Default 1,000.
    public var maxStringCharacters = 1_000
    /// Tree levels shown open; deeper levels are collapsed. Default 2.
    public var openDepth = 2
    /// Tree levels shown at all. Default 32.
    public var maxTreeDepth = 32
    /// CSV records shown as table rows. Default 100.
    public var maxCSVRows = 100
    /// The largest image inlined as a data URI, in bytes. Default 256 KiB.
    public var maxImageBytes = 256 * 1024
    /// The most header fields shown per message. Default 100.
    public var maxFields = 100
    /// The most characters of one header field value. Default 2 Ki.
    public var maxFieldCharacters = 2 * 1024
    /// The most characters of previews (header fields and bodies, as written into the page) in
    /// the whole page; exchanges past it show their findings and header fields only. Default 8 Mi.
    public var maxPreviewCharactersInReport = 8 * 1024 * 1024
    /// Rows rendered per page, and in plain HTML for readers without JavaScript. Default 100.
    public var rowsPerPage = 100

    /// The default limits.
    public init() {}
}
