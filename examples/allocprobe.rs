use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 { ALLOCS.fetch_add(1, Ordering::Relaxed); System.alloc(l) }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) { System.dealloc(p, l) }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 { ALLOCS.fetch_add(1, Ordering::Relaxed); System.realloc(p, l, n) }
}
#[global_allocator]
static A: Counting = Counting;
fn main() {
    let text = std::fs::read_to_string("../shared/corpus/recorded-emissions.jsonl").unwrap();
    let inputs: Vec<String> = text.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["input"].as_str().unwrap().to_string()).collect();
    let opts = plurnk_parser::ParseOptions::default();
    for i in &inputs { std::hint::black_box(plurnk_parser::parse(i, &opts)); }
    let before = ALLOCS.load(Ordering::Relaxed);
    let mut stmts = 0;
    for i in &inputs { let r = plurnk_parser::parse(i, &opts); stmts += r.statements().count(); std::hint::black_box(r); }
    let n = ALLOCS.load(Ordering::Relaxed) - before;
    let bytes: usize = inputs.iter().map(|s| s.len()).sum();
    println!("{} allocations for {} inputs, {} statements, {} bytes: {:.1} per input, {:.0} per MB", n, inputs.len(), stmts, bytes, n as f64 / inputs.len() as f64, n as f64 / (bytes as f64 / 1e6));
}
