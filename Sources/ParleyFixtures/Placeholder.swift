// Placeholder until ParleyFixtures lands.
