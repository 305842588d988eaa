import Parley

/// Writes records as RFC 4180 CSV in UTF-8: quoted only where needed, CRLF after every record.
enum CSVWriter {
    static func write(_ value: Value, writesHeader: Bool) throws(FormatError) -> [UInt8] {
        guard case .array(let records) = value else {
            throw unsupported("CSV holds an array of records, not \(value.kindName)")
        }
        var out: [UInt8] = []
        out.reserveCapacity(records.count * 32)
        guard let first = records.first else { return out }
        if case .object = first {
            var keys: [String] = []
            var seen = Set<String>()
            for record in records {
                guard case .object(let object) = record else {
                    throw unsupported("records mix objects and \(record.kindName)s")
                }
                for member in object where seen.insert(member.key).inserted { keys.append(member.key) }
            }
            guard !keys.isEmpty else { throw unsupported("records of no fields have no CSV form") }
            if writesHeader { writeRecord(keys, to: &out) }
            for record in records {
                guard case .object(let object) = record else { continue }
                var fields: [String] = []
                fields.reserveCapacity(keys.count)
                for key in keys { fields.append(try object[key].map(text(of:)) ?? "") }
                writeRecord(fields, to: &out)
            }
        } else {
            for record in records {
                guard case .array(let elements) = record else {
                    throw unsupported("a record must be an object or an array, not \(record.kindName)")
                }
                guard !elements.isEmpty else { throw unsupported("a record of no fields has no CSV form") }
                var fields: [String] = []
                fields.reserveCapacity(elements.count)
                for element in elements { fields.append(try text(of: element)) }
                writeRecord(fields, to: &out)
            }
        }
        return out
    }

    static func writeRecord(_ fields: [String], to out: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(.comma) }
            let utf8 = field.utf8
            // An empty only field is quoted so the record is not an empty line; a U+FEFF opening
            // the body is quoted so a reader does not take it for a byte-order mark.
            let needsQuotes = (fields.count == 1 && utf8.isEmpty)
                || (out.isEmpty && utf8.starts(with: [0xEF, 0xBB, 0xBF]))
                || utf8.contains { $0 == .comma || $0 == .quote || $0 == .lineFeed || $0 == .carriageReturn }
            guard needsQuotes else {
                out.append(contentsOf: utf8)
                continue
            }
            out.append(.quote)
            for byte in utf8 {
                if byte == .quote { out.append(.quote) }
                out.append(byte)
            }
            out.append(.quote)
        }
        out.append(.carriageReturn)
        out.append(.lineFeed)
    }

    static func text(of value: Value) throws(FormatError) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .float(let d):
            guard d.isFinite else { throw unsupported("\(d) has no CSV form") }
            return "\(d)"
        case .number(let text): return text
        case .string(let s): return s
        case .bytes(let b): return Base64Text.string(from: b)
        case .date(let d):
            guard let text = ISO8601Text.string(from: d) else {
                throw unsupported(ISO8601Text.noTimestampMessage(for: d))
            }
            return text
        case .tagged(_, let inner): return try text(of: inner)
        case .array, .object: throw unsupported("a field cannot hold a nested \(value.kindName)")
        }
    }

    static func unsupported(_ message: String) -> FormatError {
        FormatError(.unsupportedValue, format: CSVFormat.formatName, message)
    }
}
