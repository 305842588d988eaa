import Parley

/// Recognises what a body really is from its first bytes, to catch mislabelled responses.
public enum BodySniffer {
    /// The media type the bytes look like, or `nil` when nothing is recognised.
    ///
    /// Recognised: PNG, JPEG, GIF, WebP, BMP, TIFF, PDF, gzip and zip by magic bytes; HTML by
    /// its doctype or root element; XML by its declaration; JSON by its first and last bytes.
    public static func sniff(_ body: [UInt8]) -> String? {
        if body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if body.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if body.starts(with: Array("GIF87a".utf8)) || body.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if body.count >= 12, body.starts(with: Array("RIFF".utf8)), Array(body[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        if body.starts(with: Array("BM".utf8)), body.count >= 26 { return "image/bmp" }
        if body.starts(with: [0x49, 0x49, 0x2A, 0x00]) || body.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if body.starts(with: Array("%PDF-".utf8)) { return "application/pdf" }
        if body.starts(with: [0x1F, 0x8B, 0x08]) { return "application/gzip" }
        if body.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "application/zip" }

        var start = body.startIndex
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < body.endIndex, isSpace(body[start]) { start += 1 }
        guard start < body.endIndex else { return nil }
        if body[start] == UInt8(ascii: "<") {
            let head = String(decoding: body[start..<min(body.endIndex, start + 256)], as: UTF8.self).lowercased()
            if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.hasPrefix("<head") || head.hasPrefix("<body") {
                return "text/html"
            }
            if head.hasPrefix("<?xml") {
                return head.contains("<html") || head.contains("<!doctype html") ? "text/html" : "application/xml"
            }
            return nil
        }
        var end = body.endIndex - 1
        while end > start, isSpace(body[end]) { end -= 1 }
        switch (body[start], body[end]) {
        case (UInt8(ascii: "{"), UInt8(ascii: "}")):
            var next = start + 1
            while next < end, isSpace(body[next]) { next += 1 }
            return body[next] == UInt8(ascii: "\"") || next == end ? "application/json" : nil
        case (UInt8(ascii: "["), UInt8(ascii: "]")):
            var next = start + 1
            while next < end, isSpace(body[next]) { next += 1 }
            let first = body[next]
            return next == end || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
                || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) ? "application/json" : nil
        default:
            return nil
        }
    }

    /// Whether a body sniffed as `sniffed` contradicts its `label`: JSON labelled HTML, HTML
    /// labelled JSON, one image format labelled as another.
    public static func contradicts(label: MediaType, sniffed: String) -> Bool {
        let family = Family(label)
        switch sniffed {
        case "application/json":
            return [Family.html, .xml, .image].contains(family)
        case "text/html":
            return family == .json || family == .image
        case "application/xml":
            return family == .json || (family == .image && label.subtype != "svg+xml")
        case "image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/tiff":
            if family == .image { return canonicalImageType(label) != sniffed && canonicalImageType(label) != nil }
            return [Family.json, .html, .xml].contains(family)
        case "application/pdf":
            return [Family.json, .html, .xml, .image].contains(family)
        default:
            return false
        }
    }


    private static func canonicalImageType(_ label: MediaType) -> String? {
        switch label.subtype {
        case "png", "x-png", "apng": "image/png"
        case "jpeg", "jpg", "pjpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "bmp", "x-bmp", "x-ms-bmp": "image/bmp"
        case "tiff", "tif": "image/tiff"
        default: nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// The broad kind a label promises.
private enum Family {
    case json, xml, html, image, other

    init(_ type: MediaType) {
        if type.type == "text" && type.subtype == "html" { self = .html; return }
        if type.subtype == "json" || type.suffix == "json" { self = .json; return }
        if type.subtype == "xhtml+xml" { self = .html; return }
        if type.subtype == "xml" || type.suffix == "xml" { self = .xml; return }
        if type.type == "image", type.subtype != "svg+xml" { self = .image; return }
        self = .other
    }
}
