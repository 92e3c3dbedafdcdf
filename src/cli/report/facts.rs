//! The facts of one count that a bench row needs.

/// The facts of one count a row needs.
#[derive(Clone, Debug, PartialEq)]
pub struct CountFacts {
    /// The board size.
    pub n: usize,
    /// The total.
    pub total: u128,
    /// The engine that counted.
    pub engine: String,
    /// The work in the engine's unit (nodes or pairs).
    pub work: u128,
    /// Tasks.
    pub tasks: usize,
    /// Split depth (the backtracking engine).
    pub split_depth: Option<usize>,
    /// Worker threads.
    pub threads: usize,
    /// The kernel (vector path) that ran (never `auto`).
    pub kernel: String,
}

impl From<&nqueens::Count> for CountFacts {
    fn from(c: &nqueens::Count) -> Self {
        CountFacts {
            n: c.n,
            total: c.total,
            engine: c.engine.to_string(),
            work: c.work.amount(),
            tasks: c.tasks,
            split_depth: c.split_depth,
            threads: c.threads,
            kernel: c.kernel.to_string(),
        }
    }
}
