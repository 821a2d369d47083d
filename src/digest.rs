//! SHA-256 in lowercase hexadecimal: the one form in which Torii writes and compares digests
//! (binding digests in leases, package and catalog checksums, release archives, agent
//! identities), so that two of them are equal exactly when their bytes were.

use sha2::{Digest, Sha256};

/// SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `digest` (a finished hash) in lowercase hex.
pub fn hex(digest: &[u8]) -> String {
    // Not `write!` per byte: formatting took 8,000 instructions per digest, and every audit
    // line hashes one (four per call).
    ::hex::encode(digest)
}

/// Whether `text` has the shape of a SHA-256 digest: 64 hexadecimal digits, of either case
/// (callers that store it lower-case it; a lease requires lower case).
pub fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|byte| byte.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_lowercase_hex_of_sha256() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hex(&[0x00, 0xab, 0x0f]), "00ab0f");
        assert!(is_sha256_hex(&sha256_hex(b"")));
        assert!(is_sha256_hex(&"AB".repeat(32)));
        assert!(!is_sha256_hex(&"ab".repeat(31)));
        assert!(!is_sha256_hex(&"g".repeat(64)));
    }
}
