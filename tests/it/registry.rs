//! Registry loading: the provider and target schema of the manual ("Schema de provider e
//! target"). Every rejected configuration must name the file and the field, or the line when
//! the YAML itself cannot be decoded.

use sha2::{Digest, Sha256};
use torii::registry::{Registry, Strategy, TargetingMode};

use crate::common::Root;

/// Where the single-provider cases write.
const P: &str = "providers/p/provider.yaml";

/// The smallest valid provider, with `overrides` replacing (or, when `None`, removing) base
/// keys and `extra` appended.
fn provider(overrides: &[(&str, Option<&str>)], extra: &str) -> String {
    let base = [
        ("version", "\"1\""),
        ("name", "p"),
        ("tool", "p"),
        ("description", "A test provider."),
        ("command", "cli"),
    ];
    let mut yaml = String::new();
    for (key, value) in base {
        let value = match overrides.iter().find(|(name, _)| *name == key) {
            Some((_, replacement)) => *replacement,
            None => Some(value),
        };
        if let Some(value) = value {
            yaml.push_str(&format!("{key}: {value}\n"));
        }
    }
    yaml.push_str(extra);
    yaml
}

fn load_error(root: &Root) -> String {
    match Registry::load(root.path()) {
        Ok(registry) => panic!("expected an error, loaded {} providers", registry.len()),
        Err(error) => error.to_string(),
    }
}

fn file(root: &Root, relative: &str) -> String {
    root.path().join(relative).display().to_string()
}

/// The error names `relative` (under the root) and `field`.
fn assert_names_field(root: &Root, relative: &str, field: &str) -> String {
    let message = load_error(root);
    let path = file(root, relative);
    assert!(
        message.starts_with(&format!("{path}: ")),
        "no file in: {message}"
    );
    assert!(
        message.contains(&format!("field `{field}`")),
        "no field `{field}` in: {message}"
    );
    message
}

/// The error names `relative` and the line: `<path>:<line>:`.
fn assert_names_line(root: &Root, relative: &str, line: u64) -> String {
    let message = load_error(root);
    let path = file(root, relative);
    assert!(
        message.starts_with(&format!("{path}:{line}:")),
        "no file:line in: {message}"
    );
    message
}

fn rejected_provider(yaml: &str, field: &str) -> String {
    let root = Root::new();
    root.write(P, yaml);
    assert_names_field(&root, P, field)
}

fn loads(root: &Root) -> Registry {
    match Registry::load(root.path()) {
        Ok(registry) => registry,
        Err(error) => panic!("expected to load: {error}"),
    }
}

// ---------------------------------------------------------------------------------------------
// provider.yaml rules: one test per rule, each naming the file and the field.

macro_rules! provider_rejected {
    ($($test:ident: $field:literal => $yaml:expr;)*) => {$(
        #[test]
        fn $test() {
            rejected_provider(&$yaml, $field);
        }
    )*};
}

provider_rejected! {
    name_with_space: "name" => provider(&[("name", Some("\"a b\""))], "");
    name_empty: "name" => provider(&[("name", Some("\"\""))], "");
    tool_with_slash: "tool" => provider(&[("tool", Some("a/b"))], "");
    tool_non_ascii: "tool" => provider(&[("tool", Some("ação"))], "");
    tool_dot_dot: "tool" => provider(&[("tool", Some("\"..\""))], "");
    description_empty: "description" => provider(&[("description", Some("\" \""))], "");
    command_empty: "command" => provider(&[("command", Some("\"\""))], "");
    command_absolute_path: "command" => provider(&[("command", Some("/usr/bin/aws"))], "");
    command_backslash: "command" => provider(&[("command", Some("'bin\\aws'"))], "");
    command_whitespace: "command" => provider(&[("command", Some("\"aws cli\""))], "");
    command_exe_extension: "command" => provider(&[("command", Some("aws.EXE"))], "");
    command_cmd_extension: "command" => provider(&[("command", Some("az.cmd"))], "");
    command_ps1_extension: "command" => provider(&[("command", Some("tool.ps1"))], "");
    locked_option_without_dashes: "targeting.locked_options[0]" =>
        provider(&[], "targeting:\n  mode: kubectl_context\n  locked_options: [-x]\n");
    locked_option_with_equals: "targeting.locked_options[1]" =>
        provider(&[], "targeting:\n  mode: kubectl_context\n  locked_options: [--a, --b=c]\n");
    locked_option_with_space: "targeting.locked_options[0]" =>
        provider(&[], "targeting:\n  mode: kubectl_context\n  locked_options: [\"--a b\"]\n");
    locked_options_in_aws_profile: "targeting.locked_options" =>
        provider(&[], &format!("targeting:\n  mode: aws_profile\n  locked_options: [--x]\n{AWS_PROFILE_AUTH}"));
    forbidden_arg_empty: "policy.forbidden_args[1]" =>
        provider(&[], "policy:\n  forbidden_args: [-f, \"\"]\n");
    forbidden_arg_whitespace: "policy.forbidden_args[0]" =>
        provider(&[], "policy:\n  forbidden_args: [\"-f x\"]\n");
    ignore_flag_not_a_flag: "policy.ignore_args.flags[0]" =>
        provider(&[], "policy:\n  ignore_args:\n    flags: [delete]\n");
    ignore_flag_with_value: "policy.ignore_args.flags[0]" =>
        provider(&[], "policy:\n  ignore_args:\n    flags: [--format=json]\n");
    environment_strategy_without_fields: "auth.fields" =>
        provider(&[], "auth:\n  strategy: environment\n");
    fields_with_inherited_strategy: "auth.fields" =>
        provider(&[], "auth:\n  fields:\n    - name: TOKEN\n");
    inject_with_inherited_strategy: "auth.inject" =>
        provider(&[], "auth:\n  strategy: inherited\n  inject:\n    environment: {}\n");
    field_name_not_env_name: "auth.fields[0].name" =>
        provider(&[], "auth:\n  strategy: environment\n  fields:\n    - name: 1TOKEN\n");
    field_name_twice: "auth.fields[1].name" =>
        provider(&[], "auth:\n  strategy: environment\n  fields:\n    - name: A\n    - name: A\n");
    field_label_multiline: "auth.fields[0].label" =>
        provider(&[], "auth:\n  strategy: environment\n  fields:\n    - name: A\n      label: \"a\\nb\"\n");
    inject_variable_not_env_name: "auth.inject.environment.BAD-NAME" =>
        provider(&[], &environment_auth("BAD-NAME: \"${TOKEN}\""));
    inject_template_with_prefix: "auth.inject.environment.CLI_TOKEN" =>
        provider(&[], &environment_auth("CLI_TOKEN: \"prefix ${TOKEN}\""));
    inject_template_unknown_field: "auth.inject.environment.CLI_TOKEN" =>
        provider(&[], &environment_auth("CLI_TOKEN: \"${OTHER}\""));
    validate_command_path: "auth.validate.command" =>
        provider(&[], "auth:\n  validate:\n    command: ./cli\n");
    identity_command_extension: "auth.identity.command" =>
        provider(&[], "auth:\n  identity:\n    command: aws.exe\n    field: Account\n");
    identity_field_empty: "auth.identity.field" =>
        provider(&[], "auth:\n  identity:\n    command: aws\n    field: \"\"\n");
    profile_env_not_env_name: "auth.profile_env" =>
        provider(&[], "auth:\n  profile_env: AWS-PROFILE\n");
    removed_env_not_env_name: "auth.removed_env[1]" =>
        provider(&[], "auth:\n  removed_env: [AWS_PROFILE, \"A B\"]\n");
    aws_profile_with_environment_strategy: "auth.strategy" =>
        provider(&[], &format!("targeting:\n  mode: aws_profile\n{}", environment_auth("T: \"${TOKEN}\"")));
    aws_profile_without_identity_probe: "auth.identity" =>
        provider(&[], "targeting:\n  mode: aws_profile\n");
    environment_file_absolute: "environment.file" =>
        provider(&[], "environment:\n  file: /etc/torii.env\n");
    environment_file_parent: "environment.file" =>
        provider(&[], "environment:\n  file: ../x\n");
    environment_file_nested_parent: "environment.file" =>
        provider(&[], "environment:\n  file: env/../../x\n");
    environment_file_windows_drive: "environment.file" =>
        provider(&[], "environment:\n  file: 'C:\\x.env'\n");
    // Issue 11, finding 13: `command: "."` passed startup, and the environment file could be
    // Torii's own state (the collected credentials would become the child's environment).
    command_dot: "command" => provider(&[("command", Some("\".\""))], "");
    command_dot_dot: "command" => provider(&[("command", Some("\"..\""))], "");
    environment_file_credentials: "environment.file" =>
        provider(&[], "environment:\n  file: identities/p/auth/credentials.env\n");
    environment_file_grants: "environment.file" =>
        provider(&[], "environment:\n  file: grants\n");
    environment_file_rules: "environment.file" =>
        provider(&[], "environment:\n  file: ./RULES.yaml\n");
    forbidden_value_prefix_empty: "policy.forbidden_value_prefixes[0]" =>
        provider(&[], "policy:\n  forbidden_value_prefixes: [\"\"]\n");
}

const AWS_PROFILE_AUTH: &str = "auth:\n  identity:\n    command: aws\n    field: Account\n";

fn environment_auth(inject_line: &str) -> String {
    format!(
        "auth:\n  strategy: environment\n  fields:\n    - name: TOKEN\n      secret: true\n  \
         inject:\n    environment:\n      {inject_line}\n"
    )
}

#[test]
fn torii_policy_is_a_reserved_tool() {
    let message = rejected_provider(&provider(&[("tool", Some("torii_policy"))], ""), "tool");
    assert!(
        message.contains("\"torii_policy\" is reserved"),
        "{message}"
    );
}

#[test]
fn tool_of_129_bytes_is_rejected_and_128_accepted() {
    let message = rejected_provider(&provider(&[("tool", Some(&"t".repeat(129)))], ""), "tool");
    assert!(message.contains("129 bytes"), "{message}");

    let root = Root::new();
    root.write(P, &provider(&[("tool", Some(&"t".repeat(128)))], ""));
    assert!(loads(&root).by_tool(&"t".repeat(128)).is_some());
}

#[test]
fn legacy_grant_rule_is_accepted_with_any_value() {
    let root = Root::new();
    root.write(
        P,
        &provider(&[], "policy:\n  grant_rule: {prefix: [1, 2]}\n"),
    );
    loads(&root);
}

#[test]
fn version_may_be_the_number_one() {
    let root = Root::new();
    root.write(P, &provider(&[("version", Some("1"))], ""));
    loads(&root);
}

// ---------------------------------------------------------------------------------------------
// YAML that cannot be decoded: the error names the file and the line.

#[test]
fn unknown_version_names_file_and_line() {
    let root = Root::new();
    root.write(P, &provider(&[("version", Some("\"2\""))], ""));
    let message = assert_names_line(&root, P, 1);
    assert!(message.contains("unsupported version \"2\""), "{message}");
}

#[test]
fn missing_version_is_rejected() {
    let root = Root::new();
    root.write(P, &provider(&[("version", None)], ""));
    assert!(load_error(&root).contains("missing field `version`"));
}

#[test]
fn missing_required_field_is_named() {
    let root = Root::new();
    root.write(P, &provider(&[("tool", None)], ""));
    let message = load_error(&root);
    assert!(message.starts_with(&file(&root, P)), "{message}");
    assert!(message.contains("missing field `tool`"), "{message}");
}

#[test]
fn misspelled_field_names_line_and_field() {
    let root = Root::new();
    root.write(P, &provider(&[], "policy:\n  minimum_accept_token: 2\n"));
    let message = assert_names_line(&root, P, 7);
    assert!(
        message.contains("unknown field `minimum_accept_token`"),
        "{message}"
    );
}

#[test]
fn syntax_error_names_line() {
    let root = Root::new();
    root.write(
        P,
        "version: \"1\"\nname: p\ntool: p\n  description: d\ncommand: c\n",
    );
    assert_names_line(&root, P, 4);
}

#[test]
fn wrong_type_names_line() {
    let root = Root::new();
    root.write(P, &provider(&[("tool", Some("[a, b]"))], ""));
    assert_names_line(&root, P, 3);
}

/// Issue 11, finding 13: numbers written as strings were read as numbers.
#[test]
fn a_number_written_as_a_string_names_line() {
    for (extra, line) in [
        ("policy:\n  minimum_accept_tokens: \"2\"\n", 7),
        ("auth:\n  cache_ttl_seconds: '300'\n", 7),
        ("policy:\n  ignore_args:\n    leading: \"1\"\n", 8),
    ] {
        let root = Root::new();
        root.write(P, &provider(&[], extra));
        let message = assert_names_line(&root, P, line);
        assert!(message.contains("without quotes"), "{message}");
    }
}

/// Issue 11, finding 13: a FIFO where `provider.yaml` is expected hung startup forever.
#[cfg(unix)]
#[test]
fn a_fifo_provider_file_is_refused_without_hanging() {
    let root = Root::new();
    let path = root.path().join(P);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap()
            .success()
    );
    let message = load_error(&root);
    assert!(message.contains("not a regular file"), "{message}");
    assert!(message.contains(&path.display().to_string()), "{message}");
    // And the server says so and exits, instead of waiting for a writer.
    root.torii()
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .failure()
        .stderr(predicates::str::contains("not a regular file"));
}

#[test]
fn negative_minimum_accept_tokens_names_line() {
    let root = Root::new();
    root.write(P, &provider(&[], "policy:\n  minimum_accept_tokens: -1\n"));
    assert_names_line(&root, P, 7);
}

#[test]
fn unknown_strategy_names_line() {
    let root = Root::new();
    root.write(P, &provider(&[], "auth:\n  strategy: oauth\n"));
    let message = assert_names_line(&root, P, 7);
    assert!(message.contains("unknown variant `oauth`"), "{message}");
}

#[test]
fn duplicate_key_names_line() {
    let root = Root::new();
    root.write(P, &provider(&[], "tool: q\n"));
    assert_names_line(&root, P, 6);
}

/// `grant_rule` accepts any value, so it is where a hostile package would hide an alias bomb.
#[test]
fn alias_bomb_is_refused_with_file_and_line() {
    let mut extra =
        String::from("policy:\n  grant_rule:\n    l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for level in 1..8 {
        let items = vec![format!("*l{}", level - 1); 10].join(", ");
        extra.push_str(&format!("    l{level}: &l{level} [{items}]\n"));
    }
    let root = Root::new();
    root.write(P, &provider(&[], &extra));
    let message = load_error(&root);
    assert!(
        message.starts_with(&format!("{}:", file(&root, P))),
        "{message}"
    );
    assert!(message.contains("alias replay limit exceeded"), "{message}");
}

#[test]
fn non_utf8_file_is_refused() {
    let root = Root::new();
    let path = root.write(P, "");
    std::fs::write(path, b"version: \"1\"\nname: \xff\n").unwrap();
    let message = load_error(&root);
    assert!(
        message.starts_with(&file(&root, P)) && message.contains("UTF-8"),
        "{message}"
    );
}

// ---------------------------------------------------------------------------------------------
// The registry as a whole.

#[test]
fn missing_or_empty_providers_directory_is_an_empty_registry() {
    let root = Root::new();
    assert!(loads(&root).is_empty());
    std::fs::create_dir(root.path().join("providers")).unwrap();
    assert!(loads(&root).is_empty());
}

#[test]
fn directories_without_provider_yaml_and_hidden_entries_are_skipped() {
    let root = Root::new();
    root.write("providers/notes/README.md", "not a provider");
    root.write("providers/.torii-package/provider.yaml", "not: [valid");
    root.write("providers/stray-file", "x");
    root.write(P, &provider(&[], ""));
    let registry = loads(&root);
    assert_eq!(registry.len(), 1);
}

#[test]
fn providers_load_in_directory_order() {
    let root = Root::new();
    for dir in ["c", "a", "b"] {
        let tool = format!("tool_{dir}");
        let yaml = provider(&[("name", Some(dir)), ("tool", Some(&tool))], "");
        root.write(&format!("providers/{dir}/provider.yaml"), &yaml);
    }
    let registry = loads(&root);
    let tools: Vec<&str> = registry.iter().map(|provider| provider.tool()).collect();
    assert_eq!(tools, ["tool_a", "tool_b", "tool_c"]);
}

/// Enough providers to be decoded on several threads: the order, and which error is reported
/// when several files are invalid, are those of loading one by one.
#[test]
fn a_large_tree_loads_in_order_and_reports_its_first_error() {
    let root = Root::new();
    let dirs: Vec<String> = (0..150).rev().map(|index| format!("p{index:03}")).collect();
    for dir in &dirs {
        let yaml = provider(&[("name", Some(dir)), ("tool", Some(dir))], "");
        root.write(&format!("providers/{dir}/provider.yaml"), &yaml);
    }
    let registry = loads(&root);
    let tools: Vec<&str> = registry.iter().map(|provider| provider.tool()).collect();
    let mut sorted = dirs.clone();
    sorted.sort();
    assert_eq!(tools, sorted);

    for dir in ["p140", "p075", "p120"] {
        root.write(&format!("providers/{dir}/provider.yaml"), "version: [\n");
    }
    let message = load_error(&root);
    assert!(message.contains("p075"), "{message}");
    assert!(
        !message.contains("p120") && !message.contains("p140"),
        "{message}"
    );
}

#[test]
fn duplicate_names_name_both_files() {
    let root = Root::new();
    root.write(
        "providers/a/provider.yaml",
        &provider(&[("tool", Some("a"))], ""),
    );
    root.write(
        "providers/b/provider.yaml",
        &provider(&[("tool", Some("b"))], ""),
    );
    let message = assert_names_field(&root, "providers/b/provider.yaml", "name");
    assert!(
        message.contains(&file(&root, "providers/a/provider.yaml")),
        "{message}"
    );
}

#[test]
fn duplicate_tools_name_both_files() {
    let root = Root::new();
    root.write(
        "providers/a/provider.yaml",
        &provider(&[("name", Some("a"))], ""),
    );
    root.write(
        "providers/b/provider.yaml",
        &provider(&[("name", Some("b"))], ""),
    );
    let message = assert_names_field(&root, "providers/b/provider.yaml", "tool");
    assert!(
        message.contains(&file(&root, "providers/a/provider.yaml")),
        "{message}"
    );
}

/// The official package, as installed.
const AWS: &str = include_str!("../../examples/providers/aws/provider.yaml");

const KUBECTL: &str = r#"version: "1"
name: kubectl
tool: kubectl
description: Kubernetes through human aliases.
command: kubectl
targeting:
  mode: kubectl_context
  locked_options: [--custom-endpoint]
"#;

const LAB: &str = r#"version: "1"
name: lab
context: local-context
identity:
  provider: aws
  scope: shared
  expect: "111122223333"
"#;

const LAB_ALT: &str = r#"version: "1"
name: lab_alt
context: other-context
identity:
  provider: aws
"#;

fn kubectl_root() -> Root {
    let root = Root::new();
    root.write("providers/aws/provider.yaml", AWS);
    root.write("providers/kubectl/provider.yaml", KUBECTL);
    root.write("providers/kubectl/targets/lab/target.yaml", LAB);
    root.write("providers/kubectl/targets/lab_alt/target.yaml", LAB_ALT);
    root
}

#[test]
fn aws_environment_provider_loads_with_defaults_and_paths() {
    let root = kubectl_root();
    let registry = loads(&root);
    let aws = registry.by_tool("aws").expect("aws");
    let config = aws.config();
    assert_eq!(config.policy.minimum_accept_tokens, 2);
    assert_eq!(config.auth.strategy, Strategy::Environment);
    let names: Vec<&str> = config
        .auth
        .fields
        .iter()
        .map(|field| field.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN"
        ]
    );
    assert!(config.auth.fields.iter().all(|field| field.required));
    assert!(!config.auth.fields[0].secret && config.auth.fields[1].secret);
    assert!(config.auth.fields[2].multiline);
    let inject: Vec<(&str, &str)> = config.auth.inject.as_ref().unwrap().pairs().collect();
    assert_eq!(inject[0], ("AWS_ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID"));
    let validate = config.auth.validate.as_ref().unwrap();
    assert_eq!(
        (validate.command.as_str(), validate.args.as_slice()),
        (
            "aws",
            &["sts".to_string(), "get-caller-identity".to_string()][..]
        )
    );
    assert_eq!(config.auth.cache_ttl_seconds, 300);
    assert_eq!(config.auth.identity_ttl_seconds(), Some(300));
    assert!(!aws.is_target_aware() && aws.targets().is_empty());
    let dir = root.path().join("providers/aws");
    assert_eq!(aws.dir(), dir);
    assert_eq!(aws.rules_path(), dir.join("rules.yaml"));
    assert_eq!(aws.env_file_path(), dir.join(".env"));
    assert_eq!(aws.grants_path(), dir.join("grants"));
    assert_eq!(
        aws.identity_dir(aws.default_scope()),
        dir.join("identities/aws")
    );
    assert!(registry.by_name("aws").is_some() && registry.by_tool("torii_policy").is_none());
}

#[test]
fn kubectl_context_provider_loads_two_targets() {
    let root = kubectl_root();
    let registry = loads(&root);
    assert_eq!(registry.len(), 2);
    let kubectl = registry.by_tool("kubectl").expect("kubectl");
    assert!(kubectl.is_target_aware());
    let targeting = kubectl.config().targeting.as_ref().unwrap();
    assert_eq!(targeting.mode, TargetingMode::KubectlContext);
    let aliases: Vec<&str> = kubectl.targets().keys().map(String::as_str).collect();
    assert_eq!(aliases, ["lab", "lab_alt"]);

    let lab = kubectl.target("lab").unwrap();
    let dir = root.path().join("providers/kubectl/targets/lab");
    assert_eq!(lab.config().context.as_deref(), Some("local-context"));
    assert_eq!(
        lab.config().identity.expect.as_deref(),
        Some("111122223333")
    );
    assert_eq!(lab.scope(), "shared");
    assert_eq!(lab.rules_path(), dir.join("rules.yaml"));
    assert_eq!(lab.env_file_path(), dir.join(".env"));
    assert_eq!(lab.grants_path(), dir.join("grants"));
    let digest = Sha256::digest(LAB.as_bytes());
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    assert_eq!(lab.binding_digest(), hex);
    assert_eq!(registry.identity_provider(lab).unwrap().tool(), "aws");

    let lab_alt = kubectl.target("lab_alt").unwrap();
    assert_eq!(lab_alt.scope(), "lab_alt", "scope defaults to the alias");
    assert_ne!(lab_alt.binding_digest(), lab.binding_digest());
}

/// The official package, as installed.
const AWS_PROFILE: &str = include_str!("../../examples/providers/aws-profile/provider.yaml");

const PRODUCAO: &str = r#"version: "1"
name: producao
region: sa-east-1
identity:
  provider: aws_profile
  profile: empresa-producao
  expect: "111122223333"
"#;

const AWS_PROFILE_TARGET: &str = "providers/aws-profile/targets/producao/target.yaml";

fn aws_profile_root(target: &str) -> Root {
    let root = Root::new();
    root.write("providers/aws-profile/provider.yaml", AWS_PROFILE);
    root.write(AWS_PROFILE_TARGET, target);
    root
}

#[test]
fn aws_profile_provider_and_target_load() {
    let root = aws_profile_root(PRODUCAO);
    let registry = loads(&root);
    let provider = registry.by_tool("aws_profile").unwrap();
    assert_eq!(provider.name(), "aws-profile");
    assert_eq!(provider.config().auth.identity_ttl_seconds(), Some(300));
    let target = provider.target("producao").unwrap();
    assert_eq!(target.config().region.as_deref(), Some("sa-east-1"));
    assert_eq!(
        target.config().identity.profile.as_deref(),
        Some("empresa-producao")
    );
    assert_eq!(
        target.scope(),
        "empresa-producao",
        "scope defaults to the profile"
    );
    assert!(std::ptr::eq(
        registry.identity_provider(target).unwrap().as_ref(),
        provider.as_ref()
    ));
}

// ---------------------------------------------------------------------------------------------
// target.yaml rules.

const LAB_PATH: &str = "providers/kubectl/targets/lab/target.yaml";

fn rejected_kubectl_target(dir: &str, yaml: &str, field: &str) -> String {
    let root = Root::new();
    root.write("providers/aws/provider.yaml", AWS);
    root.write("providers/kubectl/provider.yaml", KUBECTL);
    let relative = format!("providers/kubectl/targets/{dir}/target.yaml");
    root.write(&relative, yaml);
    assert_names_field(&root, &relative, field)
}

fn rejected_aws_profile_target(yaml: &str, field: &str) -> String {
    let root = aws_profile_root(yaml);
    assert_names_field(&root, AWS_PROFILE_TARGET, field)
}

#[test]
fn target_name_must_equal_directory() {
    let message = rejected_kubectl_target("lab", &LAB.replace("name: lab", "name: other"), "name");
    assert!(message.contains("directory"), "{message}");
}

#[test]
fn alias_with_bad_charset_is_rejected() {
    let yaml = LAB.replace("name: lab", "name: \"la b\"");
    rejected_kubectl_target("la b", &yaml, "name");
}

#[test]
fn alias_of_129_bytes_is_rejected_and_128_accepted() {
    let long = "a".repeat(129);
    let message = rejected_kubectl_target(
        &long,
        &LAB.replace("name: lab", &format!("name: {long}")),
        "name",
    );
    assert!(message.contains("129 bytes"), "{message}");

    let alias = "a".repeat(128);
    let root = kubectl_root();
    let relative = format!("providers/kubectl/targets/{alias}/target.yaml");
    root.write(
        &relative,
        &LAB.replace("name: lab", &format!("name: {alias}")),
    );
    assert!(
        loads(&root)
            .by_tool("kubectl")
            .unwrap()
            .target(&alias)
            .is_some()
    );
}

#[test]
fn kubectl_target_requires_context() {
    rejected_kubectl_target(
        "lab",
        &LAB.replace("context: local-context\n", ""),
        "context",
    );
}

#[test]
fn kubectl_context_must_be_one_line() {
    let yaml = LAB.replace("context: local-context", "context: \"a\\nb\"");
    rejected_kubectl_target("lab", &yaml, "context");
}

#[test]
fn kubectl_target_refuses_region() {
    let yaml = format!("{LAB}region: sa-east-1\n");
    rejected_kubectl_target("lab", &yaml, "region");
}

#[test]
fn target_scope_must_be_a_name() {
    rejected_kubectl_target(
        "lab",
        &LAB.replace("scope: shared", "scope: \"..\""),
        "identity.scope",
    );
    rejected_kubectl_target(
        "lab",
        &LAB.replace("scope: shared", "scope: a/b"),
        "identity.scope",
    );
}

#[test]
fn missing_identity_provider_is_refused() {
    let root = kubectl_root();
    root.write(LAB_PATH, &LAB.replace("  provider: aws\n", ""));
    let message = load_error(&root);
    assert!(message.starts_with(&file(&root, LAB_PATH)), "{message}");
    assert!(message.contains("missing field `provider`"), "{message}");
}

#[test]
fn identity_provider_must_be_installed() {
    let yaml = LAB.replace("provider: aws", "provider: gcloud");
    let message = rejected_kubectl_target("lab", &yaml, "identity.provider");
    assert!(
        message.contains("no installed provider has tool \"gcloud\""),
        "{message}"
    );
}

#[test]
fn identity_provider_is_resolved_by_tool_not_name() {
    let root = kubectl_root();
    root.write(
        "providers/aws/provider.yaml",
        &AWS.replace("tool: aws", "tool: aws_sts"),
    );
    let message = assert_names_field(&root, LAB_PATH, "identity.provider");
    assert!(
        message.contains("the provider named \"aws\" has tool \"aws_sts\""),
        "{message}"
    );
}

#[test]
fn identity_provider_must_not_be_target_aware() {
    let yaml = LAB.replace("provider: aws", "provider: kubectl");
    let message = rejected_kubectl_target("lab", &yaml, "identity.provider");
    assert!(message.contains("target-aware"), "{message}");
}

#[test]
fn expect_needs_identity_probe_on_identity_provider() {
    let root = kubectl_root();
    let probe = "  identity:\n    command: aws\n    args: [sts, get-caller-identity]\n    field: Account\n    \
        cache_ttl_seconds: 300\n";
    assert!(
        AWS.contains(probe),
        "the official aws package changed: {AWS}"
    );
    let without_probe = AWS.replace(probe, "");
    root.write("providers/aws/provider.yaml", &without_probe);
    let message = assert_names_field(&root, LAB_PATH, "identity.expect");
    assert!(message.contains("auth.identity"), "{message}");
}

#[test]
fn profile_needs_profile_env_on_identity_provider() {
    let root = kubectl_root();
    root.write(
        "providers/aws/provider.yaml",
        &AWS.replace("  profile_env: AWS_PROFILE\n", ""),
    );
    root.write(LAB_PATH, &format!("{LAB}  profile: empresa-dev\n"));
    let message = assert_names_field(&root, LAB_PATH, "identity.profile");
    assert!(message.contains("auth.profile_env"), "{message}");
}

#[test]
fn targets_need_a_target_aware_provider() {
    let root = Root::new();
    root.write("providers/aws/provider.yaml", AWS);
    root.write("providers/aws/targets/lab/target.yaml", LAB);
    let message = load_error(&root);
    assert!(message.starts_with(&file(&root, "providers/aws/targets/lab/target.yaml")));
    assert!(
        message.contains(&file(&root, "providers/aws/provider.yaml")),
        "{message}"
    );
    assert!(message.contains("field `targeting`"), "{message}");
}

#[test]
fn target_with_unknown_field_names_line() {
    let root = kubectl_root();
    root.write(LAB_PATH, &format!("{LAB}namespace: default\n"));
    let message = assert_names_line(&root, LAB_PATH, 8);
    assert!(message.contains("unknown field `namespace`"), "{message}");
}

#[test]
fn target_with_unknown_version_names_line() {
    let root = kubectl_root();
    root.write(LAB_PATH, &LAB.replace("version: \"1\"", "version: \"2\""));
    assert_names_line(&root, LAB_PATH, 1);
}

#[test]
fn aws_profile_expect_of_11_digits_is_rejected() {
    let message = rejected_aws_profile_target(
        &PRODUCAO.replace("111122223333", "11112222333"),
        "identity.expect",
    );
    assert!(message.contains("12 ASCII digits"), "{message}");
}

#[test]
fn aws_profile_expect_with_letters_is_rejected() {
    rejected_aws_profile_target(
        &PRODUCAO.replace("111122223333", "11112222333a"),
        "identity.expect",
    );
}

#[test]
fn aws_profile_expect_is_required() {
    rejected_aws_profile_target(
        &PRODUCAO.replace("  expect: \"111122223333\"\n", ""),
        "identity.expect",
    );
}

#[test]
fn aws_profile_profile_is_required() {
    rejected_aws_profile_target(
        &PRODUCAO.replace("  profile: empresa-producao\n", ""),
        "identity.profile",
    );
}

#[test]
fn aws_profile_profile_must_be_one_line() {
    let yaml = PRODUCAO.replace("profile: empresa-producao", "profile: \"a\\rb\"");
    rejected_aws_profile_target(&yaml, "identity.profile");
}

#[test]
fn aws_profile_refuses_context() {
    rejected_aws_profile_target(&format!("{PRODUCAO}context: prod\n"), "context");
}

#[test]
fn aws_profile_region_must_not_be_empty() {
    rejected_aws_profile_target(
        &PRODUCAO.replace("region: sa-east-1", "region: \"\""),
        "region",
    );
}

#[test]
fn aws_profile_identity_provider_is_its_own_tool() {
    let message = rejected_aws_profile_target(
        &PRODUCAO.replace("provider: aws_profile", "provider: aws"),
        "identity.provider",
    );
    assert!(message.contains("own tool \"aws_profile\""), "{message}");
}

#[test]
fn aws_profile_default_scope_must_be_a_valid_name() {
    let yaml = PRODUCAO.replace("profile: empresa-producao", "profile: \"my profile\"");
    let message = rejected_aws_profile_target(&yaml, "identity.scope");
    assert!(
        message.contains("defaults to `identity.profile`"),
        "{message}"
    );

    let root = aws_profile_root(&yaml.replace("  profile:", "  scope: mine\n  profile:"));
    let registry = loads(&root);
    let target = registry
        .by_tool("aws_profile")
        .unwrap()
        .target("producao")
        .unwrap();
    assert_eq!(target.scope(), "mine");
}

#[test]
fn oversized_file_is_refused_without_reading_it_whole() {
    let root = Root::new();
    root.write(
        P,
        &provider(&[], &format!("# {}\n", "x".repeat(2 * 1024 * 1024))),
    );
    let message = load_error(&root);
    assert!(
        message.starts_with(&file(&root, P)) && message.contains("larger than"),
        "{message}"
    );
}

#[test]
fn identity_provider_may_load_after_the_target_provider() {
    let root = Root::new();
    root.write("providers/a-kubectl/provider.yaml", KUBECTL);
    root.write("providers/a-kubectl/targets/lab/target.yaml", LAB);
    root.write("providers/z-aws/provider.yaml", AWS);
    let registry = loads(&root);
    let lab = registry.by_tool("kubectl").unwrap().target("lab").unwrap();
    assert_eq!(registry.identity_provider(lab).unwrap().name(), "aws");
}
