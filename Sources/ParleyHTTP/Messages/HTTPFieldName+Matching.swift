public import HTTPTypes

extension HTTPField.Name {
    /// Whether this is `other`, as `==` says, their lengths compared first: the names a head's
    /// fields are checked against mostly differ from them in length, and `==` compares two
    /// different names as whole strings.
    public func matches(_ other: HTTPField.Name) -> Bool {
        canonicalName.utf8.count == other.canonicalName.utf8.count && self == other
    }
}
