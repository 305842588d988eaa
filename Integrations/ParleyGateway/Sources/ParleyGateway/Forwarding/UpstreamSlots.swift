import NIOConcurrencyHelpers
import NIOCore

/// How many HTTP/1.1 connections to each upstream are busy with an exchange, across every event
/// loop, and who waits for one: at most ``limit`` at once, of which at most ``uploadLimit`` may be
/// held by exchanges whose request body is still arriving. The rest is kept for requests that are
/// ready (their body held whole), so slow uploads cannot take every connection an upstream serves.
/// A request over the limit waits for a connection to come free, first come first served among
/// those that may take it. An h2c upstream's streams share connections: only a stream whose request
/// body is still arriving holds a slot, until that body ends, so uploads count against
/// ``uploadLimit`` whatever the upstream's protocol.
final class UpstreamSlots: Sendable {
    let limit: Int
    let uploadLimit: Int
    private let state = NIOLockedValueBox(State())

    private struct State: Sendable {
        /// Each upstream's count and waiters, looked up once for each slot taken or given back.
        var upstreams: [UpstreamKey: Upstream] = [:]
    }

    /// One upstream's busy connections, those of them whose request body is still arriving, and
    /// the requests waiting for one, first come first.
    private struct Upstream: Sendable {
        var busy = 0
        var uploading = 0
        var waiting: [Waiter] = []

        func fits(uploading: Bool, _ limit: Int, _ uploadLimit: Int) -> Bool {
            busy < limit && (!uploading || self.uploading < uploadLimit)
        }

        mutating func count(uploading: Bool) {
            busy += 1
            if uploading { self.uploading += 1 }
        }

        /// Counts a slot taken when it fits (true), else queues `waiter`, if any (false).
        mutating func takeIfFits(uploading: Bool, _ limit: Int, _ uploadLimit: Int,
                                 orQueue waiter: Waiter? = nil) -> Bool {
            guard fits(uploading: uploading, limit, uploadLimit) else {
                if let waiter { waiting.append(waiter) }
                return false
            }
            count(uploading: uploading)
            return true
        }

        /// Gives back a slot; returns the waiters that now fit, counted.
        mutating func give(uploading: Bool, _ limit: Int, _ uploadLimit: Int) -> [Waiter] {
            busy -= 1
            if uploading { self.uploading -= 1 }
            return grant(limit, uploadLimit)
        }

        /// A slot's body ended; returns the waiters that now fit, counted.
        mutating func uploadEnded(_ limit: Int, _ uploadLimit: Int) -> [Waiter] {
            uploading -= 1
            return grant(limit, uploadLimit)
        }

        /// Takes the waiters that fit now, in order, and counts them.
        mutating func grant(_ limit: Int, _ uploadLimit: Int) -> [Waiter] {
            guard !waiting.isEmpty else { return [] }
            var grants: [Waiter] = []
            var index = 0
            while index < waiting.count, busy < limit {
                let waiter = waiting[index]
                if fits(uploading: waiter.uploading, limit, uploadLimit) {
                    count(uploading: waiter.uploading)
                    grants.append(waiter)
                    waiting.remove(at: index)
                } else {
                    index += 1
                }
            }
            return grants
        }
    }

    init(limit: Int, uploadLimit: Int) {
        self.limit = limit
        self.uploadLimit = min(uploadLimit, limit)
    }

    /// One request waiting for a slot: granted on its own event loop.
    final class Waiter: @unchecked Sendable {
        let eventLoop: any EventLoop
        let uploading: Bool
        /// Called once, on `eventLoop`, with the slot (or `nil` when the wait timed out).
        fileprivate let granted: (UpstreamSlot?) -> Void

        fileprivate init(eventLoop: any EventLoop, uploading: Bool, granted: @escaping (UpstreamSlot?) -> Void) {
            self.eventLoop = eventLoop
            self.uploading = uploading
            self.granted = granted
        }
    }

    /// A slot for an exchange with `key` when one is free now, else `nil` (then ``take(_:uploading:on:timeout:_:)``
    /// waits for one). `uploading`: the request's body is still arriving.
    func takeNow(_ key: UpstreamKey, uploading: Bool) -> UpstreamSlot? {
        let taken = state.withLockedValue { state -> Bool in
            state.upstreams[key, default: Upstream()].takeIfFits(uploading: uploading, limit, uploadLimit)
        }
        return taken ? UpstreamSlot(key: key, uploading: uploading, slots: self) : nil
    }

    /// Hands `granted` a slot for an exchange with `key` (on `eventLoop`, at once when one is free),
    /// or `nil` when none came free within `timeout`. `uploading`: the request's body is still arriving.
    func take(_ key: UpstreamKey, uploading: Bool, on eventLoop: any EventLoop, timeout: TimeAmount,
              _ granted: @escaping (UpstreamSlot?) -> Void) {
        let waiter = Waiter(eventLoop: eventLoop, uploading: uploading, granted: granted)
        let now = state.withLockedValue { state -> Bool in
            // Whoever waits does not fit now (each slot given back goes to the first that fits).
            state.upstreams[key, default: Upstream()].takeIfFits(uploading: uploading, limit, uploadLimit,
                                                                 orQueue: waiter)
        }
        if now { return granted(UpstreamSlot(key: key, uploading: uploading, slots: self)) }
        eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            let expired = state.withLockedValue { state -> Bool in
                guard let index = state.upstreams[key]?.waiting.firstIndex(where: { $0 === waiter }) else {
                    return false
                }
                state.upstreams[key]!.waiting.remove(at: index)
                return true
            }
            if expired { granted(nil) }
        }
    }

    /// Gives back a slot of `key`; the waiters that now fit get theirs.
    fileprivate func give(_ key: UpstreamKey, uploading: Bool) {
        let grants = state.withLockedValue { state -> [Waiter] in
            state.upstreams[key, default: Upstream()].give(uploading: uploading, limit, uploadLimit)
        }
        handOut(grants, key)
    }

    /// A slot's request body ended: it no longer counts as an upload.
    fileprivate func uploadEnded(_ key: UpstreamKey) {
        let grants = state.withLockedValue { state -> [Waiter] in
            state.upstreams[key, default: Upstream()].uploadEnded(limit, uploadLimit)
        }
        handOut(grants, key)
    }

    private func handOut(_ grants: [Waiter], _ key: UpstreamKey) {
        for waiter in grants {
            let slot = UpstreamSlot(key: key, uploading: waiter.uploading, slots: self)
            waiter.eventLoop.execute { waiter.granted(slot) }
        }
    }
}

/// One busy connection's place among an upstream's ``UpstreamSlots``, held by the connection while
/// an exchange uses it and given back (once) when the exchange lets it go. A value with one owner
/// at a time (the exchange waiting for a connection, then the connection), so taking one
/// allocates nothing.
struct UpstreamSlot: Sendable {
    private let key: UpstreamKey
    private var uploading: Bool
    private var slots: UpstreamSlots?

    fileprivate init(key: UpstreamKey, uploading: Bool, slots: UpstreamSlots) {
        self.key = key
        self.uploading = uploading
        self.slots = slots
    }

    /// The exchange's request body ended (an h2c stream's slot is then given back).
    mutating func uploadEnded() {
        guard uploading else { return }
        if key.upstreamProtocol == .h2c { return give() }
        uploading = false
        slots?.uploadEnded(key)
    }

    /// Gives the slot back; later calls do nothing.
    mutating func give() {
        guard let slots else { return }
        self.slots = nil
        slots.give(key, uploading: uploading)
    }
}
