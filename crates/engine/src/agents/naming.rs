//! The name an agent gives a server's tool before the model, by the agent's [`NamingRule`].

use std::cmp::Ordering;

use sha1::{Digest, Sha1};

use schematax_releases::agents::{NameChars, NameCollisions, NamingRule, OverlongName};

use crate::nouns::tools::ServerCapture;

/// Whether `c` is kept whole under `chars`.
fn kept(chars: NameChars, c: char) -> bool {
    c.is_ascii_alphanumeric()
        || c == '_'
        || match chars {
            NameChars::AlnumUnderscore => false,
            NameChars::AlnumUnderscoreHyphen => c == '-',
            NameChars::AlnumUnderscoreHyphenDotColon => matches!(c, '-' | '.' | ':'),
        }
}

/// `text` with every character outside `chars` turned into `_`.
pub fn sanitize(chars: NameChars, text: &str) -> String {
    text.chars()
        .map(|c| if kept(chars, c) { c } else { '_' })
        .collect()
}

/// The name of one tool before the model: its namespace (the prefixed server), the tool
/// part, and the two joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolName {
    /// The prefixed, sanitised server (with its hash when servers collide).
    pub namespace: String,
    /// The sanitised tool (with its hash when tools collide or the name is cut).
    pub callable: String,
    /// The name the model sees.
    pub full: String,
}

/// The first 12 hex digits of the SHA-1 of `parts` joined by NUL bytes.
fn hash12(parts: &[&str]) -> String {
    let digest = Sha1::digest(parts.join("\0").as_bytes());
    digest.iter().take(6).map(|b| format!("{b:02x}")).collect()
}

/// Every tool's name under `rule`, per capture and tool (`None`: a tool the agent leaves
/// out, named twice on its server). Under [`NameCollisions::HashSuffix`], colliding
/// namespaces and tools get hashes and long names are cut with one; otherwise each name is
/// [`full_name`]'s, and equal names are the pool's to drop.
pub fn catalog_names(rule: &NamingRule, captures: &[ServerCapture]) -> Vec<Vec<Option<ToolName>>> {
    if rule.collisions == NameCollisions::FirstKept {
        return captures
            .iter()
            .map(|c| {
                c.tools
                    .iter()
                    .map(|t| {
                        Some(ToolName {
                            namespace: format!(
                                "{}{}",
                                rule.prefix,
                                sanitize(rule.chars, &c.server)
                            ),
                            callable: sanitize(rule.chars, &t.name),
                            full: full_name(rule, &c.server, &t.name),
                        })
                    })
                    .collect()
            })
            .collect();
    }
    let bare = |text: &str| {
        let s = sanitize(rule.chars, text);
        if s.is_empty() {
            "_".to_string()
        } else {
            s
        }
    };
    let namespaces: Vec<String> = captures
        .iter()
        .map(|c| format!("{}{}", rule.prefix, bare(&c.server)))
        .collect();
    let namespaces: Vec<String> = namespaces
        .iter()
        .zip(captures)
        .map(|(ns, c)| {
            if namespaces.iter().filter(|other| *other == ns).count() > 1 {
                format!("{ns}_{}", hash12(&[&c.server, &c.server, ""]))
            } else {
                ns.clone()
            }
        })
        .collect();
    captures
        .iter()
        .zip(namespaces)
        .map(|(capture, namespace)| {
            let mut seen = std::collections::HashSet::new();
            let raw: Vec<Option<&str>> = capture
                .tools
                .iter()
                .map(|t| seen.insert(t.name.as_str()).then_some(t.name.as_str()))
                .collect();
            let callables: Vec<Option<String>> = raw.iter().map(|t| t.map(bare)).collect();
            raw.iter()
                .zip(&callables)
                .map(|(tool, callable)| {
                    let (tool, callable) = (tool.as_ref()?, callable.as_ref()?);
                    let hash = || hash12(&[&capture.server, &capture.server, "", tool, tool]);
                    let collides = callables
                        .iter()
                        .filter(|c| c.as_deref() == Some(callable.as_str()))
                        .count()
                        > 1;
                    let mut callable = if collides {
                        format!("{callable}_{}", hash())
                    } else {
                        callable.clone()
                    };
                    if let OverlongName::HashCut { max_bytes } = rule.overlong {
                        let full = namespace.len() + rule.separator.len() + callable.len();
                        if full > max_bytes {
                            let keep = max_bytes
                                .saturating_sub(namespace.len() + rule.separator.len() + 13);
                            let mut end = keep.min(callable.len());
                            while !callable.is_char_boundary(end) {
                                end -= 1;
                            }
                            callable = format!("{}_{}", &callable[..end], hash());
                        }
                    }
                    Some(ToolName {
                        full: format!("{namespace}{}{callable}", rule.separator),
                        namespace: namespace.clone(),
                        callable,
                    })
                })
                .collect()
        })
        .collect()
}

/// The name the model sees for `tool` of `server` under `rule`.
pub fn full_name(rule: &NamingRule, server: &str, tool: &str) -> String {
    let mut name = format!(
        "{}{}{}{}",
        rule.prefix,
        sanitize(rule.chars, server),
        rule.separator,
        sanitize(rule.chars, tool)
    );
    if rule.leading_underscore && !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        name.insert(0, '_');
    }
    match rule.overlong {
        OverlongName::Ellipsized { max, head, tail } if name.chars().count() > max => {
            let chars: Vec<char> = name.chars().collect();
            let start: String = chars[..head].iter().collect();
            let end: String = chars[chars.len() - tail..].iter().collect();
            format!("{start}...{end}")
        }
        _ => name,
    }
}

/// Primary collation weight of a character, as the ICU root collation orders the characters
/// a sanitised name holds: `_`, then `-`, other punctuation, digits, then letters without
/// regard to case.
fn primary(c: char) -> u32 {
    match c {
        '_' => 1,
        '-' => 2,
        '0'..='9' => 1000 + (c as u32 - '0' as u32),
        c if c.is_alphabetic() => 2000 + c.to_lowercase().next().map_or(0, |l| l as u32),
        c => 10 + c as u32 % 900,
    }
}

/// Orders two names as JavaScript's `localeCompare` does for the characters of tool names:
/// by primary weights, then lowercase before uppercase.
pub fn locale_order(a: &str, b: &str) -> Ordering {
    a.chars()
        .map(primary)
        .cmp(b.chars().map(primary))
        .then_with(|| {
            a.chars()
                .map(char::is_uppercase)
                .cmp(b.chars().map(char::is_uppercase))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_order_puts_underscore_before_hyphen_and_ignores_case_first() {
        let mut names = vec!["mcp__a-b", "mcp__a_b", "mcp__B", "mcp__a", "mcp__A"];
        names.sort_by(|a, b| locale_order(a, b));
        assert_eq!(
            names,
            ["mcp__a", "mcp__A", "mcp__a_b", "mcp__a-b", "mcp__B"]
        );
    }

    /// The naming rule of an agent's newest row.
    fn rule(id: &str) -> NamingRule {
        let agent = schematax_releases::AGENTS
            .iter()
            .find(|a| a.id == id)
            .unwrap();
        agent.releases.last().unwrap().rules.naming
    }

    #[test]
    fn claude_code_keeps_hyphens_and_replaces_dots_and_spaces() {
        assert_eq!(
            full_name(&rule("claude-code"), "my server", "repo.get-file"),
            "mcp__my_server__repo_get-file"
        );
    }

    #[test]
    fn gemini_cuts_long_names_to_thirty_and_thirty() {
        let tool = "a".repeat(40) + &"b".repeat(40);
        let name = full_name(&rule("gemini-cli"), "srv", &tool);
        assert_eq!(name.len(), 63);
        assert!(name.starts_with("mcp_srv_aaaaaaaaaaaaaaaaaaaaaa..."));
        assert!(name.ends_with(&"b".repeat(30)));
        assert_eq!(full_name(&rule("gemini-cli"), "s.v", "t:x"), "mcp_s.v_t:x");
    }
}
