#include "CBaselineYAML.h"
#include <yaml.h>

volatile unsigned baseline_yaml_checksum;

long baseline_yaml_event_loop(const unsigned char *input, size_t length, size_t *scalar_bytes_out) {
    yaml_parser_t parser;
    yaml_event_t event;
    long events = 0;
    size_t scalar_bytes = 0;
    unsigned checksum = 0;
    if (!yaml_parser_initialize(&parser)) return -1;
    yaml_parser_set_input_string(&parser, input, length);
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) {
            yaml_parser_delete(&parser);
            return -1;
        }
        events += 1;
        if (event.type == YAML_SCALAR_EVENT) {
            // Read every byte of the scalar libyaml copied out, as a program using it does.
            const unsigned char *value = event.data.scalar.value;
            for (size_t i = 0; i < event.data.scalar.length; i++) checksum = checksum * 31 + value[i];
            scalar_bytes += event.data.scalar.length;
        }
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (done) break;
    }
    yaml_parser_delete(&parser);
    baseline_yaml_checksum = checksum; // so the reads cannot be optimised away
    if (scalar_bytes_out) *scalar_bytes_out = scalar_bytes;
    return events;
}
