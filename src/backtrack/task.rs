//! Running one task of the backtracking engine's plan with its kernel.

use crate::backtrack::plan::TaskList;
use crate::backtrack::search::resolved::Resolved;
use crate::engine::unit::TaskResult;

/// Runs task `index` of `list` with `kernel`.
///
/// # Panics
/// If `index` is out of range.
pub(crate) fn run_task(list: &TaskList, index: usize, kernel: Resolved) -> TaskResult {
    let task = &list.tasks[index];
    let constraints = &list.constraints[task.constraints];
    let tally = if task.weigh_by_class {
        kernel.weigh_by_class(
            constraints,
            task.frontier,
            &task.prefix[..task.frontier.row],
        )
    } else {
        kernel.count(constraints, task.frontier)
    };
    TaskResult {
        index,
        // A task's solutions fit a u64 and its weight is at most 8: no overflow.
        weighted: u128::from(tally.solutions) * u128::from(task.weight),
        work: u128::from(tally.nodes),
    }
}
