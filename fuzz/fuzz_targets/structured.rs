//! Structure-aware: the bytes choose fences, headings, slots, bodies, prose and native markup
//! fragments (`harness::build_turn`), and the turn is checked under every entry.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::check_structured(data);
});
