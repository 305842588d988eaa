// Placeholder until ParleyCompression lands.
