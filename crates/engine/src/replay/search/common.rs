//! The catalog's common terms as bits of a mask per document: the data the scan of a query of
//! common words only (`dense`) reads, kept by the index and built the first time it is needed.

/// A document's common terms as bits: those it holds, and how often it holds each.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct HeldBits {
    /// The bits of the common terms it holds.
    pub(super) held: u64,
    /// Two bits per common term, four terms a byte: 0 when it does not hold it, 1 once, 2
    /// twice, 3 more than twice.
    pub(super) levels: [u8; 16],
}

/// The catalog's commonest terms (up to 64, each in at least a sixteenth of the documents) as
/// bits, and each document's as masks with weights.
#[derive(Debug, Clone, Default)]
pub(super) struct CommonTerms {
    /// Per term, its bit, or none (`u8::MAX`).
    pub(super) bits: Vec<u8>,
    /// Per document, the bits of the common terms it holds, once and more.
    pub(super) held: Vec<HeldBits>,
    /// Per bit, the largest weight of its term in a document holding it once: most documents
    /// hold a word once, and weigh it well below its largest weight.
    pub(super) once_bounds: Vec<f64>,
    /// Per bit, the largest weight of its term in a document holding it exactly twice.
    pub(super) twice_bounds: Vec<f64>,
    /// Per document, where the weights of its common terms start in `weights` (and where the
    /// last one's end).
    pub(super) starts: Vec<u32>,
    /// Each document's common terms' weights, in the order of their bits.
    pub(super) weights: Vec<f32>,
}
