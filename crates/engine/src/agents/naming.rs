//! The name an agent gives a server's tool before the model, by the agent's [`NamingRule`].

use std::cmp::Ordering;

use schematax_releases::agents::{NameChars, NamingRule, OverlongName};

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

    const CLAUDE: NamingRule = NamingRule {
        prefix: "mcp__",
        separator: "__",
        chars: NameChars::AlnumUnderscoreHyphen,
        leading_underscore: false,
        overlong: OverlongName::Kept,
    };

    const GEMINI: NamingRule = NamingRule {
        prefix: "mcp_",
        separator: "_",
        chars: NameChars::AlnumUnderscoreHyphenDotColon,
        leading_underscore: true,
        overlong: OverlongName::Ellipsized {
            max: 63,
            head: 30,
            tail: 30,
        },
    };

    #[test]
    fn claude_code_keeps_hyphens_and_replaces_dots_and_spaces() {
        assert_eq!(
            full_name(&CLAUDE, "my server", "repo.get-file"),
            "mcp__my_server__repo_get-file"
        );
    }

    #[test]
    fn gemini_cuts_long_names_to_thirty_and_thirty() {
        let tool = "a".repeat(40) + &"b".repeat(40);
        let name = full_name(&GEMINI, "srv", &tool);
        assert_eq!(name.len(), 63);
        assert!(name.starts_with("mcp_srv_aaaaaaaaaaaaaaaaaaaaaa..."));
        assert!(name.ends_with(&"b".repeat(30)));
        assert_eq!(full_name(&GEMINI, "s.v", "t:x"), "mcp_s.v_t:x");
    }
}
