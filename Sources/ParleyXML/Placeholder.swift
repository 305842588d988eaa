// Placeholder until the ParleyXML format lands.
