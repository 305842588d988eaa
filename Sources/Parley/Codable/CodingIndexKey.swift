/// A coding key for an array index or a fixed name (`"super"`), used in coding paths.
///
/// The text of an index key (`"Index 3"`) is only built when asked for, so pushing one on a
/// coding path costs nothing.
struct CodingIndexKey: CodingKey {
    let intValue: Int?
    private let name: String

    init(stringValue: String) {
        self.name = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.name = ""
        self.intValue = intValue
    }

    var stringValue: String { intValue.map { "Index \($0)" } ?? name }
}
