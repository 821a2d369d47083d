//! A session to collect, asked at the terminal with the window's own state
//! (`crate::dialog::auth`): the provider's fields (secrets never shown, not even their
//! length), "validate and use" with the provider's validator, its refusal shown and the form
//! given back, and Cancel.

use ratatui::text::{Line, Span};

use super::dialog::{Dialog, heading};
use super::screen::{Key, dim, strong};
use crate::dialog::auth::AuthState;
use crate::dialog::feedback::Status;
use crate::prompt::{Answer, AuthRequest};

/// The authentication question, with the field being typed into.
pub struct AuthDialog {
    state: AuthState,
    field: usize,
}

impl AuthDialog {
    pub fn new(request: AuthRequest) -> Self {
        Self {
            state: AuthState::new(request),
            field: 0,
        }
    }
}

impl Dialog for AuthDialog {
    fn answer(&self) -> Option<Answer> {
        self.state
            .decided()
            .map(|decided| Answer::Authenticate(decided.answer.clone()))
    }

    /// Cancels, stopping a validator that is running.
    fn refuse(&mut self, now: f64) {
        self.state.cancel(now);
    }

    fn tick(&mut self, now: f64) {
        self.state.poll(now);
    }

    fn title(&self) -> String {
        crate::tr!("auth-title", tool = self.state.request().tool.as_str())
    }

    fn lines(&self, asker: &str, _now: f64) -> Vec<Line<'static>> {
        lines(asker, &self.state, self.field)
    }

    fn key(&mut self, key: Key, now: f64) {
        let count = self.state.request().fields.len();
        let (state, field) = (&mut self.state, self.field);
        match key {
            Key::Esc => state.cancel(now),
            Key::Enter => state.validate(now, || {}),
            Key::Tab | Key::Down if count > 0 => self.field = (field + 1) % count,
            Key::Up if count > 0 => self.field = (field + count - 1) % count,
            Key::Char(c) => edit(state, field, |value| value.push(c)),
            Key::Paste(text) => edit(state, field, |value| value.push_str(&text)),
            Key::Backspace => edit(state, field, |value| {
                value.pop();
            }),
            _ => {}
        }
    }
}

/// Changes the value of field `index`, as long as the form is editable.
fn edit(state: &mut AuthState, index: usize, change: impl FnOnce(&mut String)) {
    let Some(mut value) = state.values().get(index).cloned() else {
        return;
    };
    change(&mut value);
    state.set_value(index, value);
}

fn lines(asker: &str, state: &AuthState, selected: usize) -> Vec<Line<'static>> {
    let request = state.request();
    let mut lines = heading(asker, &request.tool, None);
    lines.push(Line::default());
    for (index, (spec, value)) in request.fields.iter().zip(state.values()).enumerate() {
        let marker = if index == selected { "▶ " } else { "  " };
        let shown = if spec.secret {
            // Not even the length: only whether something was typed.
            if value.is_empty() {
                String::new()
            } else {
                crate::tr!("console-secret-set")
            }
        } else if spec.multiline {
            crate::tr!("console-lines", count = value.lines().count())
        } else {
            value.clone()
        };
        let required = if spec.required { " *" } else { "" };
        lines.push(Line::from(vec![
            Span::raw(marker.to_string()),
            Span::styled(format!("{}{required}: ", spec.label), strong()),
            Span::raw(shown),
        ]));
    }
    lines.push(Line::default());
    let (text, style) = match state.status() {
        Status::Info(text) | Status::Progress(text) => (text.clone(), Default::default()),
        Status::Error(text) => (text.clone(), strong()),
        Status::Done(feedback) => (feedback.text.clone(), strong()),
    };
    lines.push(Line::from(text).style(style));
    lines.push(Line::default());
    lines.push(Line::from(crate::tr!("console-auth-keys")).style(dim()));
    lines
}
