//! `plurnk-parser batch IN.jsonl [OUT.jsonl] --jobs N`: a corpus of `--jsonl` requests parsed on
//! N cores, the responses written in input order, byte for byte what `--jsonl` writes for the
//! same lines (each line is read by the same `read_request` and answered by the same `answer`).
//!
//! Three stages overlap: a reader cuts the input into blocks of lines, the rayon pool answers a
//! block's lines in parallel, a writer writes the answered blocks in order. Memory is bounded by
//! a few blocks, whatever the corpus size. A progress bar (by bytes read) is drawn on stderr when
//! it is a terminal; the throughput is reported on stderr at the end.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::sync_channel;
use std::sync::Arc;
use std::time::Instant;

use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use plurnk_parser::Rules;
use rayon::prelude::*;

/// Parse a corpus of `--jsonl` requests on N cores; write the responses in input order.
#[derive(Parser, Debug)]
#[command(name = "plurnk-parser batch", version, about, long_about = None)]
struct BatchCli {
    /// Requests, one `{"id","entry","input","options"}` per line; `-` reads stdin.
    input: PathBuf,
    /// Where the responses go (one `{"id","result"}` or `{"id","throws"}` per line); stdout when
    /// absent or `-`.
    output: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Load and validate the rule files in DIR instead of the built-in rules.
    #[arg(long, value_name = "DIR")]
    rules: Option<PathBuf>,
    /// The longest request line accepted, as for `--jsonl`.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    max_request_bytes: usize,
}

/// A block is cut after this many bytes or lines, whichever comes first: large enough that the
/// pool's threads rarely wait at a block's end, small enough to keep memory flat.
const BLOCK_BYTES: usize = 4 << 20;
const BLOCK_LINES: usize = 8192;

/// Runs `batch` with `args` (the program name first, as `std::env::args_os` gives them, the
/// `batch` word removed).
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = BatchCli::parse_from(args);
    let rules: Option<Arc<Rules>> = match &cli.rules {
        Some(dir) => match Rules::from_dir(dir) {
            Ok(r) => Some(Arc::new(r)),
            Err(e) => {
                eprintln!("plurnk-parser: invalid rules: {e}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let jobs = cli.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).max(1);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("plurnk-parser batch: cannot start {jobs} threads: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin_named = cli.input.as_os_str() == "-";
    let (reader, total): (Box<dyn Read + Send>, Option<u64>) = if stdin_named {
        (Box::new(io::stdin()), None)
    } else {
        match File::open(&cli.input) {
            Ok(f) => {
                let len = f.metadata().map(|m| m.len()).ok();
                (Box::new(f), len)
            }
            Err(e) => {
                eprintln!("plurnk-parser batch: cannot read {}: {e}", cli.input.display());
                return ExitCode::from(2);
            }
        }
    };
    let writer: Box<dyn Write + Send> = match cli.output.as_ref().filter(|p| p.as_os_str() != "-") {
        Some(p) => match File::create(p) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("plurnk-parser batch: cannot write {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
        None => Box::new(io::stdout()),
    };
    let bar = progress(total);
    let started = Instant::now();
    let outcome = run(reader, writer, &pool, &rules, cli.max_request_bytes, &bar);
    bar.finish_and_clear();
    match outcome {
        Ok((requests, bytes)) => {
            let secs = started.elapsed().as_secs_f64().max(1e-9);
            eprintln!(
                "plurnk-parser batch: {requests} requests, {:.1} MB in {secs:.2} s: {:.1} MB/s, {:.0} requests/s on {jobs} jobs",
                bytes as f64 / 1e6,
                bytes as f64 / 1e6 / secs,
                requests as f64 / secs
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("plurnk-parser batch: {e}");
            ExitCode::from(2)
        }
    }
}

/// A bar by bytes read on a terminal; a hidden one when stderr is piped or redirected.
fn progress(total: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match total {
        Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
    };
    let template = if total.is_some() {
        "{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}"
    } else {
        "{spinner} {bytes} {binary_bytes_per_sec}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Reads blocks, answers them on `pool`, writes them in order; returns the requests answered
/// and the bytes read.
fn run(
    reader: Box<dyn Read + Send>,
    writer: Box<dyn Write + Send>,
    pool: &rayon::ThreadPool,
    rules: &Option<Arc<Rules>>,
    max: usize,
    bar: &ProgressBar,
) -> io::Result<(u64, u64)> {
    let (to_work, blocks) = sync_channel::<(Vec<Request>, u64)>(2);
    let (to_write, answered) = sync_channel::<Vec<String>>(2);
    std::thread::scope(|s| {
        let read = s.spawn(move || read_blocks(reader, max, |block, bytes| to_work.send((block, bytes)).is_ok()));
        let write = s.spawn(move || -> io::Result<u64> {
            let mut out = BufWriter::with_capacity(1 << 20, writer);
            let mut n = 0u64;
            for block in answered {
                for line in &block {
                    out.write_all(line.as_bytes())?;
                    out.write_all(b"\n")?;
                }
                n += block.len() as u64;
            }
            out.flush()?;
            Ok(n)
        });
        let mut read_bytes = 0u64;
        for (block, bytes) in blocks {
            // A blank line gets no response, as in `--jsonl`.
            let responses: Vec<String> =
                pool.install(|| block.par_iter().filter_map(|(line, size)| super::answer(line, *size, max, rules)).collect());
            read_bytes += bytes;
            bar.inc(bytes);
            if to_write.send(responses).is_err() {
                break;
            }
        }
        drop(to_write);
        let written = write.join().map_err(|_| io::Error::other("the writer thread panicked"))??;
        read.join().map_err(|_| io::Error::other("the reader thread panicked"))??;
        Ok((written, read_bytes))
    })
}

/// One request line as `--jsonl` reads it: at most `max + 1` bytes kept, and the line's size.
type Request = (Vec<u8>, usize);

/// Cuts `reader` into blocks of request lines, read as `--jsonl` reads them, and hands each to
/// `send` with the bytes it spans; stops early when `send` says no.
fn read_blocks(reader: Box<dyn Read + Send>, max: usize, mut send: impl FnMut(Vec<Request>, u64) -> bool) -> io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 20, reader);
    let mut block = Vec::new();
    let mut block_bytes = 0usize;
    let mut line = Vec::new();
    while let Some(size) = super::read_request(&mut input, &mut line, max)? {
        block_bytes += size + 1;
        block.push((std::mem::take(&mut line), size));
        if block_bytes >= BLOCK_BYTES || block.len() >= BLOCK_LINES {
            if !send(std::mem::take(&mut block), block_bytes as u64) {
                return Ok(());
            }
            block_bytes = 0;
        }
    }
    if !block.is_empty() {
        send(block, block_bytes as u64);
    }
    Ok(())
}
