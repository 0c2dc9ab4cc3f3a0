//! Deterministic sample data: a seeded generator, so a design loads the same rows, values and
//! timestamps every time.
