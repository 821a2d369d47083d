//! The manual's `console` blocks, run (issue 17): every fenced block in `docs/src` whose info
//! string is `console` is executed, one page at a time in a fresh working directory, and what
//! each command prints (stdout and stderr together, in order) must be what the page shows.
//!
//! In a block, a line `$ <command>` is run by `sh -c` in the page's working directory; the lines
//! up to the next `$ ` are its output. `$ export NAME=value` sets `NAME` for the page's later
//! commands (the shell expands the value). In the output a page shows, `[CWD]` stands for the
//! working directory, `[..]` for any text within a line, and a line `...` for any number of
//! lines; a last line `[exit N]` says that the command exits with `N` (otherwise it must
//! succeed). An HTML comment `<!-- console-setup: <command> -->` runs a command the reader does
//! not need to see (it must succeed; its output is not compared), and `<!-- console-file: <path>
//! -->` just before a fenced block writes the block, as shown, to `<path>` (relative to the
//! working directory), so that a later command can feed the snippet to the binary's own
//! validation. The working directory holds the repository's `examples/`, `torii` is first on
//! `PATH`, and windows are off.

use std::path::{Path, PathBuf};
use std::process::Command;

const SETUP: &str = "<!-- console-setup: ";
const FILE: &str = "<!-- console-file: ";

/// One block of a page, in order.
#[derive(Debug)]
enum Block {
    /// Run and compare.
    Shown {
        line: usize,
        command: String,
        output: Vec<String>,
        exit: i32,
    },
    /// Run only.
    Setup { line: usize, command: String },
    /// A snippet written where a later command reads it.
    File { path: String, contents: String },
}

fn steps(page: &str) -> Vec<Block> {
    let mut steps = Vec::new();
    let mut lines = page.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        if let Some(command) = line
            .strip_prefix(SETUP)
            .and_then(|rest| rest.strip_suffix(" -->"))
        {
            steps.push(Block::Setup {
                line: index + 1,
                command: command.to_string(),
            });
            continue;
        }
        if let Some(path) = line
            .strip_prefix(FILE)
            .and_then(|rest| rest.strip_suffix(" -->"))
        {
            let fence = lines.next().map(|(_, fence)| fence);
            assert!(
                fence.is_some_and(|fence| fence.starts_with("```")),
                "line {}: `console-file` must come just before a fenced block",
                index + 1
            );
            let mut contents = String::new();
            for (_, line) in lines.by_ref() {
                if line == "```" {
                    break;
                }
                contents.push_str(line);
                contents.push('\n');
            }
            steps.push(Block::File {
                path: path.to_string(),
                contents,
            });
            continue;
        }
        if line != "```console" {
            continue;
        }
        for (index, line) in lines.by_ref() {
            if line == "```" {
                break;
            }
            if let Some(command) = line.strip_prefix("$ ") {
                steps.push(Block::Shown {
                    line: index + 1,
                    command: command.to_string(),
                    output: Vec::new(),
                    exit: 0,
                });
            } else if let Some(Block::Shown { output, exit, .. }) = steps.last_mut() {
                match line
                    .strip_prefix("[exit ")
                    .and_then(|rest| rest.strip_suffix(']'))
                {
                    Some(code) => *exit = code.parse().expect("[exit N] with a number"),
                    None => output.push(line.to_string()),
                }
            } else {
                panic!("line {}: output before any `$ ` command", index + 1);
            }
        }
    }
    steps
}

/// Whether `text` is `pattern`, where each `[..]` in the pattern stands for any text.
fn line_matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether `actual` is `expected`, where a line `...` stands for any number of lines.
fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((line, rest)) if line == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((line, rest)) => actual
            .split_first()
            .is_some_and(|(first, more)| line_matches(line, first) && lines_match(rest, more)),
    }
}

struct Page {
    dir: tempfile::TempDir,
    env: Vec<(String, String)>,
}

impl Page {
    fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("torii-docs-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        std::os::unix::fs::symlink(repo.join("examples"), dir.path().join("examples")).unwrap();
        std::fs::create_dir(dir.path().join("home")).unwrap();
        let torii_dir = Path::new(env!("CARGO_BIN_EXE_torii")).parent().unwrap();
        let env = vec![
            (
                "PATH".to_string(),
                format!("{}:/usr/local/bin:/usr/bin:/bin", torii_dir.display()),
            ),
            (
                "HOME".to_string(),
                dir.path().join("home").display().to_string(),
            ),
            ("TORII_NO_GUI".to_string(), "1".to_string()),
            ("LC_ALL".to_string(), "C".to_string()),
        ];
        Self { dir, env }
    }

    fn cwd(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    /// Runs `command` and returns its exit code and output lines, the directory as `[CWD]`.
    fn run(&mut self, command: &str) -> (i32, Vec<String>) {
        if let Some((name, value)) = command
            .strip_prefix("export ")
            .and_then(|assignment| assignment.split_once('='))
        {
            let (code, expanded) = self.output(&format!("printf '%s' {value}"));
            assert_eq!(code, 0, "cannot expand {value}");
            self.env.push((name.to_string(), expanded));
            return (0, Vec::new());
        }
        let (code, text) = self.output(command);
        let cwd = self.cwd().display().to_string();
        let text = text.replace(&cwd, "[CWD]");
        let mut lines: Vec<String> = text
            .lines()
            .map(|line| line.trim_end().to_string())
            .collect();
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        (code, lines)
    }

    /// The exit code and the output, stdout and stderr together, of `command`.
    fn output(&self, command: &str) -> (i32, String) {
        let output = Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("exec 2>&1; {command}"))
            .env_clear()
            .envs(self.env.iter().map(|(name, value)| (name, value)))
            .current_dir(self.cwd())
            .output()
            .unwrap();
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stdout).into_owned(),
        )
    }
}

/// What is wrong with running the page at `path`, if anything.
fn check_page(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let steps = steps(&text);
    if steps.is_empty() {
        return None;
    }
    let mut page = Page::new();
    for step in steps {
        match step {
            Block::File { path, contents } => {
                let path = page.cwd().join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, contents).unwrap();
            }
            Block::Setup { line, command } => {
                let (code, output) = page.run(&command);
                if code != 0 {
                    return Some(format!(
                        "{}:{line}: setup `{command}` exited with {code}:\n{}",
                        path.display(),
                        output.join("\n")
                    ));
                }
            }
            Block::Shown {
                line,
                command,
                output: expected,
                exit,
            } => {
                let (code, actual) = page.run(&command);
                if code != exit || !lines_match(&expected, &actual) {
                    return Some(format!(
                        "{}:{line}: `$ {command}`\n--- the page shows (exit {exit}):\n{}\n--- it prints (exit {code}):\n{}",
                        path.display(),
                        expected.join("\n"),
                        actual.join("\n")
                    ));
                }
            }
        }
    }
    None
}

#[test]
#[ignore = "needs git (the quick start calls it); run by ./scripts/test.sh"]
fn every_console_block_of_the_manual_prints_what_it_shows() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&docs)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    let run: Vec<&PathBuf> = pages
        .iter()
        .filter(|page| !steps(&std::fs::read_to_string(page).unwrap()).is_empty())
        .collect();
    let quick_start = docs.join("quick-start.md");
    assert!(
        run.contains(&&quick_start),
        "the quick start has no console block"
    );
    let failures: Vec<String> = run.iter().filter_map(|page| check_page(page)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_console_patterns_match_what_they_say() {
    assert!(line_matches("a [..] c", "a b b c"));
    assert!(line_matches("[..]", ""));
    assert!(line_matches("x[..]", "xyz"));
    assert!(!line_matches("x[..]z", "xz!"));
    assert!(!line_matches("abc", "abcd"));
    assert!(line_matches("[..]ab[..]ab", "abab"));
    assert!(!line_matches("ab[..]ba", "aba"));
    let lines = |text: &str| -> Vec<String> { text.lines().map(str::to_string).collect() };
    assert!(lines_match(&lines("a\n...\nd"), &lines("a\nb\nc\nd")));
    assert!(lines_match(&lines("a\n...\nd"), &lines("a\nd")));
    assert!(!lines_match(&lines("a\n...\nd"), &lines("a\nb")));
    assert!(!lines_match(&lines("a"), &lines("a\nb")));
    let parsed = steps(
        "text\n<!-- console-setup: true -->\n```console\n$ echo hi\nhi\n$ false\n[exit 1]\n```\n",
    );
    assert_eq!(parsed.len(), 3, "{parsed:?}");
    assert!(matches!(&parsed[2], Block::Shown { exit: 1, output, .. } if output.is_empty()));
}
