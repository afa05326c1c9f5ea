//! The text layer of the search: tokens (ASCII alphanumeric runs, lowercased, stemmed by the
//! profiles that stem), a tool's search text, and the vocabulary that turns documents into term
//! counts (tokenised in groups on any thread, ids given in one order).

use rustc_hash::FxHashMap;
use std::sync::Arc;

use schematax_releases::SearchRules;

/// Maximal runs of ASCII `[A-Za-z0-9]` in `text`, as written.
pub fn raw_tokens(text: &str) -> impl Iterator<Item = &str> + '_ {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
}

/// The search tokens of `text` under `rules`: ASCII alphanumeric runs, lowercased, and
/// stemmed (Snowball English) when the profile stems.
pub fn tokens<'a>(text: &'a str, rules: &SearchRules) -> impl Iterator<Item = String> + 'a {
    let stem = rules.stem;
    raw_tokens(text).map(move |token| term_of(token.to_ascii_lowercase(), stem))
}

/// The term of a lowercase word: its stem when the profile stems, else the word itself.
fn term_of(lower: String, stem: bool) -> String {
    if stem {
        stem_word(&lower)
    } else {
        lower
    }
}

/// The Snowball English (Porter2) stem of a lowercase word, as Snowball 3.1 gives it.
pub fn stem_word(word: &str) -> String {
    thread_local! {
        static STEMMER: snowstem::Stemmer = snowstem::Stemmer::create(snowstem::Algorithm::English);
    }
    STEMMER.with(|stemmer| stemmer.stem(word).into_owned())
}

/// The pieces of a tool's search text, in order, under `rules`: its name words (`_ . - :` as
/// separators; releases naming `mcp__S__T` drop `mcp__` first), its server label when the profile
/// indexes it and the name lacks it as a word, its description, its top-level parameter names.
pub fn search_text<'a>(
    rules: &SearchRules,
    name: &'a str,
    label: &'a str,
    description: &'a str,
    parameter_names: impl Iterator<Item = &'a str> + 'a,
) -> impl Iterator<Item = &'a str> + 'a {
    let name = rules
        .drop_name_prefix
        .and_then(|prefix| name.strip_prefix(prefix))
        .unwrap_or(name);
    let separators = |c: char| matches!(c, '_' | '.' | '-' | ':') || c.is_whitespace();
    let label = (rules.label_in_text
        && !label.is_empty()
        && !name.split(separators).any(|word| word == label))
    .then_some(label);
    std::iter::once(name)
        .chain(label)
        .chain(std::iter::once(description))
        .chain(parameter_names)
}

/// Every search token seen in a session's tools, each with a dense id; with stemming, each
/// distinct word is stemmed once.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    ids: FxHashMap<Box<str>, u32>,
    /// Lowercase word -> term id (the stem's), so a word is stemmed once.
    words: FxHashMap<Box<str>, u32>,
    /// Term text by id.
    terms: Vec<Box<str>>,
    pub(super) rules: Option<SearchRules>,
}

/// A tool's search text as token counts: `(term id, tf)` sorted by id, its length, and its
/// lowercased name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TermCounts {
    /// Shared with every index built over the tool, which scores a document by looking its
    /// terms up here.
    pub(super) terms: Arc<[(u32, u32)]>,
    pub(super) length: u32,
    pub(super) lowercase_name: Arc<str>,
}

impl TermCounts {
    /// Token count of the document (duplicates counted): BM25's `dl`.
    pub fn length(&self) -> u32 {
        self.length
    }
}

impl Vocabulary {
    /// An empty vocabulary tokenising by `rules`.
    pub fn new(rules: SearchRules) -> Vocabulary {
        Vocabulary {
            rules: Some(rules),
            ..Vocabulary::default()
        }
    }

    pub(super) fn stems(&self) -> bool {
        self.rules.is_some_and(|r| r.stem)
    }

    /// Terms known.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether no term is known.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The text of a term.
    pub fn term(&self, id: u32) -> &str {
        &self.terms[id as usize]
    }

    /// The term id of a raw token (lowercased and stemmed as the profile does), when known.
    pub fn id(&self, token: &str) -> Option<u32> {
        let lower = token.to_ascii_lowercase();
        if let Some(&id) = self.words.get(lower.as_str()) {
            return Some(id);
        }
        self.ids.get(term_of(lower, self.stems()).as_str()).copied()
    }

    /// An empty group of documents to tokenise (on any thread) for this vocabulary.
    pub fn group(&self) -> TokenisedGroup {
        TokenisedGroup {
            stem: self.stems(),
            places: FxHashMap::default(),
            words: Vec::new(),
            terms: Vec::new(),
            documents: Vec::new(),
        }
    }

    /// Tokenises the pieces of one tool's search text (see [`search_text`]) into term counts,
    /// adding new terms.
    #[cfg(test)]
    pub fn count_terms<'a>(
        &mut self,
        name: &str,
        pieces: impl Iterator<Item = &'a str>,
    ) -> TermCounts {
        let mut group = self.group();
        group.add(name, pieces);
        let mut counts = self.count_groups(vec![group]);
        counts.pop().and_then(|mut c| c.pop()).unwrap_or_default()
    }

    /// The term counts of groups of documents tokenised apart (on any thread), adding new
    /// terms. Each group's words get their ids in the order they were first seen in it, group
    /// after group, so the ids are those of counting every document in turn. Several groups
    /// are counted on every core; one on the calling thread alone.
    pub fn count_groups(&mut self, groups: Vec<TokenisedGroup>) -> Vec<Vec<TermCounts>> {
        use rayon::prelude::*;
        let ids: Vec<Vec<u32>> = groups.iter().map(|group| self.adopt(group)).collect();
        if groups.len() == 1 {
            return groups.into_iter().zip(ids).map(counted).collect();
        }
        groups.into_par_iter().zip(ids).map(counted).collect()
    }

    /// The term ids of a group's words (by their place in the group), adding the new ones.
    fn adopt(&mut self, group: &TokenisedGroup) -> Vec<u32> {
        debug_assert_eq!(group.stem, self.stems(), "a group of another profile");
        group
            .words
            .iter()
            .zip(&group.terms)
            .map(|(word, term)| {
                if let Some(&id) = self.words.get(word) {
                    return id;
                }
                let next = self.terms.len() as u32;
                let id = *self.ids.entry(term.clone()).or_insert(next);
                if id == next {
                    self.terms.push(term.clone());
                }
                self.words.insert(word.clone(), id);
                id
            })
            .collect()
    }
}

/// Documents tokenised without a vocabulary, so that many groups can be tokenised at once
/// (made by [`Vocabulary::group`]): the group's distinct lowercase words in first-seen order,
/// each with its term (worked out once), and each document's tokens as places in that list.
#[derive(Debug)]
pub struct TokenisedGroup {
    /// Whether the profile stems.
    stem: bool,
    /// Lowercase word -> its place in `words`.
    places: FxHashMap<Box<str>, u32>,
    words: Vec<Box<str>>,
    /// Per word, its term.
    terms: Vec<Box<str>>,
    documents: Vec<TokenisedDocument>,
}

/// One document of a [`TokenisedGroup`].
#[derive(Debug)]
struct TokenisedDocument {
    /// Its tokens, in order, as places in the group's words.
    words: Vec<u32>,
    lowercase_name: Arc<str>,
}

impl TokenisedGroup {
    /// Tokenises a document: its name and the pieces of its search text ([`search_text`]).
    pub fn add<'a>(&mut self, name: &str, pieces: impl Iterator<Item = &'a str>) {
        let mut words = Vec::new();
        let mut lower = String::new();
        for piece in pieces {
            for token in raw_tokens(piece) {
                lower.clear();
                lower.push_str(token);
                lower.make_ascii_lowercase();
                let place = match self.places.get(lower.as_str()) {
                    Some(&place) => place,
                    None => {
                        let place = self.words.len() as u32;
                        let word: Box<str> = lower.as_str().into();
                        self.places.insert(word.clone(), place);
                        self.terms
                            .push(term_of(lower.clone(), self.stem).into_boxed_str());
                        self.words.push(word);
                        place
                    }
                };
                words.push(place);
            }
        }
        self.documents.push(TokenisedDocument {
            words,
            lowercase_name: name.to_lowercase().into(),
        });
    }
}

/// One query token: the word as typed (lowercase) and its term, when any document has it.
#[derive(Debug, Clone)]
pub(super) struct QueryToken {
    /// The word as typed, lowercase.
    pub(super) word: String,
    /// Its term, when any document has it.
    pub(super) term: Option<u32>,
}

/// The term counts of a group's documents, its words numbered by `ids` (by their place in
/// the group).
fn counted((group, ids): (TokenisedGroup, Vec<u32>)) -> Vec<TermCounts> {
    group
        .documents
        .into_iter()
        .map(|document| {
            let mut terms: Vec<u32> = document.words.iter().map(|&w| ids[w as usize]).collect();
            terms.sort_unstable();
            TermCounts {
                terms: terms
                    .chunk_by(|a, b| a == b)
                    .map(|run| (run[0], run.len() as u32))
                    .collect::<Vec<_>>()
                    .into(),
                length: document.words.len() as u32,
                lowercase_name: document.lowercase_name,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::search::fixture::seed_rules;
    use schematax_releases::HERMES_2026_09;

    #[test]
    fn groups_tokenised_apart_get_the_ids_of_one_pass_in_order() {
        let texts = [
            "Runs the tests",
            "run a Test; tests RUN",
            "creates issues",
            "issue runs",
        ];
        for rules in [seed_rules(), HERMES_2026_09.search] {
            let mut one_by_one = Vocabulary::new(rules);
            let expected: Vec<TermCounts> = texts
                .iter()
                .map(|t| one_by_one.count_terms("N", std::iter::once(*t)))
                .collect();
            for split in 0..=texts.len() {
                let mut vocabulary = Vocabulary::new(rules);
                let groups = [&texts[..split], &texts[split..]].map(|run| {
                    let mut group = vocabulary.group();
                    for t in run {
                        group.add("N", std::iter::once(*t));
                    }
                    group
                });
                let counts: Vec<TermCounts> = vocabulary
                    .count_groups(groups.into())
                    .into_iter()
                    .flatten()
                    .collect();
                assert_eq!(counts, expected, "split at {split}");
                assert_eq!(vocabulary.terms, one_by_one.terms);
            }
            // The ids are the terms in the order they first occur in the texts.
            let mut first_seen: Vec<Box<str>> = Vec::new();
            for term in texts.iter().flat_map(|t| tokens(t, &rules)) {
                if !first_seen.iter().any(|seen| **seen == *term) {
                    first_seen.push(term.into());
                }
            }
            assert_eq!(one_by_one.terms, first_seen);
        }
        let mut vocabulary = Vocabulary::new(HERMES_2026_09.search);
        let runs = vocabulary.count_terms("Run", std::iter::once("runs running"));
        assert_eq!(vocabulary.terms.len(), 1, "{:?}", vocabulary.terms);
        assert_eq!(&*runs.terms, &[(0, 2)]);
        assert_eq!((runs.length, &*runs.lowercase_name), (2, "run"));
    }

    #[test]
    fn tokens_are_ascii_alphanumeric_runs() {
        let t: Vec<_> = tokens("listItems café_v2 東京 S3-put 100%", &seed_rules()).collect();
        assert_eq!(t, ["listitems", "caf", "v2", "s3", "put", "100"]);
        let t: Vec<_> = tokens("Creates issues, running", &HERMES_2026_09.search).collect();
        assert_eq!(t, ["creat", "issu", "run"]);
    }

    #[test]
    fn search_text_pieces_by_profile() {
        let seed: Vec<_> = search_text(
            &seed_rules(),
            "mcp_a.b-c:d",
            "a",
            "Desc.",
            ["x", "y"].into_iter(),
        )
        .collect();
        assert_eq!(seed, ["mcp_a.b-c:d", "Desc.", "x", "y"]);
        let rules = HERMES_2026_09.search;
        let with_label: Vec<_> = search_text(
            &rules,
            "mcp__my_api__deep",
            "my-api",
            "D",
            std::iter::empty(),
        )
        .collect();
        assert_eq!(with_label, ["my_api__deep", "my-api", "D"]);
        let without: Vec<_> =
            search_text(&rules, "mcp__github__x", "github", "D", std::iter::empty()).collect();
        assert_eq!(without, ["github__x", "D"]);
    }
}
