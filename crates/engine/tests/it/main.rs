//! The engine's integration tests, one test binary with a module per area: the golden files
//! checked against Hermes's own code (`parity`), the released Hermes packages replayed as the
//! oracle on random jobs (`releases`, with the jobs of `oracle_jobs`), properties over
//! generated catalogs (`properties`), the real tokenizers against their references
//! (`tokenizers`), hostile, broken and generated tokenizer.json files (`tokenizer_files`), and
//! the lint's counted work on a small shared vocabulary (`lint_work`). `support` names the repository's test data and the newest release.

mod agents;
mod lint_work;
mod oracle_jobs;
mod parity;
mod properties;
mod releases;
mod support;
mod tokenizer_files;
mod tokenizers;
