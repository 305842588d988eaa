// Placeholder until the ParleyImage format lands.
