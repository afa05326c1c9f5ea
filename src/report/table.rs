//! A small table printer for the plain-text and Markdown formats. Every cell is sanitised.
//! Cells are never clipped, except in the columns a report marks as prose (descriptions,
//! messages), so names always print whole.

use crate::text::{clip, sanitize, width};

/// Column alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text.
    Left,
    /// Numbers.
    Right,
}

/// A table of sanitised cells.
#[derive(Debug, Clone)]
pub struct Table {
    headers: Vec<String>,
    aligns: Vec<Align>,
    rows: Vec<Vec<String>>,
    /// Per column: the width its plain-text cells are clipped to, if any.
    clip: Vec<Option<usize>>,
}

impl Table {
    /// A table with these columns.
    pub fn new(columns: &[(&str, Align)]) -> Table {
        Table {
            headers: columns.iter().map(|(h, _)| h.to_string()).collect(),
            aligns: columns.iter().map(|(_, a)| *a).collect(),
            rows: Vec::new(),
            clip: vec![None; columns.len()],
        }
    }

    /// Clips the plain-text cells of column `header` (prose, never a name) to `width` columns.
    pub fn clip_column(mut self, header: &str, width: usize) -> Table {
        if let Some(i) = self.headers.iter().position(|h| h == header) {
            self.clip[i] = Some(width);
        }
        self
    }

    /// Adds a row (missing cells are empty).
    pub fn row<I: IntoIterator<Item = S>, S: AsRef<str>>(&mut self, cells: I) {
        let mut row: Vec<String> = cells
            .into_iter()
            .map(|c| sanitize(c.as_ref()).into_owned())
            .collect();
        row.resize(self.headers.len(), String::new());
        self.rows.push(row);
    }

    /// Whether no row was added.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Aligned plain text, two spaces between columns, no trailing spaces.
    pub fn to_text(&self) -> String {
        let clipped = self.rows.iter().map(|row| {
            row.iter()
                .zip(&self.clip)
                .map(|(c, limit)| match limit {
                    Some(width) => clip(c, *width),
                    None => c.clone(),
                })
                .collect()
        });
        let cells: Vec<Vec<String>> = std::iter::once(self.headers.clone())
            .chain(clipped)
            .collect();
        let widths: Vec<usize> = (0..self.headers.len())
            .map(|i| cells.iter().map(|r| width(&r[i])).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for row in &cells {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                if i > 0 {
                    line.push_str("  ");
                }
                let pad = widths[i] - width(cell);
                match self.aligns[i] {
                    Align::Left => {
                        line.push_str(cell);
                        line.extend(std::iter::repeat_n(' ', pad));
                    }
                    Align::Right => {
                        line.extend(std::iter::repeat_n(' ', pad));
                        line.push_str(cell);
                    }
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// A GitHub-flavoured Markdown table (cells escaped, never clipped).
    pub fn to_markdown(&self) -> String {
        let line = |cells: &[String]| {
            format!(
                "| {} |\n",
                cells
                    .iter()
                    .map(|c| escape_markdown(c))
                    .collect::<Vec<_>>()
                    .join(" | ")
            )
        };
        let mut out = line(&self.headers);
        let rule: Vec<String> = self
            .aligns
            .iter()
            .map(|a| match a {
                Align::Left => "---".to_string(),
                Align::Right => "---:".to_string(),
            })
            .collect();
        out.push_str(&format!(
            "|{}|\n",
            rule.iter()
                .map(|r| format!(" {r} "))
                .collect::<Vec<_>>()
                .join("|")
        ));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}

/// Escapes the characters that would break a Markdown table cell or start markup.
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in sanitize(text).chars() {
        if matches!(c, '|' | '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_aligns_columns() {
        let mut t = Table::new(&[("name", Align::Left), ("n", Align::Right)]);
        t.row(["a", "1"]);
        t.row(["bbb", "100"]);
        assert_eq!(t.to_text(), "name    n\na       1\nbbb   100\n");
    }

    #[test]
    fn only_prose_columns_are_clipped() {
        let long = "a_very_long_tool_name_that_must_print_whole_in_every_table";
        let mut t = Table::new(&[("name", Align::Left), ("description", Align::Left)])
            .clip_column("description", 10);
        t.row([long, "a description longer than ten columns"]);
        let text = t.to_text();
        assert!(text.contains(long), "{text}");
        assert!(text.contains("a descrip…\n"), "{text}");
    }

    #[test]
    fn markdown_escapes_and_strips() {
        let mut t = Table::new(&[("x", Align::Left), ("y", Align::Right)]);
        t.row(["a|b\u{1b}[31m_c", "2"]);
        assert_eq!(
            t.to_markdown(),
            "| x | y |\n| --- | ---: |\n| a\\|b\\_c | 2 |\n"
        );
    }
}
