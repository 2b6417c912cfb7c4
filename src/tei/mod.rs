//! The Tak Engine Interface front end: reads commands, drives the `Searcher`, writes replies.

/// Speaks TEI on stdin/stdout until `quit` or end of input.
pub fn run_stdio() -> Result<(), String> {
    Err("TEI is not built yet".into())
}
