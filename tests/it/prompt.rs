//! The server side of `prompt` against the real `torii __prompt` subprocess, one end-to-end
//! exchange per window, and against stand-in prompts that answer badly.
//!
//! Nobody clicks here: the window is answered by the test driver, which only builds of `torii`
//! with the `test-hooks` feature contain. `TORII_TEST_PROMPT_SCRIPT` makes the prompt run the real window code
//! headless (egui_kittest) and play the script by label; the answer then travels the real pipe
//! and is checked by the real client, exactly as a human's would be.

use std::path::{Path, PathBuf};
use std::time::Duration;

use torii::prompt::{
    AuthRequest, FieldSpec, LeaseRequest, OperationAnswer, OperationRequest, PromptError, Prompter,
};

const SCRIPT_ENV: &str = "TORII_TEST_PROMPT_SCRIPT";

fn torii() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_torii"))
}

fn operation_request() -> OperationRequest {
    OperationRequest {
        tool: "aws".into(),
        target: None,
        args: ["ec2", "describe-instances", "--region", "sa-east-1"]
            .map(String::from)
            .to_vec(),
        default_grant_minutes: 2,
        oldest_grant_remaining_secs: None,
    }
}

fn lease_request(active: &[&str]) -> LeaseRequest {
    LeaseRequest {
        tool: "kubectl".into(),
        alias: "dev".into(),
        binding: "context dev-cluster".into(),
        active_aliases: active.iter().map(|alias| alias.to_string()).collect(),
        default_minutes: 15,
    }
}

fn executable(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

// ---- one exchange per window through the real subprocess ----

#[cfg(feature = "gui")]
mod windows {
    use std::collections::BTreeMap;
    use std::time::Duration;

    use torii::prompt::{
        AuthAnswer, AuthRequest, FieldSpec, GrantScope, LeaseAnswer, OperationAnswer, PromptError,
        Prompter, ValidatorSpec,
    };

    use super::{SCRIPT_ENV, executable, lease_request, operation_request, torii};

    /// The real prompt, driven by `script` (JSON).
    fn driven(script: &str) -> Prompter {
        Prompter::with_program(torii()).env(SCRIPT_ENV, script)
    }

    #[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
    #[tokio::test]
    async fn operation_window_answers_a_prefix_grant_over_the_pipe() {
        let script = r#"{"steps": [
            {"click": "Temporarily"},
            {"click": "15 min"},
            {"click": "I reviewed the invocation and the scope"},
            {"click": "Allow"}
        ]}"#;
        let answer = driven(script).ask(&operation_request()).await.unwrap();
        assert_eq!(
            answer,
            OperationAnswer::Temporary {
                scope: GrantScope::Prefix { tokens: 2 },
                duration_secs: 900
            }
        );
        let matcher = torii::prompt::grant_matcher(&operation_request().args, &answer)
            .unwrap()
            .unwrap();
        assert_eq!(matcher.token_count(), 2);
    }

    #[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
    #[tokio::test]
    async fn lease_window_adds_after_a_one_second_hold_over_the_pipe() {
        let script = r#"{"steps": [
            {"fill": {"label": "Duration", "text": "45"}},
            {"press": "Add to the set"},
            {"wait": 1.1}
        ]}"#;
        let answer = driven(script).ask(&lease_request(&["hml"])).await.unwrap();
        assert_eq!(answer, LeaseAnswer::Add { minutes: 45 });
        let (mode, minutes) = answer.activation().unwrap();
        assert_eq!((mode, minutes.get()), (torii::leases::Activation::Add, 45));

        let denied = driven(r#"{"steps": [{"click": "Deny"}]}"#)
            .ask(&lease_request(&[]))
            .await
            .unwrap();
        assert_eq!(denied, LeaseAnswer::Deny);
    }

    #[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
    #[tokio::test]
    async fn auth_window_returns_only_the_candidate_the_validator_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let attempts = dir.path().join("attempts");
        let validator = executable(
            dir.path(),
            "validate",
            &format!(
                "echo \"$API_TOKEN\" >> '{}'\necho noise; echo noise >&2\n[ \"$API_TOKEN\" = good ]",
                attempts.display()
            ),
        );
        let request = AuthRequest {
            tool: "api".into(),
            scope: "api".into(),
            fields: vec![FieldSpec {
                name: "TOKEN".into(),
                label: "Token".into(),
                secret: true,
                required: true,
                multiline: false,
            }],
            validator: Some(ValidatorSpec {
                program: validator,
                args: vec![],
                base_env: vec![],
                inject: vec![("API_TOKEN".into(), "TOKEN".into())],
                removed_env: vec![],
                confine_root: "/nonexistent/torii-root".into(),
                confine_programs: vec![],
                confinement: torii::confine::Mode::BestEffort,
            }),
        };
        let script = r#"{"steps": [
            {"fill": {"label": "Token", "text": "bad"}},
            {"click": "Validate and use"},
            {"wait_until_enabled": "Validate and use"},
            {"fill": {"label": "Token", "text": "good"}},
            {"click": "Validate and use"}
        ]}"#;
        let answer = driven(script).ask(&request).await.unwrap();
        assert_eq!(
            answer,
            AuthAnswer::Validated {
                values: BTreeMap::from([("TOKEN".to_string(), "good".into())]),
                refused: 1,
            }
        );
        // Both candidates went through the validator, in order; only the second came back.
        assert_eq!(std::fs::read_to_string(&attempts).unwrap(), "bad\ngood\n");

        let cancelled = driven(r#"{"steps": [{"click": "Cancel"}]}"#)
            .ask(&request)
            .await
            .unwrap();
        assert_eq!(cancelled, AuthAnswer::Cancelled { refused: 0 });
    }

    #[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
    #[tokio::test]
    async fn a_script_that_decides_nothing_gets_no_answer() {
        let error = driven(r#"{"steps": [{"click": "No such button"}]}"#)
            .ask(&operation_request())
            .await
            .unwrap_err();
        assert!(matches!(error, PromptError::NoAnswer(_)), "{error}");
    }

    #[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
    #[test]
    fn without_a_display_the_prompt_gives_no_answer() {
        // No script and nowhere to open a window: the prompt fails and the caller denies.
        let output = assert_cmd::Command::new(torii())
            .arg("__prompt")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove(SCRIPT_ENV)
            .write_stdin(
                r#"{"protocol":2,"language":"en","request":{"target_lease":{"tool":"kubectl","alias":"dev","binding":"context x","active_aliases":[],"default_minutes":15}}}"#,
            )
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        assert!(!output.status.success());
        assert!(output.stdout.is_empty());
    }
}

#[cfg(not(feature = "gui"))]
#[test]
fn a_build_without_windows_never_answers() {
    let output = assert_cmd::Command::new(torii())
        .arg("__prompt")
        .write_stdin(
            r#"{"protocol":2,"language":"en","request":{"target_lease":{"tool":"kubectl","alias":"dev","binding":"context x","active_aliases":[],"default_minutes":15}}}"#,
        )
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no windows"));
    assert_eq!(
        torii::prompt::availability_from(None, cfg!(feature = "gui")),
        torii::prompt::Availability::NoGuiBuild
    );
}

// ---- the client against prompts that misbehave ----

/// A stand-in prompt: a script that checks it was run as `__prompt`, reads the request and
/// prints `answer_line`.
fn stand_in(dir: &Path, answer_line: &str) -> Prompter {
    let program = executable(
        dir,
        "prompt",
        &format!(
            "[ \"$1\" = __prompt ] || exit 9\ncat > '{}'\necho 'noise on stderr' >&2\nprintf '%s\\n' '{answer_line}'",
            dir.join("request").display()
        ),
    );
    Prompter::with_program(program)
}

#[tokio::test]
async fn answers_outside_the_request_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        // A prefix longer than the call.
        r#"{"protocol":2,"answer":{"operation":{"temporary":{"scope":{"prefix":{"tokens":5}},"duration_secs":60}}}}"#,
        // A duration that is not whole minutes, with no grant to end with.
        r#"{"protocol":2,"answer":{"operation":{"temporary":{"scope":"exact","duration_secs":61}}}}"#,
        // Longer than 1440 minutes.
        r#"{"protocol":2,"answer":{"operation":{"temporary":{"scope":"exact","duration_secs":86460}}}}"#,
        // An answer to another question.
        r#"{"protocol":2,"answer":{"target_lease":{"add":{"minutes":5}}}}"#,
    ];
    for line in cases {
        let error = stand_in(dir.path(), line)
            .ask(&operation_request())
            .await
            .unwrap_err();
        assert!(matches!(error, PromptError::Invalid(_)), "{line}: {error}");
    }
    let lease = stand_in(
        dir.path(),
        r#"{"protocol":2,"answer":{"target_lease":{"replace":{"minutes":1441}}}}"#,
    )
    .ask(&lease_request(&[]))
    .await
    .unwrap_err();
    assert!(matches!(lease, PromptError::Invalid(_)), "{lease}");
    let undeclared = stand_in(
        dir.path(),
        r#"{"protocol":2,"answer":{"authenticate":{"validated":{"values":{"TOKEN":"x","EXTRA":"y"}}}}}"#,
    )
    .ask(&AuthRequest {
        tool: "api".into(),
        scope: "api".into(),
        fields: vec![FieldSpec {
            name: "TOKEN".into(),
            label: "Token".into(),
            secret: true,
            required: true,
            multiline: false,
        }],
        validator: None,
    })
    .await
    .unwrap_err();
    assert!(
        matches!(undeclared, PromptError::Invalid(_)),
        "{undeclared}"
    );
}

#[tokio::test]
async fn a_good_answer_is_taken_and_the_request_is_one_json_line() {
    let dir = tempfile::tempdir().unwrap();
    let answer = stand_in(
        dir.path(),
        r#"{"protocol":2,"answer":{"operation":"once"}}"#,
    )
    .ask(&operation_request())
    .await
    .unwrap();
    assert_eq!(answer, OperationAnswer::Once);
    let request = std::fs::read_to_string(dir.path().join("request")).unwrap();
    assert_eq!(request.lines().count(), 1);
    assert!(
        request
            .starts_with(r#"{"protocol":2,"language":"en","request":{"operation":{"tool":"aws""#)
    );
}

#[tokio::test]
async fn broken_prompts_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = stand_in(dir.path(), "yes, allow everything")
        .ask(&operation_request())
        .await
        .unwrap_err();
    assert!(matches!(garbage, PromptError::Malformed(_)), "{garbage}");
    let other_protocol = stand_in(
        dir.path(),
        r#"{"protocol":1,"answer":{"operation":"once"}}"#,
    )
    .ask(&operation_request())
    .await
    .unwrap_err();
    assert!(matches!(other_protocol, PromptError::Protocol { found: 1 }));

    let failing = executable(
        dir.path(),
        "failing",
        r#"cat >/dev/null; printf '%s\n' '{"protocol":2,"answer":{"operation":"once"}}'; exit 1"#,
    );
    let error = Prompter::with_program(failing)
        .ask(&operation_request())
        .await
        .unwrap_err();
    // It reads the whole request first, so the failure is the exit status, not a broken pipe.
    assert!(
        matches!(error, PromptError::NoAnswer(_)),
        "an answer with a failing exit: {error}"
    );

    let missing = Prompter::with_program(dir.path().join("nope"))
        .ask(&operation_request())
        .await
        .unwrap_err();
    assert!(matches!(missing, PromptError::Spawn { .. }));

    let huge = executable(dir.path(), "huge", "head -c 2000000 /dev/zero");
    let error = Prompter::with_program(huge)
        .ask(&operation_request())
        .await
        .unwrap_err();
    assert!(matches!(error, PromptError::TooLarge), "{error}");
}

/// The book: the window process's stderr is discarded (toolkit and display warnings must reach
/// neither the MCP client's log nor the protocol). The stand-in reports what its descriptor 2 is.
#[tokio::test]
async fn the_prompts_stderr_is_discarded() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("stderr-is");
    let prompt = executable(
        dir.path(),
        "prompt",
        &format!(
            "readlink /proc/$$/fd/2 > '{}'\ncat >/dev/null\nprintf '%s\\n' '{{\"protocol\":2,\"answer\":{{\"operation\":\"once\"}}}}'",
            seen.display()
        ),
    );
    let answer = Prompter::with_program(prompt)
        .ask(&operation_request())
        .await
        .unwrap();
    assert_eq!(answer, OperationAnswer::Once);
    assert_eq!(std::fs::read_to_string(&seen).unwrap().trim(), "/dev/null");
}

#[tokio::test]
async fn a_cancelled_question_kills_its_window() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let slow = executable(
        dir.path(),
        "slow",
        &format!("echo $$ > '{}'\nexec sleep 30", pid_file.display()),
    );
    let prompter = Prompter::with_program(slow);
    let request = operation_request();
    let asked = tokio::time::timeout(Duration::from_millis(500), prompter.ask(&request)).await;
    assert!(asked.is_err(), "the stand-in answered");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let proc_dir = PathBuf::from(format!("/proc/{}", pid.trim()));
    crate::common::wait_until(&format!("the prompt process {} to end", pid.trim()), || {
        let state = std::fs::read_to_string(proc_dir.join("stat")).unwrap_or_default();
        // Gone, or a zombie waiting for tokio's reaper.
        state.is_empty() || state.contains(") Z ")
    });
}

#[test]
fn the_prompt_subcommand_is_hidden() {
    let output = assert_cmd::Command::new(torii())
        .arg("--help")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&output.stdout).contains("__prompt"));
}

#[test]
fn a_malformed_request_gets_no_answer() {
    for input in ["", "not json", r#"{"protocol":2,"request":{}}"#] {
        let output = assert_cmd::Command::new(torii())
            .arg("__prompt")
            .env_remove(SCRIPT_ENV)
            .write_stdin(input)
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        assert!(!output.status.success(), "{input:?}");
        assert!(output.stdout.is_empty(), "{input:?}");
    }
}
