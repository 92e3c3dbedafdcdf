//! The lane machine shared by the vector kernels: the operations a kernel provides
//! ([`ops::Lanes`]), the per-row node buffers ([`buffers`]), and the search written once
//! as generic code over those operations ([`machine`]).
//!
//! Only the x86-64 kernels use it today, so it is compiled on x86-64 only; nothing in it
//! is specific to x86 (a kernel for another architecture would implement
//! [`ops::Lanes`]).

pub(crate) mod buffers;
pub(crate) mod machine;
pub(crate) mod ops;
