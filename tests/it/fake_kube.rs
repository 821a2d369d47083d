//! Real `kubectl` against small fake Kubernetes API servers on loopback, one per context
//! (DESIGN.md, Testing). Each server answers plain HTTP with just enough discovery (`/version`,
//! `/api`, `/apis`, `/api/v1`) and two lists: the pods of `default`, whose single pod is named
//! `pod-from-<name>` so a test can tell which server answered, and the namespaces. Every
//! request line is recorded, which is how a test proves that nothing reached a cluster.
//!
//! Also here: locating the real `kubectl` (skip locally, fail in CI), a recording wrapper
//! that logs each launch and then runs the real binary, and a kubeconfig with one context per
//! server.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::loopback::Loopback;

use crate::common::{FakeCli, Root};

/// One fake API server; stops when dropped.
pub struct FakeKube {
    pub name: String,
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<String>>>,
    _server: Loopback,
}

impl FakeKube {
    /// Starts a server on a free loopback port; its pod is `pod-from-<name>`.
    pub fn start(name: &str) -> Self {
        Self::start_with(name, false)
    }

    /// A server whose RBAC lets the caller discover the API but list nothing: every list is
    /// `403 Forbidden`, as a cluster answers an identity it knows and does not authorize.
    pub fn start_forbidding(name: &str) -> Self {
        Self::start_with(name, true)
    }

    fn start_with(name: &str, forbidding: bool) -> Self {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let server = {
            let (requests, name) = (Arc::clone(&requests), name.to_string());
            Loopback::start(move |stream| {
                let _ = serve(stream, &name, forbidding, &requests);
            })
        };
        Self {
            name: name.to_string(),
            addr: server.addr,
            requests,
            _server: server,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request line received so far (`GET /api/v1/...`).
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

/// Answers one request and closes the connection (`Connection: close`).
fn serve(
    stream: TcpStream,
    name: &str,
    forbidding: bool,
    requests: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line)? == 0 {
        return Ok(());
    }
    // Headers only: kubectl sends no body on the reads these servers answer.
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
    }
    let request_line = request_line.trim_end().to_string();
    requests.lock().unwrap().push(request_line.clone());
    let mut parts = request_line.split(' ');
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    let is_list = path.starts_with("/api/v1/namespaces") || path.starts_with("/api/v1/pods");
    let (status, body) = if method == "GET" && forbidding && is_list {
        (403, forbidden_body(path))
    } else if method == "GET" {
        route(path, name)
    } else {
        (405, status_body(405, "MethodNotAllowed"))
    };
    let reason = match status {
        200 => "OK",
        403 => "Forbidden",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}

fn route(path: &str, name: &str) -> (u16, String) {
    let body = match path {
        "/version" => serde_json::json!({
            "major": "1", "minor": "35", "gitVersion": "v1.35.0-fake",
            "gitCommit": "0", "gitTreeState": "clean", "buildDate": "2026-01-01T00:00:00Z",
            "goVersion": "go1.25", "compiler": "gc", "platform": "linux/amd64"
        }),
        "/api" => serde_json::json!({
            "kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]
        }),
        "/apis" => serde_json::json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": []}),
        "/api/v1" => serde_json::json!({
            "kind": "APIResourceList", "groupVersion": "v1",
            "resources": [
                {"name": "pods", "singularName": "pod", "namespaced": true, "kind": "Pod",
                 "verbs": ["get", "list"], "shortNames": ["po"]},
                {"name": "namespaces", "singularName": "namespace", "namespaced": false,
                 "kind": "Namespace", "verbs": ["get", "list"], "shortNames": ["ns"]}
            ]
        }),
        // The pods of any namespace: one, named after the server.
        _ if pods_of(path).is_some() => {
            let namespace = pods_of(path).unwrap_or_default();
            serde_json::json!({
                "kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": "1"},
                "items": [{
                    "apiVersion": "v1", "kind": "Pod",
                    "metadata": {"name": format!("pod-from-{name}"), "namespace": namespace,
                                 "uid": "00000000-0000-0000-0000-000000000001",
                                 "creationTimestamp": "2026-01-01T00:00:00Z"},
                    "spec": {"containers": [{"name": "c", "image": "fake"}]},
                    "status": {"phase": "Running"}
                }]
            })
        }
        "/api/v1/namespaces" => serde_json::json!({
            "kind": "NamespaceList", "apiVersion": "v1", "metadata": {"resourceVersion": "1"},
            "items": [{
                "apiVersion": "v1", "kind": "Namespace",
                "metadata": {"name": format!("ns-from-{name}"),
                             "creationTimestamp": "2026-01-01T00:00:00Z"},
                "status": {"phase": "Active"}
            }]
        }),
        _ => return (404, status_body(404, "NotFound")),
    };
    (200, body.to_string())
}

/// What the API server says to an identity that may not list what `path` names.
fn forbidden_body(path: &str) -> String {
    let resource = path.rsplit('/').next().unwrap_or("pods");
    serde_json::json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {},
        "status": "Failure", "reason": "Forbidden", "code": 403,
        "message": format!(
            "{resource} is forbidden: User \"lab-user\" cannot list resource \"{resource}\" in API group \"\" in the namespace \"default\""
        ),
        "details": {"kind": resource}
    })
    .to_string()
}

/// The namespace of a pod list's path (`/api/v1/namespaces/<namespace>/pods`).
fn pods_of(path: &str) -> Option<&str> {
    path.strip_prefix("/api/v1/namespaces/")?
        .strip_suffix("/pods")
        .filter(|namespace| !namespace.contains('/'))
}

fn status_body(code: u16, reason: &str) -> String {
    serde_json::json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {},
        "status": "Failure", "reason": reason, "code": code
    })
    .to_string()
}

/// The real `kubectl`, where `scripts/test.sh` installs it or on `PATH`.
pub fn real_kubectl() -> PathBuf {
    real_tool("kubectl")
}

/// `name` in `<repo>/.tools/bin` or on `PATH`.
pub fn real_tool(name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let installed = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/bin");
    let on_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    [installed]
        .into_iter()
        .chain(on_path)
        .map(|dir| dir.join(name))
        .find(|path| {
            std::fs::metadata(path)
                .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
        })
        .unwrap_or_else(|| crate::common::missing_tool(&format!("`{name}`")))
}

/// A `kubectl` on a private `PATH` directory that records each launch (see `FakeCli`) and
/// then runs the real one: the marker file proves whether a process started.
pub fn recording_kubectl(root: &Root, real: &Path) -> FakeCli {
    FakeCli::new(
        root,
        "kubectl",
        &format!("exec '{}' \"$@\"", real.display()),
    )
}

/// A kubeconfig under the root with one context per `(context, server)`; no credentials.
pub fn kubeconfig(root: &Root, contexts: &[(&str, &FakeKube)]) -> PathBuf {
    let mut text = String::from("apiVersion: v1\nkind: Config\nclusters:\n");
    for (context, server) in contexts {
        text.push_str(&format!(
            "- name: cluster-{context}\n  cluster:\n    server: {}\n",
            server.url()
        ));
    }
    text.push_str("users:\n- name: nobody\n  user: {}\ncontexts:\n");
    for (context, _) in contexts {
        text.push_str(&format!(
            "- name: {context}\n  context:\n    cluster: cluster-{context}\n    user: nobody\n"
        ));
    }
    // The current context is neither: only the injected `--context` may choose a server.
    text.push_str("current-context: \"\"\npreferences: {}\n");
    root.write_outside("kube/config", &text)
}
