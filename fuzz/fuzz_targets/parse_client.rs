//! `plurnk_parser::parse_client` on any UTF-8 input, under every invariant of `harness.rs`.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        harness::check_entry(input, plurnk_parser::Entry::Client, &Default::default());
    }
});
