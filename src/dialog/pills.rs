//! How an argument is shown: a pill with the whole token when it is short, or its start, end and
//! length when it is long, with the full text readable in pages. Only the display is shortened:
//! the vector that is matched and run is never touched.

/// Tokens up to this many characters are shown whole.
pub const PILL_MAX_CHARS: usize = 32;
/// Characters shown from the start and from the end of a long token.
const HEAD_CHARS: usize = 14;
const TAIL_CHARS: usize = 10;
/// Characters per page when a long token is reviewed.
pub const PAGE_CHARS: usize = 240;

/// The text of one pill.
pub fn pill_text(token: &str) -> String {
    let chars: Vec<char> = token.chars().collect();
    if chars.is_empty() {
        return crate::tr!("pill-empty");
    }
    if chars.len() <= PILL_MAX_CHARS {
        return visible(token);
    }
    let head: String = chars.iter().take(HEAD_CHARS).collect();
    let tail: String = chars
        .iter()
        .skip(chars.len().saturating_sub(TAIL_CHARS))
        .collect();
    crate::tr!(
        "pill-shortened",
        start = visible(&head),
        end = visible(&tail),
        chars = chars.len()
    )
}

/// Whether the pill shortens the token (and so offers a paged review).
pub fn is_long(token: &str) -> bool {
    token.chars().count() > PILL_MAX_CHARS
}

/// Number of review pages of `token` (at least 1).
pub fn page_count(token: &str) -> usize {
    token.chars().count().div_ceil(PAGE_CHARS).max(1)
}

/// Page `page` (0-based, clamped to the last) of `token`, made visible.
pub fn page(token: &str, page: usize) -> String {
    let page = page.min(page_count(token) - 1);
    let text: String = token
        .chars()
        .skip(page * PAGE_CHARS)
        .take(PAGE_CHARS)
        .collect();
    visible(&text)
}

/// Control characters (newline, tab, escape…) and every other character that hides, reorders
/// or fakes text (bidi overrides, zero-width joiners, line separators; see [`crate::text`])
/// shown as escapes, so that nothing invisible or layout-changing hides inside a pill;
/// everything else as is.
pub fn visible(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if crate::text::is_deceptive(c) {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_tokens_are_whole_and_long_ones_show_start_end_and_length() {
        assert_eq!(pill_text("describe-instances"), "describe-instances");
        assert_eq!(pill_text(""), "\"\" (empty)");
        assert_eq!(pill_text("a\nb\u{1b}"), "a\\nb\\u{1b}");
        // Red-team finding: a bidi override or a zero-width space could make a token look
        // like another one in the approval window.
        assert_eq!(pill_text("ls\u{202E}txt.exe"), "ls\\u{202e}txt.exe");
        assert_eq!(pill_text("get\u{200B}"), "get\\u{200b}");
        let long = format!("arn:aws:iam::{}:role/x", "1".repeat(300));
        assert!(is_long(&long));
        assert_eq!(pill_text(&long), "arn:aws:iam::1…111:role/x · 320 chars");
        let exactly = "x".repeat(PILL_MAX_CHARS);
        assert!(!is_long(&exactly));
        assert_eq!(pill_text(&exactly), exactly);
    }

    #[test]
    fn pages_cover_the_token_in_order() {
        let token: String = (0..600)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        assert_eq!(page_count(&token), 3);
        let joined: String = (0..3).map(|p| page(&token, p)).collect();
        assert_eq!(joined, token);
        assert_eq!(page(&token, 99), page(&token, 2));
        assert_eq!(page_count(""), 1);
        // Multi-byte characters are never split.
        let accents = "é".repeat(PAGE_CHARS + 1);
        assert_eq!(page(&accents, 1), "é");
    }
}
