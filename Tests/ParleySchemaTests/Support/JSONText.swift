import Parley
import ParleyJSON

/// A value from JSON text, for schemas and instances written inline in tests.
func json(_ text: String) throws -> Value {
    try JSONFormat().decode(Array(text.utf8))
}
