// Placeholder until ParleyCLI lands.
