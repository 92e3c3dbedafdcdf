//! The text of `nqueens --version`: the version and commit, then what this binary can
//! run on this processor (as `rg --version` lists its SIMD): the processor features
//! detected at run time, the kernels they allow (and what `auto` picks), the engines,
//! and how the binary was built. `-V` prints the first line only.
//!
//! Uses the library's kernel and engine names only.

use nqueens::{Engine, Kernel};

/// The first line: `0.1.0 (commit 1a2b3c4d5e6f)` (clap puts the name before it).
pub const SHORT: &str = env!("NQUEENS_VERSION_TEXT");

/// The whole text after the name, built once (clap keeps a `'static` string).
pub fn long() -> &'static str {
    Box::leak(long_text().into_boxed_str())
}

/// The lines of the long version.
fn long_text() -> String {
    let kernels: Vec<&str> = Kernel::ALL
        .into_iter()
        .filter(|k| *k != Kernel::Auto && k.is_supported())
        .map(Kernel::name)
        .collect();
    let missing: Vec<String> = Kernel::ALL
        .into_iter()
        .filter(|k| !k.is_supported())
        .map(|k| format!("{} (needs {})", k.name(), k.needs()))
        .collect();
    let auto = Kernel::Auto.resolved().map_or("scalar", Kernel::name);
    let mut lines = vec![
        SHORT.to_string(),
        format!("cpu features: {}", features()),
        format!("kernels here: {} (auto runs {auto})", kernels.join(", ")),
    ];
    if !missing.is_empty() {
        lines.push(format!("kernels not here: {}", missing.join(", ")));
    }
    let engines: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
    lines.push(format!("engines: {}", engines.join(", ")));
    lines.push(format!(
        "build: {} {}, {}{}",
        std::env::consts::ARCH,
        std::env::consts::OS,
        option_env!("NQUEENS_RUSTC_VERSION").unwrap_or("rustc (version unknown)"),
        if cfg!(feature = "mpi") {
            ", MPI support"
        } else {
            ", no MPI support"
        }
    ));
    lines.join("\n")
}

/// The processor features the kernels use, each `+` (detected) or `-` (absent).
#[cfg(target_arch = "x86_64")]
fn features() -> String {
    let detected = [
        ("popcnt", std::arch::is_x86_feature_detected!("popcnt")),
        ("bmi1", std::arch::is_x86_feature_detected!("bmi1")),
        ("bmi2", std::arch::is_x86_feature_detected!("bmi2")),
        ("avx2", std::arch::is_x86_feature_detected!("avx2")),
        ("avx512f", std::arch::is_x86_feature_detected!("avx512f")),
    ];
    detected
        .iter()
        .map(|(name, on)| format!("{}{name}", if *on { '+' } else { '-' }))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The processor features the kernels use: none on this architecture.
#[cfg(not(target_arch = "x86_64"))]
fn features() -> String {
    format!("none used on {} (portable code)", std::env::consts::ARCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_long_version_names_kernels_and_engines() {
        let text = long_text();
        assert!(text.starts_with(SHORT), "{text}");
        assert!(text.contains("kernels here: scalar"), "{text}");
        assert!(text.contains("engines: backtrack, join"), "{text}");
        assert!(text.contains("cpu features: "), "{text}");
    }
}
