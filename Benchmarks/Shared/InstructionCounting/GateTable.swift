/// `text` padded with spaces to `width` characters, on the left when `right` is set.
public func column(_ text: String, _ width: Int, right: Bool = false) -> String {
    let pad = String(repeating: " ", count: max(0, width - text.count))
    return right ? pad + text : text + pad
}

/// `count` with thousands separators: `1,234,567`.
public func grouped(_ count: Int) -> String {
    let digits = Array(String(count.magnitude))
    var out = count < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { out += "," }
        out.append(digit)
    }
    return out
}
