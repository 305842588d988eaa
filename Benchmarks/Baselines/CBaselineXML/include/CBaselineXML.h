#ifndef CBaselineXML_H
#define CBaselineXML_H
#include <stddef.h>

/// What the baseline SAX2 parse saw.
typedef struct {
    long elements;
    long textBytes;
    int wellFormed;
} baseline_xml_counts;

/// Parses `length` bytes at `bytes` with libxml2's own SAX2 parser (xmlCreateMemoryParserCtxt +
/// xmlParseDocument, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING) with counting
/// callbacks: the baseline a C user calling libxml2 directly gets.
baseline_xml_counts baseline_xml_sax2_count(const char *bytes, size_t length);

#endif
