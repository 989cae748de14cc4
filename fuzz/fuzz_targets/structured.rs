//! Structure-aware: the bytes choose fences, headings, slots, bodies, prose and native markup
//! fragments (`harness::build_turn`), and the turn is checked under every entry.

#[path = "../harness.rs"]
mod harness;

fn main() {
    harness::fuzz_main("structured");
}
