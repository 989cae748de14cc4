//! The crate's one error type: what [`crate::parse_path`] and [`crate::Rules::from_dir`] return
//! when they refuse, and what an embedding's options object draws when it is malformed.

use std::fmt;
use std::path::{Path, PathBuf};

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// [`crate::parse_path`] refused the target (§path-syntax).
    InvalidPath,
    /// A rule directory ([`crate::Rules::from_dir`]) broke its schema, a cross-reference, or
    /// is not valid YAML.
    InvalidRules,
    /// A rule file or schema could not be read.
    Io,
    /// An options object (the embeddings' `{"entry"?, "executors"?, "diagnosticIds"?}`) is
    /// malformed.
    InvalidOptions,
}

/// A refusal: its [`kind`](Error::kind), its message (the `Display` text, exactly what the CLI
/// prints), and where the cause is when there is a place to name.
///
/// ```
/// use plurnk_parser::{parse_path, ErrorKind};
///
/// let e = parse_path("http://exa mple.com").unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::InvalidPath);
/// assert!(!e.to_string().is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    file: Option<PathBuf>,
    pointer: Option<String>,
    line_column: Option<(usize, usize)>,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: String) -> Error {
        Error { kind, message, file: None, pointer: None, line_column: None }
    }

    /// A rule file's error: which file, where in it (a JSON pointer into the file's value, or a
    /// line and column for a YAML syntax error).
    #[cfg(feature = "runtime-rules")]
    pub(crate) fn in_file(mut self, file: PathBuf, pointer: Option<String>, line_column: Option<(usize, usize)>) -> Error {
        self.file = Some(file);
        self.pointer = pointer;
        self.line_column = line_column;
        self
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The file at fault (a rule file), when there is one.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Where in the rule file's value the fault is, as a JSON pointer (`/operations/2/name`),
    /// when the fault is a schema violation or a broken cross-reference.
    pub fn pointer(&self) -> Option<&str> {
        self.pointer.as_deref()
    }

    /// The 1-based line and column in the file, when the fault is a YAML syntax error.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        self.line_column
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
