//! Characters that must never reach a human as they are: they break a line or reorder, hide or
//! fake what a display shows. The audit log replaces them; the approval window shows them as
//! escapes, so the token a person approves is the token that runs.
//!
//! Also the small text rules every module shares: how an echoed text is clipped ([`clip`]) and
//! what an environment variable name may be ([`is_env_name`]).

use std::sync::LazyLock;

use regex::Regex;

/// Control characters (Cc: line breaks, NEL, escape), format characters (Cf: bidi embeddings,
/// overrides and isolates, zero-width joiners, U+FEFF), the line and paragraph separators
/// U+2028 and U+2029 (Zl, Zp), code points with no meaning yet (Cn) or a private one (Co),
/// which a reader may render as anything, and the letters and symbols drawn as nothing (the
/// Hangul fillers U+115F, U+1160, U+3164, U+FFA0 and the blank braille pattern U+2800).
static DECEPTIVE: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern of Unicode classes the regex crate always knows.
    Regex::new(r"[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Co}\x{115F}\x{1160}\x{3164}\x{FFA0}\x{2800}]")
        .unwrap_or_else(|_| unreachable!("the pattern is a constant"))
});

/// Whether `text` holds no such character (printable ASCII needs no search).
pub fn is_plain(text: &str) -> bool {
    text.bytes().all(|byte| (0x20..0x7f).contains(&byte)) || !DECEPTIVE.is_match(text)
}

/// Whether `c` is such a character (what the approval window and the console escape).
pub fn is_deceptive(c: char) -> bool {
    let mut buffer = [0; 4];
    DECEPTIVE.is_match(c.encode_utf8(&mut buffer))
}

/// `text` with every such character replaced by `with`.
pub fn replace_deceptive(text: &str, with: &str) -> String {
    if is_plain(text) {
        return text.to_string();
    }
    DECEPTIVE.replace_all(text, with).into_owned()
}

/// At most `max_chars` characters of `text` (an agent-chosen text echoed back), with `…` when
/// cut.
pub fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// A portable environment variable name, `[A-Za-z_][A-Za-z0-9_]*`: what `provider.yaml` may
/// name (fields, injected and removed variables) and what a `.env` line may set. (The launcher
/// checks only what the operating system can carry at all.)
pub fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|rest| rest.is_ascii_alphanumeric() || rest == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_controls_and_format_characters_are_deceptive() {
        for c in [
            '\n', '\r', '\u{0085}', '\u{2028}', '\u{2029}', '\u{202E}', '\u{2066}', '\u{200B}',
            '\u{FEFF}', '\u{061C}', '\u{E000}', '\u{3164}', '\u{FFA0}', '\u{115F}', '\u{2800}',
        ] {
            assert!(is_deceptive(c), "{c:?}");
        }
        for c in ['a', 'ç', '日', ' ', '|', '€'] {
            assert!(!is_deceptive(c), "{c:?}");
        }
        assert_eq!(replace_deceptive("a\u{202E}b\u{2028}c", " "), "a b c");
        assert!(is_plain("get pods -n team"));
    }

    #[test]
    fn env_names_are_portable_identifiers() {
        for good in ["A", "_", "AWS_REGION", "a1_b"] {
            assert!(is_env_name(good), "{good:?}");
        }
        for bad in ["", "1A", "A-B", "A=B", "A B", "É", "A\0"] {
            assert!(!is_env_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn clip_counts_characters_and_marks_the_cut() {
        assert_eq!(clip("héllo", 5), "héllo");
        assert_eq!(clip("héllo", 2), "hé…");
        assert_eq!(clip("", 0), "");
        assert_eq!(clip("ab", 0), "…");
    }
}
