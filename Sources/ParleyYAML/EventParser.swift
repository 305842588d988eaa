internal import CParleyYAML
import Parley

/// The one owner of a libyaml parser and its current event.
///
/// Both C structs live on the heap because libyaml keeps their addresses between calls; the
/// initialiser sets the input and ``deinit`` frees the event and the parser.
final class EventParser {
    let parser: UnsafeMutablePointer<yaml_parser_t>
    let event: UnsafeMutablePointer<yaml_event_t>
    private var holdsEvent = false
    private var isParserInitialized = false
    /// A one-byte stand-in for an empty body, whose buffer may have no address.
    private let emptyInput: UnsafeMutablePointer<UInt8>?
    private let input: UnsafeRawBufferPointer
    private let format: String
    private let reportsByteOffsets: Bool

    /// Creates a parser reading `input`, which must stay valid for the parser's lifetime.
    ///
    /// - Throws: ``FormatError/Code/malformed`` when libyaml cannot allocate its parser.
    init(_ input: UnsafeRawBufferPointer, format: String, reportsByteOffsets: Bool) throws(FormatError) {
        self.input = input
        self.format = format
        self.reportsByteOffsets = reportsByteOffsets
        parser = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        emptyInput = input.baseAddress == nil ? .allocate(capacity: 1) : nil
        // Fully initialised from here: a throw runs `deinit`, which frees what was allocated.
        guard yaml_parser_initialize(parser) == 1 else {
            throw FormatError(.malformed, format: format, "libyaml could not create a parser")
        }
        isParserInitialized = true
        if let base = input.baseAddress {
            yaml_parser_set_input_string(parser, base.assumingMemoryBound(to: UInt8.self), input.count)
        } else if let emptyInput {
            yaml_parser_set_input_string(parser, emptyInput, 0)
        }
    }

    deinit {
        if holdsEvent { yaml_event_delete(event) }
        if isParserInitialized { yaml_parser_delete(parser) }
        parser.deallocate()
        event.deallocate()
        emptyInput?.deallocate()
    }

    /// Reads the next event into ``event``, releasing the previous one.
    ///
    /// - Throws: the libyaml error converted to ``FormatError``.
    func next() throws(FormatError) {
        if holdsEvent {
            yaml_event_delete(event)
            holdsEvent = false
        }
        guard yaml_parser_parse(parser, event) == 1 else { throw currentError() }
        holdsEvent = true
    }

    /// Whether the current event ends the stream.
    var isAtStreamEnd: Bool { event.pointee.type == YAML_STREAM_END_EVENT }

    /// The 1-based location of the current event's start.
    var eventLocation: FormatError.Location {
        location(of: event.pointee.start_mark)
    }

    func location(of mark: yaml_mark_t) -> FormatError.Location {
        let line = Int(mark.line) + 1
        let column = Int(mark.column) + 1
        return FormatError.Location(byteOffset: reportsByteOffsets ? byteOffset(line: line, column: column) : nil,
                                    line: line, column: column)
    }

    /// Converts libyaml's error state into a ``FormatError``.
    private func currentError() -> FormatError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown libyaml error"
        switch state.error {
        case YAML_READER_ERROR:
            let offset = Int(state.problem_offset)
            return FormatError(.invalidText, format: format, "\(problem) (byte \(offset))",
                               location: FormatError.Location(byteOffset: reportsByteOffsets ? offset : nil))
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR, YAML_COMPOSER_ERROR:
            var message = problem
            if let context = state.context {
                message = "\(String(cString: context)): \(problem)"
            }
            let location = location(of: state.problem_mark)
            let atEnd = location.byteOffset.map { $0 >= input.count } ?? false
            return FormatError(atEnd ? .truncated : .malformed, format: format, message, location: location)
        case YAML_MEMORY_ERROR:
            return FormatError(.malformed, format: format, "libyaml ran out of memory")
        default:
            return FormatError(.malformed, format: format, "libyaml error \(state.error.rawValue): \(problem)")
        }
    }

    /// The byte offset of a 1-based line and character column, counting line breaks as libyaml
    /// does (`\r\n`, `\r`, `\n`, NEL, LS, PS). Only computed on the error path.
    private func byteOffset(line: Int, column: Int) -> Int? {
        let bytes = input.bindMemory(to: UInt8.self)
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        } else if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            return nil  // UTF-16: libyaml's marks count characters, not these bytes
        }
        var currentLine = 1
        while currentLine < line && index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                currentLine += 1
                index += 1
            } else if byte == 0x0D {
                currentLine += 1
                index += (index + 1 < bytes.count && bytes[index + 1] == 0x0A) ? 2 : 1
            } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 {
                currentLine += 1
                index += 2
            } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                      bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                currentLine += 1
                index += 3
            } else {
                index += 1
            }
        }
        var characters = 1
        while characters < column && index < bytes.count {
            let byte = bytes[index]
            index += byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            characters += 1
        }
        return min(index, bytes.count)
    }
}
