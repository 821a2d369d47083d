//! An inactive target alias, asked at the terminal with the window's own state
//! (`crate::dialog::lease`): the requested binding, the active aliases, the duration, and
//! Replace, Add or Deny. Where the window asks to hold Add for a second because it would leave
//! several aliases active, the console asks the human to type the alias.

use ratatui::text::Line;

use super::dialog::{Dialog, heading};
use super::screen::{Key, MinutesInput, dim, strong};
use crate::dialog::lease::LeaseState;
use crate::prompt::{Answer, LeaseRequest};

/// The lease question, with the minutes field and, while Add waits for it, the alias typed.
pub struct LeaseDialog {
    state: LeaseState,
    minutes: MinutesInput,
    confirming: Option<String>,
}

impl LeaseDialog {
    pub fn new(request: LeaseRequest) -> Self {
        Self {
            state: LeaseState::new(request),
            minutes: MinutesInput::default(),
            confirming: None,
        }
    }
}

impl Dialog for LeaseDialog {
    fn answer(&self) -> Option<Answer> {
        self.state
            .decided()
            .map(|decided| Answer::TargetLease(decided.answer))
    }

    fn refuse(&mut self, now: f64) {
        self.state.deny(now);
    }

    fn title(&self) -> String {
        let request = self.state.request();
        crate::tr!(
            "lease-title",
            alias = request.alias.as_str(),
            tool = request.tool.as_str()
        )
    }

    fn lines(&self, asker: &str, _now: f64) -> Vec<Line<'static>> {
        lines(asker, &self.state, self.confirming.as_deref())
    }

    fn key(&mut self, key: Key, now: f64) {
        let state = &mut self.state;
        if let Some(typed) = self.confirming.as_mut() {
            match key {
                Key::Char(c) => typed.push(c),
                Key::Paste(text) => typed.push_str(text.trim()),
                Key::Backspace => {
                    typed.pop();
                }
                Key::Enter => {
                    state.add_typed(typed, now);
                    self.confirming = None;
                }
                Key::Esc => self.confirming = None,
                _ => {}
            }
            return;
        }
        if let Some(text) = self.minutes.key(&key, state.minutes_text()) {
            state.set_minutes_text(text);
            return;
        }
        match key {
            Key::Esc | Key::Char('d') => state.deny(now),
            Key::Char('r') => state.replace(now),
            Key::Char('a') if !state.add_needs_hold() => state.add_clicked(now),
            Key::Char('a') if state.actions_enabled() => self.confirming = Some(String::new()),
            _ => {}
        }
    }
}

fn lines(asker: &str, state: &LeaseState, confirming: Option<&str>) -> Vec<Line<'static>> {
    let request = state.request();
    let mut lines = heading(asker, &request.tool, Some(&request.alias));
    lines.push(Line::from(crate::tr!(
        "console-binding",
        binding = request.binding.as_str()
    )));
    let others = state.others();
    lines.push(Line::from(if others.is_empty() {
        crate::tr!("console-no-active")
    } else {
        crate::tr!("console-active", aliases = others.join(", "))
    }));
    lines.push(Line::from(crate::tr!(
        "console-lease-minutes",
        minutes = state.minutes_text().to_string()
    )));
    // The window's alert asks for a hold; here Add asks for the alias typed.
    if !others.is_empty() {
        lines.push(Line::default());
        lines.push(
            Line::from(crate::tr!(
                "console-lease-alert",
                count = others.len(),
                others = others.join(", "),
                alias = request.alias.as_str()
            ))
            .style(strong()),
        );
    }
    lines.push(Line::default());
    lines.push(Line::from(match state.status() {
        Ok(status) | Err(status) => status,
    }));
    lines.push(Line::default());
    match confirming {
        Some(typed) => {
            lines.push(Line::from(crate::tr!(
                "console-type-alias",
                alias = request.alias.as_str()
            )));
            lines.push(Line::from(format!("> {typed}")).style(strong()));
        }
        None => lines.push(Line::from(crate::tr!("console-lease-keys")).style(dim())),
    }
    lines
}
