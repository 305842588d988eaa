import Parley

/// The reader's one stack of finished children: map members with their keys, array elements
/// with an empty key. Closing a container moves its children out in one pass, with no copies
/// and no reference-count traffic.
///
/// Owns its storage and deinitializes whatever is left when released (after an error, say).
final class MessagePackMemberStack {
    typealias Member = Value.Object.Member

    private var base: UnsafeMutablePointer<Member>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 8)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func push(key: String, value: Value) {
        if count == capacity { grow() }
        (base + count).initialize(to: Member(key: key, value: value))
        count &+= 1
    }

    /// Sets the value of the top member (pushed with its key and a placeholder value).
    func setTopValue(_ value: Value) {
        (base + count - 1).pointee.value = value
    }

    /// Moves the members from `start` to the top into an array, in order.
    func popMembers(from start: Int) -> [Member] {
        let n = count - start
        if n == 0 { return [] }
        let source = base + start
        let members = [Member](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: n)
            initialized = n
        }
        count = start
        return members
    }

    /// Moves the values of the members from `start` to the top into an array, in order.
    func popValues(from start: Int) -> [Value] {
        let n = count - start
        if n == 0 { return [] }
        let source = base + start
        let values = [Value](unsafeUninitializedCapacity: n) { buffer, initialized in
            let target = buffer.baseAddress!
            for i in 0..<n {
                (target + i).initialize(to: (source + i).move().value)
            }
            initialized = n
        }
        count = start
        return values
    }

    private func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<Member>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
