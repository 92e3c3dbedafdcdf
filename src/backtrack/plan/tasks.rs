//! Splitting a count into independent weighted tasks.
//!
//! A symmetry mode first produces *seeds*: a set of row constraints, a start board and
//! a weight (how many solutions each solution found there stands for). The seeds are
//! then expanded row by row, from the top, until `split_depth` rows are fixed; each
//! resulting partial board is a task that the kernel finishes on its own. The list is
//! deterministic: the same n, mode and depth always give the same tasks in the same
//! order, whatever the thread count, so that shards and checkpoints can name tasks by
//! their index.

use crate::backtrack::plan::seeds::{exact_symmetry, seeds};
use crate::backtrack::plan::task::Task;
use crate::error::Error;
use crate::limits::{check_board_size, check_split_depth, max_split_depth, min_split_depth};
use crate::model::constraints::{column_of, Constraints};
use crate::model::placement::Placement;
use crate::symmetry::Symmetry;

/// When no split depth is given, rows are fixed until there are at least this many tasks
/// (on boards up to 18; see [`target_tasks`]).
pub(crate) const TARGET_TASKS: usize = 4096;

/// How many tasks a default split aims for on an n x n board: [`TARGET_TASKS`] up to
/// n = 18, then four times more per row (the tree grows about tenfold per row), up to
/// about a million, so that the tasks of long runs stay short enough to checkpoint,
/// shard and balance.
pub(crate) fn target_tasks(n: usize) -> usize {
    let extra_rows = n.saturating_sub(18).min(8);
    (TARGET_TASKS << (2 * extra_rows)).min(1 << 20)
}

/// The most tasks a split may produce (a guard against runaway depths on large boards).
pub(crate) const MAX_TASKS: usize = 4_000_000;

/// The tasks of a count, with the constraint sets they refer to.
#[derive(Clone, Debug)]
pub struct TaskList {
    /// The board size.
    pub n: usize,
    /// The symmetry mode the tasks implement.
    pub symmetry: Symmetry,
    /// How many rows the tasks fix.
    pub split_depth: usize,
    /// The distinct row constraints used by the tasks.
    pub constraints: Vec<Constraints>,
    /// The tasks, in their deterministic order.
    pub tasks: Vec<Task>,
    /// Queens placed while building the tasks (part of the count's node total).
    pub setup_nodes: u64,
}

impl TaskList {
    /// Builds the tasks of a count of size `n` under `symmetry`, fixing `split_depth`
    /// rows (or, with `None`, as many as it takes to reach [`target_tasks`]).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a board size or split depth out of range;
    /// [`Error::TooManyTasks`] when the split would give more than [`MAX_TASKS`] tasks.
    pub fn build(n: usize, symmetry: Symmetry, split_depth: Option<usize>) -> Result<Self, Error> {
        check_board_size(n)?;
        Self::build_within(&Constraints::new(n), symmetry, split_depth)
    }

    /// The tasks of a count of the completions of `placement` (all solutions for the
    /// empty placement), under the strongest reduction no stronger than `symmetry` that
    /// stays exact for it ([`exact_symmetry`]).
    ///
    /// # Errors
    /// Those of [`TaskList::build`].
    pub fn for_placement(
        placement: &Placement,
        symmetry: Symmetry,
        split_depth: Option<usize>,
    ) -> Result<Self, Error> {
        let symmetry = exact_symmetry(placement, symmetry);
        if placement.is_empty() {
            Self::build(placement.n(), symmetry, split_depth)
        } else {
            Self::build_within(&placement.constraints(), symmetry, split_depth)
        }
    }

    /// Like [`TaskList::build`], with every row further limited by `base` (the
    /// constraints of pre-placed queens). Private: `symmetry` must be one under which
    /// the solutions allowed by `base` are invariant, as [`TaskList::for_placement`]
    /// ensures ([`exact_symmetry`]).
    fn build_within(
        base: &Constraints,
        symmetry: Symmetry,
        split_depth: Option<usize>,
    ) -> Result<Self, Error> {
        let n = base.n();
        let max_depth = max_split_depth(n);
        if let Some(depth) = split_depth {
            check_split_depth(n, depth)?;
        }
        let (mut constraints, seeds) = seeds(n, symmetry);
        for c in &mut constraints {
            for row in 0..n {
                c.restrict(row, base.allowed(row));
            }
        }
        let mut list = TaskList {
            n,
            symmetry,
            split_depth: 0,
            constraints,
            tasks: seeds,
            setup_nodes: 0,
        };
        if let Some(depth) = split_depth {
            while list.split_depth < depth {
                list.expand_one_row()?;
            }
        } else {
            let default_max = max_depth.min(n.saturating_sub(2)).max(min_split_depth(n));
            while list.split_depth < default_max
                && (list.split_depth < min_split_depth(n) || list.tasks.len() < target_tasks(n))
                && list.tasks.len() * (n - list.split_depth) <= MAX_TASKS
            {
                list.expand_one_row()?;
            }
        }
        Ok(list)
    }

    /// Fixes one more row in every task that still has free rows.
    fn expand_one_row(&mut self) -> Result<(), Error> {
        let mut next = Vec::with_capacity(self.tasks.len() * 4);
        for task in &self.tasks {
            let constraints = &self.constraints[task.constraints];
            if task.frontier.row >= self.n {
                next.push(*task);
                continue;
            }
            let mut avail = task.frontier.available(constraints);
            while avail != 0 {
                let bit = avail & avail.wrapping_neg();
                avail ^= bit;
                let mut child = Task {
                    frontier: task.frontier.place(bit),
                    ..*task
                };
                child.prefix[task.frontier.row] = column_of(bit);
                next.push(child);
                self.setup_nodes += 1;
            }
            if next.len() > MAX_TASKS {
                return Err(Error::TooManyTasks {
                    n: self.n,
                    depth: self.split_depth + 1,
                    limit: MAX_TASKS,
                });
            }
        }
        self.tasks = next;
        self.split_depth += 1;
        Ok(())
    }

    /// The number of tasks.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether there are no tasks (a board with no solution may end up with none).
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_depth_reaches_thousands_of_tasks() {
        let list = TaskList::build(16, Symmetry::Mirror, None).unwrap();
        assert!(list.len() >= TARGET_TASKS, "{} tasks", list.len());
        assert!(list.split_depth <= 14);
    }

    #[test]
    fn small_boards_split_to_the_end() {
        let list = TaskList::build(4, Symmetry::None, None).unwrap();
        assert_eq!(list.split_depth, 2);
        assert_eq!(
            TaskList::build(0, Symmetry::Mirror, None)
                .unwrap()
                .split_depth,
            0
        );
    }

    #[test]
    fn explicit_depth_is_checked() {
        assert!(TaskList::build(8, Symmetry::None, Some(9)).is_err());
        assert!(TaskList::build(8, Symmetry::None, Some(0)).is_err());
        assert_eq!(
            TaskList::build(8, Symmetry::None, Some(8)).unwrap().len(),
            92
        );
        assert!(TaskList::build(33, Symmetry::None, None).is_err());
    }

    #[test]
    fn the_list_is_deterministic() {
        let a = TaskList::build(12, Symmetry::Mirror, Some(3)).unwrap();
        let b = TaskList::build(12, Symmetry::Mirror, Some(3)).unwrap();
        assert_eq!(a.tasks, b.tasks);
    }
}
