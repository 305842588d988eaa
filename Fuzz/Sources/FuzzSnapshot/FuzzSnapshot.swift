import FuzzSupport
import Parley
import ParleyFixtures
import ParleyJSON

let json = JSONFormat()

/// Two JSON values from one input (split at the first NUL byte; the first byte's low bit picks
/// exact or subset), compared as a snapshot entry and the decoded value. Any difference list is
/// fine; a trap, or more differences than asked for, is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let parts = fuzzParts(UnsafeRawBufferPointer(start: start, count: count)) else { return 0 }
    let context = DecodingContext(mediaType: "application/json", limits: fuzzLimits)
    guard let expected = try? json.decode(parts.first, context: context),
          let actual = try? json.decode(parts.second, context: context)
    else { return 0 }
    let entry = Snapshot.Entry(index: 0, match: parts.flags & 1 == 0 ? .exact : .subset, value: expected)
    let differences = entry.differences(from: actual, limit: 8)
    if differences.count > 8 { fatalError("\(differences.count) differences for a limit of 8") }
    if expected == actual, entry.match == .exact, !differences.isEmpty, !hasRepeatedKeys(expected) {
        fatalError("equal values differ: \(differences)")
    }
    return 0
}

/// Whether any object in `value` repeats a key (lookups then see the last member only).
func hasRepeatedKeys(_ value: Value) -> Bool {
    switch value {
    case .object(let object):
        var seen = Set<String>()
        for member in object {
            if !seen.insert(member.key).inserted || hasRepeatedKeys(member.value) { return true }
        }
        return false
    case .array(let items): return items.contains(where: hasRepeatedKeys)
    case .tagged(_, let inner): return hasRepeatedKeys(inner)
    default: return false
    }
}
