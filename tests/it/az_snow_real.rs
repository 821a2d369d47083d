//! The official `az` and `snow` packages' refusals, checked against the REAL programs
//! (azure-cli 2.91 and snowflake-cli 3.30 from PyPI, which `scripts/test.sh` installs into
//! `.tools/clis`): what each parser does with the spellings the packages refuse. Offline: no
//! login, no connection, every check ends in the program's own refusal or its parser's.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::Root;
use crate::fake_kube::real_tool;

fn run(mut command: Command) -> String {
    let Output { stdout, stderr, .. } = command.output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    )
}

/// `az` in a throwaway configuration, never logged in, no telemetry.
fn az(root: &Root, args: &[&str]) -> String {
    let mut command = Command::new(real_tool("az"));
    command
        .args(args)
        .current_dir(root.outside())
        .env("AZURE_CONFIG_DIR", root.outside().join("azure"))
        .env("AZURE_CORE_COLLECT_TELEMETRY", "no")
        .env("AZURE_CORE_NO_COLOR", "1");
    run(command)
}

/// `snow` with an empty home: no connection is configured.
fn snow(root: &Root, args: &[&str]) -> String {
    let home = root.outside().join("snow-home");
    std::fs::create_dir_all(home.join(".snowflake")).unwrap();
    let mut command = Command::new(real_tool("snow"));
    command
        .args(args)
        .current_dir(root.outside())
        .env("HOME", &home)
        .env("SNOWFLAKE_HOME", home.join(".snowflake"))
        .env("NO_COLOR", "1")
        .env("COLUMNS", "200");
    run(command)
}

/// Why the az package refuses prefixes of its options and `@` values: the Azure CLI takes
/// `--sub` for `--subscription`, reads a command word from `@file`, tries to read any
/// `@path` value, and turns debug logs on from a `--debug` anywhere.
#[test]
#[ignore = "needs azure-cli from PyPI; run by ./scripts/test.sh"]
fn the_azure_cli_parses_what_the_az_package_refuses() {
    let root = Root::new();
    // A prefix of --subscription is --subscription (a word that is no prefix is refused).
    let said = az(&root, &["group", "list", "--sub=prod-sub"]);
    assert!(
        said.contains("Subscription 'prod-sub' not recognized"),
        "{said}"
    );
    let said = az(&root, &["group", "list", "--subx=prod-sub"]);
    assert!(
        said.contains("unrecognized arguments: --subx=prod-sub"),
        "{said}"
    );
    // A command word read from a file: `group` runs `group list` (which wants a login), a
    // word that is no command is refused as misspelled.
    let word = root.outside().join("word.txt");
    std::fs::write(&word, "group").unwrap();
    let said = az(&root, &[&format!("@{}", word.display()), "list"]);
    assert!(said.contains("az login"), "{said}");
    std::fs::write(&word, "nosuchgroup").unwrap();
    let said = az(&root, &[&format!("@{}", word.display()), "list"]);
    assert!(said.contains("not recognized"), "{said}");
    // Any `@path` value is read.
    let value = root.outside().join("value.txt");
    std::fs::write(&value, "rg").unwrap();
    let said = az(
        &root,
        &[
            "group",
            "show",
            "-n",
            &format!("@{}", value.display()),
            "--debug",
        ],
    );
    assert!(
        said.contains(&format!("attempting to read file {}", value.display())),
        "{said}"
    );
    // `--debug` as another option's value still turns debug logs on.
    let said = az(&root, &["group", "list", "--query", "--debug"]);
    assert!(
        said.contains("DEBUG: cli.knack.cli: Command arguments"),
        "{said}"
    );
}

/// Why the snow package refuses `-f`/`--filename` and connection options by name: the
/// Snowflake CLI reads a query file, abbreviates no option and reads `--opt=value`.
#[test]
#[ignore = "needs snowflake-cli from PyPI; run by ./scripts/test.sh"]
fn the_snowflake_cli_parses_what_the_snow_package_refuses() {
    let root = Root::new();
    let missing = Path::new("/nonexistent/query.sql");
    let said = snow(&root, &["sql", "-f", &missing.display().to_string()]);
    assert!(said.contains("Invalid value for '--filename'"), "{said}");
    let said = snow(&root, &["sql", "-q", "select 1", "--conn", "prod"]);
    assert!(said.contains("No such option: --conn"), "{said}");
    let said = snow(&root, &["sql", "-q", "select 1", "--connection=prod"]);
    assert!(said.contains("Connection prod is not configured"), "{said}");
}
