/// Why a tagged scalar could not be constructed.
struct ScalarError: Error {
    var message: String
}
