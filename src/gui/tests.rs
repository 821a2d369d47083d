//! The windows driven by their labels in an egui_kittest harness, as a person would: every
//! choice, the review tick, the suggestion and its restore, durations, hold-to-confirm with
//! simulated time, the clipboard and a refused-then-accepted candidate.

use eframe::egui::epaint::RectShape;
use eframe::egui::{Color32, Rect, Shape};
use egui_kittest::kittest::{NodeT, Queryable};

use super::auth::{self, AuthWindow};
use super::driver::{self, Action, DrivenHarness, FixedClipboard};
use super::lease::{self, LeaseWindow};
use super::operation::{self, OperationWindow};
use super::window::Window;
use crate::language::{Language, set_for_thread};
use crate::prompt::{
    Answer, AuthAnswer, AuthRequest, FieldSpec, GrantScope, LeaseAnswer, LeaseRequest,
    OperationAnswer, OperationRequest, ValidatorSpec,
};

// ---- helpers ----

fn operation(args: &[&str], oldest: Option<u64>) -> DrivenHarness<'static> {
    driver::harness(Box::new(OperationWindow::new(OperationRequest {
        tool: "aws".into(),
        target: None,
        args: args.iter().map(|arg| arg.to_string()).collect(),
        default_grant_minutes: 2,
        oldest_grant_remaining_secs: oldest,
    })))
}

fn lease_window(active: &[&str]) -> DrivenHarness<'static> {
    driver::harness(Box::new(LeaseWindow::new(LeaseRequest {
        tool: "kubectl".into(),
        alias: "dev".into(),
        binding: "context dev-cluster".into(),
        active_aliases: active.iter().map(|alias| alias.to_string()).collect(),
        default_minutes: 15,
    })))
}

fn field(name: &str, label: &str, multiline: bool) -> FieldSpec {
    FieldSpec {
        name: name.into(),
        label: label.into(),
        secret: true,
        required: true,
        multiline,
    }
}

fn auth_window(
    fields: Vec<FieldSpec>,
    validator: Option<ValidatorSpec>,
    clipboard: Option<&str>,
) -> DrivenHarness<'static> {
    driver::harness(Box::new(AuthWindow::new(
        AuthRequest {
            tool: "aws".into(),
            scope: "aws".into(),
            fields,
            validator,
        },
        Box::new(FixedClipboard(clipboard.map(String::from))),
    )))
}

fn play(harness: &mut DrivenHarness<'_>, steps: &[Action]) {
    for step in steps {
        driver::play(harness, step).unwrap();
    }
}

// Labels are a window's own (`op::ALLOW`, in the language the test speaks) or plain text.
fn click(label: impl std::fmt::Display) -> Action {
    Action::Click(label.to_string())
}

fn fill(label: impl std::fmt::Display, text: &str) -> Action {
    Action::Fill {
        label: label.to_string(),
        text: text.into(),
    }
}

fn enabled(harness: &DrivenHarness<'_>, label: impl std::fmt::Display) -> bool {
    !driver::node(harness, &label.to_string())
        .unwrap()
        .accesskit_node()
        .is_disabled()
}

fn ticked(harness: &DrivenHarness<'_>, label: impl std::fmt::Display) -> bool {
    use eframe::egui::accesskit::Toggled;
    driver::node(harness, &label.to_string())
        .unwrap()
        .accesskit_node()
        .toggled()
        == Some(Toggled::True)
}

fn shows(harness: &DrivenHarness<'_>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

/// Whether the widget with `label` lies inside the window's constant width.
fn within_width(harness: &DrivenHarness<'_>, label: impl std::fmt::Display) -> bool {
    let rect = driver::node(harness, &label.to_string()).unwrap().rect();
    rect.min.x >= 0.0 && rect.max.x <= super::widgets::WIDTH
}

/// The smallest filled rectangle painted behind the text containing `text`, and its fill: the
/// bar a status or feedback line sits on, as the last frame painted it.
fn painted_behind(harness: &DrivenHarness<'_>, text: &str) -> (Rect, Color32) {
    fn rects<'s>(shape: &'s Shape, found: &mut Vec<&'s RectShape>) {
        match shape {
            Shape::Rect(rect) => found.push(rect),
            Shape::Vec(shapes) => shapes.iter().for_each(|shape| rects(shape, found)),
            _ => {}
        }
    }
    let label = harness
        .query_all_by_label_contains(text)
        .next()
        .unwrap_or_else(|| panic!("nothing shows `{text}`"))
        .rect();
    let mut found = Vec::new();
    for clipped in &harness.output().shapes {
        rects(&clipped.shape, &mut found);
    }
    found
        .into_iter()
        .filter(|shape| shape.fill != Color32::TRANSPARENT && shape.rect.contains_rect(label))
        .min_by(|a, b| a.rect.area().total_cmp(&b.rect.area()))
        .map(|shape| (shape.rect, shape.fill))
        .unwrap_or_else(|| panic!("nothing is painted behind `{text}`"))
}

fn decided(harness: &DrivenHarness<'_>) -> Option<Answer> {
    harness.state().window.decided().map(|(answer, _)| answer)
}

fn finish(harness: &mut DrivenHarness<'_>) -> Answer {
    driver::wait_for_decision(harness).unwrap()
}

use operation::labels as op;

const DESCRIBE: &[&str] = &["ec2", "describe-instances", "--region", "sa-east-1"];

// ---- operation window ----

#[test]
fn allow_once_needs_the_review_tick() {
    let mut harness = operation(DESCRIBE, None);
    assert!(!enabled(&harness, op::ALLOW));
    assert!(shows(
        &harness,
        "Allow is disabled until you tick the review box."
    ));
    play(&mut harness, &[click(op::ALLOW)]);
    assert_eq!(decided(&harness), None);
    play(&mut harness, &[click(op::REVIEWED)]);
    assert!(ticked(&harness, op::REVIEWED));
    assert!(enabled(&harness, op::ALLOW));
    play(&mut harness, &[click(op::ALLOW)]);
    harness.step();
    assert!(shows(&harness, "👍 Access allowed once."));
    assert_eq!(
        finish(&mut harness),
        Answer::Operation(OperationAnswer::Once)
    );
}

/// In both languages, by the button's own words: the book's Negar and its Acesso negado.
#[test]
fn deny_shows_the_refusal() {
    for (language, deny, denied) in [
        (Language::English, "Deny", "Access denied."),
        (Language::BrazilianPortuguese, "Negar", "Acesso negado."),
    ] {
        set_for_thread(language);
        let mut harness = operation(DESCRIBE, None);
        play(&mut harness, &[click(deny)]);
        harness.step();
        assert!(shows(&harness, denied), "{language}");
        assert!(!enabled(&harness, op::DENY));
        assert_eq!(
            finish(&mut harness),
            Answer::Operation(OperationAnswer::Deny)
        );
    }
}

/// The book's colours of the feedback: coral behind a refusal or a cancel, green behind an
/// allow or a validated session, read from what the window painted behind the words.
#[test]
fn deny_feedback_is_coral_and_allow_feedback_green() {
    use super::widgets::{CORAL, GREEN};
    set_for_thread(Language::English);
    let mut denied = operation(DESCRIBE, None);
    play(&mut denied, &[click(op::DENY)]);
    denied.step();
    assert_eq!(painted_behind(&denied, "Access denied.").1, CORAL);

    let mut allowed = operation(DESCRIBE, None);
    play(&mut allowed, &[click(op::REVIEWED), click(op::ALLOW)]);
    allowed.step();
    assert_eq!(painted_behind(&allowed, "Access allowed once.").1, GREEN);

    let mut cancelled = auth_window(aws_fields(), None, None);
    play(&mut cancelled, &[click(au::CANCEL)]);
    cancelled.step();
    assert_eq!(
        painted_behind(&cancelled, "Authentication cancelled.").1,
        CORAL
    );

    let mut used = auth_window(vec![field("TOKEN", "Token", false)], None, None);
    play(&mut used, &[fill("Token", "t"), click(au::VALIDATE)]);
    used.step();
    assert_eq!(painted_behind(&used, "Values accepted.").1, GREEN);
}

#[test]
fn temporarily_selects_the_suggested_prefix_which_can_be_restored() {
    let mut harness = operation(DESCRIBE, None);
    play(&mut harness, &[click(op::TEMPORARILY)]);
    assert!(ticked(&harness, op::PREFIX));
    assert!(shows(&harness, "Fixed (2)"));
    assert!(shows(&harness, "Variable (2)"));
    assert!(shows(&harness, "+ any arguments added later"));
    assert!(shows(&harness, "the 2 tokens before `--region`"));
    assert!(shows(
        &harness,
        "whose first 2 arguments are `ec2` `describe-instances`"
    ));
    assert!(harness.query_by_label(&op::RESTORE.text()).is_none());

    play(&mut harness, &[click(op::MORE)]);
    assert!(shows(&harness, "Fixed (3)"));
    assert!(shows(&harness, "3 of 4 tokens fixed"));
    play(&mut harness, &[click(op::EXACT)]);
    assert!(shows(&harness, "Exact invocation (4 arguments)"));
    play(&mut harness, &[click(op::RESTORE)]);
    assert!(shows(&harness, "Fixed (2)"));

    play(&mut harness, &[click(op::REVIEWED), click(op::ALLOW)]);
    harness.step();
    assert!(shows(&harness, "👍 Access allowed for 2 min."));
    assert_eq!(
        finish(&mut harness),
        Answer::Operation(OperationAnswer::Temporary {
            scope: GrantScope::Prefix { tokens: 2 },
            duration_secs: 120
        })
    );
}

#[test]
fn without_a_suggestion_exact_stays_selected() {
    let mut harness = operation(&["logs", "-f", "pod"], None);
    play(&mut harness, &[click(op::TEMPORARILY)]);
    assert!(ticked(&harness, op::EXACT));
    assert!(shows(&harness, "Exact invocation (3 arguments)"));
    play(&mut harness, &[click(op::PREFIX)]);
    assert!(shows(&harness, "No boundary is suggested"));
    assert!(shows(&harness, "3 of 3 tokens fixed"));
    play(&mut harness, &[click(op::FEWER), click(op::FEWER)]);
    assert!(shows(&harness, "1 of 3 tokens fixed"));
    assert!(!enabled(&harness, op::FEWER));
    play(&mut harness, &[click(op::REVIEWED), click(op::ALLOW)]);
    assert_eq!(
        finish(&mut harness),
        Answer::Operation(OperationAnswer::Temporary {
            scope: GrantScope::Prefix { tokens: 1 },
            duration_secs: 120
        })
    );
}

#[test]
fn the_review_tick_resets_when_scope_or_duration_changes() {
    let mut harness = operation(DESCRIBE, None);
    play(&mut harness, &[click(op::REVIEWED), click(op::TEMPORARILY)]);
    assert!(!ticked(&harness, op::REVIEWED), "mode");
    let changes = [
        click(op::EXACT),
        click(op::PREFIX),
        click(op::MORE),
        click("10 min"),
        fill(op::DURATION, "7"),
    ];
    for change in changes {
        play(&mut harness, &[click(op::REVIEWED)]);
        assert!(ticked(&harness, op::REVIEWED));
        assert!(enabled(&harness, op::ALLOW));
        play(&mut harness, std::slice::from_ref(&change));
        assert!(!ticked(&harness, op::REVIEWED), "{change:?}");
        assert!(!enabled(&harness, op::ALLOW), "{change:?}");
    }
    assert!(shows(&harness, "Allow for 7 min"));
}

#[test]
fn durations_presets_and_invalid_minutes() {
    let mut harness = operation(&["s3", "ls"], None);
    play(&mut harness, &[click(op::TEMPORARILY)]);
    for minutes in [5, 10, 15, 20, 30] {
        play(&mut harness, &[click(format!("{minutes} min"))]);
        assert!(shows(&harness, &format!("Allow for {minutes} min")));
    }
    play(
        &mut harness,
        &[fill(op::DURATION, "1441"), click(op::REVIEWED)],
    );
    assert!(shows(&harness, "Enter whole minutes from 1 to 1440."));
    assert!(!enabled(&harness, op::ALLOW));
    play(
        &mut harness,
        &[fill(op::DURATION, "1440"), click(op::REVIEWED)],
    );
    play(&mut harness, &[click(op::ALLOW)]);
    assert_eq!(
        finish(&mut harness),
        Answer::Operation(OperationAnswer::Temporary {
            scope: GrantScope::Exact,
            duration_secs: 1440 * 60
        })
    );
}

#[test]
fn the_remaining_time_button_ends_the_grant_with_the_oldest() {
    let mut harness = operation(&["s3", "ls"], Some(83));
    play(&mut harness, &[click(op::TEMPORARILY), click("1:23")]);
    assert!(shows(
        &harness,
        "until the oldest active grant ends, in 1 min 23 s"
    ));
    // It counts down.
    play(&mut harness, &[Action::Wait(2.0)]);
    assert!(driver::node(&harness, "1:21").is_ok());
    play(&mut harness, &[click(op::REVIEWED), click(op::ALLOW)]);
    let Answer::Operation(OperationAnswer::Temporary {
        scope: GrantScope::Exact,
        duration_secs,
    }) = finish(&mut harness)
    else {
        panic!("not a temporary grant");
    };
    // 83 s minus the time the window was open and the feedback delay.
    assert!((75..=81).contains(&duration_secs), "{duration_secs}");
}

#[test]
fn no_remaining_time_button_without_a_grant() {
    let mut harness = operation(&["s3", "ls"], None);
    play(&mut harness, &[click(op::TEMPORARILY)]);
    let is_clock = |label: &str| {
        label.split_once(':').is_some_and(|(m, s)| {
            m.parse::<u64>().is_ok() && s.len() == 2 && s.parse::<u64>().is_ok()
        })
    };
    let mut clocks = harness.query_all_by(move |node| node.label().is_some_and(|l| is_clock(&l)));
    assert!(clocks.next().is_none());
}

#[test]
fn a_long_argument_is_shortened_and_read_in_pages() {
    let long: String = "abcdefghij".repeat(60);
    let mut harness = operation(&["s3api", &long], None);
    let pill = "abcdefghijabcd…abcdefghij · 600 chars";
    play(&mut harness, &[click(pill)]);
    assert!(shows(
        &harness,
        "Argument 2 of 2 · 600 characters · page 1 of 3"
    ));
    assert!(!enabled(&harness, op::PREVIOUS_PAGE));
    play(&mut harness, &[click(op::NEXT_PAGE), click(op::NEXT_PAGE)]);
    assert!(shows(&harness, "page 3 of 3"));
    assert!(!enabled(&harness, op::NEXT_PAGE));
    play(&mut harness, &[click(op::PREVIOUS_PAGE)]);
    assert!(shows(&harness, "page 2 of 3"));
    play(&mut harness, &[click(op::CLOSE_REVIEW)]);
    assert!(!shows(&harness, "characters · page"));
    // Reading changes nothing: a once-allowed call is the same vector.
    play(&mut harness, &[click(op::REVIEWED), click(op::ALLOW)]);
    assert_eq!(
        finish(&mut harness),
        Answer::Operation(OperationAnswer::Once)
    );
}

/// In both languages (Portuguese is longer): the width stays, the height grows by state up
/// to the maximum, and the actions stay reachable.
#[test]
fn the_window_grows_by_state_up_to_a_maximum() {
    for language in Language::ALL {
        set_for_thread(language);
        let mut harness = operation(DESCRIBE, None);
        let compact = harness.state().wanted_height;
        play(&mut harness, &[click(op::TEMPORARILY), click(op::EXACT)]);
        let exact = harness.state().wanted_height;
        play(&mut harness, &[click(op::PREFIX)]);
        let prefix = harness.state().wanted_height;
        assert!(
            compact < exact && exact < prefix && prefix <= super::widgets::MAX_HEIGHT,
            "{language}: {compact} {exact} {prefix}"
        );
        for label in [op::ALLOW, op::DENY, op::MORE, op::FEWER] {
            assert!(within_width(&harness, label), "{language}: {label}");
        }

        let many: Vec<String> = (0..400).map(|i| format!("--flag-{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let mut harness = operation(&many, None);
        // The body asks for more than the maximum; the window scrolls it, and the footer stays.
        assert!(harness.state().wanted_height > super::widgets::MAX_HEIGHT);
        play(&mut harness, &[click(op::REVIEWED)]);
        assert!(enabled(&harness, op::ALLOW), "{language}");
    }
}

#[test]
fn the_target_is_named_in_the_review_tick() {
    let mut harness = driver::harness(Box::new(OperationWindow::new(OperationRequest {
        tool: "kubectl".into(),
        target: Some("lab".into()),
        args: vec!["get".into(), "pods".into()],
        default_grant_minutes: 2,
        oldest_grant_remaining_secs: None,
    })));
    assert!(shows(&harness, "Target"));
    play(
        &mut harness,
        &[click(op::REVIEWED_WITH_TARGET), click(op::DENY)],
    );
    assert_eq!(
        finish(&mut harness),
        Answer::Operation(OperationAnswer::Deny)
    );
}

// ---- lease window ----

use lease::labels as ls;

#[test]
fn replace_all_active() {
    let mut harness = lease_window(&["hml"]);
    assert!(shows(&harness, "context dev-cluster"));
    assert!(shows(&harness, "Active now (1)"));
    play(&mut harness, &[click(ls::REPLACE)]);
    harness.step();
    assert!(shows(
        &harness,
        "👍 dev is now the only active target, for 15 min."
    ));
    assert_eq!(
        finish(&mut harness),
        Answer::TargetLease(LeaseAnswer::Replace { minutes: 15 })
    );
}

#[test]
fn add_alone_is_a_plain_click() {
    let mut harness = lease_window(&[]);
    assert!(!shows(&harness, "Add keeps"));
    play(&mut harness, &[fill(ls::DURATION, "30"), click(ls::ADD)]);
    assert_eq!(
        finish(&mut harness),
        Answer::TargetLease(LeaseAnswer::Add { minutes: 30 })
    );
}

#[test]
fn add_with_others_active_needs_a_continuous_one_second_press() {
    let mut harness = lease_window(&["hml", "prd"]);
    assert!(shows(&harness, "Add keeps hml, prd active too"));
    // A click is not a hold.
    play(&mut harness, &[click(ls::ADD)]);
    assert_eq!(decided(&harness), None);
    // Released early: nothing, and the count starts over.
    let press = Action::Press(ls::ADD.text());
    let release = Action::Release(ls::ADD.text());
    play(
        &mut harness,
        &[press.clone(), Action::Wait(0.7), release.clone()],
    );
    assert_eq!(decided(&harness), None);
    play(&mut harness, &[press.clone(), Action::Wait(0.7)]);
    assert_eq!(decided(&harness), None, "0.7 s after the new press");
    play(&mut harness, &[Action::Wait(0.4)]);
    assert_eq!(
        decided(&harness),
        Some(Answer::TargetLease(LeaseAnswer::Add { minutes: 15 }))
    );
    play(&mut harness, &[release]);
    assert!(shows(
        &harness,
        "👍 dev added to the active targets, for 15 min."
    ));
}

#[test]
fn the_press_that_focuses_the_window_starts_the_count() {
    let mut harness = lease_window(&["hml"]);
    play(
        &mut harness,
        &[
            Action::Unfocus,
            Action::Press(ls::ADD.text()),
            Action::Wait(1.1),
        ],
    );
    assert_eq!(
        decided(&harness),
        Some(Answer::TargetLease(LeaseAnswer::Add { minutes: 15 }))
    );
}

#[test]
fn lease_minutes_outside_the_range_disable_the_actions() {
    let mut harness = lease_window(&[]);
    play(&mut harness, &[fill(ls::DURATION, "0")]);
    assert!(!enabled(&harness, ls::REPLACE));
    assert!(!enabled(&harness, ls::ADD));
    assert!(shows(&harness, "Enter whole minutes from 1 to 1440."));
    play(&mut harness, &[click(ls::DENY)]);
    harness.step();
    assert!(shows(&harness, "Access denied."));
    assert_eq!(finish(&mut harness), Answer::TargetLease(LeaseAnswer::Deny));
}

// ---- authentication window ----

use auth::labels as au;

fn aws_fields() -> Vec<FieldSpec> {
    vec![
        field("AWS_ACCESS_KEY_ID", "Access key ID", false),
        field("AWS_SECRET_ACCESS_KEY", "Secret access key", false),
        field("AWS_REGION", "Region", false),
    ]
}

/// In both languages, by the buttons' own words, with the actions inside the window's width.
#[test]
fn required_fields_are_named() {
    for (language, heading, validate, required, cancel, cancelled) in [
        (
            Language::English,
            "aws needs a session",
            "Validate and use",
            "Required: Access key ID, Secret access key, Region.",
            "Cancel",
            "Authentication cancelled.",
        ),
        (
            Language::BrazilianPortuguese,
            "aws precisa de uma sessão",
            "Validar e usar",
            "Obrigatórios: Access key ID, Secret access key, Region.",
            "Cancelar",
            "Autenticação cancelada.",
        ),
    ] {
        set_for_thread(language);
        let mut harness = auth_window(aws_fields(), None, None);
        assert!(shows(&harness, heading), "{language}");
        play(&mut harness, &[click(validate)]);
        assert!(shows(&harness, required), "{language}");
        assert_eq!(decided(&harness), None);
        for label in [au::VALIDATE, au::CANCEL, au::PASTE] {
            assert!(within_width(&harness, label), "{language}: {label}");
        }
        play(&mut harness, &[click(cancel)]);
        harness.step();
        assert!(shows(&harness, cancelled), "{language}");
        assert_eq!(
            finish(&mut harness),
            Answer::Authenticate(AuthAnswer::Cancelled { refused: 0 })
        );
    }
}

/// The book: the status bar keeps its height and place whatever it says, so the form never
/// jumps: guidance, a missing field, validation in progress (with its spinner), a refusal and
/// the validated session all sit on the same rectangle.
#[cfg(unix)]
#[test]
fn the_status_bar_keeps_its_height_and_place_in_every_state() {
    set_for_thread(Language::English);
    let validator = slow_token_validator();
    let mut harness = auth_window(vec![field("TOKEN", "Token", false)], Some(validator), None);
    let mut bars = vec![("guidance", painted_behind(&harness, "Fill in the fields"))];
    play(&mut harness, &[click(au::VALIDATE)]);
    bars.push(("missing", painted_behind(&harness, "Required: Token.")));
    play(&mut harness, &[fill("Token", "bad"), click(au::VALIDATE)]);
    harness.step();
    bars.push((
        "progress",
        painted_behind(&harness, "Validating the session"),
    ));
    play(
        &mut harness,
        &[Action::WaitUntilEnabled(au::VALIDATE.text())],
    );
    bars.push(("refused", painted_behind(&harness, "Session refused")));
    play(&mut harness, &[fill("Token", "good"), click(au::VALIDATE)]);
    wait_for_validation(&mut harness);
    harness.step();
    bars.push(("validated", painted_behind(&harness, "Session validated.")));

    let (_, (first, _)) = bars[0];
    assert!(
        (first.height() - super::widgets::BAR_HEIGHT).abs() < 0.5,
        "{first:?}"
    );
    for (state, (rect, _)) in &bars {
        assert!(
            (rect.min - first.min).length() < 0.5 && (rect.size() - first.size()).length() < 0.5,
            "{state}: {rect:?} against {first:?}"
        );
    }
    // Each state paints its own colour on that one rectangle.
    let fills: std::collections::HashSet<_> = bars.iter().map(|(_, (_, fill))| *fill).collect();
    assert!(fills.len() >= 3, "{bars:?}");
}

/// The book: secret fields are masked, and a multiline field (a PEM key, a JSON session)
/// scrolls inside a bounded height instead of growing the window. Checked in what the window
/// exposes, which is what it draws: no node carries a secret, and the actions do not move
/// however many lines are pasted.
#[test]
fn secrets_are_masked_and_a_multiline_field_stays_bounded() {
    set_for_thread(Language::English);
    let fields = || {
        vec![
            FieldSpec {
                secret: false,
                ..field("USER", "User", false)
            },
            field("TOKEN", "Token", false),
            field("KEY", "Private key", true),
        ]
    };
    let validate_top = |lines: usize| {
        let mut harness = auth_window(fields(), None, None);
        let key: String = (0..lines)
            .map(|line| format!("key-canary-{line}\n"))
            .collect();
        play(
            &mut harness,
            &[
                fill("User", "plain-user"),
                fill("Token", "token-canary"),
                fill("Private key", &key),
                Action::Unfocus,
            ],
        );
        harness.step();
        let leaks: Vec<String> = harness
            .query_all(egui_kittest::kittest::by().predicate(|node| {
                let text = format!("{:?} {:?}", node.label(), node.value());
                text.contains("canary")
            }))
            .map(|node| format!("{node:?}"))
            .collect();
        assert!(leaks.is_empty(), "a secret is exposed: {leaks:?}");
        use eframe::egui::accesskit::Role;
        let role = |label: &str| {
            driver::node(&harness, label)
                .unwrap()
                .accesskit_node()
                .role()
        };
        assert_eq!(role("Token"), Role::PasswordInput);
        assert_eq!(role("Private key"), Role::PasswordInput);
        assert!(
            harness
                .query_all(egui_kittest::kittest::by().predicate(|node| {
                    node.value()
                        .is_some_and(|value| value.contains("plain-user"))
                }))
                .next()
                .is_some(),
            "the plain field shows its value"
        );
        let top = driver::node(&harness, &au::VALIDATE.to_string())
            .unwrap()
            .rect()
            .min
            .y;
        // Control: what was typed is in the form, whole, though nothing shows it.
        play(&mut harness, &[click(au::VALIDATE)]);
        let Answer::Authenticate(AuthAnswer::Validated { values, .. }) = finish(&mut harness)
        else {
            panic!("not validated");
        };
        assert_eq!(values["TOKEN"], crate::secret::Secret::from("token-canary"));
        assert_eq!(values["KEY"], crate::secret::Secret::from(key.as_str()));
        top
    };
    let short = validate_top(2);
    let long = validate_top(200);
    assert!(
        long - short <= super::auth::MULTILINE_HEIGHT,
        "200 lines pushed the actions down by {} px",
        long - short
    );
}

/// The live catalogue's AUTH-UI-01 and AUTH-UI-02: a one-field form is compact (it asks for
/// less height than the four-field one, and well under the maximum), and with four fields every
/// field and both actions lie inside the window, without scrolling the whole window.
#[test]
fn the_authentication_form_is_compact_with_one_field_and_whole_with_four() {
    set_for_thread(Language::English);
    let one = auth_window(vec![field("TOKEN", "Token", false)], None, None);
    let four = auth_window(
        vec![
            field("A", "Field A", false),
            field("B", "Field B", false),
            field("C", "Field C", false),
            field("D", "Field D", false),
        ],
        None,
        None,
    );
    let (compact, whole) = (one.state().wanted_height, four.state().wanted_height);
    assert!(
        compact < whole && whole <= super::widgets::MAX_HEIGHT,
        "{compact} {whole}"
    );
    let inside = |harness: &DrivenHarness<'_>, label: &str| {
        let rect = driver::node(harness, label).unwrap().rect();
        rect.min.y >= 0.0
            && rect.max.y <= harness.state().wanted_height
            && within_width(harness, label)
    };
    for label in ["Token", &au::VALIDATE.to_string(), &au::CANCEL.to_string()] {
        assert!(inside(&one, label), "one field: {label}");
    }
    for label in [
        "Field A",
        "Field B",
        "Field C",
        "Field D",
        &au::VALIDATE.to_string(),
        &au::CANCEL.to_string(),
    ] {
        assert!(inside(&four, label), "four fields: {label}");
    }
}

#[test]
fn the_clipboard_fills_declared_fields() {
    let clipboard = "export AWS_ACCESS_KEY_ID=AKIA1\nSET AWS_SECRET_ACCESS_KEY=s3cr3t\n$Env:AWS_REGION=\"sa-east-1\"\nexport OTHER=x\n";
    let mut harness = auth_window(aws_fields(), None, Some(clipboard));
    play(&mut harness, &[click(au::PASTE)]);
    assert!(shows(&harness, "Filled 3 fields from the clipboard"));
    play(&mut harness, &[click(au::VALIDATE)]);
    let Answer::Authenticate(AuthAnswer::Validated { values, .. }) = finish(&mut harness) else {
        panic!("not validated");
    };
    assert_eq!(
        values["AWS_ACCESS_KEY_ID"],
        crate::secret::Secret::from("AKIA1")
    );
    assert_eq!(
        values["AWS_SECRET_ACCESS_KEY"],
        crate::secret::Secret::from("s3cr3t")
    );
    assert_eq!(
        values["AWS_REGION"],
        crate::secret::Secret::from("sa-east-1")
    );
    assert_eq!(values.len(), 3);
}

/// In both languages: the validator runs on a thread of its own, and its refusal is still put
/// into the window's words. (The validator is an `sh` script.)
#[test]
#[cfg(unix)]
fn a_refused_candidate_reenables_the_form_and_an_accepted_one_returns() {
    for (language, validating, refused, validated) in [
        (
            Language::English,
            "Validating the session…",
            "Session refused (the validator exited with code 1): check the values.",
            "👍 Session validated.",
        ),
        (
            Language::BrazilianPortuguese,
            "Validando a sessão…",
            "Sessão recusada (o validador terminou com o código 1): confira os valores.",
            "👍 Sessão validada.",
        ),
    ] {
        set_for_thread(language);
        refused_then_accepted(validating, refused, validated);
    }
}

/// A validator that takes 0.3 s and accepts only the token `good`.
#[cfg(unix)]
fn slow_token_validator() -> ValidatorSpec {
    ValidatorSpec {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), r#"sleep 0.3; [ "$API_TOKEN" = good ]"#.into()],
        base_env: vec![],
        inject: vec![("API_TOKEN".into(), "TOKEN".into())],
        removed_env: vec![],
        confine_root: "/nonexistent/torii-root".into(),
        confine_programs: Vec::new(),
        confinement: crate::confine::Mode::BestEffort,
    }
}

/// Runs frames until the window decided (the validator runs in real time), at most 10 s.
#[cfg(unix)]
fn wait_for_validation(harness: &mut DrivenHarness<'_>) {
    let started = std::time::Instant::now();
    while decided(harness).is_none() && started.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        harness.step();
    }
}

#[cfg(unix)]
fn refused_then_accepted(validating: &str, refused: &str, validated: &str) {
    let validator = slow_token_validator();
    let fields = vec![
        field("TOKEN", "Token", false),
        FieldSpec {
            required: false,
            ..field("NOTE", "Note", true)
        },
    ];
    let mut harness = auth_window(fields, Some(validator), None);
    play(&mut harness, &[fill("Token", "bad"), click(au::VALIDATE)]);
    harness.step();
    assert!(shows(&harness, validating));
    assert!(!enabled(&harness, au::VALIDATE), "the form is locked");
    assert!(!enabled(&harness, "Token"));
    play(
        &mut harness,
        &[Action::WaitUntilEnabled(au::VALIDATE.text())],
    );
    assert!(shows(&harness, refused), "{refused}");
    assert_eq!(decided(&harness), None);

    play(&mut harness, &[fill("Token", "good"), click(au::VALIDATE)]);
    wait_for_validation(&mut harness);
    harness.step();
    assert!(shows(&harness, validated));
    let Answer::Authenticate(AuthAnswer::Validated { values, .. }) = finish(&mut harness) else {
        panic!("not validated");
    };
    assert_eq!(values.len(), 1);
    assert_eq!(values["TOKEN"], crate::secret::Secret::from("good"));
}

#[test]
fn closing_a_window_without_a_decision_denies_or_cancels() {
    let windows: [(Box<dyn Window>, Answer); 3] = [
        (
            Box::new(OperationWindow::new(OperationRequest {
                tool: "aws".into(),
                target: None,
                args: vec!["s3".into()],
                default_grant_minutes: 2,
                oldest_grant_remaining_secs: None,
            })),
            Answer::Operation(OperationAnswer::Deny),
        ),
        (
            Box::new(LeaseWindow::new(LeaseRequest {
                tool: "kubectl".into(),
                alias: "dev".into(),
                binding: "context x".into(),
                active_aliases: vec![],
                default_minutes: 15,
            })),
            Answer::TargetLease(LeaseAnswer::Deny),
        ),
        (
            Box::new(AuthWindow::new(
                AuthRequest {
                    tool: "aws".into(),
                    scope: "aws".into(),
                    fields: vec![],
                    validator: None,
                },
                Box::new(FixedClipboard(None)),
            )),
            Answer::Authenticate(AuthAnswer::Cancelled { refused: 0 }),
        ),
    ];
    for (window, expected) in windows {
        assert_eq!(window.closed(), expected);
    }
}

// ---- in Brazilian Portuguese ----

#[test]
fn the_operation_window_speaks_portuguese() {
    set_for_thread(Language::BrazilianPortuguese);
    let mut harness = operation(DESCRIBE, None);
    assert_eq!(op::ALLOW.text(), "Permitir");
    assert!(shows(
        &harness,
        "aws quer executar uma chamada que nenhuma regra decide"
    ));
    assert!(shows(
        &harness,
        "Permitir fica desabilitado até você marcar a caixa de revisão."
    ));
    assert!(!enabled(&harness, op::ALLOW));
    play(&mut harness, &[click(op::TEMPORARILY)]);
    assert!(ticked(&harness, op::PREFIX));
    assert!(shows(&harness, "Fixos (2)"));
    assert!(shows(
        &harness,
        "+ quaisquer argumentos acrescentados depois"
    ));
    play(&mut harness, &[click(op::EXACT)]);
    assert!(ticked(&harness, "Somente esta invocação exata"));
    assert!(shows(&harness, "Invocação exata (4 argumentos)"));
    play(&mut harness, &[click("10 min")]);
    assert!(shows(
        &harness,
        "Permitir por 10 min: chamadas em aws com exatamente estes 4 argumentos, nesta ordem, e \
         nada além."
    ));
    for label in [op::ALLOW, op::DENY, op::REVIEWED] {
        assert!(within_width(&harness, label), "{label}");
    }
    play(&mut harness, &[click(op::REVIEWED), click(op::ALLOW)]);
    harness.step();
    assert!(shows(&harness, "👍 Acesso autorizado por 10 min."));
    assert_eq!(
        finish(&mut harness),
        Answer::Operation(OperationAnswer::Temporary {
            scope: GrantScope::Exact,
            duration_secs: 600
        })
    );
}

#[test]
fn the_lease_window_speaks_portuguese_and_keeps_its_hold() {
    set_for_thread(Language::BrazilianPortuguese);
    let mut harness = lease_window(&["hml", "prd"]);
    assert!(shows(&harness, "kubectl quer usar o target dev"));
    assert!(shows(&harness, "Ativos agora (2)"));
    assert!(shows(
        &harness,
        "Mantenha Adicionar ao conjunto pressionado por 1 segundo para confirmar."
    ));
    for label in [ls::REPLACE, ls::ADD, ls::DENY] {
        assert!(within_width(&harness, label), "{label}");
    }
    play(&mut harness, &[click("Adicionar ao conjunto")]);
    assert_eq!(decided(&harness), None, "a click is not a hold");
    play(
        &mut harness,
        &[
            Action::Press("Adicionar ao conjunto".into()),
            Action::Wait(1.1),
        ],
    );
    assert_eq!(
        decided(&harness),
        Some(Answer::TargetLease(LeaseAnswer::Add { minutes: 15 }))
    );
    play(
        &mut harness,
        &[Action::Release("Adicionar ao conjunto".into())],
    );
    assert!(shows(
        &harness,
        "👍 dev adicionado aos targets ativos, por 15 min."
    ));

    let mut alone = lease_window(&[]);
    assert!(shows(&alone, "nenhum target de kubectl está ativo"));
    play(&mut alone, &[click("Substituir todos os ativos")]);
    assert_eq!(
        decided(&alone),
        Some(Answer::TargetLease(LeaseAnswer::Replace { minutes: 15 }))
    );
}
