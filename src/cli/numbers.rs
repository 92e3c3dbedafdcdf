//! Numbers as a person reads them in the text output: counts grouped by thousands
//! (`2,691,008,701,644`), core time in the unit that fits (`151.6 core-hours`,
//! `15.7 core-minutes`), and `1 thread` but `2 threads`. JSON output never uses
//! these: it stays exact and ungrouped.
//!
//! A lowest module of the command line: it uses nothing of the crate.

/// `12,345`: an integer with thousands separators.
pub fn grouped(value: impl Into<u128>) -> String {
    let digits = value.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// [`grouped`] for a `usize` (task and thread counts).
pub fn grouped_usize(value: usize) -> String {
    grouped(u128::try_from(value).unwrap_or(u128::MAX))
}

/// `1 thread`, `64 threads`.
pub fn threads(count: usize) -> String {
    if count == 1 {
        "1 thread".to_string()
    } else {
        format!("{} threads", grouped_usize(count))
    }
}

/// CPU time given in core-hours, in the unit that reads best: core-hours from one
/// hour (`151.6 core-hours`, grouped: `1,234,567.9 core-hours`; past a trillion in
/// scientific notation), core-minutes from one minute, core-seconds below (three
/// decimals below one).
pub fn core_time(hours: f64) -> String {
    if hours >= 1e12 {
        format!("{hours:.2e} core-hours")
    } else if hours >= 1.0 {
        format!("{} core-hours", grouped_decimal(hours))
    } else if hours * 60.0 >= 1.0 {
        format!("{:.1} core-minutes", hours * 60.0)
    } else if hours * 3600.0 >= 1.0 {
        format!("{:.1} core-seconds", hours * 3600.0)
    } else {
        format!("{:.3} core-seconds", hours * 3600.0)
    }
}

/// A non-negative number below 10^12 with one decimal and its integer part grouped.
fn grouped_decimal(value: f64) -> String {
    let text = format!("{value:.1}");
    let (whole, decimals) = text.split_once('.').unwrap_or((&text, "0"));
    let whole: u128 = whole.parse().unwrap_or(0);
    format!("{}.{decimals}", grouped(whole))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped() {
        assert_eq!(grouped(0u32), "0");
        assert_eq!(grouped(999u32), "999");
        assert_eq!(grouped(9145u32), "9,145");
        assert_eq!(grouped(2_691_008_701_644u64), "2,691,008,701,644");
        assert_eq!(grouped_usize(1_234_567), "1,234,567");
    }

    #[test]
    fn threads_agree_in_number() {
        assert_eq!(threads(1), "1 thread");
        assert_eq!(threads(2), "2 threads");
        assert_eq!(threads(4096), "4,096 threads");
    }

    #[test]
    fn core_time_reads_without_exponents() {
        assert_eq!(core_time(151.6), "151.6 core-hours");
        assert_eq!(core_time(1_234_567.94), "1,234,567.9 core-hours");
        assert_eq!(core_time(0.261), "15.7 core-minutes");
        assert_eq!(core_time(0.013_54), "48.7 core-seconds");
        assert_eq!(core_time(3.2e13), "3.20e13 core-hours");
        assert_eq!(core_time(0.5 / 3600.0), "0.500 core-seconds");
    }
}
