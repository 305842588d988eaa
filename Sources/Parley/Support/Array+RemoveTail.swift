extension Array {
    /// Removes the elements from `start` on and returns them in order, in an array of exactly
    /// their count: what a builder does when a collection closes whose members sat on a
    /// scratch stack shared by every open collection (the YAML and XML value builders).
    ///
    /// The elements move rather than copy: they leave last first into the result, which then
    /// swaps them back into order through its span. Copying the run out and removing it would
    /// retain every element once and release it again (and `reverse()` copies too).
    ///
    /// `@inlinable`, so each builder gets it specialised for its element type (kept: gated by
    /// XML.decodeValue-1MB and YAML.decode-records-1MB).
    @inlinable
    package mutating func removeTail(from start: Int) -> [Element] {
        var tail: [Element] = []
        tail.reserveCapacity(count - start)
        while count > start { tail.append(removeLast()) }
        var span = tail.mutableSpan
        var low = 0
        var high = span.count - 1
        while low < high {
            span.swapAt(low, high)
            low += 1
            high -= 1
        }
        return tail
    }
}
