//! `plurnk_parser::__private::native::read` (native tool-call markup) on any UTF-8 input.

#[path = "../harness.rs"]
mod harness;

fn main() {
    harness::fuzz_main("native_read");
}
