//! Facts about the machine, the build and the moment, for benchmark reports.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The machine a report was measured on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// The host name.
    pub host: String,
    /// The CPU model.
    pub cpu: String,
    /// Logical CPUs.
    pub logical_cpus: usize,
    /// The operating system (name, release and kernel), when known.
    #[serde(default)]
    pub os: Option<String>,
    /// The instruction set architecture (`x86_64`, `aarch64`, ...).
    #[serde(default)]
    pub arch: Option<String>,
    /// The processor features the kernels can use, detected at run time.
    #[serde(default)]
    pub vector_features: Vec<String>,
}

impl Machine {
    /// This machine.
    pub fn this() -> Self {
        Machine {
            host: host_name(),
            cpu: cpu_model(),
            logical_cpus: logical_cpus(),
            os: Some(os_description()),
            arch: Some(std::env::consts::ARCH.to_string()),
            vector_features: vector_features(),
        }
    }
}

/// The build that produced a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// The version of nqueens.
    pub version: String,
    /// The git commit, when the build knew it.
    #[serde(default)]
    pub commit: Option<String>,
    /// The compiler (`rustc --version` at build time), when known.
    #[serde(default)]
    pub rustc: Option<String>,
    /// `release` or `debug` (debug assertions on).
    #[serde(default)]
    pub profile: Option<String>,
    /// The processor features compiled into all of the code (`-C target-cpu` or
    /// `target-feature`), beyond those the kernels choose at run time.
    #[serde(default)]
    pub compiled_features: Vec<String>,
}

impl Build {
    /// This build.
    pub fn this() -> Self {
        Build {
            version: nqueens::VERSION.to_string(),
            commit: nqueens::COMMIT.map(str::to_string),
            rustc: option_env!("NQUEENS_RUSTC_VERSION").map(str::to_string),
            profile: Some(
                if cfg!(debug_assertions) {
                    "debug"
                } else {
                    "release"
                }
                .to_string(),
            ),
            compiled_features: compiled_features(),
        }
    }

    /// The commit, or the version when the commit is unknown (for labels).
    pub fn label(&self) -> String {
        self.commit
            .clone()
            .unwrap_or_else(|| format!("v{}", self.version))
    }
}

/// The features the kernels and the compiled code can use, as detected on this
/// processor, in a fixed order (none on other architectures).
fn vector_features() -> Vec<String> {
    #[cfg(target_arch = "x86_64")]
    {
        let detected = [
            ("popcnt", std::arch::is_x86_feature_detected!("popcnt")),
            ("bmi1", std::arch::is_x86_feature_detected!("bmi1")),
            ("bmi2", std::arch::is_x86_feature_detected!("bmi2")),
            ("avx2", std::arch::is_x86_feature_detected!("avx2")),
            ("avx512f", std::arch::is_x86_feature_detected!("avx512f")),
            ("avx512bw", std::arch::is_x86_feature_detected!("avx512bw")),
            ("avx512vl", std::arch::is_x86_feature_detected!("avx512vl")),
        ];
        detected
            .iter()
            .filter(|f| f.1)
            .map(|f| f.0.to_string())
            .collect()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

/// The same features, where the whole build may use them (set at compile time).
fn compiled_features() -> Vec<String> {
    let compiled = [
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("bmi1", cfg!(target_feature = "bmi1")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("avx512f", cfg!(target_feature = "avx512f")),
        ("avx512bw", cfg!(target_feature = "avx512bw")),
        ("avx512vl", cfg!(target_feature = "avx512vl")),
    ];
    compiled
        .iter()
        .filter(|f| f.1)
        .map(|f| f.0.to_string())
        .collect()
}

/// The operating system: `PRETTY_NAME` of `/etc/os-release` and the kernel release,
/// or the family name alone.
fn os_description() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("PRETTY_NAME="))
                .map(|name| name.trim().trim_matches('"').to_string())
        });
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|s| s.trim().to_string());
    match (pretty, kernel) {
        (Some(name), Some(kernel)) => format!("{name}, {} {kernel}", std::env::consts::OS),
        (Some(name), None) => name,
        (None, Some(kernel)) => format!("{} {kernel}", std::env::consts::OS),
        (None, None) => std::env::consts::OS.to_string(),
    }
}

/// The host name (from the kernel, or `unknown`).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The CPU model name (from `/proc/cpuinfo`, or `unknown`).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, model)| model.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// The number of logical CPUs.
pub fn logical_cpus() -> usize {
    num_cpus::get()
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_timestamp() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Formats seconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn format_utc(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).expect("u64::MAX / 86 400 fits an i64");
    let rest = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).expect("a day of the month, 1 to 31");
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).expect("a month, 1 to 12");
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts() {
        let machine = Machine::this();
        assert!(machine.logical_cpus >= 1);
        assert!(machine.os.is_some_and(|os| !os.is_empty()));
        let build = Build::this();
        assert_eq!(build.version, nqueens::VERSION);
        assert!(!build.label().is_empty());
    }

    #[test]
    fn dates() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_795_000_000), "2026-11-18T11:06:40Z");
    }
}
