import FoundationEssentials
import Parley
import ParleyHTTP
import ParleyJSON

/// Renders one exchange of the HTML report: its table row, and what expanding it shows (header
/// fields, the body as decoded, a mislabelled body's label against what it is, a snapshot
/// mismatch side by side). Every piece of recorded text goes through ``HTMLText``; nothing
/// from a recording becomes a link, an attribute name, a tag or a script.
struct HTMLExchangeView {
    let limits: HTMLReportLimits

    /// The main table row: file#index, method, URL, status, Content-Type, format, outcome, findings.
    func row(_ result: ExchangeResult) -> String {
        let findings = result.findings.map { finding in
            let message = finding.message.count > 240 ? String(finding.message.prefix(240)) + "…" : finding.message
            return "<li class=\"sev-\(finding.severity)\"><b>\(finding.kind.rawValue)</b> "
                + "\(HTMLText.escaped(message, keepingLines: true))</li>"
        }.joined()
        return "<tr class=\"main\"><th scope=\"row\"><span class=\"file\">\(e(result.path))</span>#\(result.index)</th>"
            + "<td>\(e(result.method))</td><td class=\"url\">\(e(result.url))</td><td>\(result.status)</td>"
            + "<td>\(e(result.contentType ?? ""))</td><td>\(e(result.format ?? ""))</td>"
            + "<td><span class=\"badge \(result.outcome)\">\(result.outcome)</span></td>"
            + "<td>\(findings.isEmpty ? "" : "<ul class=\"findings\">\(findings)</ul>")</td></tr>"
    }

    /// The expandable row under the main row; `content` is its body (empty when a script fills it later).
    func detailsRow(_ result: ExchangeResult, content: String) -> String {
        let size = result.detail.map { HTMLText.byteCount($0.bodyByteCount) } ?? HTMLText.byteCount(result.bodyBytes)
        return "<tr class=\"more\"><td colspan=\"8\"><details><summary>Headers and body "
            + "<span class=\"dim\">(\(size))</span></summary>\(content)</details></td></tr>"
    }

    /// What expanding the row shows; `previewAllowed` is false once the page's preview budget is spent.
    func details(_ result: ExchangeResult, previewAllowed: Bool) -> String {
        var html = "<div class=\"detail\">"
        if !result.findings.isEmpty {
            html += "<h4>Findings</h4><ul class=\"findings full\">" + result.findings.map {
                "<li class=\"sev-\($0.severity)\"><b>\($0.severity) \($0.kind.rawValue)</b> "
                    + "<span class=\"msg\">"
                    + "\(HTMLText.escaped($0.message + $0.pathsText, keepingLines: true))</span></li>"
            }.joined() + "</ul>"
        }
        guard let detail = result.detail else { return html + "</div>" }
        if let sniffed = detail.sniffedType {
            html += "<p class=\"mislabel\"><span>Labelled <code>\(e(result.contentType ?? "(none)"))</code></span>"
                + "<span> but the bytes are <code>\(e(sniffed.description))</code></span></p>"
        }
        html += "<div class=\"fields\">" + fields("Request header fields", detail.requestFields)
            + fields("Response header fields (\(result.status)\(detail.reason.isEmpty ? "" : " " + e(detail.reason)))",
                     detail.responseFields)
            + "</div>"
        html += "<h4>Body</h4>"
        guard previewAllowed else {
            let budget = HTMLText.byteCount(limits.maxPreviewCharactersInReport)
            return html + "<p class=\"cut\">Preview left out: the page's preview budget (\(budget)) is used up.</p>"
                + "</div>"
        }
        if let snapshot = detail.snapshot, let actual = detail.preview {
            let paths = Set(snapshot.paths)
            var left = TreeBudget(nodes: limits.maxTreeNodes), right = TreeBudget(nodes: limits.maxTreeNodes)
            html += "<div class=\"side\"><section><h5>Expected (\(snapshot.match) snapshot)</h5>"
                + tree(snapshot.expected.root, highlighting: paths, budget: &left)
                + "</section><section><h5>Actual</h5>" + tree(actual.root, highlighting: paths, budget: &right)
                + "</section></div>"
            return html + "</div>"
        }
        let violations = result.findings.filter { $0.instancePath != nil || $0.schemaPath != nil }
        var marked: Set<String> = []
        if !violations.isEmpty {
            html += "<table class=\"kv contract\"><caption>Contract violations</caption><thead><tr>"
                + "<th scope=\"col\">Value at</th><th scope=\"col\">Offending value</th><th scope=\"col\">Violated " +
                  "schema path</th></tr></thead><tbody>"
            for finding in violations.prefix(limits.maxFields) {
                let value = finding.value.map(valueText) ?? ""
                let instancePath = finding.instancePath.map { $0.isEmpty ? "/" : $0 } ?? ""
                html += "<tr><td><code class=\"instance-path\">\(e(instancePath))</code></td>"
                    + "<td><code class=\"offending-value\">\(e(value))</code></td>"
                    + "<td><code class=\"schema-path\">\(e(finding.schemaPath ?? ""))</code></td></tr>"
                if let pointer = finding.instancePath, let value = detail.preview?.root,
                   let path = Self.treePath(ofPointer: pointer, in: value) {
                    marked.insert(path)
                }
            }
            html += "</tbody></table>"
        }
        return html + body(result, detail, highlighting: marked) + "</div>"
    }

    /// A value as compact JSON for the violations table, cut to 200 characters.
    private func valueText(_ value: Value) -> String {
        let text = (try? JSONFormat().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? value.kindName
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// A JSON Pointer (`/0/title`) as the tree's path (`$[0].title`), reading `value` to tell
    /// array indices from object keys; `nil` when it names nothing there.
    static func treePath(ofPointer pointer: String, in value: ValuePreview.Node) -> String? {
        var path = "$"
        var current = value
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = String(token).replacing("~1", with: "/").replacing("~0", with: "~")
            switch current {
            case .array(_, let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                path += "[\(index)]"
                current = items[index]
            case .object(_, let members):
                guard let next = members.first(where: { $0.key == key }) else { return nil }
                path += "." + key
                current = next.value
            default: return nil
            }
        }
        return path
    }

    // MARK: Pieces

    private func e(_ text: String) -> String { HTMLText.escaped(text) }

    private func fields(_ title: String, _ fields: RecordedFields) -> String {
        var html = "<section><h5>\(title)</h5>"
        if fields.isEmpty { return html + "<p class=\"dim\">none recorded</p></section>" }
        html += "<table class=\"kv\"><tbody>"
        for field in fields.fields.prefix(limits.maxFields) {
            let value = field.value.count > limits.maxFieldCharacters
                ? e(String(field.value.prefix(limits.maxFieldCharacters)))
                    + "<span class=\"cut\"> … cut at \(limits.maxFieldCharacters) of \(field.value.count)"
                    + " characters</span>"
                : e(field.value)
            html += "<tr><th scope=\"row\">\(e(field.name))</th><td>\(value)</td></tr>"
        }
        html += "</tbody></table>"
        if fields.fields.count > limits.maxFields {
            html += "<p class=\"cut\">… \(fields.fields.count - limits.maxFields) more fields not shown</p>"
        }
        return html + "</section>"
    }

    private func body(_ result: ExchangeResult, _ detail: ExchangeDetail, highlighting: Set<String>) -> String {
        if detail.bodyByteCount == 0 { return "<p class=\"dim\">empty</p>" }
        let size = HTMLText.byteCount(detail.bodyByteCount)
        if let preview = detail.preview {
            let value = preview.root
            if result.format == "image", let image = image(value, detail) { return image }
            if result.format == "csv", case .array(let count, let records) = value { return csv(records, count: count) }
            if case .string(let text, let byteCount) = value {
                return textPreview(text, note: "text, \(charset(result)), \(size)",
                                   total: byteCount, kept: text.utf8.count)
            }
            var budget = TreeBudget(nodes: limits.maxTreeNodes)
            let tree = tree(value, highlighting: highlighting, budget: &budget)
            let cut = budget.cut > 0
                ? "<p class=\"cut\">… cut: \(budget.cut) more members not shown, with what they hold"
                    + " (the preview shows \(limits.maxTreeNodes) values)</p>"
                : ""
            return "<p class=\"dim\">Decoded by \(e(result.format ?? "?")) from \(size)</p>" + tree + cut
        }
        // Not decoded: an image whose bytes are another kind still shows; otherwise the bytes as text.
        if let sniffed = detail.sniffedType,
           let image = inlineImage(detail, mediaType: sniffed.essence,
                                   caption: "\(e(sniffed.essence)), as its bytes really are") {
            return image
        }
        let text = String(decoding: detail.body.prefix(limits.maxTextCharacters * 4), as: UTF8.self)
        return textPreview(text, note: "not decoded: the stored bytes read as UTF-8, \(size)",
                           total: detail.bodyByteCount, kept: detail.body.count)
    }

    private func charset(_ result: ExchangeResult) -> String {
        if let charset = result.contentType.flatMap(MediaType.init)?.charset {
            return "charset \(e(charset)) (from Content-Type)"
        }
        return "no charset parameter (the format's default)"
    }

    /// `text` (the first `kept` bytes of `total`) cut to ``HTMLReportLimits/maxTextCharacters``,
    /// and what was cut, with the whole text's size.
    private func textPreview(_ text: String, note: String, total: Int, kept: Int) -> String {
        var html = "<p class=\"dim\">\(note)</p><pre class=\"text\">"
        let shown = text.prefix(limits.maxTextCharacters)
        html += HTMLText.escaped(String(shown), keepingLines: true) + "</pre>"
        if shown.count < text.count || kept < total {
            html += "<p class=\"cut\">… cut: showing the first \(HTMLText.grouped(shown.count)) characters"
                + " of \(HTMLText.byteCount(total))</p>"
        }
        return html
    }

    private func image(_ value: ValuePreview.Node, _ detail: ExchangeDetail) -> String? {
        guard case .scalar(let widthValue)? = value["width"], let width = widthValue.integerValue,
              case .scalar(let heightValue)? = value["height"], let height = heightValue.integerValue,
              case .string(let type, _)? = value["mediaType"] else { return nil }
        let kind: String
        if case .string(let format, _)? = value["format"] { kind = format } else { kind = "image" }
        let caption = "\(e(kind)), \(width) × \(height), \(HTMLText.byteCount(detail.bodyByteCount))"
        return inlineImage(detail, mediaType: type, caption: caption, width: width, height: height)
            ?? "<p>\(caption)</p><p class=\"cut\">Not inlined: larger than "
                + "\(HTMLText.byteCount(limits.maxImageBytes)).</p>"
    }

    /// Raster types a browser shows and that carry no script; anything else is never inlined.
    static let inlineImageTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    private func inlineImage(_ detail: ExchangeDetail, mediaType: String, caption: String,
                             width: Int64? = nil, height: Int64? = nil) -> String? {
        guard Self.inlineImageTypes.contains(mediaType), detail.hasWholeBody,
              detail.body.count <= limits.maxImageBytes else { return nil }
        let size = width.flatMap { w in
            height.map { h in " width=\"\(min(w, 480))\" height=\"\(w > 480 ? h * 480 / max(w, 1) : h)\"" }
        } ?? ""
        let data = Data(detail.body).base64EncodedString()
        return "<figure class=\"image\"><img alt=\"the response body\"\(size) src=\"data:\(mediaType);base64,\(data)\">"
            + "<figcaption>\(caption)</figcaption></figure>"
    }

    /// The kept `records` of a table of `count` as rows.
    private func csv(_ records: [ValuePreview.Node], count: Int) -> String {
        var html = "<table class=\"csv\">"
        if case .object(_, let first)? = records.first {
            html += "<thead><tr>" + first.map { "<th scope=\"col\">\(e($0.key))</th>" }.joined() + "</tr></thead>"
        }
        html += "<tbody>"
        let shown = records.prefix(limits.maxCSVRows)
        for record in shown {
            let cells: [ValuePreview.Node]
            switch record {
            case .object(_, let members): cells = members.map(\.value)
            case .array(_, let items): cells = items
            default: cells = [record]
            }
            html += "<tr>" + cells.map { "<td>\(e(cellText($0)))</td>" }.joined() + "</tr>"
        }
        html += "</tbody></table>"
        if shown.count < count {
            html += "<p class=\"cut\">… cut: showing the first \(shown.count) of \(HTMLText.grouped(count))"
                + " records</p>"
        }
        return html
    }

    /// A table cell's text: a string as it is, anything else in its compact JSON form.
    private func cellText(_ node: ValuePreview.Node) -> String {
        switch node {
        case .string(let text, _): text
        case .scalar(let value): value.stringValue ?? TypedJSONText.compact(value)
        case .bytes(let count): "\(HTMLText.byteCount(count)) of data"
        case .array(let count, _): "array of \(count)"
        case .object(let count, _): "object of \(count)"
        case .tagged(let tag, _): "!\(tag)"
        }
    }

    /// What is left of the nodes a tree may show.
    struct TreeBudget {
        var nodes: Int
        var cut = 0
    }

    /// `value` as a tree of nested lists; levels past ``HTMLReportLimits/openDepth`` start
    /// collapsed, and paths in `highlighting` (with their ancestors) are marked and open. A
    /// container says its real member count, and how many of them are not shown.
    func tree(_ value: ValuePreview.Node, highlighting: Set<String>, budget: inout TreeBudget) -> String {
        var html = "<ul class=\"tree\">"
        node(nil, value, path: "$", depth: 0, highlighting: highlighting, budget: &budget, into: &html)
        return html + "</ul>"
    }

    private func node(_ key: String?, _ value: ValuePreview.Node, path: String, depth: Int, highlighting: Set<String>,
                      budget: inout TreeBudget, into html: inout String) {
        guard budget.nodes > 0 else { budget.cut += 1; return }
        budget.nodes -= 1
        let marked = highlighting.contains(path)
        let label = key.map { "<span class=\"key\">\(e($0))</span>: " } ?? ""
        // The real count, and the members the preview kept (reached by position).
        let count = value.memberCount
        let kept: Int
        let child: (Int) -> (key: String, path: String, value: ValuePreview.Node)
        let kind: String
        switch value {
        case .array(_, let items):
            kept = items.count
            child = { ("[\($0)]", "\(path)[\($0)]", items[$0]) }
            kind = "array of \(count)"
        case .object(_, let members):
            kept = members.count
            child = { let member = members[$0]; return (member.key, "\(path).\(member.key)", member.value) }
            kind = "object of \(count)"
        case .tagged(let tag, let inner):
            let items = inner.map { [$0] } ?? []
            kept = items.count
            child = { ("value", path, items[$0]) }
            kind = "!\(e(tag))"
        default:
            html += "<li\(marked ? " class=\"diff\"" : "")>\(label)\(scalar(value))</li>"
            return
        }
        if count == 0 {
            html += "<li\(marked ? " class=\"diff\"" : "")>\(label)<span class=\"dim\">\(kind)</span></li>"
            return
        }
        guard depth < limits.maxTreeDepth else {
            html += "<li>\(label)<span class=\"cut\">\(kind), deeper levels not shown</span></li>"
            return
        }
        let holdsDifference = !highlighting.isEmpty && highlighting.contains { $0.hasPrefix(path) }
        let open = depth < limits.openDepth || holdsDifference
        html += "<li\(marked ? " class=\"diff\"" : "")><details\(open ? " open" : "")>"
            + "<summary>\(label)<span class=\"dim\">\(kind)</span></summary><ul>"
        var shown = 0
        while shown < kept, budget.nodes > 0 {
            let (childKey, childPath, childValue) = child(shown)
            node(childKey, childValue, path: childPath, depth: depth + 1, highlighting: highlighting,
                 budget: &budget, into: &html)
            shown += 1
        }
        if shown < count {
            budget.cut += count - shown
            html += "<li class=\"cut\">… \(HTMLText.grouped(count - shown)) more not shown</li>"
        }
        html += "</ul></details></li>"
    }

    private func scalar(_ value: ValuePreview.Node) -> String {
        switch value {
        case .string(let text, let byteCount):
            let shown = String(text.prefix(limits.maxStringCharacters))
            let size = HTMLText.byteCount(byteCount)
            let cut = shown.utf8.count < byteCount
                ? "<span class=\"cut\"> … cut at \(HTMLText.grouped(shown.count)) characters of \(size)</span>"
                : ""
            return "<span class=\"str\">\"\(e(shown))\"</span>" + cut
        case .bytes(let count): return "<span class=\"dim\">\(HTMLText.byteCount(count)) of data</span>"
        case .scalar(let value): return scalar(value)
        default: return ""
        }
    }

    private func scalar(_ value: Value) -> String {
        switch value {
        case .null: return "<span class=\"lit\">null</span>"
        case .bool(let b): return "<span class=\"lit\">\(b)</span>"
        case .integer(let i): return "<span class=\"num\">\(i)</span>"
        case .float(let d): return "<span class=\"num\">\(d)</span>"
        case .number(let n): return "<span class=\"num\">\(e(n))</span>"
        case .date(let d): return "<span class=\"num\">\(e(d.formatted(.iso8601)))</span>"
        default: return e(TypedJSONText.compact(value))
        }
    }
}
