#[path = "../benches/adversarial_inputs.rs"]
mod adv;
fn main() {
    let opts = plurnk_parser::ParseOptions::default();
    for fam in adv::FAMILIES {
        let mut row = Vec::new();
        for size in [10_000usize, 100_000, 1_000_000, 10_000_000] {
            let input = adv::build(fam, size);
            let t = std::time::Instant::now();
            let mut n = 0;
            while t.elapsed().as_secs_f64() < 0.5 || n == 0 {
                std::hint::black_box(plurnk_parser::parse(&input, &opts));
                n += 1;
            }
            let ns = t.elapsed().as_nanos() as f64 / n as f64 / input.len() as f64;
            row.push(format!("{ns:8.2}"));
        }
        println!("{fam:20} {}", row.join(" "));
    }
}
