//! `plurnk_parser::parse` on any UTF-8 input, under every invariant of `harness.rs`.

#[path = "../harness.rs"]
mod harness;

fn main() {
    harness::fuzz_main("parse");
}
