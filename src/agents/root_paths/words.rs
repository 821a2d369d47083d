//! Words as the hook reads them for paths: the parts of a word that may be a path, brackets,
//! ANSI-C quotes, `file:` URLs and the options that name a directory.

/// The index of the bracket closing the one at `open` (nesting counted), or the end.
pub(super) fn closing(chars: &[char], open: usize, left: char, right: char) -> usize {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut i = open;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) if c == '\\' => i += 1,
            Some(_) => {}
            None if c == '\\' => i += 1,
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == left => depth += 1,
            None if c == right => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            None => {}
        }
        i += 1;
    }
    chars.len()
}

/// The text of `$'…'` with its escapes decoded (`\x2e`, `\056`, `\n`, `\\`, `\'`).
pub(super) fn ansi_c(body: &str) -> String {
    let mut out = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('x') => {
                let hex: String = std::iter::from_fn(|| chars.next_if(char::is_ascii_hexdigit))
                    .take(2)
                    .collect();
                out.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
            }
            Some(d @ '0'..='7') => {
                let mut octal = d.to_string();
                while octal.len() < 3
                    && let Some(d) = chars.next_if(|c| ('0'..='7').contains(c))
                {
                    octal.push(d);
                }
                out.extend(u32::from_str_radix(&octal, 8).ok().and_then(char::from_u32));
            }
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

pub(super) fn identifier_len(text: &str) -> usize {
    text.char_indices()
        .find(|(i, c)| !(c.is_ascii_alphabetic() || *c == '_' || (*i > 0 && c.is_ascii_digit())))
        .map_or(text.len(), |(i, _)| i)
}

/// Whether `c` separates the words of a longer text: whitespace, quotes, parentheses and
/// shell operators.
pub(super) fn is_word_break(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            ';' | '\'' | '"' | '(' | ')' | '<' | '>' | '|' | '&' | '`'
        )
}

/// The parts of one word that could be a path: the word, its parts between the separators of
/// options, lists and URLs (`=`, `:`, `@`, `,`), and an option's attached value from its first
/// `/` (`-o/path`). Each comes with whether it is the word or an option's value (`--file=P`).
pub(super) fn parts(word: &str) -> impl Iterator<Item = (&str, bool)> {
    let pieces = std::iter::once((word, true)).chain(
        word.split(['=', ':', '@', ','])
            .enumerate()
            .map(move |(i, piece)| (piece, i > 0 && word.contains('='))),
    );
    pieces.flat_map(|(piece, value)| {
        let attached = piece
            .starts_with('-')
            .then(|| piece.find('/').map(|i| &piece[i..]))
            .flatten();
        std::iter::once((piece, value)).chain(attached.map(|a| (a, true)))
    })
}

/// The path of a `file:` URL (`file:///p`, `file://localhost/p`), percent-decoded.
pub(super) fn file_url(text: &str) -> Option<String> {
    let rest = text
        .get(..5)
        .filter(|s| s.eq_ignore_ascii_case("file:"))
        .map(|_| &text[5..])?;
    // `//HOST/path`: the host (`localhost`, an address) is not part of the path.
    let rest = match rest.strip_prefix("//") {
        Some(authority) => &authority[authority.find('/').unwrap_or(authority.len())..],
        None => rest,
    };
    let bytes = rest.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                i += 3;
            }
            (byte, _) => {
                decoded.push(byte);
                i += 1;
            }
        }
    }
    Some(String::from_utf8_lossy(&decoded).into_owned())
}

/// Directories the words of one command run it in: `-C DIR` (`git`, `tar`, `make`, `env`),
/// `--directory`, `--chdir`, `--cwd` (with `=` or apart), and for `find … -execdir` the
/// parents of its starting points.
pub(super) fn option_directories(words: &[String]) -> Vec<String> {
    const LONG: &[&str] = &[
        "--directory",
        "--chdir",
        "--cwd",
        "--workdir",
        "--work-tree",
    ];
    // The short option that names the directory a command runs in, where it is not `-C`.
    let short = match words.first().map(String::as_str) {
        Some("sudo") => "-D",
        Some("tmux") => "-c",
        _ => "-C",
    };
    let mut dirs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = words[i].as_str();
        if word == short || word == "-C" || LONG.contains(&word) {
            dirs.extend(words.get(i + 1).cloned());
            i += 2;
            continue;
        }
        if let Some((option, dir)) = word.split_once('=')
            && LONG.contains(&option)
        {
            dirs.push(dir.to_string());
        }
        i += 1;
    }
    if words.first().is_some_and(|w| w == "find")
        && words.iter().any(|w| w == "-execdir" || w == "-okdir")
    {
        for start in words[1..]
            .iter()
            .take_while(|w| !w.starts_with('-') && *w != "(" && *w != "!")
        {
            dirs.push(start.clone());
            dirs.push(format!("{start}/.."));
        }
    }
    dirs
}
