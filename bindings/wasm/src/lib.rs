//! The WebAssembly binding (wasm-bindgen): the same surface as the Node addon, one call for every
//! entry point and the streaming parser as a class. Results cross as JSON text, exactly the bytes
//! `plurnk-parser --jsonl` writes; `index.js` parses them.
//!
//! A panic on `wasm32-unknown-unknown` aborts (there is no unwinding): the instance traps with a
//! `RuntimeError`. `index.js` turns the trap into an `Error` for that call and starts a fresh
//! instance (`--experimental-reset-state-function`), so a panic never takes the host down.

use wasm_bindgen::prelude::*;

use plurnk_parser::__private::{call_json, message, options_from_json};

fn options(json: Option<String>) -> Result<plurnk_parser::ParseOptions, JsError> {
    let value: Option<serde_json::Value> = match json {
        Some(t) => {
            Some(serde_json::from_str(&t).map_err(|e| JsError::new(&message("embed.options-not-json", &[("error", &e.to_string())])))?)
        }
        None => None,
    };
    options_from_json(value.as_ref()).map(|(_, o)| o).map_err(|e| JsError::new(&e.to_string()))
}

/// Calls `entry` on `input`; `options_json` is `{"executors"?: [string]}` as JSON. Returns the
/// result as JSON text, or throws with the entry's message.
#[wasm_bindgen]
pub fn call(entry: &str, input: &str, options_json: Option<String>) -> Result<String, JsError> {
    let opts = options(options_json)?;
    call_json(entry, input, &opts).map_err(|m| JsError::new(&m))
}

/// For the bindings' tests only: panics, so a test can see the trap become an exception and the
/// next call succeed (no input makes the parser panic).
#[wasm_bindgen(js_name = panicForTest)]
pub fn panic_for_test() {
    panic!("panicForTest");
}

/// The streaming parser (the crate's `stream` module): feed chunks, read the provisional
/// statements (display only: dispatch from `finish`), the committed ones and the visible text.
#[wasm_bindgen]
pub struct StreamParser {
    inner: plurnk_parser::StreamParser,
    finished: bool,
}

#[wasm_bindgen]
impl StreamParser {
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: Option<String>) -> Result<StreamParser, JsError> {
        Ok(StreamParser { inner: plurnk_parser::StreamParser::new(options(options_json)?), finished: false })
    }

    /// Feeds bytes (a character may be split across chunks).
    #[wasm_bindgen(js_name = feedBytes)]
    pub fn feed_bytes(&mut self, chunk: &[u8]) -> Result<(), JsError> {
        self.live()?;
        self.inner.feed(chunk);
        Ok(())
    }

    /// Feeds text.
    #[wasm_bindgen(js_name = feedText)]
    pub fn feed_text(&mut self, chunk: &str) -> Result<(), JsError> {
        self.live()?;
        self.inner.feed_str(chunk);
        Ok(())
    }

    /// The provisional statements as JSON text: for display only, since a later chunk can drop
    /// or re-read any of them; dispatch only from `finish`.
    #[wasm_bindgen(js_name = provisionalJson)]
    pub fn provisional_json(&self) -> String {
        serde_json::to_string(self.inner.provisional()).unwrap_or_else(|_| "[]".into())
    }

    /// The committed statements as JSON text: no continuation changes them.
    #[wasm_bindgen(js_name = committedJson)]
    pub fn committed_json(&self) -> String {
        serde_json::to_string(self.inner.committed()).unwrap_or_else(|_| "[]".into())
    }

    /// The visible response text so far: no continuation takes it back.
    pub fn visible(&self) -> String {
        self.inner.visible()
    }

    /// Ends the stream: exactly `parse` of the whole text, as JSON text.
    #[wasm_bindgen(js_name = finishJson)]
    pub fn finish_json(&mut self) -> Result<String, JsError> {
        self.live()?;
        self.finished = true;
        serde_json::to_string(&self.inner.finish()).map_err(|e| JsError::new(&e.to_string()))
    }

    fn live(&self) -> Result<(), JsError> {
        if self.finished {
            Err(JsError::new(&message("embed.stream-finished", &[])))
        } else {
            Ok(())
        }
    }
}
