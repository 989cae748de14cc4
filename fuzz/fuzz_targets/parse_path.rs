//! `plurnk_parser::parse_path` on any UTF-8 input.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        harness::check_path(input);
    }
});
