//! Records the git commit the crate is built from, when the build knows it, and the
//! compiler's version, so that `--version` and every JSON report can say which code
//! produced them.
//!
//! The commit comes from `NQUEENS_GIT_COMMIT` if set (for builds outside a git
//! checkout, such as a source tarball), else from `git rev-parse`; a checkout with
//! uncommitted changes gets a `-dirty` suffix. Without either, nothing is recorded.
//! The compiler's version is `$RUSTC --version`, as `NQUEENS_RUSTC_VERSION`.
//! `NQUEENS_VERSION_TEXT` is what `--version` prints after the name: the crate version
//! and the commit when known.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=NQUEENS_GIT_COMMIT");
    let commit = std::env::var("NQUEENS_GIT_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(git_commit);
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let version_text = match &commit {
        Some(commit) => format!("{version} (commit {})", commit.trim()),
        None => version,
    };
    if let Some(commit) = commit {
        println!("cargo:rustc-env=NQUEENS_GIT_COMMIT={}", commit.trim());
    }
    println!("cargo:rustc-env=NQUEENS_VERSION_TEXT={version_text}");
    if let Some(rustc) = rustc_version() {
        println!("cargo:rustc-env=NQUEENS_RUSTC_VERSION={rustc}");
    }
}

/// `rustc 1.95.0 (59807616e 2026-04-14)`, from the compiler cargo builds with.
fn rustc_version() -> Option<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let out = Command::new(rustc).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// The short hash of HEAD, with `-dirty` when tracked files differ from it.
fn git_commit() -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        // No optional locks: `git status` would otherwise rewrite the index it
        // refreshes, and the index is watched below, so that the next cargo command
        // ran this script again and rebuilt the whole crate.
        let out = Command::new("git")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    // Run again when the sources change (so that an edit makes the build `-dirty`),
    // and when HEAD moves or the index changes (a commit, a checkout, an edit staged):
    // git's paths from git itself, so that worktrees work too.
    for path in ["src", "build.rs", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={path}");
    }
    for path in ["HEAD", "index"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    if let Some(head) = git(&["rev-parse", "--symbolic-full-name", "HEAD"]) {
        if let Some(p) = git(&["rev-parse", "--git-path", &head]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    let hash = git(&["rev-parse", "--short=12", "HEAD"])?;
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some(if dirty { format!("{hash}-dirty") } else { hash })
}
