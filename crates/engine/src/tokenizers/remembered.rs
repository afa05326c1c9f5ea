//! The token counts of pieces of text a thread has counted, remembered: tool texts repeat
//! their words, so most pieces a pre-tokenizer cuts were counted before.

use rustc_hash::FxHashMap;
use std::cell::RefCell;

use super::Encoding;

/// Whose model a thread's remembered counts are of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Owner {
    /// None yet.
    #[default]
    Nobody,
    /// A loaded tokenizer.json (its load's number).
    File(usize),
    /// An OpenAI encoding.
    OpenAi(Encoding),
}

/// The most pieces a thread remembers the count of before it forgets them all (a few
/// megabytes).
const PIECE_CACHE_ENTRIES: usize = 1 << 17;

/// The longest piece, in bytes, remembered: a longer one seldom repeats, and the table's
/// memory stays bounded.
const LONGEST_REMEMBERED_PIECE: usize = 256;

/// What a thread remembers of one model: the count of each piece it was given (a pure
/// function of the piece, for a model that does not draw at random).
#[derive(Default)]
pub(super) struct PieceCounts {
    /// The model whose counts these are.
    owner: Owner,
    /// Each piece's count.
    counts: FxHashMap<Box<str>, u64>,
    /// Pieces counted by the model, and pieces asked for (what the cache saved), kept for
    /// the tests.
    #[cfg(test)]
    work: PieceWork,
}

/// Pieces a thread's model counted and pieces asked for, since the thread started.
#[cfg(test)]
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PieceWork {
    /// Pieces the model was given.
    pub(crate) counted: u64,
    /// Pieces whose count was asked for.
    pub(crate) asked: u64,
}

impl PieceCounts {
    /// Makes these the counts of `owner`'s model, forgetting another's.
    fn serve(&mut self, owner: Owner) {
        if self.owner != owner {
            self.counts.clear();
            self.owner = owner;
        }
    }

    /// The count of `piece`, remembered or made by `model_count` now (and remembered).
    pub(super) fn count<E>(
        &mut self,
        piece: &str,
        model_count: impl FnOnce(&str) -> Result<u64, E>,
    ) -> Result<u64, E> {
        #[cfg(test)]
        {
            self.work.asked += 1;
        }
        if let Some(&tokens) = self.counts.get(piece) {
            return Ok(tokens);
        }
        #[cfg(test)]
        {
            self.work.counted += 1;
        }
        let tokens = model_count(piece)?;
        if piece.len() <= LONGEST_REMEMBERED_PIECE {
            if self.counts.len() >= PIECE_CACHE_ENTRIES {
                self.counts.clear();
            }
            self.counts.insert(piece.into(), tokens);
        }
        Ok(tokens)
    }
}

/// The pieces this thread's models counted and were asked for so far.
#[cfg(test)]
pub(crate) fn piece_work() -> PieceWork {
    PIECE_COUNTS.with(|counts| counts.borrow().work)
}

thread_local! {
    /// This thread's remembered piece counts, of the model it counted with last.
    static PIECE_COUNTS: RefCell<PieceCounts> = RefCell::default();
}

/// Calls `count` with this thread's remembered piece counts of `owner`'s model.
pub(super) fn with_piece_counts<R>(owner: Owner, count: impl FnOnce(&mut PieceCounts) -> R) -> R {
    PIECE_COUNTS.with(|counts| {
        let mut counts = counts.borrow_mut();
        counts.serve(owner);
        count(&mut counts)
    })
}
