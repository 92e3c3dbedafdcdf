//! A count's core: its options, what it sets up, the one task loop, how it stops, and
//! its result.
//!
//! - [`options`]: [`Options`](options::Options), how to run a count;
//! - [`setup`]: the processor level (detected once per run), the engine and its plan,
//!   the memory check and the pool;
//! - [`drive`]: the one task loop and its checked sums; [`order`]: the spread order
//!   in which a pass starts its tasks; [`stop`]: how it is stopped;
//! - [`result`]: [`Count`](result::Count), assembled in one place.
//!
//! This folder uses the engine layer (never an engine directly), the host facts
//! ([`crate::run::host`]) and the symmetry layer (fundamental counts).

pub(crate) mod drive;
pub(crate) mod options;
pub(crate) mod order;
pub(crate) mod result;
pub(crate) mod setup;
pub(crate) mod stop;
