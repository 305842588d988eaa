#include "CBaselineXML.h"
#include <stdlib.h>
#include <string.h>
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>

// Two SAX2 baselines over the same parse set-up (run_sax2):
// - baseline_xml_sax2_count: the raw loop, counting and copying nothing (the anchor of the value tree);
// - baseline_xml_sax2_strings: the same strings ParleyXML's string events make, malloc'ed copies.

typedef struct {
    baseline_xml_counts counts;
    // Character data between two pieces of markup, coalesced (as XML.Event.text is).
    char *text;
    size_t textLength, textCapacity;
} strings_state;

static baseline_xml_counts *counts_of(void *ctx) {
    return (baseline_xml_counts *)((xmlParserCtxtPtr)ctx)->_private;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                     const xmlChar **attributes) {
    (void)localname; (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces;
    (void)nb_attributes; (void)nb_defaulted; (void)attributes;
    counts_of(ctx)->elements++;
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)ctx; (void)localname; (void)prefix; (void)uri;
}

static void on_characters(void *ctx, const xmlChar *ch, int len) {
    (void)ch;
    counts_of(ctx)->textBytes += len;
}

/// An owned copy of `length` bytes (NUL-terminated), as a String of them is.
static char *copy(const xmlChar *bytes, size_t length) {
    char *owned = malloc(length + 1);
    memcpy(owned, bytes, length);
    owned[length] = 0;
    return owned;
}

static char *copy_string(const xmlChar *string) { return string ? copy(string, strlen((const char *)string)) : NULL; }

/// A name as XML.Name holds it: local name, prefix and namespace URI, each an owned string.
typedef struct { char *localName, *prefix, *uri; } owned_name;

static owned_name copy_name(const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    return (owned_name){ copy_string(localname), copy_string(prefix), copy_string(uri) };
}

static void free_name(owned_name name) { free(name.localName); free(name.prefix); free(name.uri); }

/// Ends a run of character data: one owned string for it, as one text event.
static void flush_text(strings_state *state) {
    if (state->textLength == 0) return;
    char *text = copy((const xmlChar *)state->text, state->textLength);
    state->counts.textBytes += (long)state->textLength;
    free(text);
    state->textLength = 0;
}

static strings_state *state_of(void *ctx) { return (strings_state *)((xmlParserCtxtPtr)ctx)->_private; }

static void on_start_strings(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                             int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                             const xmlChar **attributes) {
    (void)nb_defaulted;
    strings_state *state = state_of(ctx);
    flush_text(state);
    state->counts.elements++;
    owned_name name = copy_name(localname, prefix, uri);
    // The attributes and namespace declarations, each an array of owned strings.
    typedef struct { owned_name name; char *value; } owned_attribute;
    owned_attribute *owned = nb_attributes > 0 ? malloc(sizeof *owned * (size_t)nb_attributes) : NULL;
    for (int i = 0; i < nb_attributes; i++) {
        const xmlChar **attribute = attributes + 5 * i; // localname, prefix, URI, value, end
        owned[i].name = copy_name(attribute[0], attribute[1], attribute[2]);
        owned[i].value = copy(attribute[3], (size_t)(attribute[4] - attribute[3]));
    }
    char **declared = nb_namespaces > 0 ? malloc(sizeof *declared * 2 * (size_t)nb_namespaces) : NULL;
    for (int i = 0; i < 2 * nb_namespaces; i++) declared[i] = copy_string(namespaces[i]);
    for (int i = 0; i < 2 * nb_namespaces; i++) free(declared[i]);
    free(declared);
    for (int i = 0; i < nb_attributes; i++) { free_name(owned[i].name); free(owned[i].value); }
    free(owned);
    free_name(name);
}

static void on_end_strings(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    strings_state *state = state_of(ctx);
    flush_text(state);
    free_name(copy_name(localname, prefix, uri));
}

static void on_characters_strings(void *ctx, const xmlChar *ch, int len) {
    strings_state *state = state_of(ctx);
    size_t needed = state->textLength + (size_t)len;
    if (needed > state->textCapacity) {
        state->textCapacity = needed > 2 * state->textCapacity ? needed : 2 * state->textCapacity;
        state->text = realloc(state->text, state->textCapacity);
    }
    memcpy(state->text + state->textLength, ch, (size_t)len);
    state->textLength = needed;
}

static void on_comment_strings(void *ctx, const xmlChar *value) {
    strings_state *state = state_of(ctx);
    flush_text(state);
    free(copy_string(value));
}

static void on_processing_instruction_strings(void *ctx, const xmlChar *target, const xmlChar *data) {
    strings_state *state = state_of(ctx);
    flush_text(state);
    free(copy_string(target));
    free(copy_string(data));
}

static void on_cdata_strings(void *ctx, const xmlChar *value, int len) {
    strings_state *state = state_of(ctx);
    flush_text(state);
    free(copy(value, (size_t)len));
}

/// Parses with libxml2's own SAX2 parser (the options of the header), `sax`'s element and text
/// callbacks and `private` as the context's `_private`; returns whether the document was well-formed.
static int run_sax2(const char *bytes, size_t length, xmlSAXHandler *callbacks, void *private) {
    xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(bytes, (int)length);
    if (ctxt == NULL) return 0;
    callbacks->initialized = XML_SAX2_MAGIC;
    callbacks->internalSubset = xmlSAX2InternalSubset;
    callbacks->getEntity = xmlSAX2GetEntity;
    callbacks->entityDecl = xmlSAX2EntityDecl;
    callbacks->startDocument = xmlSAX2StartDocument;
    callbacks->endDocument = xmlSAX2EndDocument;
    *ctxt->sax = *callbacks;
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    ctxt->_private = private;
    xmlParseDocument(ctxt);
    int wellFormed = ctxt->wellFormed;
    if (ctxt->myDoc != NULL) {
        xmlFreeDoc(ctxt->myDoc);
        ctxt->myDoc = NULL;
    }
    xmlFreeParserCtxt(ctxt);
    return wellFormed;
}

baseline_xml_counts baseline_xml_sax2_count(const char *bytes, size_t length) {
    baseline_xml_counts counts = {0, 0, 0};
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.startElementNs = on_start;
    sax.endElementNs = on_end;
    sax.characters = on_characters;
    sax.ignorableWhitespace = on_characters;
    sax.cdataBlock = on_characters;
    counts.wellFormed = run_sax2(bytes, length, &sax, &counts);
    return counts;
}

baseline_xml_counts baseline_xml_sax2_strings(const char *bytes, size_t length) {
    strings_state state;
    memset(&state, 0, sizeof state);
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.startElementNs = on_start_strings;
    sax.endElementNs = on_end_strings;
    sax.characters = on_characters_strings;
    sax.ignorableWhitespace = on_characters_strings;
    sax.cdataBlock = on_cdata_strings;
    sax.comment = on_comment_strings;
    sax.processingInstruction = on_processing_instruction_strings;
    int wellFormed = run_sax2(bytes, length, &sax, &state);
    flush_text(&state);
    free(state.text);
    state.counts.wellFormed = wellFormed;
    return state.counts;
}
