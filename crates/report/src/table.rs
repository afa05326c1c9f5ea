//! A small table printer for the plain-text and Markdown formats. Every cell is sanitised.
//! Cells are never clipped, except in the columns a report marks as prose (descriptions,
//! messages), so names always print whole.

use schematax_engine::text::{clip, sanitize, width};

/// Column alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text.
    Left,
    /// Numbers.
    Right,
}

/// Rows a piece of a table written in pieces holds.
const ROWS_PER_PIECE: usize = 4096;

/// A table of sanitised cells.
#[derive(Debug, Clone)]
pub struct Table {
    headers: Vec<String>,
    aligns: Vec<Align>,
    rows: Vec<Vec<String>>,
    /// Per column: the width its plain-text cells are clipped to, if any.
    clip: Vec<Option<usize>>,
    /// Per column: the narrowest it is printed, whatever its cells.
    min_widths: Vec<usize>,
}

impl Table {
    /// A table with these columns.
    pub fn new(columns: &[(&str, Align)]) -> Table {
        Table {
            headers: columns.iter().map(|(h, _)| h.to_string()).collect(),
            aligns: columns.iter().map(|(_, a)| *a).collect(),
            rows: Vec::new(),
            clip: vec![None; columns.len()],
            min_widths: vec![0; columns.len()],
        }
    }

    /// Prints each column at least as wide as given.
    fn min_widths(mut self, widths: &[usize]) -> Table {
        for (min, &width) in self.min_widths.iter_mut().zip(widths) {
            *min = width;
        }
        self
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

    /// The widest cell of each column over the header and `rows`, as [`Table::to_text`]
    /// prints them (sanitised, prose columns clipped): the widths for
    /// [`Table::write_in_pieces`].
    pub fn widths_of<R, S>(&self, rows: impl Iterator<Item = R>) -> Vec<usize>
    where
        R: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| width(h)).collect();
        for row in rows {
            for ((widest, cell), limit) in widths.iter_mut().zip(row).zip(&self.clip) {
                let cell = sanitize(cell.as_ref());
                let shown = match limit {
                    Some(limit) => width(&clip(&cell, *limit)),
                    None => width(&cell),
                };
                *widest = (*widest).max(shown);
            }
        }
        widths
    }

    /// Writes this table's header and then `rows`, a piece at a time, each piece made and
    /// written before the next and padded to `widths` (those of all the rows), so the pieces
    /// line up as one table and neither the rows nor the text are held whole.
    pub fn write_in_pieces<R, S>(
        &self,
        markdown: bool,
        widths: &[usize],
        rows: impl Iterator<Item = R>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()>
    where
        R: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut rows = rows.peekable();
        let mut first = true;
        while first || rows.peek().is_some() {
            let mut piece = self.clone().min_widths(widths);
            for row in rows.by_ref().take(ROWS_PER_PIECE) {
                piece.row(row);
            }
            out.write_all(piece.piece_text(markdown, first).as_bytes())?;
            first = false;
        }
        Ok(())
    }

    /// [`Table::write_in_pieces`] of `count` rows, row `i` made by `row_of(i)`: the same text,
    /// with as many pieces as there are threads made side by side (each piece's rows made and
    /// dropped on one thread), then written out in order.
    pub fn write_in_pieces_side_by_side<R, S>(
        &self,
        markdown: bool,
        widths: &[usize],
        count: usize,
        row_of: impl Fn(usize) -> R + Sync,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()>
    where
        R: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let piece_of = |rows: std::ops::Range<usize>| {
            let mut piece = self.clone().min_widths(widths);
            let first = rows.start == 0;
            for index in rows {
                piece.row(row_of(index));
            }
            Ok(piece.piece_text(markdown, first).into_bytes())
        };
        if count == 0 {
            return out.write_all(&piece_of(0..0)?);
        }
        crate::write_pieces_side_by_side(count, ROWS_PER_PIECE, piece_of, out)
    }

    /// A piece of a table written in pieces: with the header when it is the `first`.
    fn piece_text(&self, markdown: bool, first: bool) -> String {
        match (markdown, first) {
            (false, true) => self.to_text(),
            (false, false) => self.rows_to_text(),
            (true, true) => self.to_markdown(),
            (true, false) => self.rows_to_markdown(),
        }
    }

    /// Whether no row was added.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Aligned plain text, two spaces between columns, no trailing spaces.
    pub fn to_text(&self) -> String {
        self.text(true)
    }

    /// The rows of [`Table::to_text`] without the header line: a later piece of a table.
    fn rows_to_text(&self) -> String {
        self.text(false)
    }

    fn text(&self, with_header: bool) -> String {
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
            .map(|i| {
                let widest = cells.iter().map(|r| width(&r[i])).max().unwrap_or(0);
                widest.max(self.min_widths[i])
            })
            .collect();
        let mut out = String::new();
        for row in &cells[usize::from(!with_header)..] {
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
        self.markdown(true)
    }

    /// The rows of [`Table::to_markdown`] without the header lines: a later piece of a table.
    fn rows_to_markdown(&self) -> String {
        self.markdown(false)
    }

    fn markdown(&self, with_header: bool) -> String {
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
        let mut out = String::new();
        for row in &self.rows {
            out.push_str(&line(row));
        }
        if !with_header {
            return out;
        }
        let mut head = line(&self.headers);
        let rule: Vec<String> = self
            .aligns
            .iter()
            .map(|a| match a {
                Align::Left => "---".to_string(),
                Align::Right => "---:".to_string(),
            })
            .collect();
        head.push_str(&format!(
            "|{}|\n",
            rule.iter()
                .map(|r| format!(" {r} "))
                .collect::<Vec<_>>()
                .join("|")
        ));
        head + &out
    }
}

/// Escapes the characters that would break a Markdown table cell or start markup.
pub fn escape_markdown(text: &str) -> String {
    let text = sanitize(text);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '|' | '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            // An entity would be decoded: `&lt;` must show as written.
            '&' => out.push_str("&amp;"),
            // A mention (`@org/team`) would notify, a reference (`#1`) would link, an
            // address (`https://`, `www.`) would become a link: a zero-width space after the
            // mark keeps each plain text.
            '@' | '#' => {
                out.push(c);
                out.push(ZERO_WIDTH_SPACE);
            }
            ':' if chars.peek() == Some(&'/') => {
                out.push(c);
                out.push(ZERO_WIDTH_SPACE);
            }
            '.' if out
                .get(out.len().saturating_sub(3)..)
                .is_some_and(|end| end.eq_ignore_ascii_case("www")) =>
            {
                out.push(ZERO_WIDTH_SPACE);
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Invisible, and breaks the mentions, references and links GitHub would make of a text.
const ZERO_WIDTH_SPACE: char = '\u{200b}';

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_text_never_notifies_links_or_decodes() {
        let shown =
            escape_markdown("@org/team fixes #1 at https://x.test and www.y.test &lt;b&gt;");
        assert!(!shown.contains("@org"), "{shown}");
        assert!(!shown.contains("#1"), "{shown}");
        assert!(!shown.contains("https://"), "{shown}");
        assert!(!shown.contains("www."), "{shown}");
        assert!(shown.contains("&amp;lt;b&amp;gt;"), "{shown}");
        let visible: String = shown.chars().filter(|c| *c != ZERO_WIDTH_SPACE).collect();
        assert_eq!(
            visible,
            "@org/team fixes #1 at https://x.test and www.y.test &amp;lt;b&amp;gt;"
        );
    }

    #[test]
    fn text_aligns_columns() {
        let mut t = Table::new(&[("name", Align::Left), ("n", Align::Right)]);
        t.row(["a", "1"]);
        t.row(["bbb", "100"]);
        assert_eq!(t.to_text(), "name    n\na       1\nbbb   100\n");
    }

    #[test]
    fn a_table_written_in_pieces_is_the_table_written_whole() {
        let columns = [
            ("name", Align::Left),
            ("count", Align::Right),
            ("note", Align::Left),
        ];
        // More rows than a piece holds; the widest cells are in the last piece.
        let rows: Vec<[String; 3]> = (0..ROWS_PER_PIECE * 2 + 5)
            .map(|i| {
                let name = format!("n{}", "x".repeat(i / 1000));
                [name, (i * i).to_string(), "y".repeat(i % 90)]
            })
            .collect();
        let empty = Table::new(&columns).clip_column("note", 40);
        let mut whole = empty.clone();
        rows.iter().for_each(|r| whole.row(r));
        let widths = empty.widths_of(rows.iter());
        for (markdown, expected) in [(false, whole.to_text()), (true, whole.to_markdown())] {
            let mut pieces = Vec::new();
            empty
                .write_in_pieces(markdown, &widths, rows.iter(), &mut pieces)
                .unwrap();
            assert!(String::from_utf8(pieces).unwrap() == expected, "{markdown}");
            // Made side by side: one piece at a time, pieces in batches that do not divide
            // them evenly, and every piece at once.
            for threads in [1, 2, 4] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let mut side_by_side = Vec::new();
                pool.install(|| {
                    empty.write_in_pieces_side_by_side(
                        markdown,
                        &widths,
                        rows.len(),
                        |i: usize| &rows[i],
                        &mut side_by_side,
                    )
                })
                .unwrap();
                assert!(
                    String::from_utf8(side_by_side).unwrap() == expected,
                    "{markdown}, {threads} threads"
                );
            }
        }
        let no_rows: [[&str; 3]; 0] = [];
        let header_widths = empty.widths_of(no_rows.iter());
        let mut none = Vec::new();
        empty
            .write_in_pieces(false, &header_widths, no_rows.iter(), &mut none)
            .unwrap();
        assert_eq!(String::from_utf8(none).unwrap(), empty.to_text());
        for (markdown, header) in [(false, empty.to_text()), (true, empty.to_markdown())] {
            let mut none = Vec::new();
            empty
                .write_in_pieces_side_by_side(
                    markdown,
                    &header_widths,
                    0,
                    |_| ["", "", ""],
                    &mut none,
                )
                .unwrap();
            assert_eq!(String::from_utf8(none).unwrap(), header);
        }
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
