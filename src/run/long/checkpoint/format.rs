//! The text of a checkpoint file: its header line, its record lines, each with an
//! FNV-1a check of the rest of the line, and the parser of a whole file.

use crate::engine::Engine;
use crate::engine::TaskResult;
use crate::run::long::checkpoint::MAGIC;
use crate::run::long::identity::{Difference, RunId, UNITS_KEY};

/// The header line for run `id`, newline included.
pub(crate) fn header_line(id: &RunId) -> String {
    let body = format!("{MAGIC} {id}");
    format!("{body} check={:016x}\n", fnv1a(body.as_bytes()))
}

/// The line recording `result`, newline included.
pub(crate) fn record_line(result: &TaskResult) -> String {
    let body = format!("{} {} {}", result.index, result.weighted, result.work);
    format!("{body} {:016x}\n", fnv1a(body.as_bytes()))
}

/// The 64-bit FNV-1a hash of `bytes`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The records of a checkpoint file and the length of its complete lines.
pub(crate) struct Parsed {
    pub(crate) done: Vec<TaskResult>,
    pub(crate) complete_len: usize,
}

/// Parses a checkpoint file expected to belong to `id`, with `tasks` tasks.
pub(crate) fn parse(bytes: &[u8], id: &RunId, tasks: usize) -> Result<Parsed, String> {
    let complete_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut lines = bytes[..complete_len].split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    let header = std::str::from_utf8(first).ok().and_then(parse_header);
    let found = header.ok_or_else(|| {
        "is not an nqueens checkpoint (refusing to use or overwrite it)".to_string()
    })?;
    if let Some(diff) = id.difference(&found) {
        if diff.key == UNITS_KEY {
            return Err(units_refusal(&diff, &found));
        }
        let advice = match (diff.key.as_str(), &diff.other) {
            ("engine", Some(engine)) => {
                format!("resume it with the {engine} engine, or use another file for this run")
            }
            _ => "use another file for this run".to_string(),
        };
        return Err(format!(
            "belongs to another run ({}): {advice}",
            diff.describe("here", "in the file")
        ));
    }
    let mut seen = vec![false; tasks];
    let mut done = Vec::new();
    for (i, line) in lines.enumerate() {
        let number = i + 2;
        if line.is_empty() {
            // `split` yields an empty piece after the final newline.
            continue;
        }
        let result = std::str::from_utf8(line)
            .ok()
            .and_then(parse_record)
            .ok_or_else(|| format!("line {number} is damaged (refusing to use the file)"))?;
        if result.index >= tasks {
            return Err(format!(
                "line {number} names task {} but the run has {tasks} tasks",
                result.index
            ));
        }
        if std::mem::replace(&mut seen[result.index], true) {
            return Err(format!(
                "line {number} records task {} a second time",
                result.index
            ));
        }
        done.push(result);
    }
    Ok(Parsed { done, complete_len })
}

/// The refusal of a file whose unit-list version (`diff`, this run's against the
/// file's) differs: one made with another list, or before versions were recorded.
fn units_refusal(diff: &Difference, found: &RunId) -> String {
    let engine = found.get("engine").unwrap_or(Engine::UNNAMED.name());
    let here = diff.this.as_deref().unwrap_or("?");
    match &diff.other {
        None => format!(
            "records no version of the {engine} engine's unit list (it was written before \
             checkpoints recorded one), so its tasks cannot be told from this build's \
             (version {here}): finish it with the nqueens that started it, or use another \
             file for this run"
        ),
        Some(there) => format!(
            "was written with version {there} of the {engine} engine's unit list, and this \
             build uses version {here}: finish it with a build of version {there}, or use \
             another file for this run"
        ),
    }
}

/// Parses a header line (without its newline) into the run it names.
pub(crate) fn parse_header(line: &str) -> Option<RunId> {
    let rest = line.strip_prefix(MAGIC)?.strip_prefix(' ')?;
    let (fields, check) = rest.rsplit_once(" check=")?;
    let body = &line[..MAGIC.len() + 1 + fields.len()];
    if check != format!("{:016x}", fnv1a(body.as_bytes())) {
        return None;
    }
    RunId::parse(fields)
}

/// Parses a record line (without its newline).
pub(crate) fn parse_record(line: &str) -> Option<TaskResult> {
    let (body, check) = line.rsplit_once(' ')?;
    if check != format!("{:016x}", fnv1a(body.as_bytes())) {
        return None;
    }
    let mut words = body.split(' ');
    let result = TaskResult {
        index: words.next()?.parse().ok()?,
        weighted: words.next()?.parse().ok()?,
        work: words.next()?.parse().ok()?,
    };
    words.next().is_none().then_some(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::long::checkpoint::tests::{id, result, TASKS};

    #[test]
    fn records_round_trip() {
        let r = result(7);
        let line = record_line(&r);
        assert_eq!(parse_record(line.trim_end()), Some(r));
        let damaged = line.replacen("14", "15", 1);
        assert_eq!(parse_record(damaged.trim_end()), None);
        assert_eq!(parse_header(header_line(&id()).trim_end()), Some(id()));
    }

    #[test]
    fn files_of_another_unit_list_are_refused() {
        let refusal = |header: RunId| {
            let text = header_line(&header) + &record_line(&result(1));
            parse(text.as_bytes(), &id(), TASKS).err().unwrap()
        };
        let e = refusal(id().with("units", "2"));
        assert!(
            e.starts_with(
                "was written with version 2 of the backtrack engine's unit list, and this \
                 build uses version 1"
            ),
            "{e}"
        );
        let older = RunId::parse(&id().to_string().replace("units=1 ", "")).unwrap();
        let e = refusal(older);
        assert!(
            e.starts_with("records no version of the backtrack engine's unit list"),
            "{e}"
        );
    }

    /// A valid file of `records` (indices below [`TASKS`]), then damaged: bytes
    /// changed, a cut, a line repeated.
    fn damaged_file() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        (
            proptest::collection::vec(0..TASKS, 0..8),
            proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
            proptest::option::of(any::<prop::sample::Index>()),
            any::<bool>(),
        )
            .prop_map(|(records, changes, cut, repeat)| {
                let mut text = header_line(&id());
                for i in records {
                    text.push_str(&record_line(&result(i)));
                }
                if repeat {
                    if let Some(line) = text.lines().last().map(str::to_string) {
                        text.push_str(&line);
                        text.push('\n');
                    }
                }
                let mut bytes = text.into_bytes();
                for (at, byte) in changes {
                    let at = at.index(bytes.len());
                    bytes[at] = byte;
                }
                if let Some(cut) = cut {
                    bytes.truncate(cut.index(bytes.len() + 1));
                }
                bytes
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(10_000))]

        /// Any bytes give records of distinct tasks in range, or a refusal (the
        /// command's exit status 2): never a panic.
        #[test]
        fn any_bytes_are_read_or_refused(
            bytes in proptest::prop_oneof![
                proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
                damaged_file(),
            ]
        ) {
            if let Ok(parsed) = parse(&bytes, &id(), TASKS) {
                let mut seen = [false; TASKS];
                for r in &parsed.done {
                    proptest::prop_assert!(r.index < TASKS && !seen[r.index]);
                    seen[r.index] = true;
                }
                proptest::prop_assert!(parsed.complete_len <= bytes.len());
            }
        }
    }
}
