//! The name an agent gives a server's tool before the model, by the agent's [`NamingRule`].

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

#[cfg(test)]
mod tests {
    use super::*;

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
