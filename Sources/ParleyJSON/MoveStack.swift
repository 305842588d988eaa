/// A growable stack that hands its elements out by moving them, so a parser can collect the
/// children of a container and turn them into an array without retaining each one twice.
///
/// Owns its storage and deinitializes whatever is left when released (after an error, say).
final class MoveStack<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always)
    func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    func pop() -> Element {
        count -= 1
        return (base + count).move()
    }

    /// Moves the elements from `start` to the top into a new array, in order.
    @inline(__always)
    func popArray(from start: Int) -> [Element] {
        let n = count - start
        if n == 0 { return [] }
        let source = base + start
        let array = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: n)
            initialized = n
        }
        count = start
        return array
    }

    private func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
