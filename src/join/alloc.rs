//! The join engine's large allocations made fallible: a buffer that cannot be had is
//! an [`Error::OutOfMemory`] naming what was being built, never an abort.
//!
//! Used where the plan's tables are built and where a worker's unit buffers are
//! reserved (to the memory model's longest list, `join::memory`, so that they do not
//! grow while a unit runs). This module uses only `error`.

use crate::error::Error;

/// `len` copies of `value` in a new vector, or [`Error::OutOfMemory`] while `during`.
pub(crate) fn filled<T: Clone>(
    len: usize,
    value: T,
    during: &'static str,
) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    reserve(&mut v, len, during)?;
    v.resize(len, value);
    Ok(v)
}

/// Makes room for at least `len` elements in `v` (its length unchanged), or
/// [`Error::OutOfMemory`] while `during`.
pub(crate) fn reserve<T>(v: &mut Vec<T>, len: usize, during: &'static str) -> Result<(), Error> {
    let more = len.saturating_sub(v.len());
    v.try_reserve(more).map_err(|_| Error::OutOfMemory {
        during,
        bytes: u64::try_from(more.saturating_mul(size_of::<T>())).unwrap_or(u64::MAX),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_much_is_an_error() {
        assert_eq!(filled(3, 7u8, "testing").unwrap(), [7, 7, 7]);
        let e = filled(usize::MAX / 2, 0u64, "building a test table").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("out of memory while building a test table"),
            "{e}"
        );
        let mut v = vec![1u32];
        reserve(&mut v, 100, "testing").unwrap();
        assert!(v.capacity() >= 100 && v.len() == 1);
    }
}
