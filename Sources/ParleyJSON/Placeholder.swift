// Placeholder until the ParleyJSON format lands.
