//! The tokenized fingerprint stored in grants instead of argument text, and its hex form.
//!
//! SHA-256 over an unambiguous, length-prefixed encoding:
//! `"torii-grant-v2\0"`, the token count as u64 big-endian, then for each token its byte
//! length as u64 big-endian followed by its UTF-8 bytes. No two different token vectors share
//! an encoding, so `["ab", "c"]` and `["a", "bc"]` have different fingerprints.

use sha2::{Digest, Sha256};

/// Separates this use of SHA-256 from any other hash of the same bytes.
const DOMAIN_TAG: &[u8] = b"torii-grant-v2\0";

/// A SHA-256 digest.
pub(crate) type Sha256Digest = [u8; 32];

pub(crate) fn fingerprint(tokens: &[String]) -> Sha256Digest {
    let mut hasher = Sha256::new();
    hasher.update(DOMAIN_TAG);
    hasher.update(length(tokens.len()));
    for token in tokens {
        hasher.update(length(token.len()));
        hasher.update(token.as_bytes());
    }
    hasher.finalize().into()
}

/// `usize` always fits in `u64` on the platforms Rust supports; saturate rather than panic.
fn length(len: usize) -> [u8; 8] {
    u64::try_from(len).unwrap_or(u64::MAX).to_be_bytes()
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Lowercase hex, the only form written to grants files.
pub(crate) fn to_hex(digest: &Sha256Digest) -> String {
    let mut text = String::with_capacity(64);
    for byte in digest {
        text.push(char::from(HEX[usize::from(byte >> 4)]));
        text.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    text
}

/// Exactly 64 lowercase hex digits, or `None`.
pub(crate) fn from_hex(text: &str) -> Option<Sha256Digest> {
    let bytes = text.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let mut digest = [0u8; 32];
    for (out, pair) in digest.iter_mut().zip(bytes.chunks_exact(2)) {
        *out = (nibble(pair[0])? << 4) | nibble(pair[1])?;
    }
    Some(digest)
}

fn nibble(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_other_forms() {
        let digest = fingerprint(&["s3".into(), "ls".into()]);
        let text = to_hex(&digest);
        assert_eq!(text.len(), 64);
        assert_eq!(from_hex(&text), Some(digest));
        assert_eq!(from_hex(&text.to_uppercase()), None);
        assert_eq!(from_hex(&text[..63]), None);
        assert_eq!(from_hex(&format!("{}g", &text[..63])), None);
        assert_eq!(from_hex(&format!("{text}0")), None);
    }

    #[test]
    fn known_vector_for_the_empty_token_list() {
        // SHA-256 of "torii-grant-v2\0" followed by eight zero bytes.
        let mut expected = Sha256::new();
        expected.update(b"torii-grant-v2\0\0\0\0\0\0\0\0\0");
        let expected: Sha256Digest = expected.finalize().into();
        assert_eq!(fingerprint(&[]), expected);
    }
}
