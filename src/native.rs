//! Native tool-call markup (§native-tool-calls, §native-tool-call-receipt): an emission that
//! yields no operation may be a model's own tool-call markup; the families are data
//! (`rules/native/*.yaml`), the shapes are code.

use crate::rules::Rules;
use crate::scan::Registry;

/// What reading an emission's native markup produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NativeReading {
    /// The emission with every mapped call rewritten as a fenced PLURNK statement.
    pub rewritten: Option<String>,
    /// The first unmapped native block: (line, column, marker text, taught form).
    pub receipt: Option<Receipt>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    /// 0-based line index and byte offset in that line.
    pub line: u32,
    pub at: usize,
    /// The diagnostic text, fully formed.
    pub message: String,
}

/// Reads native markup in `input`. Called only for an emission that yields no operation.
pub fn read(input: &str, rules: &Rules, registry: &Registry) -> NativeReading {
    let _ = (input, rules, registry);
    NativeReading::default()
}
