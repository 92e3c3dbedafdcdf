//! The vector operations a kernel gives the lane machine ([`crate::backtrack::search::lanes::machine`]):
//! the [`Lanes`] trait.
//!
//! A kernel is a zero-sized token type (such as `cpu::x86_64::Avx2`) that only its
//! own `detect()` constructs, after checking the processor's features. Holding one is
//! the proof that the operations' instructions exist, so the operations are safe
//! methods on the token and each kernel's `unsafe` blocks name the token as that proof.
//!
//! A vector holds [`Lanes::LANES`] 32-bit lanes; a mask of lanes is a `u32`, bit `i` for
//! lane `i`.
//!
//! | operation | meaning |
//! |---|---|
//! | `zero()`, `splat(x)`, `ramp()` | all 0, all `x`, lane `i` = `i` |
//! | `load(v, at)`, `store(v, at, x)` | `LANES` values of a slice from `at` (bounds-checked) |
//! | `or`, `and`, `andnot(a, b)` (`!a & b`), `xor`, `add`, `sub`, `shl1`, `shr1` | lane by lane |
//! | `nonzero(x)`, `test(a, b)` | the mask of the lanes where `x != 0`, where `a & b != 0` |
//! | `blend(old, mask, new)`, `or_where(x, mask, y)` | `new`, or `x \| y`, in the lanes of `mask`; `old`, `x` elsewhere |
//! | `compress(x, mask)` | the lanes of `mask`, in order, moved to the front |
//! | `expand_into(old, mask, packed)` | the lanes of `mask` take `packed`'s first values, in order; the others keep `old` |
//! | `first_lanes(mask, count)` | the lowest `count` lanes of `mask` (`count` at most its lanes) |
//!
//! Speed: the machine is one generic function, `#[inline(always)]`, and so is every
//! operation; each kernel's [`Lanes::expand`] calls it from a function compiled with the
//! kernel's target features, so that the whole search, operations and intrinsics
//! included, is inlined into that one function and compiled for those features.

use crate::backtrack::search::lanes::buffers::{Buffers, DRAIN_AT};
use crate::backtrack::search::scalar::{Frontier, Tally};
use crate::model::constraints::Constraints;

/// One search handed to a kernel's [`Lanes::expand`]: the buffers, seeded by
/// [`crate::backtrack::search::lanes::machine::search`], and what the search needs to read.
pub(crate) struct Job<'a> {
    /// This thread's node buffers, sized for the kernel and holding the start node.
    pub buffers: &'a mut Buffers,
    /// The row constraints.
    pub constraints: &'a Constraints,
    /// The start of the search.
    pub start: Frontier,
    /// The columns of the rows above `start` (for weighing).
    pub prefix: &'a [u8],
}

/// A vector kernel: its lane count, its vector type, and the operations of the module
/// table. Implemented by zero-sized tokens whose existence proves the processor runs
/// the operations.
pub(crate) trait Lanes: Copy {
    /// Nodes handled at once: the 32-bit lanes of a vector (at most 16, so that masks
    /// fit a `u32` with room to spare).
    const LANES: usize;

    /// The room of one row's buffer: a last step may append a vector past [`DRAIN_AT`],
    /// and a load may read a vector past the last node.
    const ROW_ROOM: usize = DRAIN_AT + 2 * Self::LANES;

    /// `LANES` 32-bit lanes.
    type Vector: Copy;

    /// Runs [`crate::backtrack::search::lanes::machine::expand`] on `job` in a function compiled
    /// with this kernel's target features (where the machine is inlined).
    fn expand<const WEIGH_BY_CLASS: bool>(self, job: Job<'_>) -> Tally;

    /// All lanes 0.
    fn zero(self) -> Self::Vector;
    /// All lanes `x`.
    fn splat(self, x: u32) -> Self::Vector;
    /// Lane `i` holds `i`.
    fn ramp(self) -> Self::Vector;
    /// `v[at..at + LANES]` (panics if out of bounds).
    fn load(self, v: &[u32], at: usize) -> Self::Vector;
    /// Writes `x` to `v[at..at + LANES]` (panics if out of bounds).
    fn store(self, v: &mut [u32], at: usize, x: Self::Vector);
    /// `a | b`.
    fn or(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;
    /// `a & b`.
    fn and(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;
    /// `!a & b`.
    fn andnot(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;
    /// `a ^ b`.
    fn xor(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;
    /// `a + b`, wrapping.
    fn add(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;
    /// `a - b`, wrapping.
    fn sub(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;
    /// `x << 1`.
    fn shl1(self, x: Self::Vector) -> Self::Vector;
    /// `x >> 1` (logical).
    fn shr1(self, x: Self::Vector) -> Self::Vector;
    /// The mask of the lanes where `x != 0`.
    fn nonzero(self, x: Self::Vector) -> u32;
    /// The mask of the lanes where `a & b != 0`.
    fn test(self, a: Self::Vector, b: Self::Vector) -> u32;
    /// `new` in the lanes of `mask`, `old` elsewhere.
    fn blend(self, old: Self::Vector, mask: u32, new: Self::Vector) -> Self::Vector;
    /// `x | y` in the lanes of `mask`, `x` elsewhere.
    fn or_where(self, x: Self::Vector, mask: u32, y: Self::Vector) -> Self::Vector;
    /// The lanes of `mask`, in order, moved to the front (the rest unspecified).
    fn compress(self, x: Self::Vector, mask: u32) -> Self::Vector;
    /// The lanes of `mask` take `packed`'s first values, in order; the others keep `old`.
    fn expand_into(self, old: Self::Vector, mask: u32, packed: Self::Vector) -> Self::Vector;
    /// The lowest `count` lanes of `mask`; `count` is less than `mask`'s lane count.
    fn first_lanes(self, mask: u32, count: u32) -> u32;
}
