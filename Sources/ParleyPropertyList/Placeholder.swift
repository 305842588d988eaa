// Placeholder until the ParleyPropertyList format lands.
