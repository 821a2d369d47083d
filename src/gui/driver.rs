//! TEST ONLY, feature `test-hooks` only: drives a window by its labels instead of a person.
//!
//! When `TORII_TEST_PROMPT_SCRIPT` holds a script, `torii __prompt` (built with the
//! `test-hooks` feature) runs the real window code headless in an egui_kittest harness and
//! plays the
//! script: clicks, typing, presses held for simulated time, waits for the background validator.
//! The answer then goes through the real protocol exactly as after a human's clicks. Only the
//! native shell (eframe, winit, OpenGL) is left out; `"show": true` hands the driven window to
//! the native shell afterwards, which is how the screenshot script reaches each state.
//!
//! Other builds, debug or release, do not contain this module: there, the variable makes the
//! prompt refuse to answer (the server denies). The unit tests of the windows use the same
//! harness.

use std::time::{Duration, Instant};

use eframe::egui::{self, Modifiers, PointerButton, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use serde::Deserialize;

use super::auth::ClipboardSource;
use super::widgets::{MAX_HEIGHT, WIDTH};
use super::window::Window;
use super::{GuiError, shell};
use crate::dialog::feedback::FEEDBACK_SECS;
use crate::prompt::{Answer, Request};

/// Simulated seconds per frame.
pub const STEP_SECS: f32 = 0.05;
/// Real time allowed for a background validator.
const REAL_TIMEOUT: Duration = Duration::from_secs(20);

/// A script: steps, then either wait for the decision headless or show the native window.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// What the clipboard button reads (the system clipboard is never touched).
    #[serde(default)]
    pub clipboard: Option<String>,
    pub steps: Vec<Action>,
    /// Show the window natively after the steps (screenshots).
    #[serde(default)]
    pub show: bool,
    /// With `show`: keep a decided window open this long, so its feedback can be captured.
    #[serde(default)]
    pub linger_secs: f64,
    /// Before showing: write `rect<TAB>label<TAB>x<TAB>y<TAB>width<TAB>height` on stderr for
    /// each of these widgets, so the screenshot script can press one in the native window.
    #[serde(default)]
    pub report: Vec<String>,
}

/// One action on the window, addressed by a label.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Click the one widget with this label.
    Click(String),
    /// Replace the text of the field with this label.
    Fill { label: String, text: String },
    /// Press the primary button on the widget and keep it down.
    Press(String),
    /// Release the primary button over the widget.
    Release(String),
    /// Let simulated time pass, in seconds.
    Wait(f64),
    /// Run frames (in real time) until the widget with this label is enabled.
    WaitUntilEnabled(String),
    /// The window loses focus (a press after it is the click that focuses it again).
    Unfocus,
    /// Announce this window in `dir` and wait (in real time) until `count` windows have: a
    /// barrier that lets a test hold several open windows at once without guessing timings.
    Rendezvous {
        dir: std::path::PathBuf,
        count: usize,
    },
}

/// A fixed clipboard text.
pub struct FixedClipboard(pub Option<String>);

impl ClipboardSource for FixedClipboard {
    fn read_text(&mut self) -> Result<String, String> {
        self.0
            .clone()
            .ok_or_else(|| "the clipboard is empty".into())
    }
}

/// A window in a harness, with the height it asked for on the last frame.
pub struct Driven<'a> {
    pub window: Box<dyn Window + 'a>,
    pub wanted_height: f32,
}

/// The harness the driver and the tests use.
pub type DrivenHarness<'a> = Harness<'a, Driven<'a>>;

/// A headless harness around `window`, sized like the native window.
pub fn harness<'a>(window: Box<dyn Window + 'a>) -> DrivenHarness<'a> {
    Harness::builder()
        .with_size(vec2(WIDTH, MAX_HEIGHT))
        .with_step_dt(STEP_SECS)
        .build_ui_state(
            |ui, driven: &mut Driven<'a>| {
                let now = ui.input(|input| input.time);
                driven.wanted_height = driven.window.ui(ui, now);
            },
            Driven {
                window,
                wanted_height: 0.0,
            },
        )
}

/// Plays `script` (JSON text) on the window for `request`.
pub fn run(request: Request, script: &str) -> Result<Answer, GuiError> {
    let script: Script =
        serde_json::from_str(script).map_err(|error| GuiError::Script(error.to_string()))?;
    let clipboard = Box::new(FixedClipboard(script.clipboard.clone()));
    let mut harness = harness(super::window_for(request, clipboard));
    for step in &script.steps {
        play(&mut harness, step)?;
    }
    for label in &script.report {
        let rect = node(&harness, label)?.rect();
        eprintln!(
            "rect\t{label}\t{}\t{}\t{}\t{}",
            rect.min.x,
            rect.min.y,
            rect.width(),
            rect.height()
        );
    }
    if script.show {
        return shell::run_with(harness.into_state().window, script.linger_secs);
    }
    let answer = wait_for_decision(&mut harness)?;
    Ok(answer)
}

/// Runs frames until the window decided and its feedback time passed.
pub fn wait_for_decision(harness: &mut DrivenHarness<'_>) -> Result<Answer, GuiError> {
    let started = Instant::now();
    loop {
        harness.step();
        let now = harness.ctx.input(|input| input.time);
        if let Some((answer, at)) = harness.state().window.decided()
            && now - at >= FEEDBACK_SECS
        {
            return Ok(answer);
        }
        if started.elapsed() > REAL_TIMEOUT {
            return Err(GuiError::Script(
                "the script ended without a decision".into(),
            ));
        }
        if harness.state().window.decided().is_none() {
            // A background validator may be running: give it real time.
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Plays one step.
pub fn play(harness: &mut DrivenHarness<'_>, step: &Action) -> Result<(), GuiError> {
    match step {
        Action::Click(label) => {
            node(harness, label)?.click();
            harness.step();
        }
        Action::Fill { label, text } => {
            node(harness, label)?.click();
            harness.step();
            harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
            harness.step();
            harness.event(egui::Event::Text(text.clone()));
            harness.step();
        }
        Action::Press(label) => {
            let center = node(harness, label)?.rect().center();
            harness.event(egui::Event::PointerMoved(center));
            harness.event(egui::Event::PointerButton {
                pos: center,
                button: PointerButton::Primary,
                pressed: true,
                modifiers: Modifiers::NONE,
            });
            harness.step();
        }
        Action::Release(label) => {
            let center = node(harness, label)?.rect().center();
            harness.event(egui::Event::PointerButton {
                pos: center,
                button: PointerButton::Primary,
                pressed: false,
                modifiers: Modifiers::NONE,
            });
            harness.step();
        }
        Action::Wait(secs) => {
            let frames = (secs / f64::from(STEP_SECS)).ceil().max(0.0) as u64;
            for _ in 0..frames.min(100_000) {
                harness.step();
            }
        }
        Action::WaitUntilEnabled(label) => {
            let started = Instant::now();
            while node(harness, label)?.accesskit_node().is_disabled() {
                if started.elapsed() > REAL_TIMEOUT {
                    return Err(GuiError::Script(format!("`{label}` stayed disabled")));
                }
                std::thread::sleep(Duration::from_millis(5));
                harness.step();
            }
        }
        Action::Unfocus => {
            harness.event(egui::Event::WindowFocused(false));
            harness.step();
        }
        Action::Rendezvous { dir, count } => rendezvous(dir, *count)?,
    }
    Ok(())
}

fn rendezvous(dir: &std::path::Path, count: usize) -> Result<(), GuiError> {
    let failed = |error: std::io::Error| GuiError::Script(format!("rendezvous: {error}"));
    std::fs::write(dir.join(std::process::id().to_string()), b"").map_err(failed)?;
    let started = Instant::now();
    while std::fs::read_dir(dir).map_err(failed)?.count() < count {
        if started.elapsed() > REAL_TIMEOUT {
            return Err(GuiError::Script(format!(
                "rendezvous: fewer than {count} windows opened"
            )));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(())
}

/// The one widget labelled `label` (a widget labelled by a text label counts, not the text).
pub fn node<'h>(
    harness: &'h DrivenHarness<'_>,
    label: &'h str,
) -> Result<egui_kittest::Node<'h>, GuiError> {
    let mut found = harness.query_all_by_label(label);
    match (found.next(), found.next()) {
        (Some(node), None) => Ok(node),
        (None, _) => Err(GuiError::Script(format!("no widget is labelled `{label}`"))),
        (Some(_), Some(_)) => Err(GuiError::Script(format!(
            "several widgets are labelled `{label}`"
        ))),
    }
}
