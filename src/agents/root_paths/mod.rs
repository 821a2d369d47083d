//! Whether a path an agent's tool names reaches Torii's config root.
//!
//! The hook denies a shell command or a file-tool call that names the root, a path inside it,
//! or (as a whole argument) a directory between the home directory and the root (`~/.config`,
//! whose recursive copy, search or removal would take the root with it). Paths are read as
//! the agent wrote them: absolute; from `~` and its other forms, `$HOME`, `${HOME…}`, `$PWD`,
//! `$OLDPWD`, `$TORII_CONFIG_DIR` or `$XDG_CONFIG_HOME`; relative to the tool's working
//! directory and, for a shell line, to every directory it changes to ([`RootPaths::shell_bases`]);
//! inside option values, URLs, code strings and here-documents. Links are followed as the
//! kernel follows them (`link/..` is the parent of the link's target); a glob or a brace
//! expansion counts when some path it could match does (`glob.rs`); a computed part stands for
//! any text, and a path whose start is computed counts when its known rest is the end of the
//! root's path. Words of a longer text (a message, a here-document) count only when they reach
//! inside the root (`words.rs`).
//!
//! Not seen: values computed as the command runs that the hook cannot spell (`$X/grants` with
//! `X` set elsewhere, `CDPATH`, a `HOME=` set by the same line), and what scripts and
//! interpreters' code open. The hook is a guard, not a sandbox.

use std::path::{Component, Path, PathBuf};

mod glob;
#[cfg(test)]
mod tests;
mod words;

use glob::{braces, component_matches, components, disk_matches, is_pattern};
use words::{ansi_c, closing, file_url, identifier_len, is_word_break, option_directories, parts};

/// The root and the ways an agent can spell it.
#[derive(Debug, Clone)]
pub struct RootPaths {
    /// The root as pinned, and where it really is when a link leads there.
    roots: Vec<PathBuf>,
    home: Option<PathBuf>,
    /// Variables whose value is a path, replaced where a word writes them.
    variables: Vec<(&'static str, PathBuf)>,
    /// Where paths really are, as found so far (one line names the same directories often).
    real: std::cell::RefCell<std::collections::HashMap<PathBuf, Option<PathBuf>>>,
    /// What globs matched on the disk, as found so far.
    globbed: std::cell::RefCell<std::collections::HashMap<(PathBuf, bool), GlobMatches>>,
}

/// Variables that hold the paths an agent would build the root's path from (`PWD` and
/// `OLDPWD` are the line's directories, given per call).
const VARIABLES: &[&str] = &["HOME", "TORII_CONFIG_DIR", "XDG_CONFIG_HOME"];

/// Stands, in an expanded word, for any directory of the line (`$PWD`, `~+`, `$OLDPWD`).
const ANY_DIR: char = '\u{E000}';
/// Stands, in an expanded word, for the value of an expansion the hook cannot compute: any
/// text, hidden names and `/` included.
const UNKNOWN: char = '\u{E001}';

/// Stands for a `~` the shell does not expand (quoted or escaped): a directory named `~`.
const QUOTED_TILDE: char = '\u{E002}';

/// At most this many words one brace expansion yields; past it, the text is taken to reach
/// the root (it cannot be told).
const MAX_BRACE_WORDS: usize = 256;

/// At most this many directories a shell line's relative paths are taken from.
pub const MAX_BASES: usize = 128;
/// At most this many directories the line may be in after one `cd` (the others are kept as
/// bases, not as starting points of the next relative `cd`).
const MAX_CURRENT: usize = 8;

/// A text with more `/` than this is not read as one path (a here-document listing paths).
const MAX_PATH_SLASHES: usize = 64;

/// At most this many directory entries are read to match one glob on the disk.
const MAX_GLOB_ENTRIES: usize = 5_000;

/// What a glob matched on the disk; `None` when it would read too many entries.
type GlobMatches = Option<Vec<PathBuf>>;

/// How a glob is matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Globs {
    /// bash's defaults: `*` does not match a leading dot, `**` is `*`, case matters.
    Shell,
    /// Anything a glob could match: hidden names, `**` across directories, any case (a file
    /// tool's globs, or a line that sets `dotglob`, `globstar`, `nocaseglob` or `GLOBIGNORE`).
    Wide,
}

/// Where one check's relative paths start.
#[derive(Debug, Clone)]
pub struct Bases {
    /// The working directory first, then every directory the line changes to.
    dirs: Vec<PathBuf>,
    /// The line changes to a directory the hook cannot compute (`cd "${PWD%/*}"`): a relative
    /// path may then start anywhere.
    anywhere: bool,
}

impl Bases {
    pub fn one(dir: &Path) -> Bases {
        Bases {
            dirs: vec![dir.to_path_buf()],
            anywhere: false,
        }
    }
}

/// A shell line changes to more directories than the hook follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyDirectories;

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
            real: std::cell::RefCell::default(),
            globbed: std::cell::RefCell::default(),
        }
    }

    /// Whether `text`, a path a file tool received (a file, a directory it reads or searches,
    /// or a glob of files it reads), reaches the root; relative to `base`.
    pub fn file_reaches(&self, text: &str, base: &Path) -> bool {
        self.text_reaches(text, &Bases::one(base), Globs::Wide, true)
    }

    /// Whether a file tool's glob of names to list (`Glob`'s `pattern`) matches a path inside
    /// the root: listing a directory above the root shows no more than its name.
    pub fn names_reach(&self, pattern: &str, base: &Path) -> bool {
        self.text_reaches(pattern, &Bases::one(base), Globs::Wide, false)
    }

    /// Whether a shell word reaches the root: its value after quote removal (when known) or its
    /// written text with the path variables replaced and other expansions read as `*`, whole
    /// or in the parts an option, a URL, a code string or a here-document would hold.
    pub fn word_reaches(&self, word: &shell_guard::Word, bases: &Bases, globs: Globs) -> bool {
        // A `~` in a known value was quoted or escaped (an expanded one is not known); the
        // written form below keeps the ones the shell expands.
        let value = word
            .value
            .as_ref()
            .map(|value| value.replace('~', &QUOTED_TILDE.to_string()));
        let written = self.expand(&word.written, bases);
        value
            .into_iter()
            .chain(std::iter::once(written))
            .any(|text| self.text_reaches(&text, bases, globs, true))
    }

    /// How a shell line's globs match: bash's defaults, unless the line names an option that
    /// widens them.
    pub fn shell_globs(words: &[shell_guard::Word]) -> Globs {
        // bash options and variables, zsh options (any case, `_` ignored).
        const WIDENING: &[&str] = &[
            "dotglob",
            "globstar",
            "nocaseglob",
            "globignore",
            "globdots",
            "nocaseglob",
            "extendedglob",
        ];
        let widens = words.iter().any(|word| {
            let texts = std::iter::once(&word.written).chain(word.value.as_ref());
            texts
                .map(|text| text.to_lowercase().replace(['_', '\'', '"', '\\'], ""))
                .any(|text| WIDENING.iter().any(|option| text.contains(option)))
        });
        if widens { Globs::Wide } else { Globs::Shell }
    }

    /// The directories a shell line's relative paths may be taken from: `cwd`, every
    /// directory the line changes to (`cd DIR`, `pushd DIR`, a bare `cd`, also behind `builtin`
    /// or `command`), and every directory an option runs a command in (`-C DIR`,
    /// `--directory=DIR`, `--chdir`, `--cwd`; the parents of `find -execdir`'s starting points).
    /// A relative `cd` is taken from each directory the line may be in at that point.
    pub fn shell_bases(
        &self,
        commands: &[Vec<shell_guard::Word>],
        cwd: &Path,
    ) -> Result<Bases, TooManyDirectories> {
        let mut bases = Bases::one(cwd);
        let mut current = vec![cwd.to_path_buf()];
        let add = |bases: &mut Bases, dir: PathBuf| -> Result<(), TooManyDirectories> {
            let dir = normalize(&dir);
            if !bases.dirs.contains(&dir) {
                if bases.dirs.len() == MAX_BASES {
                    return Err(TooManyDirectories);
                }
                bases.dirs.push(dir);
            }
            Ok(())
        };
        for command in commands {
            let words: Vec<String> = command
                .iter()
                .map(|word| {
                    word.value
                        .clone()
                        .unwrap_or_else(|| self.expand(&word.written, &bases))
                })
                .collect();
            let resolve = |dir: &str, from: &[PathBuf], bases: &Bases| -> Vec<PathBuf> {
                self.spellings(dir, bases)
                    .into_iter()
                    .flat_map(|target| from.iter().map(move |base| base.join(&target)))
                    .collect()
            };
            for dir in option_directories(&words) {
                for dir in resolve(&dir, &current, &bases) {
                    add(&mut bases, dir)?;
                }
            }
            let mut rest = words.iter().map(String::as_str).peekable();
            while rest
                .next_if(|w| matches!(*w, "builtin" | "command"))
                .is_some()
            {}
            let Some(name) = rest.next() else { continue };
            if !matches!(name, "cd" | "pushd" | "popd" | "chdir") {
                continue;
            }
            let operand = rest.find(|word| !word.starts_with('-') || *word == "-");
            let next: Vec<PathBuf> = match operand {
                // Back to a directory of the stack: any the line has been in.
                // Back to a directory of the stack, which an assignment to `OLDPWD` or
                // `DIRSTACK` may have set: any the line has been in, or anywhere.
                Some(dir) if dir == "-" || dir.starts_with('+') => {
                    bases.anywhere = true;
                    bases.dirs.clone()
                }
                _ if name == "popd" => {
                    bases.anywhere = true;
                    bases.dirs.clone()
                }
                Some(dir) if dir.starts_with(UNKNOWN) || dir.starts_with(ANY_DIR) => {
                    bases.anywhere = true;
                    if dir.starts_with(UNKNOWN) {
                        continue;
                    }
                    resolve(dir, &current, &bases)
                }
                Some(dir) => resolve(dir, &current, &bases),
                None if name == "pushd" => bases.dirs.clone(),
                None => self.home.iter().cloned().collect(),
            };
            current.clear();
            for dir in next {
                let dir = normalize(&dir);
                add(&mut bases, dir.clone())?;
                if current.len() < MAX_CURRENT && !current.contains(&dir) {
                    current.push(dir);
                }
            }
        }
        Ok(bases)
    }

    fn text_reaches(&self, text: &str, bases: &Bases, globs: Globs, ancestors: bool) -> bool {
        // The word itself: one argument, whatever characters quoting put in it. Its braces are
        // expanded when nothing in it breaks words (bash expands none in quoted text).
        let whole = !text.contains(is_word_break);
        if whole {
            return self.token_reaches(text, true, bases, globs, ancestors);
        }
        // One path with odd characters in it (`~/.confi[g\ ]`, `@(.config)`, a newline); a
        // text with many `/` is a list of paths, read word by word below.
        if text.matches('/').count() <= MAX_PATH_SLASHES
            && self.part_reaches(text, bases, globs, ancestors)
        {
            return true;
        }
        // The words of a longer text (a message, code, a here-document), as another shell
        // would read them (`sh -c 'cat ~/…'`): they count only when they reach into the root.
        let unquoted = text.replace(QUOTED_TILDE, "~");
        unquoted
            .split(is_word_break)
            .filter(|token| !token.is_empty())
            .any(|token| {
                let token = if token.contains('$') {
                    self.expand(token, bases)
                } else {
                    token.to_string()
                };
                self.token_reaches(&token, true, bases, globs, false)
            })
    }

    fn token_reaches(
        &self,
        token: &str,
        expand_braces: bool,
        bases: &Bases,
        globs: Globs,
        ancestors: bool,
    ) -> bool {
        let expansions = if expand_braces {
            match braces(token) {
                Some(expansions) => expansions,
                None => return true,
            }
        } else {
            vec![token.to_string()]
        };
        expansions.iter().any(|expanded| {
            let url = file_url(expanded);
            parts(expanded)
                .chain(url.as_deref().map(|path| (path, true)))
                .any(|(part, option_value)| {
                    let ancestors = ancestors && (option_value || part == expanded);
                    self.part_reaches(part, bases, globs, ancestors)
                })
        })
    }

    fn part_reaches(&self, part: &str, bases: &Bases, globs: Globs, ancestors: bool) -> bool {
        self.spellings(part, bases).iter().any(|spelling| {
            if let Some(rest) = spelling.strip_prefix(UNKNOWN) {
                // Text right after the computed start ends the same name (`$(…)ig/torii`).
                return match rest.starts_with('/') {
                    true => self.suffix_reaches(rest, ancestors),
                    false => self.suffix_reaches(&format!("{UNKNOWN}{rest}"), ancestors),
                };
            }
            let path = Path::new(spelling);
            if path.is_absolute() {
                return self.reaches(path, globs, ancestors);
            }
            if bases.anywhere && self.relative_tail_reaches(spelling, ancestors) {
                return true;
            }
            !spelling.is_empty()
                && bases
                    .dirs
                    .iter()
                    .any(|base| self.reaches(&base.join(path), globs, ancestors))
        })
    }

    /// Whether a path whose beginning is computed (`$H/.config/torii`) could be the root or
    /// inside it: some final part of the root is what the known rest begins with.
    fn suffix_reaches(&self, rest: &str, ancestors: bool) -> bool {
        self.tail_reaches(rest, ancestors, Globs::Wide)
    }

    /// [`RootPaths::suffix_reaches`] for a path relative to a directory the hook cannot compute
    /// (after `cd "$D"`): only literal names count (`.config/torii`), since any relative glob
    /// could match some directory's entries.
    fn relative_tail_reaches(&self, relative: &str, ancestors: bool) -> bool {
        !is_pattern(relative) && self.tail_reaches(relative, ancestors, Globs::Shell)
    }

    fn tail_reaches(&self, rest: &str, ancestors: bool, globs: Globs) -> bool {
        // `..` from an unknown place leads to another unknown place.
        let rest: Vec<String> = components(&normalize(Path::new(rest.trim_start_matches('/'))))
            .into_iter()
            .filter(|part| part != "..")
            .collect();
        // Nothing known after the computed start (`$D/$f`, `"$A$B"`, `"$D"/*`): as computed
        // as `$X` alone, which no path check can spell (see the module's "Not seen"). Denying
        // these refused every loop over files; a root split over variables the line sets
        // (`A=~/.config/to B=rii; cat "$A$B"`) passes, as `"$(printf %s%s "$A" "$B")"` did.
        if rest
            .iter()
            .all(|part| part.chars().all(|c| matches!(c, UNKNOWN | '*' | '?')))
        {
            return false;
        }
        self.roots.iter().any(|root| {
            let root_parts = components(root);
            (1..root_parts.len()).any(|start| {
                let tail = &root_parts[start..];
                let matched = tail
                    .iter()
                    .zip(&rest)
                    .all(|(name, part)| component_matches(part, name, globs));
                matched
                    && (rest.len() >= tail.len()
                        || (ancestors
                            && self.below_home(
                                &root_parts[..start + rest.len()].iter().collect::<PathBuf>(),
                            )))
            })
        })
    }

    /// What a path written as `text` may be once the shell expands its tilde prefix: `~` and
    /// `~/…` the home directory, `~user` that user's home beside this one's, `~+` the working
    /// directory, and `~-`, `~N`, `~+N`, `~-N` (the previous directory and the directory
    /// stack) any directory of the line; `/proc/self/cwd` is the working directory too.
    fn spellings(&self, text: &str, bases: &Bases) -> Vec<String> {
        const CWD_LINKS: &[&str] = &["/proc/self/cwd", "/proc/thread-self/cwd"];
        for link in CWD_LINKS {
            if let Some(rest) = text.strip_prefix(link)
                && (rest.is_empty() || rest.starts_with('/'))
            {
                return bases
                    .dirs
                    .iter()
                    .map(|dir| format!("{}{rest}", dir.display()))
                    .collect();
            }
        }
        if let Some(rest) = text.strip_prefix(ANY_DIR) {
            return bases
                .dirs
                .iter()
                .map(|dir| format!("{}{rest}", dir.display()))
                .collect();
        }
        let Some(rest) = text.strip_prefix('~') else {
            return vec![text.to_string()];
        };
        let (prefix, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let stack = |p: &str| {
            p == "-" || p.trim_start_matches(['+', '-']).parse::<u32>().is_ok() && !p.is_empty()
        };
        let dirs: Vec<PathBuf> = match prefix {
            "" => self.home.iter().cloned().collect(),
            "+" => bases.dirs.clone(),
            p if stack(p) => bases.dirs.clone(),
            user => self
                .home
                .as_ref()
                .and_then(|home| home.parent())
                .map(|parent| parent.join(user))
                .into_iter()
                .collect(),
        };
        if dirs.is_empty() {
            return vec![text.to_string()];
        }
        dirs.iter()
            .map(|dir| format!("{}{tail}", dir.display()))
            .collect()
    }

    /// Whether a path (which may hold glob characters) is, or could match, the root, a path
    /// inside it or (with `ancestors`) a directory between the home directory and the root.
    fn reaches(&self, path: &Path, globs: Globs, ancestors: bool) -> bool {
        let lexical = fold(&normalize(path));
        if lexical.to_str().is_some_and(is_pattern) {
            if self
                .roots
                .iter()
                .any(|root| self.pattern_reaches(&lexical, root, globs, ancestors))
            {
                return true;
            }
            // What the glob matches on the disk now, through links too.
            let key = (path.to_path_buf(), globs == Globs::Wide);
            let known = self.globbed.borrow().get(&key).cloned();
            let matches = known.unwrap_or_else(|| {
                let found = disk_matches(path, globs);
                self.globbed.borrow_mut().insert(key, found.clone());
                found
            });
            return match matches {
                Some(matches) => matches.iter().any(|found| {
                    // A match that is a link to the root: listing its name shows no more.
                    self.path_reaches(found, ancestors)
                        && (ancestors || !self.roots.contains(&fold(&self.real_path(found))))
                }),
                // Too many entries to read: the lexical match above is what the hook can tell.
                None => false,
            };
        }
        self.path_reaches(path, ancestors)
    }

    fn path_reaches(&self, path: &Path, ancestors: bool) -> bool {
        let lexical = fold(&normalize(path));
        let real = fold(&self.real_path(path));
        [&lexical, &real].into_iter().any(|path| {
            self.roots.iter().any(|root| {
                path.starts_with(root)
                    || (ancestors && root.starts_with(path) && self.below_home(path))
            })
        })
    }

    /// Where `path` really is, as the kernel resolves it: its longest existing ancestor with
    /// links (and `..` after them) resolved, then the rest, normalised. What each directory
    /// resolved to is remembered.
    fn real_path(&self, path: &Path) -> PathBuf {
        let mut existing = path;
        let mut rest = Vec::new();
        loop {
            let known = self.real.borrow().get(existing).cloned();
            let real = match known {
                Some(real) => real,
                None => {
                    let real = std::fs::canonicalize(existing).ok();
                    self.real
                        .borrow_mut()
                        .insert(existing.to_path_buf(), real.clone());
                    real
                }
            };
            if let Some(real) = real {
                return normalize(
                    &rest
                        .iter()
                        .rev()
                        .fold(real, |acc: PathBuf, part| acc.join(part)),
                );
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
            if part == "**" && globs == Globs::Wide {
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

    /// The written text of a word as its value could be: quotes and backslashes removed,
    /// `$'…'` decoded, the path variables replaced (`$HOME`, `${HOME%/}`,
    /// `${XDG_CONFIG_HOME:-$HOME/.config}`, `$PWD`; `$OLDPWD` reads as the line's first
    /// directory), and every other expansion read as `*`.
    fn expand(&self, text: &str, bases: &Bases) -> String {
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::with_capacity(text.len());
        let mut quote: Option<char> = None;
        let mut i = 0;
        while i < chars.len() {
            if quote == Some('\'') && chars[i] != '\'' {
                // Inside single quotes every character is itself.
                out.push(if chars[i] == '~' {
                    QUOTED_TILDE
                } else {
                    chars[i]
                });
                i += 1;
                continue;
            }
            match chars[i] {
                q @ ('\'' | '"') => {
                    quote = match quote {
                        Some(open) if open == q => None,
                        None => Some(q),
                        inside => inside,
                    };
                    i += 1;
                }
                '\\' => {
                    match chars.get(i + 1) {
                        Some('~') => out.push(QUOTED_TILDE),
                        next => out.extend(next),
                    }
                    i += 2;
                }
                '~' if quote.is_some() => {
                    out.push(QUOTED_TILDE);
                    i += 1;
                }
                '`' => {
                    let close = chars[i + 1..].iter().position(|&c| c == '`');
                    out.push(UNKNOWN);
                    i = close.map_or(chars.len(), |close| i + close + 2);
                }
                '$' => {
                    let (value, next) = self.dollar(&chars, i, bases);
                    out.push_str(&value);
                    i = next;
                }
                c => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        out
    }

    /// The expansion starting with the `$` at `i` and the index after it.
    fn dollar(&self, chars: &[char], i: usize, bases: &Bases) -> (String, usize) {
        match chars.get(i + 1) {
            Some('\'') => {
                let close = chars[i + 2..].iter().position(|&c| c == '\'');
                let end = close.map_or(chars.len(), |close| i + 2 + close);
                let body: String = chars[i + 2..end].iter().collect();
                (ansi_c(&body), (end + 1).min(chars.len()))
            }
            Some('{') => {
                let end = closing(chars, i + 1, '{', '}');
                let inner: String = chars[i + 2..end.min(chars.len())].iter().collect();
                let name_len = identifier_len(&inner);
                let (name, operation) = inner.split_at(name_len);
                let value = match self.variable(name) {
                    // Set: a default is not used, an alternate is, and any other operation
                    // (`%`, `#`, `/`, `,,`, `@P`…) makes a value the hook does not compute.
                    Some(value) => match operation.trim_start_matches(':').chars().next() {
                        None => value,
                        Some('-' | '=') if !operation.is_empty() => value,
                        Some('+') => {
                            let word = operation.trim_start_matches(':').trim_start_matches('+');
                            self.expand(word, bases)
                        }
                        _ => self.replaced(operation, bases),
                    },
                    None => {
                        let default = ["-", ":-", "=", ":=", "+", ":+"]
                            .iter()
                            .rev()
                            .find_map(|op| operation.strip_prefix(op));
                        match default {
                            Some(word) if !name.is_empty() => self.expand(word, bases),
                            _ => self.replaced(operation, bases),
                        }
                    }
                };
                (value, (end + 1).min(chars.len()))
            }
            Some('(') => {
                let end = closing(chars, i + 1, '(', ')');
                (UNKNOWN.to_string(), (end + 1).min(chars.len()))
            }
            // `$"…"` is a double-quoted string (translated, which changes no path here).
            Some('"') => (String::new(), i + 1),
            Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
                let len = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                    .count();
                let name: String = chars[i + 1..i + 1 + len].iter().collect();
                let name = name.as_str();
                let value = self.variable(name).unwrap_or_else(|| UNKNOWN.to_string());
                (value, i + 1 + name.chars().count())
            }
            Some(c) if "@*#?-$!0123456789".contains(*c) => (UNKNOWN.to_string(), i + 2),
            _ => ("$".to_string(), i + 1),
        }
    }

    /// The value of the expansion `${name<operation>}` when it is not computed here: any text,
    /// and for a replacement (`/pattern/text`, also `//`, `/#`, `/%`) the text written for it
    /// between any texts (`${HOME/*/.config/torii}` is `.config/torii`).
    fn replaced(&self, operation: &str, bases: &Bases) -> String {
        let Some(pattern) = operation.strip_prefix('/') else {
            return UNKNOWN.to_string();
        };
        let pattern = pattern.strip_prefix(['/', '#', '%']).unwrap_or(pattern);
        let mut escaped = false;
        let replacement = pattern.char_indices().find_map(|(at, c)| match c {
            _ if escaped => {
                escaped = false;
                None
            }
            '\\' => {
                escaped = true;
                None
            }
            '/' => pattern.get(at + 1..),
            _ => None,
        });
        match replacement {
            Some(text) => format!("{UNKNOWN}{}{UNKNOWN}", self.expand(text, bases)),
            None => UNKNOWN.to_string(),
        }
    }

    /// The value of a path variable as text: `PWD` and `OLDPWD` are any directory of the line.
    fn variable(&self, name: &str) -> Option<String> {
        match name {
            "PWD" | "OLDPWD" => Some(ANY_DIR.to_string()),
            _ => self
                .variables
                .iter()
                .find(|(known, _)| *known == name)
                .map(|(_, value)| value.to_string_lossy().into_owned()),
        }
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

/// Paths as this system compares them: macOS and Windows file systems ignore case.
fn fold(path: &Path) -> PathBuf {
    if cfg!(any(target_os = "macos", windows)) {
        PathBuf::from(path.to_string_lossy().to_lowercase())
    } else {
        path.to_path_buf()
    }
}
