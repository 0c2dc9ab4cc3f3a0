//! Small pieces of knowledge the rest of Rowkey shares, each written once: numbers as a person
//! reads them ([`text`]), civil dates and time zones ([`civil`]), LEB128 varints ([`varint`]) and
//! the seeded generator ([`seeded`]).

pub mod civil;
pub mod seeded;
pub mod text;
pub mod varint;
