//! `plurnk_parser::native::read` (native tool-call markup) on any UTF-8 input.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(input) = std::str::from_utf8(data) {
        harness::check_native(input);
    }
});
