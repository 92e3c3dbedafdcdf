//! The thread pool a count or a listing runs on. A lowest layer: it uses only `error`.

use crate::error::Error;

/// A rayon pool with exactly `threads` workers.
///
/// # Errors
/// [`Error::ThreadPool`] when the threads cannot start.
pub(crate) fn build_pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::ThreadPool(e.to_string()))
}
