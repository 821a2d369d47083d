//! Test helpers for packages: archives built from directories or crafted entry by entry, a
//! snapshot of a directory tree, and an HTTPS server on loopback with a certificate from a
//! throwaway CA that only the test (through `TORII_EXTRA_CA_FILE`) trusts.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The official example packages in this repository.
pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/providers")
        .join(name)
}

/// Every file under `dir` as (`/`-separated relative path, bytes), sorted.
pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        for entry in std::fs::read_dir(dir.join(&relative)).unwrap() {
            let entry = entry.unwrap();
            let child = relative.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                pending.push(child);
            } else {
                let name = child.to_string_lossy().replace('\\', "/");
                out.push((name, std::fs::read(entry.path()).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// A ZIP of `files`, each under `prefix` (e.g. `"aws/"` or `""`).
pub fn zip_of(files: &[(String, Vec<u8>)], prefix: &str) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        writer
            .start_file(format!("{prefix}{name}"), options)
            .unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// A TAR of `files`, each under `prefix`.
pub fn tar_of(files: &[(String, Vec<u8>)], prefix: &str) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_entry_type(tar::EntryType::Regular);
        builder
            .append_data(&mut header, format!("{prefix}{name}"), bytes.as_slice())
            .unwrap();
    }
    builder.into_inner().unwrap()
}

/// gzip of `bytes`.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// One raw TAR entry, written without the tar crate's path checks so that a test can craft
/// what a hostile archive would contain.
pub struct RawTarEntry<'a> {
    pub name: &'a [u8],
    pub kind: tar::EntryType,
    pub data: &'a [u8],
    pub link: &'a [u8],
}

pub fn raw_tar(entries: &[RawTarEntry<'_>]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for entry in entries {
        let mut header = tar::Header::new_ustar();
        let old = header.as_old_mut();
        old.name[..entry.name.len()].copy_from_slice(entry.name);
        old.linkname[..entry.link.len()].copy_from_slice(entry.link);
        header.set_mode(0o644);
        header.set_size(entry.data.len() as u64);
        header.set_entry_type(entry.kind);
        header.set_cksum();
        builder.append(&header, entry.data).unwrap();
    }
    builder.into_inner().unwrap()
}

/// Path, length and modification time of every entry under `dir` except `skip`ped top-level
/// names, and the bytes of every file: equal snapshots mean nothing was rewritten.
pub fn snapshot(dir: &Path, skip: &[&str]) -> BTreeMap<String, (Vec<u8>, u64)> {
    let mut out = BTreeMap::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        for entry in std::fs::read_dir(dir.join(&relative)).unwrap() {
            let entry = entry.unwrap();
            let child = relative.join(entry.file_name());
            let name = child.to_string_lossy().into_owned();
            if relative.as_os_str().is_empty() && skip.contains(&name.as_str()) {
                continue;
            }
            let metadata = entry.metadata().unwrap();
            let identity = crate::common::file_identity(&metadata);
            if metadata.is_dir() {
                out.insert(format!("{name}/"), (Vec::new(), identity));
                pending.push(child);
            } else {
                out.insert(name, (std::fs::read(entry.path()).unwrap(), identity));
            }
        }
    }
    out
}

/// Names directly under `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Lowercase hex SHA-256.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// An HTTPS server on 127.0.0.1 serving fixed files until the test process ends.
pub struct HttpsServer {
    /// `https://127.0.0.1:<port>`
    pub base: String,
    /// PEM of the CA that signed the server certificate.
    pub ca_pem: String,
}

pub fn serve_https(files: Vec<(String, Vec<u8>)>) -> HttpsServer {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "Torii test CA");
    let ca_cert = ca_params.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca_params, ca_key);
    let leaf_key = KeyPair::generate().unwrap();
    let leaf_params =
        CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()]).unwrap();
    let leaf = leaf_params.signed_by(&leaf_key, &issuer).unwrap();

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![leaf.der().clone()],
            rustls::pki_types::PrivateKeyDer::try_from(leaf_key.serialize_der()).unwrap(),
        )
        .unwrap();
    let config = Arc::new(config);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let files: BTreeMap<String, Vec<u8>> = files.into_iter().collect();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let Ok(connection) = rustls::ServerConnection::new(config.clone()) else {
                continue;
            };
            let mut tls = rustls::StreamOwned::new(connection, stream);
            let _ = answer(&mut tls, &files);
        }
    });
    HttpsServer {
        base: format!("https://127.0.0.1:{port}"),
        ca_pem: ca_cert.pem(),
    }
}

fn answer(stream: &mut impl ReadWrite, files: &BTreeMap<String, Vec<u8>>) -> std::io::Result<()> {
    let mut request = Vec::new();
    let mut byte = [0u8; 1];
    while !request.ends_with(b"\r\n\r\n") && request.len() < 16 * 1024 {
        if stream.read(&mut byte)? == 0 {
            return Ok(());
        }
        request.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&request);
    let path = text.split_whitespace().nth(1).unwrap_or("/").to_string();
    let (status, body) = match files.get(&path) {
        Some(body) => ("200 OK", body.clone()),
        None => ("404 Not Found", b"not found".to_vec()),
    };
    // A file whose content is `REDIRECT <location>` answers with that redirect (GitHub's
    // `releases/latest` and asset downloads do).
    if let Some(location) = body.strip_prefix(b"REDIRECT ") {
        write!(
            stream,
            "HTTP/1.1 302 Found\r\nLocation: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            String::from_utf8_lossy(location)
        )?;
        return stream.flush();
    }
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(&body)?;
    stream.flush()
}

trait ReadWrite: Read + Write {}
impl<T: Read + Write> ReadWrite for T {}
