#include "CBaselineXML.h"
#include <string.h>
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>

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

baseline_xml_counts baseline_xml_sax2_count(const char *bytes, size_t length) {
    baseline_xml_counts counts = {0, 0, 0};
    xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(bytes, (int)length);
    if (ctxt == NULL) return counts;
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.internalSubset = xmlSAX2InternalSubset;
    sax.getEntity = xmlSAX2GetEntity;
    sax.entityDecl = xmlSAX2EntityDecl;
    sax.startDocument = xmlSAX2StartDocument;
    sax.endDocument = xmlSAX2EndDocument;
    sax.startElementNs = on_start;
    sax.endElementNs = on_end;
    sax.characters = on_characters;
    sax.ignorableWhitespace = on_characters;
    sax.cdataBlock = on_characters;
    *ctxt->sax = sax;
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    ctxt->_private = &counts;
    xmlParseDocument(ctxt);
    counts.wellFormed = ctxt->wellFormed;
    if (ctxt->myDoc != NULL) {
        xmlFreeDoc(ctxt->myDoc);
        ctxt->myDoc = NULL;
    }
    xmlFreeParserCtxt(ctxt);
    return counts;
}
