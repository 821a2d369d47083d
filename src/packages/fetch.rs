//! Getting bytes from a local file or an `https://` URL, with a size cap.
//!
//! Downloads are HTTPS only, including every redirect; plain `http://` is refused before any
//! connection. Server certificates are verified against the operating system's trust store.
//! `TORII_EXTRA_CA_FILE` may name a PEM file of additional root certificates (a corporate TLS
//! proxy, a private catalog); they are added to the system roots, never replace them.

use std::path::Path;
use std::time::Duration;

use reqwest::Url;

use super::PackageError;
use crate::errors::chain;
use crate::files::{CappedReadError, read_capped};

/// Names a PEM file of extra trusted root certificates for catalog and package downloads.
pub const EXTRA_CA_ENV: &str = "TORII_EXTRA_CA_FILE";

/// Largest accepted extra CA file.
const MAX_CA_FILE_BYTES: u64 = 1024 * 1024;

/// Parses `text` as an `https://` URL; `http://` and other schemes are refused.
pub fn https_url(text: &str) -> Result<Url, PackageError> {
    let url = Url::parse(text).map_err(|error| PackageError::BadUrl {
        location: text.to_string(),
        reason: error.to_string(),
    })?;
    check_https(&url)?;
    Ok(url)
}

/// Refuses any URL that is not `https://` with a host.
pub fn check_https(url: &Url) -> Result<(), PackageError> {
    if url.scheme() != "https" {
        return Err(PackageError::NotHttps {
            location: url.to_string(),
        });
    }
    if url.host().is_none() {
        return Err(PackageError::BadUrl {
            location: url.to_string(),
            reason: "no host".into(),
        });
    }
    Ok(())
}

/// The body of `url`, at most `limit` bytes.
pub fn download(url: &Url, limit: u64) -> Result<Vec<u8>, PackageError> {
    get(url, limit, false).map(Option::unwrap_or_default)
}

/// The body of `url`, or `None` when the server answers 404 (a detached signature that was
/// never published).
pub fn download_optional(url: &Url, limit: u64) -> Result<Option<Vec<u8>>, PackageError> {
    get(url, limit, true)
}

fn get(url: &Url, limit: u64, optional: bool) -> Result<Option<Vec<u8>>, PackageError> {
    check_https(url)?;
    let fail = |reason: String| PackageError::Download {
        url: url.to_string(),
        reason,
    };
    let client = client().map_err(fail)?;
    let response = client
        .get(url.clone())
        .send()
        .map_err(|error| fail(chain(&error)))?;
    let status = response.status();
    if optional && status == reqwest::StatusCode::NOT_FOUND {
        return Ok(None);
    }
    if !status.is_success() {
        return Err(fail(format!("the server answered {status}")));
    }
    if response
        .content_length()
        .is_some_and(|length| length > limit)
    {
        return Err(PackageError::TooLarge {
            location: url.to_string(),
            limit,
        });
    }
    read_capped(response, limit)
        .map(Some)
        .map_err(|error| match error {
            CappedReadError::TooLarge => PackageError::TooLarge {
                location: url.to_string(),
                limit,
            },
            CappedReadError::Io(error) => fail(chain(&error)),
        })
}

/// Where `url` ends up after its redirects (a GitHub `releases/latest` answers with the tag's
/// page).
pub fn final_url(url: &Url) -> Result<Url, PackageError> {
    check_https(url)?;
    let fail = |reason: String| PackageError::Download {
        url: url.to_string(),
        reason,
    };
    let response = client()
        .map_err(fail)?
        .head(url.clone())
        .send()
        .map_err(|error| fail(chain(&error)))?;
    let status = response.status();
    if !status.is_success() {
        return Err(fail(format!("the server answered {status}")));
    }
    Ok(response.url().clone())
}

/// The content of the local file `path`, at most `limit` bytes. Only a regular file is read: a
/// FIFO or a device in place of an archive or an index is refused, not waited on.
pub fn read_local(path: &Path, limit: u64) -> Result<Vec<u8>, PackageError> {
    match crate::files::read_optional(path, limit) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(PackageError::read(
            path,
            std::io::Error::from(std::io::ErrorKind::NotFound),
        )),
        Err(error) if error.kind() == std::io::ErrorKind::FileTooLarge => {
            Err(PackageError::TooLarge {
                location: path.display().to_string(),
                limit,
            })
        }
        Err(error) => Err(PackageError::read(path, error)),
    }
}

fn client() -> Result<reqwest::blocking::Client, String> {
    // reqwest is built without a crypto provider (its default, aws-lc-rs, is C built with
    // cmake): rustls's ring provider is the process default. Once installed, it stays; an
    // error only says one already is.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = reqwest::blocking::Client::builder()
        .https_only(true)
        .redirect(reqwest::redirect::Policy::limited(5))
        .connect_timeout(Duration::from_secs(30))
        .timeout(Duration::from_secs(300))
        .user_agent(concat!("torii/", env!("CARGO_PKG_VERSION")));
    if let Some(file) = std::env::var_os(EXTRA_CA_ENV).filter(|value| !value.is_empty()) {
        let path = Path::new(&file);
        let pem = read_local(path, MAX_CA_FILE_BYTES)
            .map_err(|error| format!("{EXTRA_CA_ENV}: {}", chain(&error)))?;
        let certificates = reqwest::Certificate::from_pem_bundle(&pem).map_err(|error| {
            format!(
                "{EXTRA_CA_ENV}: {}: not a PEM certificate bundle: {error}",
                path.display()
            )
        })?;
        if certificates.is_empty() {
            return Err(format!(
                "{EXTRA_CA_ENV}: {}: no certificate in the file",
                path.display()
            ));
        }
        builder = builder.tls_certs_merge(certificates);
    }
    builder.build().map_err(|error| chain(&error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_urls_are_accepted() {
        assert!(https_url("https://example.org/aws.zip").is_ok());
        for refused in [
            "http://example.org/aws.zip",
            "file:///etc/passwd",
            "ftp://x/y",
        ] {
            let error = https_url(refused).unwrap_err();
            assert!(
                matches!(error, PackageError::NotHttps { .. }),
                "{refused}: {error}"
            );
        }
        assert!(matches!(
            https_url("https://").unwrap_err(),
            PackageError::BadUrl { .. }
        ));
    }
}
