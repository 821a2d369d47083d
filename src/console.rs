//! The one place control-plane commands print: data on stdout, progress and errors on stderr.
//!
//! A closed stdout (`torii provider list | head -1`) is not an error: the command stops quietly.

use std::io::Write;

/// One line of command output (stdout).
pub fn data(line: &str) {
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = writeln!(stdout, "{line}") {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("torii: cannot write to stdout: {error}");
    }
}

/// One JSON document as one line of command output, its keys in the order of its type.
pub fn json(value: &impl serde::Serialize) {
    match serde_json::to_string(value) {
        Ok(line) => data(&line),
        // Only a map with keys that are not strings, or a failing `Serialize`, gets here.
        Err(error) => eprintln!("torii: cannot encode the output: {error}"),
    }
}

/// One line of progress or explanation (stderr).
pub fn progress(line: &str) {
    eprintln!("{line}");
}

/// Whether a human is at the terminal: stdin and stderr are both terminals.
pub fn interactive() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Asks a yes/no question on stderr and reads the answer from stdin. Only `y` or `yes` (and,
/// asked in Portuguese, `s` or `sim`), in any case, is yes; anything else, including end of
/// input, is no.
pub fn confirm(question: &str) -> bool {
    eprint!("{question} {} ", crate::tr!("confirm-choices"));
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    if std::io::stdin().read_line(&mut answer).is_err() {
        return false;
    }
    // `y`/`yes` always; `s`/`sim` only to a question asked in Portuguese, so that an English
    // answer starting with "s" is never taken for a yes.
    let portuguese = crate::language::current() == crate::language::Language::BrazilianPortuguese;
    match answer.trim().to_lowercase().as_str() {
        "y" | "yes" => true,
        "s" | "sim" => portuguese,
        _ => false,
    }
}

/// Left-aligned columns separated by two spaces, without trailing spaces.
pub fn table<const N: usize>(rows: &[[String; N]]) -> Vec<String> {
    let mut widths = [0usize; N];
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    rows.iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .zip(widths)
                .map(|(cell, width)| format!("{cell:width$}"))
                .collect();
            cells.join("  ").trim_end().to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_aligns_columns() {
        let rows = [
            ["a".to_string(), "bb".to_string()],
            ["ccc".to_string(), "d".to_string()],
        ];
        assert_eq!(super::table(&rows), vec!["a    bb", "ccc  d"]);
    }
}
