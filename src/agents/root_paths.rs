//! Whether a path an agent's tool names reaches Torii's config root.
//!
//! The hook denies a shell command or a file-tool call that names the root, a path inside it,
//! or a directory between the home directory and the root (`~/.config`, whose recursive copy,
//! search or removal would take the root with it). Paths are read as the agent wrote them:
//! absolute; from `~`, `~+`, `~user`, `$HOME`, `${HOME…}`, `$PWD`, `$TORII_CONFIG_DIR` or
//! `$XDG_CONFIG_HOME`; relative to the tool's working directory and, for a shell line, to
//! every directory it `cd`s or `pushd`s into (a bare `cd` goes home); inside option values,
//! URLs and here-documents (`--file=PATH`, `file://PATH`, `@PATH`). Links are followed as the
//! kernel follows them (`link/..` is the parent of the link's target), and a glob or a brace
//! expansion counts when some path it could match does.
//!
//! Not seen: what is computed as the command runs (`$X/grants`, `$(…)`, `cd "$D"`, `CDPATH`, a
//! `HOME=` set by the same line), and what scripts and interpreters' code open. The hook is a
//! guard, not a sandbox.

use std::path::{Component, Path, PathBuf};

/// The root and the ways an agent can spell it.
#[derive(Debug, Clone)]
pub struct RootPaths {
    /// The root as pinned, and where it really is when a link leads there.
    roots: Vec<PathBuf>,
    home: Option<PathBuf>,
    /// Variables whose value is a path, replaced where a word writes them.
    variables: Vec<(&'static str, PathBuf)>,
}

/// Variables that hold the paths an agent would build the root's path from (`PWD` is the
/// working directory, given per call).
const VARIABLES: &[&str] = &["HOME", "TORII_CONFIG_DIR", "XDG_CONFIG_HOME"];

/// At most this many words one brace expansion yields; past it, braces count as a wildcard.
const MAX_BRACE_WORDS: usize = 256;

/// How a glob is matched: the shell's (`*` does not match a leading dot, `**` is `*`) or a
/// file tool's (hidden names match, `**` spans directories).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Globs {
    Shell,
    Tool,
}

impl RootPaths {
    /// For the root at `root`, with the home directory and variables of this process's
    /// environment (the client's, which the agent's shell inherits).
    pub fn new(root: &Path) -> RootPaths {
        let variables = VARIABLES
            .iter()
            .filter_map(|name| {
                let value = std::env::var_os(name).filter(|v| !v.is_empty())?;
                Some((*name, PathBuf::from(value)))
            })
            .collect();
        RootPaths::with(root, std::env::var_os("HOME").map(PathBuf::from), variables)
    }

    fn with(
        root: &Path,
        home: Option<PathBuf>,
        variables: Vec<(&'static str, PathBuf)>,
    ) -> RootPaths {
        let mut roots = vec![fold(&normalize(root))];
        if let Ok(real) = std::fs::canonicalize(root) {
            let real = fold(&real);
            if !roots.contains(&real) {
                roots.push(real);
            }
        }
        RootPaths {
            roots,
            home: home.map(|home| fold(&normalize(&home))),
            variables,
        }
    }

    /// Whether `text`, a path a file tool received (a file, a directory it reads or searches,
    /// or a glob of files it reads), reaches the root; relative to `base`.
    pub fn file_reaches(&self, text: &str, base: &Path) -> bool {
        self.text_reaches(
            text,
            std::slice::from_ref(&base.to_path_buf()),
            Globs::Tool,
            true,
        )
    }

    /// Whether a file tool's glob of names to list (`Glob`'s `pattern`) matches a path inside
    /// the root: listing a directory above the root shows no more than its name.
    pub fn names_reach(&self, pattern: &str, base: &Path) -> bool {
        self.text_reaches(
            pattern,
            std::slice::from_ref(&base.to_path_buf()),
            Globs::Tool,
            false,
        )
    }

    /// Whether a shell word reaches the root: its value after quote removal (when known) or its
    /// written text with the path variables replaced, whole or in the parts an option, a URL
    /// or a here-document would hold.
    pub fn word_reaches(&self, word: &shell_guard::Word, bases: &[PathBuf]) -> bool {
        let cwd = bases.first().map(PathBuf::as_path);
        let written = self.expand(&word.written, cwd);
        word.value
            .iter()
            .map(|value| self.expand_tilde(value, cwd))
            .chain(std::iter::once(written))
            .any(|text| self.text_reaches(&text, bases, Globs::Shell, true))
    }

    /// The directories a shell line's relative paths may be taken from: `cwd`, and every
    /// directory the line changes to (`cd DIR`, `pushd DIR`, a bare `cd`), from any earlier one.
    pub fn shell_bases(&self, commands: &[Vec<shell_guard::Word>], cwd: &Path) -> Vec<PathBuf> {
        let mut bases = vec![cwd.to_path_buf()];
        for command in commands {
            let text = |word: &shell_guard::Word| {
                word.value
                    .clone()
                    .map(|value| self.expand_tilde(&value, Some(cwd)))
                    .unwrap_or_else(|| self.expand(&word.written, Some(cwd)))
            };
            let Some(name) = command.first().map(text) else {
                continue;
            };
            if name != "cd" && name != "pushd" {
                continue;
            }
            let operand = command
                .iter()
                .skip(1)
                .map(text)
                .find(|word| !word.starts_with('-') || word == "-");
            let target = match operand {
                Some(dir) if dir != "-" => PathBuf::from(dir),
                None if name == "cd" => match &self.home {
                    Some(home) => home.clone(),
                    None => continue,
                },
                _ => continue,
            };
            let next: Vec<PathBuf> = bases.iter().map(|base| base.join(&target)).collect();
            for base in next {
                if !bases.contains(&base) {
                    bases.push(base);
                }
            }
        }
        bases
    }

    fn text_reaches(&self, text: &str, bases: &[PathBuf], globs: Globs, ancestors: bool) -> bool {
        braces(text).iter().any(|expanded| {
            parts(expanded).any(|part| {
                let path = Path::new(part);
                if path.is_absolute() {
                    return self.reaches(path, globs, ancestors);
                }
                !part.is_empty()
                    && bases
                        .iter()
                        .any(|base| self.reaches(&base.join(path), globs, ancestors))
            })
        })
    }

    /// Whether a path (which may hold glob characters) is, or could match, the root, a path
    /// inside it or (with `ancestors`) a directory between the home directory and the root.
    fn reaches(&self, path: &Path, globs: Globs, ancestors: bool) -> bool {
        let lexical = fold(&normalize(path));
        if lexical.to_str().is_some_and(is_pattern) {
            return self
                .roots
                .iter()
                .any(|root| self.pattern_reaches(&lexical, root, globs, ancestors));
        }
        let real = fold(&real_path(path));
        [&lexical, &real].into_iter().any(|path| {
            self.roots.iter().any(|root| {
                path.starts_with(root)
                    || (ancestors && root.starts_with(path) && self.below_home(path))
            })
        })
    }

    /// Strictly below the home directory: `~/.config`, not `~` itself or `/`, which every
    /// command names and whose recursive reads are outside what the hook sees.
    fn below_home(&self, path: &Path) -> bool {
        self.home
            .as_ref()
            .is_some_and(|home| path.starts_with(home) && path != home)
    }

    fn pattern_reaches(&self, pattern: &Path, root: &Path, globs: Globs, ancestors: bool) -> bool {
        let pattern: Vec<String> = components(pattern);
        let root_parts: Vec<String> = components(root);
        for (i, part) in pattern.iter().enumerate() {
            if part == "**" && globs == Globs::Tool {
                // Any depth from here: the root is among what it reaches.
                return true;
            }
            match root_parts.get(i) {
                Some(name) if component_matches(part, name, globs) => {}
                Some(_) => return false,
                None => return true,
            }
        }
        // The pattern is shorter than the root: it matches one of the root's directories.
        let matched: PathBuf = root_parts.iter().take(pattern.len()).collect();
        matched.as_path() == root || (ancestors && self.below_home(&matched))
    }

    /// The written text of a word as its value would be if the path variables and tilde
    /// prefixes were spelled out: quotes and backslashes removed, `$'…'` read as quotes,
    /// `$NAME` and `${NAME…}` of the path variables (and `PWD`) replaced.
    fn expand(&self, text: &str, cwd: Option<&Path>) -> String {
        let text: String = text
            .replace("$'", "'")
            .replace("$\"", "\"")
            .chars()
            .filter(|c| !matches!(c, '\'' | '"' | '\\'))
            .collect();
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let (name, consumed) = match after.strip_prefix('{') {
                Some(braced) => {
                    let name_len = identifier_len(braced);
                    match braced.find('}') {
                        Some(close) if name_len > 0 => (&braced[..name_len], close + 2),
                        _ => ("", 0),
                    }
                }
                None => {
                    let name_len = identifier_len(after);
                    (&after[..name_len], name_len)
                }
            };
            match self.variable(name, cwd) {
                Some(value) if consumed > 0 => {
                    out.push_str(&value.to_string_lossy());
                    rest = &after[consumed..];
                }
                _ => {
                    out.push('$');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        self.expand_tilde(&out, cwd)
    }

    fn variable(&self, name: &str, cwd: Option<&Path>) -> Option<PathBuf> {
        if name == "PWD" {
            return cwd.map(Path::to_path_buf);
        }
        self.variables
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, value)| value.clone())
    }

    /// A tilde prefix replaced: `~` and `~/…` by the home directory, `~+` by the working
    /// directory, `~user` by that user's home beside this one's. `~-` is left as written.
    fn expand_tilde(&self, text: &str, cwd: Option<&Path>) -> String {
        let Some(rest) = text.strip_prefix('~') else {
            return text.to_string();
        };
        let (prefix, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let dir = match prefix {
            "" => self.home.clone(),
            "+" => cwd.map(Path::to_path_buf),
            "-" => None,
            user => self
                .home
                .as_ref()
                .and_then(|home| home.parent())
                .map(|parent| parent.join(user)),
        };
        match dir {
            Some(dir) => format!("{}{tail}", dir.display()),
            None => text.to_string(),
        }
    }
}

fn identifier_len(text: &str) -> usize {
    text.char_indices()
        .find(|(i, c)| !(c.is_ascii_alphabetic() || *c == '_' || (*i > 0 && c.is_ascii_digit())))
        .map_or(text.len(), |(i, _)| i)
}

/// Every word a brace expansion of `text` yields (`a{b,c}d` is `abd`, `acd`); the text itself
/// when it has none. Past [`MAX_BRACE_WORDS`], each brace group becomes `*`.
fn braces(text: &str) -> Vec<String> {
    let mut words = vec![String::new()];
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some((alternatives, close)) = brace_group(&rest[open..]) else {
            for word in &mut words {
                word.push_str(&rest[..=open]);
            }
            rest = &rest[open + 1..];
            continue;
        };
        let prefix = &rest[..open];
        let mut next = Vec::new();
        for word in &words {
            for alternative in &alternatives {
                for expanded in braces(alternative) {
                    next.push(format!("{word}{prefix}{expanded}"));
                }
            }
        }
        if next.len() > MAX_BRACE_WORDS {
            let wildcard: String = text
                .chars()
                .map(|c| if matches!(c, '{' | '}' | ',') { '*' } else { c })
                .collect();
            return vec![wildcard];
        }
        words = next;
        rest = &rest[open + close + 1..];
    }
    for word in &mut words {
        word.push_str(rest);
    }
    words
}

/// The alternatives of the brace group `text` starts with, and the index of its `}`; `None`
/// when it is not one (no comma at its level, or not closed).
fn brace_group(text: &str) -> Option<(Vec<&str>, usize)> {
    let mut depth = 0;
    let mut start = 1;
    let mut alternatives = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    if alternatives.is_empty() {
                        return None;
                    }
                    alternatives.push(&text[start..i]);
                    return Some((alternatives, i));
                }
            }
            ',' if depth == 1 => {
                alternatives.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// The whole text and the parts of it that could be a path: split on whitespace, quotes,
/// parentheses and the separators of options and URLs (`=`, `:`, `@`, `,`, `;`), and from the
/// first `/` of each part (`-o/path`).
fn parts(text: &str) -> impl Iterator<Item = &str> {
    let pieces = std::iter::once(text).chain(text.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '=' | ':' | '@' | ',' | ';' | '\'' | '"' | '(' | ')' | '<' | '>' | '|' | '&' | '`'
            )
    }));
    pieces.flat_map(|piece| {
        let from_slash = piece.find('/').filter(|&i| i > 0).map(|i| &piece[i..]);
        std::iter::once(piece).chain(from_slash)
    })
}

fn is_pattern(text: &str) -> bool {
    text.contains(['*', '?', '[']) || extglob_at(text).is_some()
}

/// Where an extended glob group (`@(…)`, `!(…)`, `+(…)`, `*(…)`, `?(…)`) starts, if any.
fn extglob_at(text: &str) -> Option<usize> {
    text.find(['@', '!', '+', '*', '?'])
        .filter(|&at| text[at + 1..].starts_with('('))
}

fn components(path: &Path) -> Vec<String> {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect()
}

/// One token of a component glob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// Any run of characters.
    Any,
    /// Any one character (`?`, or a bracket expression, read more widely than the shell).
    One,
    Char(char),
}

/// Whether one path component, a glob, could match `name`.
fn component_matches(pattern: &str, name: &str, globs: Globs) -> bool {
    // The shell's wildcards do not match a leading dot (no `dotglob`): the pattern must write
    // it, first or first in an extended group.
    let explicit_dot = pattern.starts_with('.') || pattern.contains("(.") || pattern.contains("|.");
    if globs == Globs::Shell && name.starts_with('.') && !explicit_dot {
        return false;
    }
    let tokens = tokens(pattern);
    let name: Vec<char> = name.chars().collect();
    wildcard_match(&tokens, &name)
}

fn tokens(pattern: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => tokens.extend(chars.next().map(Token::Char)),
            '*' | '?' | '@' | '!' | '+' if chars.peek() == Some(&'(') => {
                // An extended glob group: any text.
                let mut depth = 0;
                for c in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                tokens.push(Token::Any);
            }
            '*' => tokens.push(Token::Any),
            '?' => tokens.push(Token::One),
            '[' => {
                // `]` right after `[` (or `[!`, `[^`) is a member; `[:class:]` holds a `]`.
                let mut body = String::new();
                let mut closed = false;
                while let Some(c) = chars.next() {
                    if c == ']' && !body.is_empty() && body != "!" && body != "^" {
                        closed = true;
                        break;
                    }
                    if c == '[' && matches!(chars.peek(), Some(':' | '.' | '=')) {
                        body.push(c);
                        for c in chars.by_ref() {
                            body.push(c);
                            if c == ']' {
                                break;
                            }
                        }
                        continue;
                    }
                    body.push(c);
                }
                if closed {
                    tokens.push(Token::One);
                } else {
                    tokens.push(Token::Char('['));
                    tokens.extend(body.chars().map(Token::Char));
                }
            }
            c => tokens.push(Token::Char(c)),
        }
    }
    tokens
}

/// Wildcard matching in linear passes (the last `*` is the only one ever backtracked to).
fn wildcard_match(tokens: &[Token], name: &[char]) -> bool {
    let (mut t, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match tokens.get(t) {
            Some(Token::Any) => {
                star = Some((t, n));
                t += 1;
            }
            Some(Token::One) => {
                t += 1;
                n += 1;
            }
            Some(Token::Char(c)) if *c == name[n] => {
                t += 1;
                n += 1;
            }
            _ => match star {
                Some((star_t, star_n)) => {
                    t = star_t + 1;
                    n = star_n + 1;
                    star = Some((star_t, star_n + 1));
                }
                None => return false,
            },
        }
    }
    tokens[t.min(tokens.len())..]
        .iter()
        .all(|token| *token == Token::Any)
}

/// `.` and `..` resolved and repeated separators dropped, without looking at the disk.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Where `path` really is, as the kernel resolves it: its longest existing ancestor with links
/// (and `..` after them) resolved, then the rest, normalised.
fn real_path(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            return normalize(&rest.iter().rev().fold(real, |acc, part| acc.join(part)));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return normalize(path),
        }
    }
}

/// Paths as this system compares them: macOS and Windows file systems ignore case.
fn fold(path: &Path) -> PathBuf {
    if cfg!(any(target_os = "macos", windows)) {
        PathBuf::from(path.to_string_lossy().to_lowercase())
    } else {
        path.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> RootPaths {
        RootPaths::with(
            Path::new("/home/u/.config/torii"),
            Some(PathBuf::from("/home/u")),
            vec![
                ("HOME", PathBuf::from("/home/u")),
                ("TORII_CONFIG_DIR", PathBuf::from("/home/u/.config/torii")),
            ],
        )
    }

    fn word(written: &str, value: Option<&str>) -> shell_guard::Word {
        shell_guard::Word {
            written: written.to_string(),
            value: value.map(str::to_string),
        }
    }

    fn known(text: &str) -> shell_guard::Word {
        word(text, Some(text))
    }

    const CWD: &str = "/home/u/project";

    #[test]
    fn spellings_of_the_root_reach_it() {
        let paths = paths();
        let cwd = [PathBuf::from(CWD)];
        for (written, value) in [
            (
                "/home/u/.config/torii/grants",
                Some("/home/u/.config/torii/grants"),
            ),
            ("~/.config/torii", Some("~/.config/torii")),
            ("\"$HOME\"/.config/torii/providers", None),
            ("${TORII_CONFIG_DIR}/rules.yaml", None),
            ("${HOME%/}/.config/torii/x", None),
            ("${HOME:-/x}/.config/torii/x", None),
            ("$PWD/../.config/torii/x", None),
            ("~+/../.config/torii/x", Some("~+/../.config/torii/x")),
            ("~u/.config/torii/x", Some("~u/.config/torii/x")),
            ("$HOME/.config/$'torii'/x", None),
            ("../.config/torii/x", Some("../.config/torii/x")),
            (
                "--kubeconfig=/home/u/.config/torii/k",
                Some("--kubeconfig=/home/u/.config/torii/k"),
            ),
            (
                "fileb:///home/u//.config/./torii/a",
                Some("fileb:///home/u//.config/./torii/a"),
            ),
            (
                "-o/home/u/.config/torii/b",
                Some("-o/home/u/.config/torii/b"),
            ),
            (
                "/home/*/.con*/t?rii/grants",
                Some("/home/*/.con*/t?rii/grants"),
            ),
            (
                "/home/u/.c[o]nfig/tor[]i]i/x",
                Some("/home/u/.c[o]nfig/tor[]i]i/x"),
            ),
            (
                "/home/u/@(.config)/torii/x",
                Some("/home/u/@(.config)/torii/x"),
            ),
            ("~/.config", Some("~/.config")),
            ("/home/u/.c{onfig,x}/", Some("/home/u/.c{onfig,x}/")),
            (
                "/home/{zzz,u/.config/torii}/x",
                Some("/home/{zzz,u/.config/torii}/x"),
            ),
            (
                "/tmp/../home/u/.config/torii",
                Some("/tmp/../home/u/.config/torii"),
            ),
            (
                "os.listdir('/home/u/.config/torii')",
                Some("os.listdir('/home/u/.config/torii')"),
            ),
            (
                "a\n*** Add File: ../.config/torii/x\n",
                Some("a\n*** Add File: ../.config/torii/x\n"),
            ),
        ] {
            assert!(paths.word_reaches(&word(written, value), &cwd), "{written}");
        }
    }

    #[test]
    fn other_paths_do_not() {
        let paths = paths();
        let cwd = [PathBuf::from(CWD)];
        for (written, value) in [
            ("get", Some("get")),
            ("src/main.rs", Some("src/main.rs")),
            ("~", Some("~")),
            ("/", Some("/")),
            ("/home/*", Some("/home/*")),
            ("~/*", Some("~/*")),
            ("/home/u/**/grants", Some("/home/u/**/grants")),
            ("~/.config/git/config", Some("~/.config/git/config")),
            (
                "/home/u/.config/torii-other",
                Some("/home/u/.config/torii-other"),
            ),
            ("$X/grants", None),
        ] {
            assert!(
                !paths.word_reaches(&word(written, value), &cwd),
                "{written}"
            );
        }
    }

    #[test]
    fn a_cd_makes_relative_paths_count_from_there() {
        let paths = paths();
        for line in [
            vec![vec![known("cd"), word("~/.config", Some("~/.config"))]],
            vec![vec![known("cd"), known("-P"), known("/home/u/.config")]],
            vec![vec![known("cd")]],
            vec![
                vec![known("pushd"), known("..")],
                vec![known("cd"), known(".config")],
            ],
        ] {
            let bases = paths.shell_bases(&line, Path::new(CWD));
            let target = if line.len() == 1 && line[0].len() == 1 {
                known(".config/torii/grants")
            } else {
                known("torii/grants")
            };
            assert!(paths.word_reaches(&target, &bases), "{line:?}");
            assert!(!paths.word_reaches(&target, &[PathBuf::from(CWD)]));
        }
    }

    #[test]
    fn file_tools_list_names_above_the_root_but_not_inside_it() {
        let paths = paths();
        let home = Path::new("/home/u");
        assert!(!paths.names_reach("*", home));
        assert!(paths.names_reach("**/grants", home));
        assert!(paths.names_reach(".config/torii/*", home));
        assert!(paths.file_reaches(".config", home));
        assert!(paths.file_reaches("/home/u/.config/torii/providers/x", Path::new("/")));
    }

    #[test]
    fn a_long_glob_is_matched_quickly() {
        let pattern = format!("/home/u/.{}/torii", "*".repeat(5000));
        let started = std::time::Instant::now();
        assert!(paths().word_reaches(&known(&pattern), &[PathBuf::from(CWD)]));
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_into_the_root_counts_and_dot_dot_follows_the_link() {
        let scratch = tempfile::tempdir().unwrap();
        let base = scratch.path().canonicalize().unwrap();
        let root = base.join("home/.config/torii");
        std::fs::create_dir_all(root.join("providers")).unwrap();
        std::fs::create_dir_all(base.join("home/project")).unwrap();
        let link = base.join("elsewhere");
        std::os::unix::fs::symlink(&root, &link).unwrap();
        std::os::unix::fs::symlink(base.join("home/project"), base.join("p")).unwrap();
        let paths = RootPaths::with(&root, Some(base.join("home")), Vec::new());
        assert!(paths.file_reaches(
            &link.join("providers/new.yaml").display().to_string(),
            Path::new("/")
        ));
        assert!(paths.file_reaches("elsewhere/providers", &base));
        // `p/..` is the parent of p's target (home), not `base`.
        assert!(paths.file_reaches("p/../.config/torii/x", &base));
        assert!(!paths.file_reaches("other", &base));
    }
}
