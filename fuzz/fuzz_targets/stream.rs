//! The streaming parser (`plurnk_parser::StreamParser`), fed any bytes (invalid UTF-8
//! included) in chunks chosen by the first byte; `finish` must equal `parse` of the whole.

#[path = "../harness.rs"]
mod harness;

fn main() {
    harness::fuzz_main("stream");
}
