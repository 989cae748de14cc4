// Temporary: parse every recorded emission repeatedly and print MB/s.
fn main() {
    let text = std::fs::read_to_string("../shared/corpus/recorded-emissions.jsonl").unwrap();
    let inputs: Vec<String> = text.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["input"].as_str().unwrap().to_string()).collect();
    let bytes: usize = inputs.iter().map(|s| s.len()).sum();
    let opts = plurnk_parser::ParseOptions::default();
    let t = std::time::Instant::now();
    let mut n = 0;
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(0);
    while (rounds == 0 && t.elapsed().as_secs_f64() < 3.0) || (rounds > 0 && n < rounds) {
        for i in &inputs {
            let r = plurnk_parser::parse(i, &opts);
            std::hint::black_box(r);
        }
        n += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!("{:.1} MB/s ({} rounds, {} bytes)", (bytes * n) as f64 / secs / 1e6, n, bytes);
}
