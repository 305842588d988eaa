// Placeholder until ParleyClient lands.
