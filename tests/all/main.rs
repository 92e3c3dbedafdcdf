//! The integration tests, in one binary (one link of the crate instead of one per
//! file), a module per subject: the command line (`cli_count`, `verify_bench_cli`,
//! `engines_cli`, `audit_cli`, `merge_frontier`, `messages_cli`, `place_cli`,
//! `progress_cli`, `solve_cli`, `packaging_cli`, the exit statuses of every command
//! `statuses`, and what a new user meets `new_user`), the
//! library's counts (`counts`, `symmetry`, `completion_props`), long runs and their
//! faults (`longruns`, `faults`, `faults_files`, `memory_limit`, `address_space`), the attacks on their
//! files and inputs (`safety`, `safety_inputs`, `safety_outputs`), bench reports (`bench_report`,
//! `bench_compare`), the readers (`readers_fuzz`), and the profiler's name for a count
//! (`measured`).
//!
//! The checks of each vector path have their own binaries (`tests/kernels.rs`,
//! `tests/join.rs`), whose harness reports a path this processor lacks as ignored.

#[path = "../bench_support/mod.rs"]
mod bench_support;
#[path = "../common/mod.rs"]
mod common;

mod address_space;
mod audit_cli;
mod bench_compare;
mod bench_report;
mod budget_runs;
mod cli_count;
mod completion_props;
mod counts;
mod engines_cli;
mod faults;
mod faults_files;
mod longruns;
mod measured;
mod memory_limit;
mod merge_frontier;
mod messages_cli;
mod new_user;
mod packaging_cli;
mod place_cli;
mod progress_cli;
mod readers_fuzz;
mod safety;
mod safety_inputs;
mod safety_outputs;
mod solve_cli;
mod statuses;
mod symmetry;
mod verify_bench_cli;
