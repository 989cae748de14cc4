//! `plurnk_parser::parse_path` on any UTF-8 input.

#[path = "../harness.rs"]
mod harness;

fn main() {
    harness::fuzz_main("parse_path");
}
