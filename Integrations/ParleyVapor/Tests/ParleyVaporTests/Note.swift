import Vapor

/// A resource of strings only: XML and CSV hold no numbers or Booleans, every scalar they
/// decode is a string, so this is what round-trips through them as Codable.
struct Note: Content, Equatable {
    var title: String
    var author: String
    var tags: [String]
}

/// A CSV record of strings.
struct Line: Content, Equatable {
    var id: String
    var name: String
}

let note = Note(title: "Sketch of the Analytical Engine", author: "Ada Lovelace", tags: ["notes", "engines"])
