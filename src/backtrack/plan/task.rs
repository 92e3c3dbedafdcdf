//! One task of the backtracking engine: a partial board, its row constraints and its
//! weight.

use crate::backtrack::search::scalar::Frontier;
use crate::model::constraints::MAX_N;

/// One independent piece of a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// Index into [`TaskList::constraints`].
    pub constraints: usize,
    /// The partial board the kernel starts from.
    pub frontier: Frontier,
    /// Every solution found below `frontier` stands for `weight` solutions.
    pub weight: u64,
    /// Whether each solution is weighed by its symmetry class
    /// ([`crate::backtrack::canonical::class_weight`]) rather than counted once.
    pub weigh_by_class: bool,
    /// The columns of the rows above `frontier` (used when `weigh_by_class` is set).
    pub prefix: [u8; MAX_N],
}

impl Task {
    /// A task at the empty board.
    pub fn root(constraints: usize, weight: u64, weigh_by_class: bool) -> Self {
        Task {
            constraints,
            frontier: Frontier::ROOT,
            weight,
            weigh_by_class,
            prefix: [0; MAX_N],
        }
    }
}
