//! The Python binding (PyO3, abi3): one call for every entry point and the streaming parser as a
//! class. Results cross as JSON text, exactly the bytes `plurnk-parser --jsonl` writes, and
//! `plurnk_parser/__init__.py` loads them into plain dicts.
//!
//! Every parse runs with the GIL released (`Python::detach`), so threads parse in parallel; a
//! panic is caught and raised as `plurnk_parser.ParserPanic` (a `RuntimeError`) for that call.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use plurnk_parser::__private::{call_json, message};
use plurnk_parser::ParseOptions;

create_exception!(_native, ParserPanic, PyRuntimeError, "The parser panicked on this call; the process and the module go on.");

fn options(executors: Option<Vec<String>>, diagnostic_ids: bool) -> ParseOptions {
    let mut options = ParseOptions::default().with_diagnostic_ids(diagnostic_ids);
    options.executors = executors;
    options
}

/// Runs `f` with a panic turned into `ParserPanic`.
fn guarded<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let what = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default();
        ParserPanic::new_err(what)
    })
}

/// Calls `entry` on `input` with the GIL released; returns the result as JSON text or raises
/// `ValueError` with the entry's message. `diagnostic_ids` adds each diagnostic's stable `id`.
#[pyfunction]
#[pyo3(signature = (entry, input, executors=None, diagnostic_ids=false))]
fn call(py: Python<'_>, entry: &str, input: &str, executors: Option<Vec<String>>, diagnostic_ids: bool) -> PyResult<String> {
    let opts = options(executors, diagnostic_ids);
    py.detach(|| guarded(|| call_json(entry, input, &opts)))?.map_err(PyValueError::new_err)
}

/// For the binding's tests only: panics inside the guard, so a test can see the exception and
/// the next call succeed (no input makes the parser panic).
#[pyfunction]
fn _panic_for_test(py: Python<'_>) -> PyResult<()> {
    py.detach(|| guarded(|| panic!("_panic_for_test")))
}

/// The streaming parser: feed chunks, read the provisional statements (display only: dispatch
/// from `finish`), the committed ones and the visible text.
#[pyclass(module = "plurnk_parser._native")]
struct StreamParser {
    inner: plurnk_parser::StreamParser,
    finished: bool,
}

#[pymethods]
impl StreamParser {
    #[new]
    #[pyo3(signature = (executors=None, diagnostic_ids=false))]
    fn new(executors: Option<Vec<String>>, diagnostic_ids: bool) -> Self {
        StreamParser { inner: plurnk_parser::StreamParser::new(options(executors, diagnostic_ids)), finished: false }
    }

    /// Feeds bytes (a character may be split across chunks).
    fn feed_bytes(&mut self, py: Python<'_>, chunk: &[u8]) -> PyResult<()> {
        self.live()?;
        let inner = &mut self.inner;
        py.detach(|| guarded(|| inner.feed(chunk)))
    }

    /// Feeds text.
    fn feed_text(&mut self, py: Python<'_>, chunk: &str) -> PyResult<()> {
        self.live()?;
        let inner = &mut self.inner;
        py.detach(|| guarded(|| inner.feed_str(chunk)))
    }

    /// The provisional statements as JSON text: for display only; dispatch from `finish`.
    fn provisional_json(&self) -> PyResult<String> {
        guarded(|| serde_json::to_string(self.inner.provisional()).unwrap_or_else(|_| "[]".into()))
    }

    /// The committed statements as JSON text: no continuation changes them.
    fn committed_json(&self) -> PyResult<String> {
        guarded(|| serde_json::to_string(self.inner.committed()).unwrap_or_else(|_| "[]".into()))
    }

    /// The visible response text so far: no continuation takes it back.
    fn visible(&self) -> PyResult<String> {
        guarded(|| self.inner.visible())
    }

    /// Ends the stream: exactly `parse` of the whole text, as JSON text.
    fn finish_json(&mut self, py: Python<'_>) -> PyResult<String> {
        self.live()?;
        self.finished = true;
        let inner = &mut self.inner;
        let json = py.detach(|| guarded(|| serde_json::to_string(&inner.finish())))?;
        json.map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    fn live(&self) -> PyResult<()> {
        if self.finished {
            Err(PyValueError::new_err(message("embed.stream-finished", &[])))
        } else {
            Ok(())
        }
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add_class::<StreamParser>()?;
    m.add("ParserPanic", m.py().get_type::<ParserPanic>())?;
    Ok(())
}
