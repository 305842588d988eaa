// Placeholder until the ParleyMessagePack format lands.
