//! The backtracking engine's kernel check: before a long count runs on the AVX2 or
//! AVX-512 kernel (`crate::engine::interface::CountingEngine::check_kernel`), that
//! kernel searches a fixed set of starts, and so does the scalar kernel; the count runs
//! only if every tally (solutions and nodes) is the same.
//!
//! The starts reach each part of a kernel's code: whole boards of 4 to 11, every task
//! of the boards of 11 and 12 in every symmetry mode (weighed by symmetry class where
//! the task is: the edge seeds of full symmetry), and deep starts on every board from
//! 20 to 32 (tasks of the full-symmetry plan carried down by queens drawn from a fixed
//! sequence to 5 to 12 rows above the end), where the kernels' wide shifts and the tie
//! mark of the weighing meet the board's edge.
//!
//! The tests (`tests/kernels.rs`) check every kernel far more widely on the processors
//! they run on; this check brings a part of them to every processor a count runs on,
//! and to every build. It runs once per process and kernel (about 30 milliseconds of
//! CPU on an AVX2 Zen 3) and is no guard against a core that fails now and then.

use std::sync::OnceLock;

use crate::backtrack::plan::TaskList;
use crate::backtrack::search::resolved::Resolved;
use crate::backtrack::search::scalar::{Frontier, Tally};
use crate::cpu::{Kernel, Level};
use crate::error::Error;
use crate::model::constraints::Constraints;
use crate::symmetry::Symmetry;

/// The whole boards the check searches.
const WHOLE_BOARDS: std::ops::RangeInclusive<usize> = 4..=11;
/// The boards whose every task (of every mode, split at depth 2) the check searches.
const TASK_BOARDS: [usize; 2] = [11, 12];
/// The boards of the deep starts.
const DEEP_BOARDS: std::ops::RangeInclusive<usize> = 20..=32;
/// Deep starts per board.
const DEEP_STARTS: usize = 32;

/// One search: its constraints, its start and, when weighed by symmetry class, the
/// columns of the rows above the start.
struct Start {
    /// The search in words.
    name: String,
    /// The board and its constraints.
    constraints: Constraints,
    /// Where the search starts.
    frontier: Frontier,
    /// The columns of the rows above the start, for a weighed search.
    weigh_prefix: Option<Vec<u8>>,
}

/// The first start the two kernels searched differently: the start, and the tallies of
/// the checked kernel and of the scalar one.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Difference {
    /// The start, described.
    start: String,
    /// The checked kernel's tally.
    got: Tally,
    /// The scalar kernel's tally.
    want: Tally,
}

/// A fixed sequence of pseudo-random numbers (xorshift).
struct Sequence(u64);

impl Sequence {
    /// The next number below `bound` (at least 1).
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        let bound = u64::try_from(bound).expect("a small bound");
        usize::try_from(self.0 % bound).expect("below a usize bound")
    }
}

/// Every whole board and task start, then the deep ones, in the order the check runs
/// them.
fn starts() -> Vec<Start> {
    let whole = WHOLE_BOARDS.map(|n| Start {
        name: format!("the whole board of N = {n}"),
        constraints: Constraints::new(n),
        frontier: Frontier::ROOT,
        weigh_prefix: None,
    });
    let tasks = TASK_BOARDS.into_iter().flat_map(|n| {
        Symmetry::ALL.into_iter().flat_map(move |symmetry| {
            let list = task_list(n, symmetry);
            (0..list.tasks.len())
                .map(|index| {
                    let task = &list.tasks[index];
                    Start {
                        name: format!("task {index} of N = {n} ({} symmetry)", symmetry.name()),
                        constraints: list.constraints[task.constraints],
                        frontier: task.frontier,
                        weigh_prefix: task
                            .weigh_by_class
                            .then(|| task.prefix[..task.frontier.row].to_vec()),
                    }
                })
                .collect::<Vec<_>>()
        })
    });
    let mut sequence = Sequence(0x6b65_726e_656c_7321);
    let deep: Vec<Start> = DEEP_BOARDS
        .flat_map(|n| deep_starts(n, &mut sequence))
        .collect();
    whole.chain(tasks).chain(deep).collect()
}

/// [`DEEP_STARTS`] starts of board `n`: tasks of its full-symmetry plan drawn from
/// `sequence`, each carried down by queens drawn from it to 5 to 12 rows above the end
/// (a draw that meets a dead end is dropped).
fn deep_starts(n: usize, sequence: &mut Sequence) -> Vec<Start> {
    let list = task_list(n, Symmetry::Full);
    let mut starts = Vec::with_capacity(DEEP_STARTS);
    while starts.len() < DEEP_STARTS {
        let index = sequence.below(list.tasks.len());
        let task = &list.tasks[index];
        let constraints = list.constraints[task.constraints];
        let last_row = n - 5 - sequence.below(8);
        let mut columns = task.prefix[..task.frontier.row].to_vec();
        let mut frontier = task.frontier;
        while frontier.row < last_row {
            let free = frontier.available(&constraints);
            if free == 0 {
                break;
            }
            let bit = nth_bit(free, sequence.below(free.count_ones() as usize));
            columns.push(u8::try_from(bit.trailing_zeros()).expect("below 32"));
            frontier = frontier.place(bit);
        }
        if frontier.row < last_row {
            continue;
        }
        // The vector kernels leave weighing at n = 32 to the scalar loop (the tie mark
        // takes bit 31), so only counts are compared there.
        let weigh = task.weigh_by_class && n < 32;
        starts.push(Start {
            name: format!(
                "a start of N = {n} at row {} (task {index}, full symmetry)",
                frontier.row
            ),
            constraints,
            frontier,
            weigh_prefix: weigh.then_some(columns),
        });
    }
    starts
}

/// The `nth` set bit of `bits` (from the lowest, 0 the first), alone.
fn nth_bit(bits: u32, nth: usize) -> u32 {
    let mut left = bits;
    for _ in 0..nth {
        left &= left - 1;
    }
    left & left.wrapping_neg()
}

/// The tasks of board `n` split at depth 2 under `symmetry`.
fn task_list(n: usize, symmetry: Symmetry) -> TaskList {
    TaskList::build(n, symmetry, Some(2))
        .expect("a board of 11 to 32 splits at depth 2 into a few thousand tasks")
}

/// What `kernel` tallies from `start`.
fn search(kernel: Resolved, start: &Start) -> Tally {
    match &start.weigh_prefix {
        Some(prefix) => kernel.weigh_by_class(&start.constraints, start.frontier, prefix),
        None => kernel.count(&start.constraints, start.frontier),
    }
}

/// The first of `starts` that `search` tallies differently with `fast` and with the
/// scalar kernel, if any.
fn first_difference(
    fast: Resolved,
    starts: &[Start],
    mut search: impl FnMut(Resolved, &Start) -> Tally,
) -> Option<Difference> {
    let scalar = Resolved::at(Level::Portable);
    starts.iter().find_map(|start| {
        let (got, want) = (search(fast, start), search(scalar, start));
        (got != want).then(|| Difference {
            start: start.name.clone(),
            got,
            want,
        })
    })
}

/// The outcome of the check of one kernel, kept for the process.
type Outcome = Option<Difference>;

/// Checks the backtracking kernel at `level` against the scalar kernel, once per
/// process and kernel (later calls give the first call's outcome); the scalar kernel
/// is not checked.
///
/// # Errors
/// [`Error::KernelMismatch`] naming the first start searched differently.
pub fn check(level: Level) -> Result<(), Error> {
    static AVX2: OnceLock<Outcome> = OnceLock::new();
    static AVX512: OnceLock<Outcome> = OnceLock::new();
    let fast = Resolved::at(level);
    let outcome = match fast.kernel() {
        Kernel::Avx2 => &AVX2,
        Kernel::Avx512 => &AVX512,
        // The scalar kernel is the reference (a kernel is never `auto`).
        Kernel::Scalar | Kernel::Auto => return Ok(()),
    };
    match outcome.get_or_init(|| first_difference(fast, &starts(), search)) {
        None => Ok(()),
        Some(difference) => Err(mismatch(fast.kernel(), difference)),
    }
}

/// The error of `difference` on `kernel`.
fn mismatch(kernel: Kernel, difference: &Difference) -> Error {
    let words = |tally: Tally| format!("{} solutions in {} nodes", tally.solutions, tally.nodes);
    Error::KernelMismatch {
        engine: "backtrack",
        kernel: kernel.name(),
        case: difference.start.clone(),
        got: words(difference.got),
        want: words(difference.want),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_of_this_processor_passes() {
        for kernel in [Kernel::Avx2, Kernel::Avx512] {
            if let Ok(level) = kernel.level() {
                assert_eq!(check(level).map_err(|e| e.to_string()), Ok(()));
            }
        }
        assert!(check(Level::Portable).is_ok());
    }

    #[test]
    fn the_starts_reach_every_mode_weighing_and_the_wide_boards() {
        let starts = starts();
        let scalar = Resolved::at(Level::Portable);
        let (mut solved_starts, mut weighed_starts, mut tied_starts) = (0, 0, 0);
        for n in DEEP_BOARDS {
            let deep: Vec<&Start> = starts
                .iter()
                .filter(|s| s.name.starts_with(&format!("a start of N = {n} ")))
                .collect();
            assert_eq!(deep.len(), DEEP_STARTS, "N = {n}");
            for start in &deep {
                let left = n - start.frontier.row;
                assert!((5..=12).contains(&left), "{}", start.name);
            }
            if n < 32 {
                assert!(deep.iter().any(|s| s.weigh_prefix.is_some()), "N = {n}");
            }
            // Weighed deep starts with solutions, some of them tied (a weight other than
            // 8 per solution: the tie mark).
            for start in deep.iter().filter(|s| s.weigh_prefix.is_some()) {
                let weighed = search(scalar, start).solutions;
                let counted = scalar.count(&start.constraints, start.frontier).solutions;
                weighed_starts += usize::from(counted > 0);
                tied_starts += usize::from(counted > 0 && weighed != 8 * counted);
            }
            // Some deep starts have solutions: the check compares more than zeros.
            let solved = deep
                .iter()
                .filter(|s| search(scalar, s).solutions > 0)
                .count();
            assert!(solved >= 2, "N = {n}: {solved} starts with solutions");
            solved_starts += solved;
        }
        assert!(
            solved_starts >= 80,
            "{solved_starts} deep starts with solutions"
        );
        assert!(
            weighed_starts >= 60,
            "{weighed_starts} weighed deep starts with solutions"
        );
        assert!(tied_starts >= 10, "{tied_starts} tied deep starts");
        for symmetry in Symmetry::ALL {
            let mode = format!("({} symmetry)", symmetry.name());
            assert!(starts.iter().any(|s| s.name.ends_with(&mode)), "{mode}");
        }
        assert!(starts
            .iter()
            .any(|s| s.name.starts_with("task ") && s.weigh_prefix.is_some()));
        // Whole boards: the published totals, from the scalar kernel.
        let whole = &starts[0..WHOLE_BOARDS.count()];
        assert_eq!(search(scalar, &whole[7]).solutions, 2_680);
    }

    #[test]
    fn a_kernel_that_tallies_one_start_differently_is_named_with_both_tallies() {
        let starts = starts();
        let scalar = Resolved::at(Level::Portable);
        let mut calls = 0;
        let difference = first_difference(scalar, &starts, |kernel, start| {
            calls += 1;
            let mut tally = search(kernel, start);
            // The "checked" kernel's search of the fifth start (the ninth search: each
            // start is searched by both) finds a node too many.
            if calls == 9 {
                tally.nodes += 1;
            }
            tally
        })
        .expect("a difference");
        assert_eq!(difference.start, "the whole board of N = 8");
        let message = mismatch(Kernel::Avx2, &difference).to_string();
        let want = search(scalar, &starts[4]);
        assert_eq!(
            message,
            format!(
                "the backtrack engine's avx2 kernel counted the whole board of N = 8 differently from its scalar kernel on this processor (92 solutions in {} nodes; scalar: 92 solutions in {} nodes): its counts cannot be trusted here",
                want.nodes + 1,
                want.nodes
            )
        );
    }

    #[test]
    fn nth_bit_takes_the_set_bits_from_the_lowest() {
        let bits = 0b1011_0100;
        let taken: Vec<u32> = (0..4).map(|nth| nth_bit(bits, nth)).collect();
        assert_eq!(taken, vec![0b100, 0b1_0000, 0b10_0000, 0b1000_0000]);
    }

    #[test]
    fn the_same_tallies_give_no_difference() {
        let starts = starts();
        let scalar = Resolved::at(Level::Portable);
        assert_eq!(first_difference(scalar, &starts[..40], search), None);
    }
}
