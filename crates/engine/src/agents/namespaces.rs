//! A namespace listing within a byte budget (Codex's `<tools>` fragment): every namespace's
//! line, and as much of each description as the budget leaves.

/// The line a namespace gets with `description` (or none).
fn line(namespace: &str, description: Option<&str>) -> String {
    match description {
        Some(d) => format!("- {namespace}: {d}\n"),
        None => format!("- {namespace}\n"),
    }
}

/// Bytes a namespace's description line adds to its bare line when `chars` characters of
/// its description are kept (a cut one ends in `...`).
fn description_bytes(description: &str, chars: usize) -> usize {
    let total = description.chars().count();
    if chars >= total {
        return 2 + description.len();
    }
    let kept: usize = description.chars().take(chars).map(char::len_utf8).sum();
    2 + kept + 3
}

/// `open` + one line per namespace + `close`, within `max_bytes`: whole when it fits; else
/// every name with the budget left shared one description character per namespace per
/// round (a cut description ends in `...`); else as many names as fit in the budget less 64
/// bytes, then `... N additional namespaces omitted.`.
pub fn render(
    open: &str,
    close: &str,
    entries: &[(String, Option<String>)],
    max_bytes: usize,
) -> String {
    let whole: String = entries.iter().map(|(n, d)| line(n, d.as_deref())).collect();
    if open.len() + whole.len() + close.len() <= max_bytes {
        return format!("{open}{whole}{close}");
    }
    let bare: usize = entries.iter().map(|(n, _)| line(n, None).len()).sum();
    let frame = open.len() + close.len();
    if frame + bare <= max_bytes {
        let mut left = max_bytes - frame - bare;
        let mut kept = vec![0usize; entries.len()];
        let mut spent = vec![0usize; entries.len()];
        loop {
            let mut grew = false;
            for (i, (_, description)) in entries.iter().enumerate() {
                let Some(d) = description else { continue };
                if kept[i] >= d.chars().count() {
                    continue;
                }
                let cost = description_bytes(d, kept[i] + 1);
                if cost - spent[i] <= left {
                    left -= cost - spent[i];
                    spent[i] = cost;
                    kept[i] += 1;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let lines: String = entries
            .iter()
            .zip(&kept)
            .map(|((n, d), k)| match d {
                Some(d) if *k > 0 => {
                    let text: String = d.chars().take(*k).collect();
                    if *k < d.chars().count() {
                        line(n, Some(&format!("{text}...")))
                    } else {
                        line(n, Some(&text))
                    }
                }
                _ => line(n, None),
            })
            .collect();
        return format!("{open}{lines}{close}");
    }
    let budget = max_bytes.saturating_sub(frame + 64);
    let mut text = String::new();
    let mut taken = 0;
    for (n, _) in entries {
        let l = line(n, None);
        if text.len() + l.len() > budget {
            break;
        }
        text.push_str(&l);
        taken += 1;
    }
    let omitted = entries.len() - taken;
    format!("{open}{text}... {omitted} additional namespaces omitted.\n{close}")
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
