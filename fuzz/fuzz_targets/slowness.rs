//! Fuzzing for slowness: the input is a seed (a head and a unit) repeated to 32 KB and to
//! 128 KB, and the work `parse` counts must grow at most 4.4 times (`harness::check_slowness`).

#[path = "../harness.rs"]
mod harness;

fn main() {
    harness::fuzz_main("slowness");
}
