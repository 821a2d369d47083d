//! The manual's behaviours and their tests (docs/src/behaviours.md), checked so that the table
//! cannot drift: every row names a test that exists (its function in the file the row names),
//! or a page whose console blocks the suite runs, or says it is untested or differs on purpose;
//! and the counts the page states are the rows'.

use std::path::Path;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `**<number> <words>**` in `text`: the number before `words`.
fn stated(text: &str, words: &str) -> usize {
    let end = text
        .find(&format!(" {words}**"))
        .unwrap_or_else(|| panic!("the page no longer states its {words}"));
    let start = text[..end].rfind("**").unwrap() + 2;
    text[start..end].parse().unwrap()
}

#[test]
fn every_row_names_a_test_that_exists() {
    let page = std::fs::read_to_string(repo().join("docs/src/behaviours.md")).unwrap();
    let mut ids = std::collections::BTreeSet::new();
    let (mut rows, mut untested, mut differs) = (0, 0, 0);
    let mut missing = Vec::new();
    for line in page.lines() {
        let cells: Vec<&str> = line.split(" | ").collect();
        let Some(id) = cells.first().and_then(|cell| cell.strip_prefix("| ")) else {
            continue;
        };
        if !id.contains('-') || !id.ends_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        rows += 1;
        assert!(ids.insert(id.to_string()), "{id} appears twice");
        let behaviour = cells[1..cells.len() - 1].join(" | ");
        let test = cells[cells.len() - 1].trim_end_matches(" |");
        if test == "—" {
            untested += 1;
            assert!(
                behaviour.ends_with("(untested)"),
                "{id}: untested, and not said"
            );
        } else if test.starts_with("differs: ") {
            differs += 1;
        } else if test.starts_with("docs/src/") {
            if !repo().join(test).is_file() {
                missing.push(format!("{id}: {test}"));
            }
        } else {
            let (file, name) = test
                .split_once("::")
                .unwrap_or_else(|| panic!("{id}: `{test}` is not <file>::<test>"));
            // Comment lines do not count: a test's name must be in code.
            let source = std::fs::read_to_string(repo().join(format!("{file}.rs"))).map(|text| {
                text.lines()
                    .filter(|line| !line.trim_start().starts_with("//"))
                    .collect::<Vec<_>>()
                    .join("\n")
            });
            let named = source.is_ok_and(|source| {
                source.match_indices(name).any(|(at, _)| {
                    let before = source[..at].chars().next_back();
                    let after = source[at + name.len()..].chars().next();
                    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                    !word(before) && !word(after)
                })
            });
            if !named {
                missing.push(format!("{id}: {test}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rows naming no test:\n{}",
        missing.join("\n")
    );
    assert!(rows > 700, "only {rows} rows read");
    assert_eq!(stated(&page, "rows"), rows);
    assert_eq!(stated(&page, "untested"), untested);
    assert_eq!(stated(&page, "differ on purpose"), differs);
    assert_eq!(stated(&page, "held by a test"), rows - untested - differs);
}
