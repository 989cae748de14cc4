//! The C ABI (`cdylib`): one call that takes UTF-8 text and an options object and returns the
//! result as JSON, and one that frees what it returned. The header is
//! `include/plurnk_parser.h`, generated from this file by cbindgen (`cbindgen.toml`).
//!
//! The result is always one JSON object, `{"result": …}` or `{"throws": "message"}`, exactly the
//! `--jsonl` helper's response without its `id`; `result` is the entry's result as the
//! contract serializes it (`{items, unparsedTail?}` for the parse tiers).

use std::ffi::{c_char, CString};

/// Parses `input` (UTF-8, `input_len` bytes, not NUL-terminated) under `options`, a UTF-8 JSON
/// object `{"entry"?: "parse" | "parseStatements" | "parseClient" | "parseReasoning" |
/// "operationAttempt" | "parsePath", "executors"?: [string], "diagnosticIds"?: bool}`
/// (`options_len` bytes; a null pointer or zero length means `{}`), and returns a
/// NUL-terminated UTF-8 JSON string `{"result": …}` or `{"throws": "…"}`. Never returns null.
/// Free the string with `plurnk_free`.
///
/// # Safety
/// `input` must point to `input_len` readable bytes (it may be null when `input_len` is 0), and
/// likewise `options` to `options_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn plurnk_parse(input: *const u8, input_len: usize, options: *const u8, options_len: usize) -> *mut c_char {
    let bytes = |p: *const u8, n: usize| -> &[u8] {
        if p.is_null() || n == 0 {
            &[]
        } else {
            // SAFETY: the caller promises `n` readable bytes at `p`.
            unsafe { std::slice::from_raw_parts(p, n) }
        }
    };
    let response = respond(bytes(input, input_len), bytes(options, options_len));
    // JSON text never holds a NUL byte (serde_json escapes U+0000), so this cannot fail.
    CString::new(response).unwrap_or_default().into_raw()
}

/// Frees a string `plurnk_parse` returned. Null is ignored.
///
/// # Safety
/// `result` must be null or a pointer `plurnk_parse` returned that has not been freed.
#[no_mangle]
pub unsafe extern "C" fn plurnk_free(result: *mut c_char) {
    if !result.is_null() {
        // SAFETY: the pointer came from `CString::into_raw` in `plurnk_parse`.
        drop(unsafe { CString::from_raw(result) });
    }
}

fn respond(input: &[u8], options: &[u8]) -> String {
    let throws = |m: String| serde_json::json!({ "throws": m }).to_string();
    let Ok(input) = std::str::from_utf8(input) else {
        let at = std::str::from_utf8(input).unwrap_err().valid_up_to();
        return throws(crate::entry::message("embed.input-not-utf8", &[("at", &at.to_string())]));
    };
    let value: Option<serde_json::Value> = if options.is_empty() {
        None
    } else {
        match serde_json::from_slice(options) {
            Ok(v) => Some(v),
            Err(e) => return throws(crate::entry::message("embed.options-not-json", &[("error", &e.to_string())])),
        }
    };
    let (entry, opts) = match crate::entry::options_from_json(value.as_ref()) {
        Ok(x) => x,
        Err(e) => return throws(e.to_string()),
    };
    match crate::entry::call_json(&entry, input, &opts) {
        Ok(json) => format!("{{\"result\":{json}}}"),
        Err(m) => throws(m),
    }
}
