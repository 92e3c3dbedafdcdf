//! Tests of the checkpoint text: round trips, records bound to their run and
//! bounded, and any bytes read or refused.

use super::*;
use crate::run::long::checkpoint::tests::{id, result, TASKS};

/// Reads `bytes` as the checkpoint of the test run.
fn read_bytes(bytes: &[u8]) -> Result<Found, Problem> {
    read(&mut &bytes[..], &id(), &Header::of(&id(), "pid=1"), TASKS)
}

/// The refusal of `bytes`, which must be refused.
fn refusal(bytes: &[u8]) -> String {
    match read_bytes(bytes) {
        Err(Problem::Refused(why)) => why,
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn records_round_trip_and_are_bound_to_their_header() {
    let header = Header::of(&id(), "pid=7 host=a");
    assert_eq!(header.line.len(), header.owner_at + OWNER_WIDTH + 1);
    let line = record_line(header.key, &result(7));
    assert_eq!(
        parse_record(line.trim_end().as_bytes(), header.key),
        Some(result(7))
    );
    let damaged = line.replacen("14", "15", 1);
    assert_eq!(
        parse_record(damaged.trim_end().as_bytes(), header.key),
        None
    );
    // The same record under another run's header fails.
    let other = Header::of(&id().with("shard", "0/2"), "");
    assert_eq!(parse_record(line.trim_end().as_bytes(), other.key), None);
    // Whatever the owner slot holds, the header reads.
    let text = format!("{}{line}", Header::of(&id(), "anything at all").line);
    let Ok(Found::Ours(contents)) = read_bytes(text.as_bytes()) else {
        panic!("not read");
    };
    assert_eq!(contents.resumed.indices().collect::<Vec<_>>(), [7]);
    assert_eq!(contents.complete_len, text.len() as u64);
}

#[test]
fn spliced_forged_and_old_files_are_refused() {
    let ours = Header::of(&id(), "");
    // A record of another run's file, appended here.
    let other = Header::of(&id().with("shard", "0/2"), "");
    let spliced = format!("{}{}", ours.line, record_line(other.key, &result(3)));
    assert!(refusal(spliced.as_bytes()).contains("line 2 is damaged"));
    // A forged record with its check made the old way (no header key).
    let body = "0 1000000 1";
    let old_way = format!("{}{body} {:016x}\n", ours.line, fnv1a(body.as_bytes()));
    assert!(refusal(old_way.as_bytes()).contains("line 2 is damaged"));
    // The same record with a right check: more than one unit can find.
    let forged = TaskResult {
        index: 0,
        weighted: 1_000_000,
        work: 1,
    };
    let text = format!("{}{}", ours.line, record_line(ours.key, &forged));
    assert!(refusal(text.as_bytes()).contains("line 2 is impossible"));
    // A file of format 1.
    let old = ours.line.replacen("format=2", "format=1", 1);
    let e = refusal(old.as_bytes());
    assert!(
        e.contains("checkpoint format 1") && e.contains("new file"),
        "{e}"
    );
    let later = ours.line.replacen("format=2", "format=9", 1);
    assert!(refusal(later.as_bytes()).contains("later version"));
    // A header of another run.
    let e = refusal(other.line.as_bytes());
    assert!(e.contains("another run"), "{e}");
}

#[test]
fn files_of_another_unit_list_are_refused() {
    // Whole files of another list (their records keyed by their own header).
    let refused = |header: &RunId| {
        let header = Header::of(header, "");
        let text = header.line + &record_line(header.key, &result(1));
        refusal(text.as_bytes())
    };
    let e = refused(&id().with("units", "2"));
    assert!(
        e.starts_with(
            "was written with version 2 of the backtrack engine's unit list, and this \
             build uses version 1"
        ),
        "{e}"
    );
    let older = RunId::parse(&id().to_string().replace("units=1 ", "")).unwrap();
    let e = refused(&older);
    assert!(
        e.starts_with("records no version of the backtrack engine's unit list"),
        "{e}"
    );
}

#[test]
fn reads_are_bounded() {
    // One endless line is refused after the header limit.
    let endless = vec![b'a'; 100 * HEADER_LIMIT];
    assert!(refusal(&endless).contains("not an nqueens checkpoint"));
    let header = Header::of(&id(), "").line;
    let long = format!("{header}{}\n", "1".repeat(RECORD_LIMIT));
    assert!(refusal(long.as_bytes()).contains("line 2 is damaged"));
    // A torn header is fresh, a torn record is cut off.
    assert!(matches!(
        read_bytes(&header.as_bytes()[..30]),
        Ok(Found::Fresh)
    ));
    assert!(matches!(read_bytes(b""), Ok(Found::Fresh)));
    let torn = format!(
        "{header}{}",
        &record_line(Header::of(&id(), "").key, &result(2))[..5]
    );
    let Ok(Found::Ours(contents)) = read_bytes(torn.as_bytes()) else {
        panic!("not read");
    };
    assert_eq!(contents.complete_len, header.len() as u64);
}

/// A valid file of `records` (indices below [`TASKS`]), then damaged: bytes changed, a
/// cut, a line repeated.
fn damaged_file() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    (
        proptest::collection::vec(0..TASKS, 0..8),
        proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
        proptest::option::of(any::<prop::sample::Index>()),
        any::<bool>(),
    )
        .prop_map(|(records, changes, cut, repeat)| {
            let header = Header::of(&id(), "pid=1");
            let mut text = header.line.clone();
            for i in records {
                text.push_str(&record_line(header.key, &result(i)));
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

    /// Any bytes give records of distinct tasks in range, or a refusal (the command's
    /// exit status 2): never a panic.
    #[test]
    fn any_bytes_are_read_or_refused(
        bytes in proptest::prop_oneof![
            proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            damaged_file(),
        ]
    ) {
        if let Ok(Found::Ours(contents)) = read_bytes(&bytes) {
            let indices: Vec<usize> = contents.resumed.indices().collect();
            proptest::prop_assert!(indices.iter().all(|&i| i < TASKS));
            proptest::prop_assert_eq!(indices.len(), contents.resumed.count());
            proptest::prop_assert!(contents.complete_len <= bytes.len() as u64);
        }
    }
}
