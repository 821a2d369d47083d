//! Runs every record of `corpus.txt` against a guard protecting `kubectl`, `aws`, `az`, `snow`
//! and `/opt/tools/terraform`, and reports every record that fails.
//!
//! The corpus is a list of records separated by lines holding exactly `---`. A record's first
//! line (after any `#` comment lines) says what is expected: `block PROGRAM`, `allow` or
//! `error`; the lines after it, newlines included, are the command line.

use shell_guard::{Guard, GuardError, Hit};

const CORPUS: &str = include_str!("corpus.txt");

#[derive(Debug, PartialEq, Eq)]
enum Expect {
    Block(String),
    Allow,
    Error,
}

struct Record {
    /// Line number of the header, for reports.
    line: usize,
    expect: Expect,
    script: String,
}

fn records() -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    let mut line_no = 0;
    let corpus = CORPUS.strip_suffix('\n').unwrap_or(CORPUS);
    for chunk in corpus.split("\n---\n") {
        let mut lines = chunk.split('\n').peekable();
        let start = line_no;
        // The chunk's lines, and the `---` line after it.
        line_no += chunk.split('\n').count() + 1;
        while lines
            .peek()
            .is_some_and(|l| l.starts_with('#') || l.trim().is_empty())
        {
            lines.next();
        }
        let Some(header) = lines.next() else {
            continue;
        };
        let header_line = start + 1 + chunk.split('\n').position(|l| l == header).unwrap_or(0);
        let expect = match header.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["block", program] => Expect::Block((*program).to_owned()),
            ["allow"] => Expect::Allow,
            ["error"] => Expect::Error,
            _ => return Err(format!("line {header_line}: bad header {header:?}")),
        };
        let script = lines.collect::<Vec<_>>().join("\n");
        records.push(Record {
            line: header_line,
            expect,
            script,
        });
    }
    Ok(records)
}

fn outcome(result: &Result<Option<Hit>, GuardError>) -> String {
    match result {
        Ok(Some(hit)) => format!("block {} (word {:?})", hit.program, hit.word),
        Ok(None) => "allow".to_owned(),
        Err(error) => format!("error: {error}"),
    }
}

#[test]
fn corpus() -> Result<(), String> {
    let guard = Guard::new(["kubectl", "aws", "az", "snow", "/opt/tools/terraform"]);
    let records = records()?;
    let mut failures = Vec::new();
    let (mut blocks, mut allows, mut errors) = (0, 0, 0);
    for record in &records {
        let result = guard.check(&record.script);
        let ok = match (&record.expect, &result) {
            (Expect::Block(program), Ok(Some(hit))) => &hit.program == program,
            (Expect::Allow, Ok(None)) => true,
            (Expect::Error, Err(_)) => true,
            _ => false,
        };
        match record.expect {
            Expect::Block(_) => blocks += 1,
            Expect::Allow => allows += 1,
            Expect::Error => errors += 1,
        }
        if !ok {
            failures.push(format!(
                "line {}: {:?}\n    expected {:?}, got {}",
                record.line,
                record.script,
                record.expect,
                outcome(&result)
            ));
        }
    }
    eprintln!(
        "corpus: {} records ({blocks} block, {allows} allow, {errors} error), {} failed",
        records.len(),
        failures.len()
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {} corpus records failed:\n{}",
            failures.len(),
            records.len(),
            failures.join("\n")
        ))
    }
}

#[test]
fn corpus_is_large_enough() -> Result<(), String> {
    let count = records()?.len();
    if count >= 150 {
        Ok(())
    } else {
        Err(format!(
            "the corpus has {count} records; at least 150 are wanted"
        ))
    }
}
