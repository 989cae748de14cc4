//! The Node binding: every entry point through one call, and the streaming parser as a class.
//! Results cross as JSON text and `index.js` parses them, so the objects Node sees are exactly
//! the contract's serialization (the same bytes `plurnk-parser --jsonl` writes).

use napi::bindgen_prelude::*;
use napi_derive::napi;

use plurnk_parser::entry::{call_json, message, options_from_json};

fn options(json: Option<String>) -> Result<(String, plurnk_parser::ParseOptions)> {
    let value: Option<serde_json::Value> = match json {
        Some(t) => Some(
            serde_json::from_str(&t)
                .map_err(|e| Error::new(Status::InvalidArg, message("embed.options-not-json", &[("error", &e.to_string())])))?,
        ),
        None => None,
    };
    options_from_json(value.as_ref()).map_err(|m| Error::new(Status::InvalidArg, m))
}

/// Calls `entry` on `input`; `options` is `{"executors"?: [string]}` as JSON. Returns the result
/// as JSON text, or throws with the entry's message.
#[napi]
pub fn call(entry: String, input: String, options_json: Option<String>) -> Result<String> {
    let (_, opts) = options(options_json)?;
    call_json(&entry, &input, &opts).map_err(|m| Error::new(Status::GenericFailure, m))
}

/// `StreamParser` (see the Rust crate's `stream` module): feed chunks, read what is provisional and
/// the visible text, finish with the exact parse.
#[napi]
pub struct StreamParser {
    inner: plurnk_parser::StreamParser,
    finished: bool,
}

#[napi]
impl StreamParser {
    #[napi(constructor)]
    pub fn new(options_json: Option<String>) -> Result<Self> {
        let (_, opts) = options(options_json)?;
        Ok(StreamParser { inner: plurnk_parser::StreamParser::new(opts), finished: false })
    }

    /// Feeds bytes (a character may be split across chunks).
    #[napi]
    pub fn feed_bytes(&mut self, chunk: Buffer) -> Result<()> {
        self.live()?;
        self.inner.feed(&chunk);
        Ok(())
    }

    /// Feeds text.
    #[napi]
    pub fn feed_text(&mut self, chunk: String) -> Result<()> {
        self.live()?;
        self.inner.feed_str(&chunk);
        Ok(())
    }

    /// The provisional statements, as JSON text: for display only; dispatch from `finish()`.
    #[napi]
    pub fn provisional_json(&self) -> String {
        serde_json::to_string(self.inner.provisional()).unwrap_or_else(|_| "[]".into())
    }

    /// The visible response text so far.
    #[napi]
    pub fn visible(&self) -> String {
        self.inner.visible()
    }

    /// Ends the stream: the exact parse of the whole text, as JSON text.
    #[napi]
    pub fn finish_json(&mut self) -> Result<String> {
        self.live()?;
        self.finished = true;
        serde_json::to_string(&self.inner.finish()).map_err(|e| Error::new(Status::GenericFailure, e.to_string()))
    }

    fn live(&self) -> Result<()> {
        if self.finished {
            Err(Error::new(Status::GenericFailure, message("embed.stream-finished", &[])))
        } else {
            Ok(())
        }
    }
}
