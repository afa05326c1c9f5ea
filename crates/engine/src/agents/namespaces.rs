//! A namespace listing within a byte budget (Codex's `<tools>` fragment): every namespace's
//! line, and as much of each description as the budget leaves, shared one character at a
//! time.

/// Bytes held back when not even the names fit.
const OMISSION_RESERVE: usize = 64;

/// The line a namespace gets with `description` (or none).
fn line(namespace: &str, description: Option<&str>) -> String {
    match description {
        Some(d) => format!("- {namespace}: {d}\n"),
        None => format!("- {namespace}\n"),
    }
}

/// A description that is there and not empty.
fn described(description: &Option<String>) -> Option<&str> {
    description.as_deref().filter(|d| !d.is_empty())
}

/// `open` + one line per namespace + `close`, the body within `max_bytes` less the frame:
/// - when even the bare names do not fit, no descriptions: names are taken in order while
///   they fit in the body less 64 bytes (a name that does not fit is passed over), then
///   `... N additional namespaces omitted.`;
/// - else every description whole when they all fit;
/// - else the bytes left are shared round the namespaces with a description, one character
///   per turn (the first also pays for `: `); a namespace whose next character does not fit
///   stops there. A description kept whole shows whole; one cut to fewer than 3 bytes shows
///   none; another shows what fits before `...` within the bytes it kept.
pub fn render(
    open: &str,
    close: &str,
    entries: &[(String, Option<String>)],
    max_bytes: usize,
) -> String {
    let budget = max_bytes.saturating_sub(open.len() + close.len());
    let names: usize = entries.iter().map(|(n, _)| line(n, None).len()).sum();
    if names > budget {
        let room = budget.saturating_sub(OMISSION_RESERVE);
        let mut body = String::new();
        let mut omitted = 0;
        for (n, _) in entries {
            let l = line(n, None);
            if body.len() + l.len() <= room {
                body.push_str(&l);
            } else {
                omitted += 1;
            }
        }
        if omitted > 0 {
            body.push_str(&format!("... {omitted} additional namespaces omitted.\n"));
        }
        return format!("{open}{body}{close}");
    }
    let mut left = budget - names;
    let whole: usize = entries
        .iter()
        .filter_map(|(_, d)| described(d))
        .map(|d| 2 + d.len())
        .sum();
    let kept: Vec<usize> = if whole <= left {
        entries
            .iter()
            .map(|(_, d)| described(d).map_or(0, str::len))
            .collect()
    } else {
        let mut kept = vec![0usize; entries.len()];
        let mut queue: std::collections::VecDeque<usize> = (0..entries.len())
            .filter(|&i| described(&entries[i].1).is_some())
            .collect();
        while let Some(i) = queue.pop_front() {
            let d = described(&entries[i].1).unwrap_or_default();
            let Some(c) = d[kept[i]..].chars().next() else {
                continue;
            };
            let cost = c.len_utf8() + if kept[i] == 0 { 2 } else { 0 };
            if cost > left {
                continue;
            }
            left -= cost;
            kept[i] += c.len_utf8();
            if kept[i] < d.len() {
                queue.push_back(i);
            }
        }
        kept
    };
    let body: String = entries
        .iter()
        .zip(&kept)
        .map(|((n, d), &k)| match described(d) {
            Some(d) if k == d.len() => line(n, Some(d)),
            Some(d) if k >= 3 => {
                let mut end = k - 3;
                while !d.is_char_boundary(end) {
                    end -= 1;
                }
                line(n, Some(&format!("{}...", &d[..end])))
            }
            _ => line(n, None),
        })
        .collect();
    format!("{open}{body}{close}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: usize, description: Option<&str>) -> Vec<(String, Option<String>)> {
        (0..n)
            .map(|i| (format!("mcp__s{i:03}"), description.map(str::to_string)))
            .collect()
    }

    #[test]
    fn a_fitting_listing_is_whole() {
        let text = render("<t>\n", "</t>", &entries(2, Some("Docs.")), 4096);
        assert_eq!(text, "<t>\n- mcp__s000: Docs.\n- mcp__s001: Docs.\n</t>");
    }

    #[test]
    fn descriptions_share_the_budget_and_names_stay() {
        let long = "x".repeat(250);
        let text = render("<t>\n", "</t>", &entries(40, Some(&long)), 4096);
        assert!(text.len() <= 4096, "{}", text.len());
        assert_eq!(text.matches("- mcp__s").count(), 40);
        assert!(text.contains("...\n"));
    }

    #[test]
    fn names_that_do_not_fit_are_counted() {
        let text = render("<t>\n", "</t>", &entries(400, None), 4096);
        assert!(text.len() <= 4096);
        assert!(text.contains("additional namespaces omitted."));
    }
}
