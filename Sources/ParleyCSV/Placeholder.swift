// Placeholder until the ParleyCSV format lands.
