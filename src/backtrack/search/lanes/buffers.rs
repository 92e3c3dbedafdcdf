//! What the vector kernels share besides their operations: the per-row node buffers,
//! the set-up of a search in them, the tie marks of weighed searches, and reading a
//! solution back through the parents.
//!
//! The nodes waiting on row `d` sit in the buffer of that row, as three arrays (used
//! columns, the two diagonals) and, when solutions are weighed, the index of each
//! node's parent in the buffer of row `d - 1`. A kernel drains a buffer once it holds
//! [`DRAIN_AT`] nodes, so each row needs only a few kilobytes: its room is
//! [`Lanes::ROW_ROOM`](crate::backtrack::search::lanes::ops::Lanes::ROW_ROOM) values, derived from
//! the kernel's lane count, and the machine asserts that it never reads or writes past a
//! row's room.

use std::cell::RefCell;

use crate::backtrack::canonical::{class_weight, Ties};
use crate::backtrack::search::scalar::Frontier;
use crate::model::constraints::{column_of, Constraints, MAX_N};

/// A row's buffer is drained once it holds this many nodes.
pub(crate) const DRAIN_AT: usize = 512;

/// The mark, in a node's used columns, of a board with a queen on a tie square (see
/// [`Ties`]): only such solutions need their images compared; the others weigh 8.
pub(crate) const TIED: u32 = 1 << 31;

/// The per-row node buffers: [`Buffers::room`] values per row.
pub(crate) struct Buffers {
    /// The values each row holds: rows start at multiples of it.
    pub room: usize,
    /// Used columns of each node (with [`TIED`] when weighing).
    pub cols: Vec<u32>,
    /// Down-right diagonals attacking the node's row.
    pub ld: Vec<u32>,
    /// Down-left diagonals attacking the node's row.
    pub rd: Vec<u32>,
    /// Index of each node's parent in the previous row's buffer (when weighing).
    pub parent: Vec<u32>,
    /// Nodes waiting in each row's buffer.
    pub len: [usize; MAX_N],
}

impl Buffers {
    /// Buffers of `room` values per row.
    fn new(room: usize) -> Self {
        let size = room * MAX_N;
        Buffers {
            room,
            cols: vec![0; size],
            ld: vec![0; size],
            rd: vec![0; size],
            parent: vec![0; size],
            len: [0; MAX_N],
        }
    }
}

thread_local! {
    static BUFFERS: RefCell<Option<Buffers>> = const { RefCell::new(None) };
}

/// Whether a vector kernel can take this search: at least three rows left (the last
/// two are checked together under the third-last), and n <= 31 when weighing (the tie
/// mark is bit 31).
pub(crate) fn suits(constraints: &Constraints, start: Frontier, weigh: bool) -> bool {
    let n = constraints.n();
    start.row + 3 <= n && !(weigh && n >= 32)
}

/// Runs `search` on this thread's buffers of `room` values per row, reused from task to
/// task (made anew only when `room` changes, that is when a thread changes kernels).
pub(crate) fn with_buffers<R>(room: usize, search: impl FnOnce(&mut Buffers) -> R) -> R {
    BUFFERS.with(|cell| {
        let mut buffers = cell.borrow_mut();
        let buffers = match &mut *buffers {
            Some(b) if b.room == room => b,
            other => other.insert(Buffers::new(room)),
        };
        search(buffers)
    })
}

/// Where each row's tie squares are, for the tie marks of a weighed search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TieSquares {
    /// For each row, the columns where a queen ties (0 for most rows).
    pub on_row: [u32; MAX_N],
    /// The columns of the last row where a queen ties.
    pub last_row: u32,
}

/// Empties the buffers and puts `start` alone in the buffer of its row; for a weighed
/// search (`weigh`), marks it [`TIED`] if the rows above already tie (or if the
/// constraints are no edge seed's, so that every solution is compared) and returns the
/// tie squares of the rows below.
pub(crate) fn seed(
    buffers: &mut Buffers,
    constraints: &Constraints,
    start: Frontier,
    prefix: &[u8],
    weigh: bool,
) -> TieSquares {
    let first = start.row;
    let ties = if weigh {
        Ties::of_seed(constraints)
    } else {
        None
    };
    let tied_above = weigh
        && ties.is_none_or(|t| {
            t.rows
                .iter()
                .any(|&row| row < first && t.edge_columns >> prefix[row] & 1 == 1)
        });
    let mut squares = TieSquares {
        on_row: [0; MAX_N],
        last_row: 0,
    };
    if let Some(t) = ties {
        for row in t.rows {
            squares.on_row[row] = t.edge_columns;
        }
        squares.last_row = t.last_row;
    }
    let at = first * buffers.room;
    buffers.cols[at] = start.cols | if tied_above { TIED } else { 0 };
    buffers.ld[at] = start.ld;
    buffers.rd[at] = start.rd;
    buffers.len.fill(0);
    buffers.len[first] = 1;
    squares
}

/// What it takes to read a solution back from the buffers: the used columns and the
/// parent of every buffered node, and the rows above the search's start.
pub(crate) struct Path<'a> {
    /// [`Buffers::cols`].
    pub cols: &'a [u32],
    /// [`Buffers::parent`].
    pub parent: &'a [u32],
    /// The start row of the search.
    pub first: usize,
    /// The columns of the rows above it.
    pub prefix: &'a [u8],
    /// The board size.
    pub n: usize,
    /// [`Buffers::room`].
    pub room: usize,
}

impl Path<'_> {
    /// The class weight ([`class_weight`]) of the solution whose node `index` in row
    /// `d`'s buffer takes the queens `tail` (bits) on rows `d`, `d + 1`, `d + 2`; the
    /// rows above come back through the parents.
    pub(crate) fn weight(&self, d: usize, index: usize, tail: [u32; 3]) -> u64 {
        let mut board = [0u8; MAX_N];
        for (k, bit) in tail.into_iter().enumerate() {
            board[d + k] = column_of(bit);
        }
        let mut node = index;
        for row in (self.first + 1..=d).rev() {
            let parent = self.parent[row * self.room + node] as usize;
            let placed =
                self.cols[row * self.room + node] ^ self.cols[(row - 1) * self.room + parent];
            board[row - 1] = column_of(placed);
            node = parent;
        }
        board[..self.first].copy_from_slice(&self.prefix[..self.first]);
        class_weight(&board[..self.n])
    }
}
