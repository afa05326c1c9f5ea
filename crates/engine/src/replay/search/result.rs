//! What a search returns and what it counts: its hits ([`Hit`]), how it found them ([`Via`]),
//! the rarest-word gate it applied ([`Gate`]), and its work ([`SearchWork`], added up per
//! thread by [`tally`]).

use std::cell::Cell;

/// How a search found its hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// BM25 admitted at least one document.
    Bm25,
    /// The tool named by the whole query leads (releases from 0.20.6).
    Exact,
    /// Nothing scored; the query matched tool names as a substring (seed).
    Substring,
    /// Nothing found.
    None,
}

impl Via {
    /// `bm25`, `exact`, `substring` or `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Bm25 => "bm25",
            Via::Exact => "exact",
            Via::Substring => "substring",
            Via::None => "none",
        }
    }
}

/// One ranked hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Position in the catalog the index was built from.
    pub doc: usize,
    /// BM25 score, 0.1 for a substring hit, infinite for an exact-name hit.
    pub score: f64,
    /// Whether the tool's name is the whole query.
    pub exact_name: bool,
    /// The distinct query words whose tokens the document holds, in query order.
    pub matched_terms: Vec<String>,
}

/// A search's result.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// Which rule produced the hits.
    pub via: Via,
    /// Hits, best first, cut to the limit.
    pub hits: Vec<Hit>,
    /// The rarest-word gate's admission rule (none before 0.21.3 or for a query with no tokens).
    pub gate: Option<Gate>,
}

impl SearchResult {
    /// No hits.
    pub fn empty() -> SearchResult {
        SearchResult {
            via: Via::None,
            hits: Vec::new(),
            gate: None,
        }
    }
}

/// The work a search did, as counts of its basic steps: what makes it slow, without a clock.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchWork {
    /// Postings (a document's weight for a term) and tool names read one after another.
    pub postings: u64,
    /// Terms looked up in a document's own term list, one at a time.
    pub lookups: u64,
    /// Index entries scored in full: documents, or groups of twins scored once for all.
    pub scored: u64,
    /// Documents' masks of common terms read by a scan of a query of common words only, one
    /// machine word each: the part of the work that grows with the catalog for every query.
    pub scanned: u64,
}

impl SearchWork {
    /// The work done since this thread's count was `before`.
    pub(super) fn since(self, before: SearchWork) -> SearchWork {
        SearchWork {
            postings: self.postings.wrapping_sub(before.postings),
            lookups: self.lookups.wrapping_sub(before.lookups),
            scored: self.scored.wrapping_sub(before.scored),
            scanned: self.scanned.wrapping_sub(before.scanned),
        }
    }
}

impl std::ops::Add for SearchWork {
    type Output = SearchWork;

    fn add(self, other: SearchWork) -> SearchWork {
        SearchWork {
            postings: self.postings + other.postings,
            lookups: self.lookups + other.lookups,
            scored: self.scored + other.scored,
            scanned: self.scanned + other.scanned,
        }
    }
}

impl std::iter::Sum for SearchWork {
    fn sum<I: Iterator<Item = SearchWork>>(works: I) -> SearchWork {
        works.fold(SearchWork::default(), |a, b| a + b)
    }
}

/// The rarest-word gate's admission rule for one query (releases from 0.21.3).
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    /// The query word whose token is the rarest: every hit must hold it.
    pub word: String,
    /// Its search token (stemmed).
    pub token: String,
    /// Documents holding it (0: the query admits nothing but an exact name).
    pub document_frequency: usize,
    /// Distinct query tokens found in at least one document.
    pub answerable: usize,
    /// How many of those a document must hold.
    pub required: usize,
}

thread_local! {
    /// The work of the searches run on this thread so far (a search runs on one thread).
    pub(super) static WORK: Cell<SearchWork> = const {
        Cell::new(SearchWork {
            postings: 0,
            lookups: 0,
            scored: 0,
            scanned: 0,
        })
    };
}

/// Counts an index entry scored in full by the search running on this thread.
pub(super) fn tally_scored() {
    WORK.with(|work| {
        let mut sum = work.get();
        sum.scored = sum.scored.wrapping_add(1);
        work.set(sum);
    });
}

/// Counts work done by the search running on this thread.
pub(super) fn tally(postings: usize, lookups: usize) {
    WORK.with(|work| {
        let mut sum = work.get();
        sum.postings = sum.postings.wrapping_add(postings as u64);
        sum.lookups = sum.lookups.wrapping_add(lookups as u64);
        work.set(sum);
    });
}

/// Counts the masks a scan of common words read, in the search running on this thread.
pub(super) fn scan_tally(masks: usize) {
    WORK.with(|work| {
        let mut sum = work.get();
        sum.scanned = sum.scanned.wrapping_add(masks as u64);
        work.set(sum);
    });
}
