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
        var busy: [UpstreamKey: Int] = [:]
        var uploading: [UpstreamKey: Int] = [:]
        var waiting: [UpstreamKey: [Waiter]] = [:]
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
            guard Self.fits(uploading: uploading, key, state, limit, uploadLimit) else { return false }
            Self.count(uploading: uploading, key, &state)
            return true
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
            guard Self.fits(uploading: uploading, key, state, limit, uploadLimit) else {
                state.waiting[key, default: []].append(waiter)
                return false
            }
            Self.count(uploading: uploading, key, &state)
            return true
        }
        if now { return granted(UpstreamSlot(key: key, uploading: uploading, slots: self)) }
        eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            let expired = state.withLockedValue { state -> Bool in
                guard let index = state.waiting[key]?.firstIndex(where: { $0 === waiter }) else { return false }
                state.waiting[key]!.remove(at: index)
                if state.waiting[key]!.isEmpty { state.waiting[key] = nil }
                return true
            }
            if expired { granted(nil) }
        }
    }

    /// Gives back a slot of `key`; the waiters that now fit get theirs.
    fileprivate func give(_ key: UpstreamKey, uploading: Bool) {
        let grants = state.withLockedValue { state -> [Waiter] in
            state.busy[key, default: 1] -= 1
            if uploading { state.uploading[key, default: 1] -= 1 }
            return Self.grant(key, &state, limit, uploadLimit)
        }
        handOut(grants, key)
    }

    /// A slot's request body ended: it no longer counts as an upload.
    fileprivate func uploadEnded(_ key: UpstreamKey) {
        let grants = state.withLockedValue { state -> [Waiter] in
            state.uploading[key, default: 1] -= 1
            return Self.grant(key, &state, limit, uploadLimit)
        }
        handOut(grants, key)
    }

    private func handOut(_ grants: [Waiter], _ key: UpstreamKey) {
        for waiter in grants {
            let slot = UpstreamSlot(key: key, uploading: waiter.uploading, slots: self)
            waiter.eventLoop.execute { waiter.granted(slot) }
        }
    }

    /// Takes the waiters of `key` that fit now, in order, and counts them.
    private static func grant(_ key: UpstreamKey, _ state: inout State, _ limit: Int,
                              _ uploadLimit: Int) -> [Waiter] {
        guard var waiting = state.waiting[key] else { return [] }
        var grants: [Waiter] = []
        var index = 0
        while index < waiting.count, state.busy[key, default: 0] < limit {
            let waiter = waiting[index]
            if fits(uploading: waiter.uploading, key, state, limit, uploadLimit) {
                count(uploading: waiter.uploading, key, &state)
                grants.append(waiter)
                waiting.remove(at: index)
            } else {
                index += 1
            }
        }
        state.waiting[key] = waiting.isEmpty ? nil : waiting
        return grants
    }

    private static func fits(uploading: Bool, _ key: UpstreamKey, _ state: State, _ limit: Int,
                             _ uploadLimit: Int) -> Bool {
        state.busy[key, default: 0] < limit && (!uploading || state.uploading[key, default: 0] < uploadLimit)
    }

    private static func count(uploading: Bool, _ key: UpstreamKey, _ state: inout State) {
        state.busy[key, default: 0] += 1
        if uploading { state.uploading[key, default: 0] += 1 }
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
