// Temporary memory probe (replaced by benches/memory.sh; delete).
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
struct C;
static CUR: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for C {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 { let c = CUR.fetch_add(l.size(), Relaxed) + l.size(); PEAK.fetch_max(c, Relaxed); System.alloc(l) }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) { CUR.fetch_sub(l.size(), Relaxed); System.dealloc(p, l) }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 { if n > l.size() { let c = CUR.fetch_add(n - l.size(), Relaxed) + n - l.size(); PEAK.fetch_max(c, Relaxed);} else { CUR.fetch_sub(l.size() - n, Relaxed); } System.realloc(p, l, n) }
}
#[global_allocator] static G: C = C;
fn mb(x: usize) -> f64 { x as f64 / 1e6 }
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let input = std::fs::read_to_string(&path).unwrap();
    println!("sizes: Line {} Class {} PLine {} Item {} Statement {} ParseError {}", std::mem::size_of::<plurnk_parser::scan::Line>(), std::mem::size_of::<plurnk_parser::scan::Class>(), std::mem::size_of::<plurnk_parser::pair::PLine>(), std::mem::size_of::<plurnk_parser::Item>(), std::mem::size_of::<plurnk_parser::Statement>(), std::mem::size_of::<plurnk_parser::ParseError>());
    let lines = plurnk_parser::scan::lines(&input);
    println!("input {:.1} MB, {} lines, lines vec {:.1} MB", mb(input.len()), lines.len(), mb(lines.capacity() * 24));
    drop(lines);
    let base = CUR.load(Relaxed); PEAK.store(base, Relaxed);
    let r = plurnk_parser::parse(&input, &Default::default());
    let after = CUR.load(Relaxed);
    println!("parse: peak above input {:.1} MB, result held {:.1} MB, items {} (statements {})", mb(PEAK.load(Relaxed) - base), mb(after - base), r.items.len(), r.statements().count());
    PEAK.store(after, Relaxed);
    let json = serde_json::to_string(&r).unwrap();
    println!("to_string: json {:.1} MB, peak above result {:.1} MB", mb(json.len()), mb(PEAK.load(Relaxed) - after));
}
