// Placeholder until the ParleyYAML format lands.
