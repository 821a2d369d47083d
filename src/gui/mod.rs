//! The human windows, shown by the `torii __prompt` subprocess (feature `gui`).
//!
//! Each window is a question's pure state (`crate::dialog`: what is selected, what Allow would
//! grant, the decision) and a thin egui view that draws it and forwards input. The same view runs in the
//! native shell (`shell.rs`, eframe with OpenGL) and in egui_kittest harnesses (the unit tests
//! and the test driver of the `test-hooks` feature, `driver.rs`).
//!
//! Files: `operation/` (unresolved call), `lease/` (inactive target alias), `auth/`
//! (environment credentials), `window.rs` (the drawing contract), `widgets.rs` (layout, pills,
//! bars, hold button).

mod auth;
// The unit tests use the harness helpers without the driver's entry point.
#[cfg(any(test, feature = "test-hooks"))]
#[cfg_attr(not(feature = "test-hooks"), allow(dead_code))]
mod driver;
mod lease;
mod operation;
mod shell;
mod widgets;
mod window;

#[cfg(test)]
mod tests;

use std::ffi::OsStr;

use crate::prompt::{Answer, Request};
use auth::{AuthWindow, ClipboardSource, SystemClipboard};
use lease::LeaseWindow;
use operation::OperationWindow;
use window::Window;

/// TEST ONLY: a script that drives the window instead of a person (builds with the
/// `test-hooks` feature only; see `driver.rs`). Any other build refuses to answer when it is
/// set, so the call is denied.
pub const TEST_SCRIPT_ENV: &str = "TORII_TEST_PROMPT_SCRIPT";

/// Why no window answered.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    #[error("cannot show the window: {0}")]
    Window(String),
    #[cfg(not(feature = "test-hooks"))]
    #[error("{TEST_SCRIPT_ENV} is set, but this build has no test driver (feature `test-hooks`)")]
    ScriptWithoutTestHooks,
    #[cfg(any(test, feature = "test-hooks"))]
    #[error("test script: {0}")]
    Script(String),
}

/// Shows the window for `request` and returns the human's answer.
pub fn answer(request: Request) -> Result<Answer, GuiError> {
    match std::env::var_os(TEST_SCRIPT_ENV) {
        None => shell::run(window_for(request, Box::new(SystemClipboard))),
        Some(script) => scripted(request, &script),
    }
}

#[cfg(feature = "test-hooks")]
fn scripted(request: Request, script: &OsStr) -> Result<Answer, GuiError> {
    let script = script
        .to_str()
        .ok_or_else(|| GuiError::Script("the script is not UTF-8".into()))?;
    driver::run(request, script)
}

#[cfg(not(feature = "test-hooks"))]
fn scripted(_request: Request, _script: &OsStr) -> Result<Answer, GuiError> {
    Err(GuiError::ScriptWithoutTestHooks)
}

/// The window for one request.
fn window_for(request: Request, clipboard: Box<dyn ClipboardSource>) -> Box<dyn Window> {
    match request {
        Request::Operation(request) => Box::new(OperationWindow::new(request)),
        Request::TargetLease(request) => Box::new(LeaseWindow::new(request)),
        Request::Authenticate(request) => Box::new(AuthWindow::new(request, clipboard)),
    }
}
