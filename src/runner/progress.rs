//! How much output the command of a call has written so far, for the progress notifications
//! the MCP layer sends while a long call runs.
//!
//! The count travels with the call's task instead of through every layer of the dispatcher: a
//! call that nobody watches counts nothing, and no decision ever reads it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

tokio::task_local! {
    static OUTPUT_SEEN: Arc<AtomicU64>;
}

/// Runs `call` counting, in `seen`, every byte its commands write (kept or not).
pub async fn counting_output<F: Future>(seen: Arc<AtomicU64>, call: F) -> F::Output {
    OUTPUT_SEEN.scope(seen, call).await
}

/// Adds `bytes` to the count of the call this task runs, if anyone counts.
pub(super) fn saw_output(bytes: usize) {
    let _ = OUTPUT_SEEN.try_with(|seen| {
        seen.fetch_add(u64::try_from(bytes).unwrap_or(u64::MAX), Ordering::Relaxed);
    });
}
