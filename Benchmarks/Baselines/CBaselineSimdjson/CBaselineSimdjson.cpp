#include "CBaselineSimdjson.h"
#include <simdjson.h>

static size_t walk(simdjson::dom::element element) {
    switch (element.type()) {
    case simdjson::dom::element_type::ARRAY: {
        size_t visited = 1;
        for (simdjson::dom::element child : simdjson::dom::array(element)) visited += walk(child);
        return visited;
    }
    case simdjson::dom::element_type::OBJECT: {
        size_t visited = 1;
        for (simdjson::dom::key_value_pair field : simdjson::dom::object(element))
            visited += walk(field.value) + field.key.size();
        return visited;
    }
    case simdjson::dom::element_type::STRING:
        return std::string_view(element).size();
    default:
        return 1;
    }
}

extern "C" size_t simdjson_parse_and_walk(const uint8_t *input, size_t length) {
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(input, length).get(root) != simdjson::SUCCESS) return (size_t)-1;
    return walk(root);
}

extern "C" int simdjson_parse_only(const uint8_t *input, size_t length) {
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(input, length).get(root) != simdjson::SUCCESS) return 0;
    return (int)(char)root.type();
}
