#ifndef CBaselineSimdjson_H
#define CBaselineSimdjson_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a user calling simdjson (Debian's libsimdjson-dev) directly gets: a DOM parse of the
   buffer (simdjson copies it into a padded buffer) with a parser reused across calls on the
   thread, as simdjson recommends, then the walk of JSONInputs.swift's walk(_:): 1 for each array,
   object, number, Boolean and null, plus each key's and each string's UTF-8 byte count.
   Returns the walk's total, or (size_t)-1 when simdjson reports an error. */
size_t simdjson_parse_and_walk(const uint8_t *input, size_t length);

/* The DOM parse alone, with the same reused parser: the report's context row on how much of the
   full read is parsing. Returns the root's type as a character ('[' for an array), or 0 when
   simdjson reports an error. */
int simdjson_parse_only(const uint8_t *input, size_t length);

#ifdef __cplusplus
}
#endif

#endif
