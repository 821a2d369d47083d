//! Detached signatures in minisign's format: Ed25519 over the BLAKE2b-512 of a file, with a
//! signed "trusted comment". Torii's releases are checked against the keys compiled into it
//! (`release.rs`); catalogs and packages against those and the keys `settings.yaml` trusts
//! (`packages/trust.rs`). The same bytes verify with `minisign -V`, and the release's with
//! OpenSSL 3 in install.sh.
//!
//! Only prehashed signatures count: minisign's legacy form signs the file itself, which nothing
//! of Torii's makes and `minisign -S` no longer does.

use base64::Engine;

/// The largest `.minisig` read: four short lines, a generous trusted comment.
pub const MAX_SIGNATURE_BYTES: u64 = 16 * 1024;

/// The extension of a detached signature beside the file it signs.
pub const EXTENSION: &str = "minisig";

/// A key's 8-byte id, shown as minisign shows it (16 uppercase hex digits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KeyId([u8; 8]);

impl KeyId {
    /// 16 hexadecimal digits, as [`KeyId`]'s `Display` writes them (either case).
    pub fn parse(text: &str) -> Option<KeyId> {
        if text.len() != 16 || !text.bytes().all(|byte| byte.is_ascii_hexdigit()) {
            return None;
        }
        u64::from_str_radix(text, 16)
            .ok()
            .map(|id| KeyId(id.to_le_bytes()))
    }

    fn from_slice(bytes: &[u8]) -> Option<KeyId> {
        bytes.try_into().ok().map(KeyId)
    }
}

impl std::fmt::Display for KeyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016X}", u64::from_le_bytes(self.0))
    }
}

/// A public key: the base64 line of a minisign `.pub` file (it starts with `RW`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    id: KeyId,
    key: minisign_verify::PublicKey,
}

impl PublicKey {
    pub fn parse(text: &str) -> Result<PublicKey, String> {
        let text = text.trim();
        let invalid = || {
            let hint = if text.starts_with("untrusted comment:") {
                "; a .pub file has two lines: give its second one"
            } else {
                ""
            };
            format!(
                "{text:?} is not a minisign public key (the base64 line of a .pub file, \
                 starting with RW){hint}"
            )
        };
        let key = minisign_verify::PublicKey::from_base64(text).map_err(|_| invalid())?;
        // `from_base64` checked the length (2 + 8 + 32 bytes); the id is bytes 2..10.
        let raw = base64::engine::general_purpose::STANDARD
            .decode(text)
            .map_err(|_| invalid())?;
        let id = raw
            .get(2..10)
            .and_then(KeyId::from_slice)
            .ok_or_else(invalid)?;
        Ok(PublicKey { id, key })
    }

    pub fn id(&self) -> KeyId {
        self.id
    }
}

/// What a signature says about some bytes, given the keys trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A valid signature by this trusted key.
    Valid(KeyId),
    /// Made by a key that is not trusted (whether it matches cannot be known).
    UnknownKey(KeyId),
    /// Names a trusted key but does not match the bytes.
    Invalid(KeyId),
    /// In minisign's legacy form (`minisign -S -l`: the file itself signed, not its hash),
    /// which is not accepted.
    Legacy(KeyId),
    /// Not a minisign signature: truncated, not text, not base64, another algorithm.
    Malformed,
}

/// Checks `signature` (the text of a `.minisig` file) of `bytes` against `keys`. A key id is
/// chosen by whoever makes the key, so two trusted keys may share one: each is tried.
pub fn verify(keys: &[PublicKey], bytes: &[u8], signature: &[u8]) -> Verdict {
    let Some((id, decoded)) = decode(signature) else {
        return Verdict::Malformed;
    };
    let mut verdict = Verdict::UnknownKey(id);
    for key in keys.iter().filter(|key| key.id == id) {
        verdict = match key.key.verify(bytes, &decoded, false) {
            Ok(()) => return Verdict::Valid(id),
            Err(minisign_verify::Error::UnexpectedAlgorithm) => Verdict::Legacy(id),
            Err(_) => Verdict::Invalid(id),
        };
    }
    verdict
}

fn decode(signature: &[u8]) -> Option<(KeyId, minisign_verify::Signature)> {
    let text = std::str::from_utf8(signature).ok()?;
    let decoded = minisign_verify::Signature::decode(text).ok()?;
    // `decode` checked the second line: 2 + 8 + 64 bytes of base64, the key id at 2..10.
    let raw = base64::engine::general_purpose::STANDARD
        .decode(text.lines().nth(1)?.trim())
        .ok()?;
    Some((KeyId::from_slice(raw.get(2..10)?)?, decoded))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Made with minisign 0.11 (`minisign -G -W`, then `minisign -S -W -t …` over the bytes
    /// `torii\n`), kept here so that the format is checked against minisign itself, not only
    /// against our own signer.
    const PUBLIC: &str = "RWRk6hcJqPxg9Q2aAwljy7deqrzWTZ8dj2rogAXQrn9kMzq4od29YkrS";
    const SIGNED: &[u8] = b"torii\n";
    const SIGNATURE: &str = "untrusted comment: signature from minisign secret key
RURk6hcJqPxg9eDtGBUx3xRPE+y2+zs3Q4kwrlS2Sh7skJUPAWnLBLW4JGn0iY3EN5ykGmY6FM5+pViae52w0bYxZINtyIiGwAo=
trusted comment: timestamp:1796601600\tfile:data\thashed
KpSCQZZeLLsHiQZR3HP44soh+a+6YQo0vcROEYNhZTL6JYmVX2bs0VX2KXJ86PaKE4UaKfBVvp6Y7cRfEMrDAA==
";

    #[test]
    fn a_signature_by_minisign_itself_verifies() {
        let key = PublicKey::parse(PUBLIC).unwrap();
        assert_eq!(key.id().to_string(), "F560FCA80917EA64");
        assert_eq!(KeyId::parse("f560fca80917ea64"), Some(key.id()));
        let keys = [key.clone()];
        assert_eq!(
            verify(&keys, SIGNED, SIGNATURE.as_bytes()),
            Verdict::Valid(key.id())
        );
        assert_eq!(
            verify(&keys, b"torii?\n", SIGNATURE.as_bytes()),
            Verdict::Invalid(key.id())
        );
        assert_eq!(
            verify(&[], SIGNED, SIGNATURE.as_bytes()),
            Verdict::UnknownKey(key.id())
        );
    }

    #[test]
    fn a_changed_trusted_comment_or_a_truncated_signature_is_refused() {
        let keys = [PublicKey::parse(PUBLIC).unwrap()];
        let changed = SIGNATURE.replace("file:data", "file:other");
        assert!(matches!(
            verify(&keys, SIGNED, changed.as_bytes()),
            Verdict::Invalid(_)
        ));
        for cut in [0, 10, SIGNATURE.len() / 2, SIGNATURE.len() - 20] {
            assert_eq!(
                verify(&keys, SIGNED, &SIGNATURE.as_bytes()[..cut]),
                Verdict::Malformed,
                "cut at {cut}"
            );
        }
        assert_eq!(verify(&keys, SIGNED, b"\xff\xfe"), Verdict::Malformed);
    }

    /// The same bytes signed in minisign's legacy form (`minisign -S -l`, 0.11) by the key
    /// above: named as such, not taken for a changed file.
    #[test]
    fn a_legacy_signature_is_named() {
        let legacy = "untrusted comment: signature from minisign secret key
RWRk6hcJqPxg9eirBrQ6VbG8IkQBH3DA9oFOi2qtXzaB3uLmS8ko1xoASztfU8KgkWD90tzQNFKvnZsogojsVnsklvPEb/xTIAk=
trusted comment: timestamp:1796601600\tfile:data
JBoI3ifWTpir8lAwRGdACdZOx11vtmQmb4rfKMs9/i/sVeZ6hH810Izzo4NEYaQE89U3ZPsDb0/DuxV3vbOrAg==
";
        let key = PublicKey::parse(PUBLIC).unwrap();
        assert_eq!(
            verify(std::slice::from_ref(&key), SIGNED, legacy.as_bytes()),
            Verdict::Legacy(key.id())
        );
    }

    /// Two trusted keys with one id (ids are the key maker's choice): the one that signed is
    /// found, whichever comes first.
    #[test]
    fn every_key_with_the_signature_s_id_is_tried() {
        let key = PublicKey::parse(PUBLIC).unwrap();
        // The last base64 digit changed: the same id, other key bytes.
        let impostor =
            PublicKey::parse("RWRk6hcJqPxg9Q2aAwljy7deqrzWTZ8dj2rogAXQrn9kMzq4od29YkrT").unwrap();
        assert_eq!(impostor.id(), key.id());
        assert_ne!(impostor, key);
        for keys in [
            [impostor.clone(), key.clone()],
            [key.clone(), impostor.clone()],
        ] {
            assert_eq!(
                verify(&keys, SIGNED, SIGNATURE.as_bytes()),
                Verdict::Valid(key.id())
            );
        }
        assert_eq!(
            verify(&[impostor], SIGNED, SIGNATURE.as_bytes()),
            Verdict::Invalid(key.id())
        );
    }

    #[test]
    fn public_keys_are_checked() {
        for bad in [
            "",
            "RW",
            "not base64!",
            &PUBLIC[..40],
            "untrusted comment: x",
        ] {
            let message = PublicKey::parse(bad).unwrap_err();
            assert!(message.contains("not a minisign public key"), "{message}");
        }
        let whole_file =
            format!("untrusted comment: minisign public key F560FCA80917EA64\n{PUBLIC}");
        let message = PublicKey::parse(&whole_file).unwrap_err();
        assert!(message.contains("give its second one"), "{message}");
        assert_eq!(KeyId::parse("F560FCA80917EA6"), None);
        assert_eq!(KeyId::parse("+560FCA80917EA64"), None);
    }
}
