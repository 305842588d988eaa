import Parley
import Testing

/// `Value.ChildStack`: the finished children of the open containers of a tree being built.
@Suite struct ValueChildStackTests {
    @Test func aClosingContainerTakesItsRunInOrder() {
        var stack = Value.ChildStack<Value>()
        stack.append(.string("outer"))
        let start = stack.count
        for number in 1...5 { stack.append(.integer(Int64(number))) }
        #expect(stack.removeTail(from: start) == (1...5).map { .integer(Int64($0)) })
        #expect(stack.count == 1)
        #expect(stack.children == [.string("outer")])
        #expect(stack.removeTail(from: 1) == [])
    }

    @Test func aChildIsChangedInPlace() {
        var stack = Value.ChildStack<Value.Object.Member>()
        stack.append(Value.Object.Member(key: "id", value: .null))
        stack[stack.count - 1].value = .integer(7)
        #expect(Value.Object(stack.removeTail(from: 0)) == Value.Object([.init(key: "id", value: .integer(7))]))
    }
}
