//! The backtracking engine's tasks described for an independent recount
//! ([`crate::engine::spec`]): a task is its seed's row constraints with the rows above
//! its start limited to the columns of their queens, weighed as its seed says.

use crate::backtrack::plan::TaskList;
use crate::engine::spec::{Term, UnitSpec, Units, Weighing};

/// The tasks of one run, as [`Units`].
pub(crate) struct TaskUnits {
    /// The task list.
    pub(crate) list: TaskList,
}

impl Units for TaskUnits {
    fn len(&self) -> usize {
        self.list.len()
    }

    fn spec(&self, index: usize) -> UnitSpec {
        let task = &self.list.tasks[index];
        let mut constraints = self.list.constraints[task.constraints];
        let above = task.frontier.row.min(self.list.n);
        let prefix = &task.prefix[..above];
        for (row, &col) in prefix.iter().enumerate() {
            constraints.restrict(row, 1 << col);
        }
        let weighing = if task.weigh_by_class {
            Weighing::ByClass(task.weight)
        } else {
            Weighing::Each(task.weight)
        };
        let columns: Vec<String> = prefix.iter().map(u8::to_string).collect();
        let how = if task.weigh_by_class {
            "each solution weighed by its class".to_string()
        } else {
            format!("weight {}", task.weight)
        };
        UnitSpec {
            terms: vec![Term {
                constraints,
                weighing,
            }],
            rows_above: Some(above),
            description: format!(
                "the queens of rows 0 to {} in columns [{}], {how}",
                above.saturating_sub(1),
                columns.join(", ")
            ),
        }
    }
}
