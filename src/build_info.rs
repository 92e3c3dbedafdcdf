//! What this build is: the crate's version and the git commit it was built from, as
//! reported in JSON output. The lowest layer: it uses nothing of the crate.

/// The version of this crate, as reported in JSON output.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit this crate was built from (`-dirty` with uncommitted changes), when
/// the build knew it (see `build.rs`).
pub const COMMIT: Option<&str> = option_env!("NQUEENS_GIT_COMMIT");
