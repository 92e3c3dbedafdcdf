//! What one finished unit of a plan contributed to a count.

/// What one finished task (a unit of the engine's plan) contributed to a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskResult {
    /// The task's position in the run's deterministic list of units.
    pub index: usize,
    /// Its solutions times their weights.
    pub weighted: u128,
    /// Its work in the engine's unit: the queens its search placed (backtracking), or
    /// the pairs of half-boards it evaluated (join).
    pub work: u128,
}
