//! A target-aware tool `kube` (a fake CLI) whose two targets name one identity provider and
//! expect two different identities: how the official packages' identity probes are run for
//! real (`gh_real`, `gcloud_real`).

use serde_json::{Value, json};

use crate::common::{FakeCli, Root, audit_lines};
use crate::mcp_client::Client;

/// `lab` expects `admitted`, `other` expects `stopped`; both leased. The fake `kube`.
pub fn install(root: &Root, provider: &str, admitted: &str, stopped: &str) -> FakeCli {
    root.write(
        "providers/kube/provider.yaml",
        "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
    );
    root.write(
        "providers/kube/rules.yaml",
        "version: \"1\"\naccept: [\"get pods\"]\n",
    );
    for (alias, expect) in [("lab", admitted), ("other", stopped)] {
        root.write(
            &format!("providers/kube/targets/{alias}/target.yaml"),
            &format!(
                "version: \"1\"\nname: {alias}\ncontext: ctx-{alias}\nidentity:\n  provider: {provider}\n  expect: \"{expect}\"\n"
            ),
        );
        root.torii_at_terminal()
            .args(["target", "activate", "kube", alias, "--for", "5", "--add"])
            .assert()
            .success();
    }
    FakeCli::new(root, "kube", "echo pods")
}

/// The probe admits `lab` (its command runs) and stops `other` before its command; the
/// answers and the audit log, for the caller's own checks.
pub async fn assert_lab_admitted_other_stopped(
    client: &Client,
    root: &Root,
    kube: &FakeCli,
    provider: &str,
) -> (Value, Value, String) {
    let (admitted, _) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert_eq!(admitted["execution"]["stdout"], "pods\n", "{admitted}");
    let (stopped, is_error) = client
        .call("kube", json!({"target": "other", "args": ["get", "pods"]}))
        .await;
    assert!(is_error, "{stopped}");
    assert!(stopped.get("execution").is_none(), "{stopped}");
    assert_eq!(kube.launches().len(), 1, "the other identity's target ran");
    let log = audit_lines(root).join("\n");
    assert!(
        log.contains(&format!("| kube/lab | preflight-ok | {provider}")),
        "{log}"
    );
    // Stopped by the identity check itself, not by anything else that could fail the call.
    assert!(
        log.contains(&format!("| kube/other | preflight-failed | {provider}")),
        "{log}"
    );
    (admitted, stopped, log)
}
