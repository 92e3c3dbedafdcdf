//! The lane machine shared by the vector kernels: per-row node buffers and the search
//! written once over a kernel's vector operations.

pub(crate) mod buffers;
pub(crate) mod machine;
