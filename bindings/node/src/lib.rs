//! The Node binding: every entry point through one call, and the streaming parser as a class.
//! Results cross as JSON text and `index.js` parses them, so the objects Node sees are exactly
//! the contract's serialization (the same bytes `plurnk-parser --jsonl` writes). JSON text and
//! `JSON.parse` measured faster than building the objects through napi's serde bridge
//! (`callObject`, kept for the comparison in `bench/bridge.mjs`).
//!
//! Every entry runs under `catch_unwind`: a panic becomes a JS exception for that call, never an
//! abort of the host process.

use std::panic::{catch_unwind, AssertUnwindSafe};

use napi::bindgen_prelude::*;
use napi::JsUnknown;
use napi_derive::napi;

use plurnk_parser::__private::{call_json, message, options_from_json};

fn options(json: Option<String>) -> Result<plurnk_parser::ParseOptions> {
    let value: Option<serde_json::Value> = match json {
        Some(t) => Some(
            serde_json::from_str(&t)
                .map_err(|e| Error::new(Status::InvalidArg, message("embed.options-not-json", &[("error", &e.to_string())])))?,
        ),
        None => None,
    };
    options_from_json(value.as_ref()).map(|(_, o)| o).map_err(|e| Error::new(Status::InvalidArg, e.to_string()))
}

/// Runs `f`, a panic turned into an error of this call.
fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let what = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default();
        Err(Error::new(Status::GenericFailure, format!("plurnk-parser: internal error (panic: {what})")))
    })
}

/// Calls `entry` on `input`; `options` is `{"executors"?: [string]}` as JSON. Returns the result
/// as JSON text, or throws with the entry's message.
#[napi]
pub fn call(entry: String, input: String, options_json: Option<String>) -> Result<String> {
    guarded(|| {
        let opts = options(options_json)?;
        call_json(&entry, &input, &opts).map_err(|m| Error::new(Status::GenericFailure, m))
    })
}

/// The same call, its result built as JS objects by napi's serde serializer rather than as JSON
/// text: only for `bench/bridge.mjs`, which compares the two bridges.
#[napi(js_name = "callObject")]
pub fn call_object(env: Env, entry: String, input: String) -> Result<JsUnknown> {
    guarded(|| {
        let opts = plurnk_parser::ParseOptions::default();
        match entry.as_str() {
            "parse" => env.to_js_value(&plurnk_parser::parse(&input, &opts)),
            "parseStatements" => env.to_js_value(&plurnk_parser::parse_statements(&input, &opts)),
            _ => Err(Error::new(
                Status::InvalidArg,
                message("embed.unknown-entry", &[("entry", &entry), ("entries", "parse, parseStatements")]),
            )),
        }
    })
}

/// For the binding's tests only: panics inside the guard, so a test can see the exception and
/// the next call succeed (no input makes the parser panic).
#[napi(js_name = "panicForTest")]
pub fn panic_for_test() -> Result<()> {
    guarded(|| panic!("panicForTest"))
}

/// `StreamParser` (see the Rust crate's `stream` module): feed chunks, read what is provisional
/// (display only: dispatch from `finish`), what is committed and the visible text, finish with
/// the exact parse.
#[napi]
pub struct StreamParser {
    inner: plurnk_parser::StreamParser,
    finished: bool,
}

#[napi]
impl StreamParser {
    #[napi(constructor)]
    pub fn new(options_json: Option<String>) -> Result<Self> {
        guarded(|| Ok(StreamParser { inner: plurnk_parser::StreamParser::new(options(options_json)?), finished: false }))
    }

    /// Feeds bytes (a character may be split across chunks).
    #[napi]
    pub fn feed_bytes(&mut self, chunk: Uint8Array) -> Result<()> {
        self.live()?;
        guarded(|| Ok(self.inner.feed(&chunk)))
    }

    /// Feeds text.
    #[napi]
    pub fn feed_text(&mut self, chunk: String) -> Result<()> {
        self.live()?;
        guarded(|| Ok(self.inner.feed_str(&chunk)))
    }

    /// The provisional statements, as JSON text: for display only; dispatch from `finish()`.
    #[napi]
    pub fn provisional_json(&self) -> Result<String> {
        guarded(|| serde_json::to_string(self.inner.provisional()).map_err(|e| Error::new(Status::GenericFailure, e.to_string())))
    }

    /// The committed statements, as JSON text: no continuation changes them.
    #[napi]
    pub fn committed_json(&self) -> Result<String> {
        guarded(|| serde_json::to_string(self.inner.committed()).map_err(|e| Error::new(Status::GenericFailure, e.to_string())))
    }

    /// The visible response text so far: no continuation takes it back.
    #[napi]
    pub fn visible(&self) -> Result<String> {
        guarded(|| Ok(self.inner.visible()))
    }

    /// Ends the stream: the exact parse of the whole text, as JSON text.
    #[napi]
    pub fn finish_json(&mut self) -> Result<String> {
        self.live()?;
        self.finished = true;
        guarded(|| serde_json::to_string(&self.inner.finish()).map_err(|e| Error::new(Status::GenericFailure, e.to_string())))
    }

    fn live(&self) -> Result<()> {
        if self.finished {
            Err(Error::new(Status::GenericFailure, message("embed.stream-finished", &[])))
        } else {
            Ok(())
        }
    }
}
