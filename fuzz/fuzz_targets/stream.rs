//! The streaming parser (`plurnk_parser::stream::StreamParser`), fed any bytes (invalid UTF-8
//! included) in chunks chosen by the first byte; `finish` must equal `parse` of the whole.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::check_stream(data);
});
