extension StringProtocol {
    /// The text without leading and trailing spaces and horizontal tabs (HTTP's OWS, RFC 9110
    /// §5.6.3); line breaks and other white space stay.
    package func trimmingSpacesAndTabs() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
