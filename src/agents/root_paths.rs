//! Whether a path an agent's tool names reaches Torii's config root.
//!
//! The hook denies a shell command or a file-tool call that names the root, a path inside it,
//! or a directory between the home directory and the root (`~/.config`, whose recursive copy,
//! search or removal would take the root with it). Paths are read as the agent wrote them:
//! absolute, from `~`, `$HOME`, `$TORII_CONFIG_DIR` or `$XDG_CONFIG_HOME`, or relative to the
//! tool's working directory (and, for a shell line, to every directory it `cd`s into); a
//! symbolic link that leads into the root counts as the root, and a glob counts when some path
//! it could match does. What is computed as the command runs (`$X/grants`, `$(…)`) is not seen:
//! the hook is a guard, not a sandbox.

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

/// Variables that hold the paths an agent would build the root's path from.
const VARIABLES: &[&str] = &["HOME", "TORII_CONFIG_DIR", "XDG_CONFIG_HOME"];

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
        let mut roots = vec![normalize(root)];
        if let Ok(real) = std::fs::canonicalize(root)
            && !roots.contains(&real)
        {
            roots.push(real);
        }
        RootPaths {
            roots,
            home: home.map(|home| normalize(&home)),
            variables,
        }
    }

    /// Whether `text`, a path as a file tool received it, reaches the root; a relative path is
    /// taken from `cwd`.
    pub fn file_reaches(&self, text: &str, cwd: &Path) -> bool {
        self.path_reaches(text, std::slice::from_ref(&cwd.to_path_buf()))
    }

    /// Whether a shell word reaches the root: its value after quote removal (when known) or its
    /// written text with the path variables replaced, whole or in the parts an option or a
    /// URL would hold (`--file=PATH`, `file://PATH`, `@PATH`, `-oPATH`).
    pub fn word_reaches(&self, word: &shell_guard::Word, bases: &[PathBuf]) -> bool {
        let written = self.expand(&unquote(&word.written));
        word.value
            .iter()
            .chain(std::iter::once(&written))
            .any(|text| parts(text).any(|part| self.path_reaches(part, bases)))
    }

    /// The directories a shell line's relative paths may be taken from: `cwd`, and every
    /// directory the line changes to (`cd DIR`, `pushd DIR`), from any earlier one.
    pub fn shell_bases(&self, words: &[shell_guard::Word], cwd: &Path) -> Vec<PathBuf> {
        let mut bases = vec![cwd.to_path_buf()];
        let mut changes_directory = false;
        for word in words {
            let text = word
                .value
                .clone()
                .unwrap_or_else(|| self.expand(&unquote(&word.written)));
            if changes_directory && !text.starts_with('-') {
                let target = self.expand_tilde(&text);
                let next: Vec<PathBuf> = bases.iter().map(|base| base.join(&target)).collect();
                bases.extend(next);
                bases.dedup();
                changes_directory = false;
                continue;
            }
            changes_directory = matches!(text.as_str(), "cd" | "pushd")
                || (changes_directory && text.starts_with('-'));
        }
        bases
    }

    fn path_reaches(&self, text: &str, bases: &[PathBuf]) -> bool {
        let text = self.expand_tilde(text);
        if text.is_empty() {
            return false;
        }
        let path = Path::new(&text);
        if path.is_absolute() {
            return self.reaches(path);
        }
        bases.iter().any(|base| self.reaches(&base.join(path)))
    }

    /// Whether a path (which may hold glob characters) is, or could match, the root, a path
    /// inside it or a directory between the home directory and the root.
    fn reaches(&self, path: &Path) -> bool {
        let path = normalize(path);
        if path.to_str().is_some_and(is_pattern) {
            return self
                .roots
                .iter()
                .any(|root| self.pattern_reaches(&path, root));
        }
        let real = real_path(&path);
        [&path, &real]
            .into_iter()
            .any(|path| self.roots.iter().any(|root| self.touches(path, root)))
    }

    fn touches(&self, path: &Path, root: &Path) -> bool {
        path.starts_with(root) || (root.starts_with(path) && self.below_home(path))
    }

    /// Strictly below the home directory: `~/.config`, not `~` itself or `/`, which every
    /// command names and whose recursive reads are outside what the hook sees.
    fn below_home(&self, path: &Path) -> bool {
        self.home
            .as_ref()
            .is_some_and(|home| path.starts_with(home) && path != home)
    }

    fn pattern_reaches(&self, pattern: &Path, root: &Path) -> bool {
        let pattern: Vec<String> = pattern
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let root_parts: Vec<String> = root
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        for (i, part) in pattern.iter().enumerate() {
            if part == "**" {
                // Any depth from here: the root is among what it reaches.
                return true;
            }
            match root_parts.get(i) {
                Some(root_part) if component_matches(part, root_part) => {}
                Some(_) => return false,
                None => return true,
            }
        }
        // The pattern is shorter than the root: it matches one of the root's directories.
        let matched: PathBuf = root_parts.iter().take(pattern.len()).collect();
        matched.as_path() == root || self.below_home(&matched)
    }

    /// `$NAME` and `${NAME}` of the path variables replaced by their values.
    fn expand(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (name, value) in &self.variables {
            let value = value.to_string_lossy();
            text = text
                .replace(&format!("${{{name}}}"), &value)
                .replace(&format!("${name}"), &value);
        }
        text
    }

    /// A leading `~` or `~/` replaced by the home directory.
    fn expand_tilde(&self, text: &str) -> String {
        match (&self.home, text.strip_prefix('~')) {
            (Some(home), Some(rest)) if rest.is_empty() || rest.starts_with('/') => {
                format!("{}{rest}", home.display())
            }
            _ => text.to_string(),
        }
    }
}

/// The text with shell quotes and backslashes removed: what a word's value would be if its
/// expansions were spelled out.
fn unquote(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .collect()
}

/// The whole text and the parts of it that could be a path: after each `=`, `:`, `@` or `,`,
/// and from the first `/` of each part (`-o/path`).
fn parts(text: &str) -> impl Iterator<Item = &str> {
    let pieces = std::iter::once(text).chain(text.split(['=', ':', '@', ',']));
    pieces.flat_map(|piece| {
        let from_slash = piece.find('/').filter(|&i| i > 0).map(|i| &piece[i..]);
        std::iter::once(piece).chain(from_slash)
    })
}

fn is_pattern(text: &str) -> bool {
    text.contains(['*', '?', '[', '{'])
}

/// Whether one path component, a glob, could match `name`. `[…]` counts as any one
/// character and `{…}` as any text: both are read more widely than the shell would.
fn component_matches(pattern: &str, name: &str) -> bool {
    let mut tokens = Vec::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '*' => tokens.push(None),
            '?' => tokens.push(Some(None)),
            '[' => {
                for c in chars.by_ref() {
                    if c == ']' {
                        break;
                    }
                }
                tokens.push(Some(None));
            }
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
                tokens.push(None);
            }
            c => tokens.push(Some(Some(c))),
        }
    }
    let name: Vec<char> = name.chars().collect();
    glob_match(&tokens, &name)
}

/// `None`: any run of characters; `Some(None)`: any one; `Some(Some(c))`: `c`.
fn glob_match(tokens: &[Option<Option<char>>], name: &[char]) -> bool {
    match tokens.split_first() {
        None => name.is_empty(),
        Some((None, rest)) => (0..=name.len()).any(|skip| glob_match(rest, &name[skip..])),
        Some((Some(want), rest)) => match name.split_first() {
            Some((c, name)) if want.is_none_or(|want| want == *c) => glob_match(rest, name),
            _ => false,
        },
    }
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

/// Where `path` really is: its longest existing ancestor with links resolved, then the rest.
fn real_path(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            return rest.iter().rev().fold(real, |acc, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
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

    #[test]
    fn spellings_of_the_root_reach_it() {
        let paths = paths();
        let cwd = [PathBuf::from("/home/u/project")];
        for (written, value) in [
            (
                "/home/u/.config/torii/grants",
                Some("/home/u/.config/torii/grants"),
            ),
            ("~/.config/torii", None),
            ("\"$HOME\"/.config/torii/providers", None),
            ("${TORII_CONFIG_DIR}/rules.yaml", None),
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
            ("/home/u/**/grants", Some("/home/u/**/grants")),
            ("~/.config", None),
            ("/home/u/.c{onfig,x}/", Some("/home/u/.c{onfig,x}/")),
        ] {
            assert!(paths.word_reaches(&word(written, value), &cwd), "{written}");
        }
    }

    #[test]
    fn other_paths_do_not() {
        let paths = paths();
        let cwd = [PathBuf::from("/home/u/project")];
        for (written, value) in [
            ("get", Some("get")),
            ("src/main.rs", Some("src/main.rs")),
            ("~", None),
            ("/", Some("/")),
            ("/home/*", Some("/home/*")),
            ("~/.config/git/config", None),
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
        let words = [
            word("cd", Some("cd")),
            word("~/.config", None),
            word("cat", Some("cat")),
            word("torii/grants", Some("torii/grants")),
        ];
        let bases = paths.shell_bases(&words, Path::new("/home/u/project"));
        assert!(paths.word_reaches(&words[3], &bases));
        assert!(!paths.word_reaches(&words[3], &[PathBuf::from("/home/u/project")]));
    }

    #[test]
    fn a_link_into_the_root_counts() {
        let scratch = tempfile::tempdir().unwrap();
        let root = scratch.path().join("root");
        std::fs::create_dir_all(root.join("providers")).unwrap();
        let link = scratch.path().join("elsewhere");
        std::os::unix::fs::symlink(&root, &link).unwrap();
        let paths = RootPaths::with(&root, None, Vec::new());
        assert!(paths.file_reaches(
            &link.join("providers/new.yaml").display().to_string(),
            Path::new("/")
        ));
        assert!(paths.file_reaches("elsewhere/providers", scratch.path()));
        assert!(!paths.file_reaches("other", scratch.path()));
    }
}
