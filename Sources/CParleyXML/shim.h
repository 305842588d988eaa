#ifndef CPARLEY_XML_SHIM_H
#define CPARLEY_XML_SHIM_H
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU; its headers clash with Foundation's _FoundationICU.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlsave.h>
#endif
