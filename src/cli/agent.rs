//! The commands under an agent other than Hermes (`--agent`, or the config's
//! `schematax.agent`): `report`, `search` and `eval` of that agent's turn, and `agents`.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::cli::args::{AgentArg, OutputArgs, SessionArgs};
use crate::cli::{emit, CliError, EXIT_FAILURE};
use schematax_engine::agents::eval::evaluate;
use schematax_engine::agents::search::AgentIndex;
use schematax_engine::agents::settings::{AgentSettings, DEFAULT_CONTEXT_WINDOW};
use schematax_engine::agents::turn::AgentTurn;
use schematax_engine::analyses::eval::{resolve, QuerySet};
use schematax_engine::inputs::client_config::load_client_config;
use schematax_engine::inputs::Inputs;
use schematax_engine::replay::activation::Traffic;
use schematax_engine::replay::session::{Overrides, SearchIndexing, Session};
use schematax_engine::tokenizers::LoadedTokenizer;
use schematax_releases::{Agent, AgentRelease, Profile};
use schematax_report::agents::{
    AgentColumn, AgentCompareReport, AgentSearchReport, AgentTurnReport, AgentsReport, QueryAcross,
};
use schematax_report::cost::CostReport;
use schematax_report::words::Words;

/// `schematax agents`.
pub fn list(output: OutputArgs) -> Result<ExitCode, CliError> {
    emit(
        &AgentsReport::build().render(output.format.into()),
        output.output.as_deref(),
    )
}

/// The settings `release`'s agent reads, from the flags, the config and the client configs
/// of its kind.
pub fn settings(
    session: &SessionArgs,
    inputs: &Inputs,
    release: &AgentRelease,
) -> Result<AgentSettings, CliError> {
    let mut settings = AgentSettings {
        context_window: session
            .context
            .filter(|c| *c > 0)
            .or(inputs.config.model.context_length)
            .unwrap_or(DEFAULT_CONTEXT_WINDOW),
        enable_tool_search: session.enable_tool_search.clone(),
        ..AgentSettings::default()
    };
    for path in &session.client_configs {
        let config = load_client_config(path)?;
        settings.read_client_config(&config, release.rules.client_file);
    }
    Ok(settings)
}

/// The tokenizer of the configured model (or `--model`/`--tokenizer`), unless chars/4 only.
pub fn tokenizer(
    session: &SessionArgs,
    inputs: &Inputs,
    estimate_only: bool,
) -> Result<Option<(Arc<LoadedTokenizer>, String)>, CliError> {
    if estimate_only {
        return Ok(None);
    }
    let choice = session
        .tokenizer
        .choice(inputs.config.model.id.as_deref())?;
    let loaded = LoadedTokenizer::shared(&choice.tokenizer)?;
    Ok(Some((loaded, choice.tokenizer.short_name())))
}

/// The input warnings, printed on stderr and returned for the report.
fn warnings(inputs: &Inputs) -> Vec<String> {
    let words: Vec<String> = inputs
        .warnings(Profile::default())
        .map(|w| w.words())
        .collect();
    for w in &words {
        eprintln!(
            "schematax: warning: {}",
            schematax_engine::text::sanitize(w)
        );
    }
    words
}

/// One agent's turn over the inputs.
pub fn turn(
    release: &'static AgentRelease,
    session: &SessionArgs,
    inputs: &Inputs,
    tokenizer: Option<&LoadedTokenizer>,
) -> Result<AgentTurn, CliError> {
    Ok(AgentTurn::build(
        release,
        &inputs.captures,
        &settings(session, inputs, release)?,
        tokenizer,
    )?)
}

/// `report` under another agent.
pub fn report(
    (release, agent): (&'static AgentRelease, &'static Agent),
    session: &SessionArgs,
    inputs: &Inputs,
    estimate_only: bool,
    (format, output): (schematax_report::Format, Option<&std::path::Path>),
) -> Result<ExitCode, CliError> {
    let tokenizer = tokenizer(session, inputs, estimate_only)?;
    let turn = turn(release, session, inputs, tokenizer.as_ref().map(|t| &*t.0))?;
    let report = AgentTurnReport::build(
        &turn,
        agent.title,
        tokenizer.map(|t| t.1),
        settings(session, inputs, release)?.context_window,
        warnings(inputs),
    );
    emit(&report.render(format), output)
}

/// The index of an agent's search, or the one line that says why it cannot be replayed.
fn index(
    (release, agent): (&'static AgentRelease, &'static Agent),
    turn: &AgentTurn,
    inputs: &Inputs,
) -> Result<AgentIndex, CliError> {
    AgentIndex::build(turn, &inputs.captures).map_err(|why| {
        CliError::Usage(format!(
            "{}@{}: {} {why}; its cost figures are in `schematax report --agent {}`",
            agent.id, release.version, agent.title, agent.id
        ))
    })
}

/// `search` under another agent.
pub fn search(
    chosen: (&'static AgentRelease, &'static Agent),
    session: &SessionArgs,
    inputs: &Inputs,
    queries: &[String],
    limit: Option<i64>,
    output: &OutputArgs,
) -> Result<ExitCode, CliError> {
    warnings(inputs);
    let turn = turn(chosen.0, session, inputs, None)?;
    let index = index(chosen, &turn, inputs)?;
    let limit = match limit {
        Some(l) if l >= 1 => usize::try_from(l).unwrap_or(usize::MAX),
        Some(l) => {
            return Err(CliError::Usage(format!(
                "--limit {l}: an agent's search takes 1 or more"
            )))
        }
        None => chosen.0.rules.loading.default_results,
    };
    let searches = queries.iter().map(|q| index.search(q, limit)).collect();
    let report = AgentSearchReport::build(&turn, searches);
    emit(
        &report.render(output.format.into()),
        output.output.as_deref(),
    )
}

/// `eval` under another agent: recall and MRR of its own search.
pub fn eval(
    chosen: (&'static AgentRelease, &'static Agent),
    session: &SessionArgs,
    inputs: &Inputs,
    set: &QuerySet,
    (k, lenient, min_recall): (Option<usize>, bool, Option<f64>),
    output: &OutputArgs,
) -> Result<ExitCode, CliError> {
    warnings(inputs);
    let turn = turn(chosen.0, session, inputs, None)?;
    let index = index(chosen, &turn, inputs)?;
    // Hermes's catalog only names the expected tools: it is not indexed for search.
    let hermes = Session::indexed(
        &inputs.config,
        &inputs.captures,
        &Default::default(),
        SearchIndexing::OnFirstSearch,
    );
    let k = k.unwrap_or(chosen.0.rules.loading.default_results);
    let evaluation = evaluate(&index, set, k, lenient, &|query, lenient| {
        expected_tools(&hermes, query, lenient)
    });
    let report = schematax_report::agents::AgentEvalReport::build(&turn, set, &evaluation);
    let code = emit(
        &report.render(output.format.into()),
        output.output.as_deref(),
    )?;
    if min_recall.is_some_and(|r| evaluation.overall.recall_at_k < r) {
        return Ok(ExitCode::from(EXIT_FAILURE));
    }
    Ok(code)
}

/// The `(server, tool)` pairs a query accepts, its names resolved in the Hermes catalog.
pub fn expected_tools(
    hermes: &Session,
    query: &schematax_engine::analyses::eval::EvalQuery,
    lenient: bool,
) -> Vec<(String, String)> {
    let also = if lenient {
        query.also_ok.as_slice()
    } else {
        &[]
    };
    query
        .expected
        .iter()
        .chain(also)
        .flat_map(|name| resolve(hermes, name, query.server.as_deref()))
        .map(|doc| {
            let entry = hermes.catalog_entry(doc).0;
            (entry.server.clone(), entry.raw_name.clone())
        })
        .collect()
}

/// What `compare --agent` reads.
pub struct CompareParts<'a> {
    /// The flags (`--agent` names the columns).
    pub session: &'a SessionArgs,
    /// The inputs.
    pub inputs: &'a Inputs,
    /// A queries file, for recall and MRR.
    pub queries: Option<&'a QuerySet>,
    /// The k of every agent (default: each agent's own result count).
    pub limit: Option<usize>,
    /// chars/4 only.
    pub estimate_only: bool,
    /// Print the inputs' warnings on stderr (the page shows its own instead).
    pub warn: bool,
    /// Called from any thread as each agent's column is done, with how many are done and how
    /// many there are.
    pub progress: &'a (dyn Fn(usize, usize) + Sync),
}

/// `compare --agent`: every agent asked, side by side.
pub fn compare(parts: &CompareParts<'_>) -> Result<AgentCompareReport, CliError> {
    let CompareParts {
        session,
        inputs,
        queries,
        limit,
        estimate_only,
        warn,
        progress,
    } = *parts;
    if warn {
        warnings(inputs);
    }
    let tokenizer = tokenizer(session, inputs, estimate_only)?;
    for path in &session.client_configs {
        load_client_config(path)?;
    }
    let overrides = session.overrides(inputs)?;
    // The Hermes catalog that resolves a queries file's expected names, built only for one
    // (and not indexed for search).
    let hermes_default = queries.map(|_| {
        Session::indexed(
            &inputs.config,
            &inputs.captures,
            &overrides,
            SearchIndexing::OnFirstSearch,
        )
    });
    let loaded = tokenizer.as_ref().map(|t| &*t.0);
    // The agents' columns are independent: built side by side, in the order asked.
    let done = AtomicUsize::new(0);
    progress(0, session.agent.len());
    let built: Vec<(AgentColumn, Option<Vec<bool>>)> = session
        .agent
        .par_iter()
        .map(|asked| {
            let one = OneColumn {
                session,
                inputs,
                overrides: &overrides,
                tokenizer: loaded,
                queries,
                limit,
                hermes: hermes_default.as_ref(),
            };
            let column = one.build(asked);
            progress(done.fetch_add(1, Ordering::SeqCst) + 1, session.agent.len());
            column
        })
        .collect::<Result<_, CliError>>()?;
    let (columns, found): (Vec<AgentColumn>, Vec<Vec<bool>>) = built
        .into_iter()
        .map(|(column, outcomes)| (column, outcomes.unwrap_or_default()))
        .unzip();
    let differences = queries.map_or_else(Vec::new, |set| differences(set, &columns, &found));
    Ok(AgentCompareReport {
        tokenizer: tokenizer.map(|t| t.1),
        agents: columns,
        differences,
    })
}

/// What one column of `compare --agent` is built from.
struct OneColumn<'a> {
    session: &'a SessionArgs,
    inputs: &'a Inputs,
    overrides: &'a Overrides,
    tokenizer: Option<&'a LoadedTokenizer>,
    queries: Option<&'a QuerySet>,
    limit: Option<usize>,
    /// The Hermes catalog that resolves the queries' expected names.
    hermes: Option<&'a Session>,
}

impl OneColumn<'_> {
    /// The column of `asked`, and with queries, which each query finds.
    fn build(&self, asked: &AgentArg) -> Result<(AgentColumn, Option<Vec<bool>>), CliError> {
        Ok(match asked {
            AgentArg::Hermes(version) => {
                // Indexed for search only when queries will search it.
                let indexing = SearchIndexing::when_searching(self.queries.is_some());
                let overrides = match version {
                    Some(m) => Overrides {
                        profile: Some(m.profile),
                        ..self.overrides.clone()
                    },
                    None => self.overrides.clone(),
                };
                let mut hermes = Session::indexed(
                    &self.inputs.config,
                    &self.inputs.captures,
                    &overrides,
                    indexing,
                );
                hermes_column(
                    &mut hermes,
                    self.inputs,
                    self.tokenizer,
                    self.queries,
                    self.limit,
                )?
            }
            AgentArg::Other(release, agent) => {
                let settings = settings(self.session, self.inputs, release)?;
                let turn =
                    AgentTurn::build(release, &self.inputs.captures, &settings, self.tokenizer)?;
                let mut column = AgentColumn::of_turn(&turn, settings.context_window);
                let mut outcomes = None;
                if let (Some(set), Some(hermes)) = (self.queries, self.hermes) {
                    match AgentIndex::build(&turn, &self.inputs.captures) {
                        Ok(index) => {
                            let k = self.limit.unwrap_or(release.rules.loading.default_results);
                            let evaluation = evaluate(&index, set, k, false, &|q, lenient| {
                                expected_tools(hermes, q, lenient)
                            });
                            column.eval = Some(evaluation.overall);
                            outcomes = Some(
                                evaluation
                                    .outcomes
                                    .iter()
                                    .map(|o| o.rank.is_some())
                                    .collect(),
                            );
                        }
                        Err(why) => column.not_searched = Some(format!("{} {why}", agent.title)),
                    }
                }
                (column, outcomes)
            }
        })
    }
}

/// Hermes's column (and, with queries, which each query finds).
fn hermes_column(
    session: &mut Session,
    inputs: &Inputs,
    tokenizer: Option<&LoadedTokenizer>,
    queries: Option<&QuerySet>,
    limit: Option<usize>,
) -> Result<(AgentColumn, Option<Vec<bool>>), CliError> {
    let tokens = match tokenizer {
        Some(tokenizer) => {
            session.count_tokens()?;
            let before: u64 = (0..session.catalog().len())
                .filter_map(|doc| session.catalog_token_count(doc))
                .sum();
            let after = match session.bridge_definitions() {
                Some(bridges) if session.activation().active => {
                    let texts: Vec<String> = bridges.iter().map(ToString::to_string).collect();
                    tokenizer.count_all(&texts)?.iter().sum()
                }
                _ => before,
            };
            Some((before, after))
        }
        None => None,
    };
    let cost = CostReport::build(inputs, session, &Traffic::default());
    let mut column = AgentColumn::of_hermes(&cost, tokens);
    let outcomes = queries.map(|set| {
        let k = limit.unwrap_or(session.settings().search_default_limit as usize);
        let evaluation = schematax_engine::analyses::eval::evaluate(session, set, k, false);
        column.eval = Some(evaluation.overall);
        evaluation
            .queries()
            .map(|q| q.rank.is_some_and(|r| r <= k))
            .collect()
    });
    Ok((column, outcomes))
}

/// The queries some agents find and others lose.
fn differences(set: &QuerySet, columns: &[AgentColumn], found: &[Vec<bool>]) -> Vec<QueryAcross> {
    set.queries
        .iter()
        .enumerate()
        .filter_map(|(i, query)| {
            let mut found_by = Vec::new();
            let mut lost_by = Vec::new();
            for (column, outcomes) in columns.iter().zip(found) {
                match outcomes.get(i) {
                    Some(true) => found_by.push(column.agent.clone()),
                    Some(false) => lost_by.push(column.agent.clone()),
                    None => {}
                }
            }
            (!found_by.is_empty() && !lost_by.is_empty()).then(|| QueryAcross {
                id: query.id.clone(),
                query: query.query.clone(),
                found_by,
                lost_by,
            })
        })
        .collect()
}

/// `lint --agent`'s formats: a table, JSON or Markdown (SARIF rules are Hermes's).
pub fn plain_lint_format(
    format: crate::cli::choices::LintFormat,
) -> Result<crate::cli::choices::Format, CliError> {
    use crate::cli::choices::{Format, LintFormat};
    match format {
        LintFormat::Table => Ok(Format::Table),
        LintFormat::Json => Ok(Format::Json),
        LintFormat::Markdown => Ok(Format::Markdown),
        LintFormat::Sarif => Err(CliError::Usage(
            "--format sarif: lint under another agent gives table, json or markdown".into(),
        )),
    }
}

/// `lint` under another agent: the deferred tools its own search misses for their own
/// name words or first sentence.
pub fn lint(
    chosen: (&'static AgentRelease, &'static Agent),
    session: &SessionArgs,
    inputs: &Inputs,
    (limit, fail_on): (Option<usize>, Option<crate::cli::args::FailOn>),
    output: &OutputArgs,
) -> Result<ExitCode, CliError> {
    warnings(inputs);
    let turn = turn(chosen.0, session, inputs, None)?;
    let index = index(chosen, &turn, inputs)?;
    let k = limit.unwrap_or(chosen.0.rules.loading.default_results);
    let unfound =
        schematax_engine::agents::findability::unfound(&turn, &inputs.captures, &index, k);
    let report = schematax_report::agents::AgentLintReport::build(&turn, k, &unfound);
    emit(
        &report.render(output.format.into()),
        output.output.as_deref(),
    )?;
    // Every finding is a warning: `--fail-on warning` fails on any.
    Ok(match fail_on {
        Some(crate::cli::args::FailOn::Warning) if !unfound.is_empty() => {
            ExitCode::from(EXIT_FAILURE)
        }
        _ => ExitCode::SUCCESS,
    })
}
