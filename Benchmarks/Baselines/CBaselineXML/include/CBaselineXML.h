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
/// callbacks that copy nothing: the raw speed a C user calling libxml2 directly gets.
baseline_xml_counts baseline_xml_sax2_count(const char *bytes, size_t length);

/// The same parse, building the strings ParleyXML's string events (XML.Event) hold, each a
/// malloc'ed copy freed after its event: every element's local name, prefix and namespace URI
/// (start and end), every attribute's name parts and value (in a malloc'ed array), every
/// namespace declaration, comments, processing instructions, CDATA, and each run of character
/// data between two pieces of markup coalesced into one string. The like-for-like baseline of
/// `XML.EventReader.forEach`. `textBytes` counts the coalesced text's bytes.
baseline_xml_counts baseline_xml_sax2_strings(const char *bytes, size_t length);

#endif
