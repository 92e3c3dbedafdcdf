//! What only the command needs: the bench ladder (timed, or counted in instructions
//! under valgrind), its reports, their statistics, comparison and plot; the
//! verification against the published totals (the library's `nqueens::published`);
//! and facts about the machine and build.
//!
//! It uses the library's public API (`nqueens::...`) and nothing of the rest of `cli`
//! (the commands use it).

pub(crate) mod against;
pub(crate) mod bench;
pub(crate) mod compare;
pub(crate) mod facts;
pub(crate) mod instructions;
pub(crate) mod ladder;
pub(crate) mod load;
pub(crate) mod machine;
pub(crate) mod plot;
pub(crate) mod plot_ratio;
pub(crate) mod save;
pub(crate) mod statistics;
pub(crate) mod verify;
