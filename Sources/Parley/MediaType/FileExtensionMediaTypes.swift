
/// Media types by file-name extension, for the `Content-Type` of multipart file parts.
///
/// A built-in table so inference gives the same answer on Linux and macOS (no system MIME
/// database is read). Extensions are matched lower-cased, without the dot. Override an entry or
/// add one with `MultipartFormData.typesByExtension` (ParleyHTTP); an unknown extension is
/// `application/octet-stream`.
public enum FileExtensionMediaTypes {
    /// The built-in table.
    public static let standard: [String: MediaType] = {
        let table: [(String, String)] = [
            ("txt", "text/plain"), ("text", "text/plain"), ("log", "text/plain"), ("csv", "text/csv"),
            ("tsv", "text/tab-separated-values"), ("html", "text/html"), ("htm", "text/html"), ("css", "text/css"),
            ("md", "text/markdown"), ("ics", "text/calendar"), ("vcf", "text/vcard"),
            ("js", "text/javascript"), ("mjs", "text/javascript"),
            ("json", "application/json"), ("geojson", "application/geo+json"), ("jsonld", "application/ld+json"),
            ("xml", "application/xml"), ("yaml", "application/yaml"), ("yml", "application/yaml"),
            ("plist", "application/x-plist"), ("pdf", "application/pdf"), ("zip", "application/zip"),
            ("gz", "application/gzip"), ("tar", "application/x-tar"), ("wasm", "application/wasm"),
            ("msgpack", "application/msgpack"), ("cbor", "application/cbor"), ("bin", "application/octet-stream"),
            ("doc", "application/msword"),
            ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
            ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            ("png", "image/png"), ("jpg", "image/jpeg"), ("jpeg", "image/jpeg"), ("gif", "image/gif"),
            ("webp", "image/webp"), ("svg", "image/svg+xml"), ("tif", "image/tiff"), ("tiff", "image/tiff"),
            ("bmp", "image/bmp"), ("ico", "image/vnd.microsoft.icon"), ("heic", "image/heic"), ("avif", "image/avif"),
            ("mp3", "audio/mpeg"), ("wav", "audio/wav"), ("ogg", "audio/ogg"), ("m4a", "audio/mp4"),
            ("flac", "audio/flac"),
            ("mp4", "video/mp4"), ("mov", "video/quicktime"), ("webm", "video/webm"),
            ("woff", "font/woff"), ("woff2", "font/woff2"), ("ttf", "font/ttf"), ("otf", "font/otf"),
        ]
        var result: [String: MediaType] = [:]
        for (ext, type) in table { result[ext] = MediaType(type) }
        return result
    }()

    /// The extension of `filename` (lower-cased, no dot), or `nil` when there is none.
    public static func fileExtension(of filename: String) -> String? {
        let name = filename.split(separator: "/").last.map(String.init) ?? filename
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
    }
}
