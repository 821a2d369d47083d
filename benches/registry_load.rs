//! Startup cost of the provider registry: 200 providers with 10 targets each.
//!
//! The tree is written once into a temporary directory; only `Registry::load` is measured.
//! Budget: 30 ms for this tree (the manual's registry is rebuilt on every server start).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use torii::registry::Registry;

const PROVIDERS: usize = 200;
const TARGETS: usize = 10;

fn write(path: &Path, contents: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

/// The official `aws` package as the identity provider, and 199 `kubectl_context` providers
/// authenticated by it.
fn build_tree(root: &Path) {
    let providers = root.join("providers");
    write(
        &providers.join("aws/provider.yaml"),
        include_str!("../examples/providers/aws/provider.yaml"),
    );
    write(
        &providers.join("aws/rules.yaml"),
        include_str!("../examples/providers/aws/rules.yaml"),
    );
    for index in 1..PROVIDERS {
        let dir = providers.join(format!("kubectl{index:03}"));
        write(
            &dir.join("provider.yaml"),
            &format!(
                r#"version: "1"
name: kubectl{index:03}
tool: kubectl{index:03}
description: Kubernetes cluster group {index} through human aliases.
command: kubectl
targeting:
  mode: kubectl_context
  locked_options: [--custom-endpoint]
policy:
  minimum_accept_tokens: 2
  forbidden_args: [-f, --filename]
  ignore_args:
    flags: [-o, --output]
auth:
  strategy: inherited
"#
            ),
        );
        for target in 0..TARGETS {
            write(
                &dir.join(format!("targets/lab{target}/target.yaml")),
                &format!(
                    r#"version: "1"
name: lab{target}
context: cluster-{index}-{target}
identity:
  provider: aws
  scope: lab{target}
  expect: "111122223333"
"#
                ),
            );
        }
    }
}

fn registry_load(c: &mut Criterion) {
    let root = tempfile::tempdir().unwrap();
    build_tree(root.path());
    let registry = Registry::load(root.path()).unwrap();
    assert_eq!(registry.len(), PROVIDERS);
    c.bench_function("registry_load_200x10", |b| {
        b.iter(|| Registry::load(black_box(root.path())).unwrap())
    });
}

criterion_group!(benches, registry_load);
criterion_main!(benches);
