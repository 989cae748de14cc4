//! One turn.

pub(crate) mod clean;
