//! An unresolved call, asked at the terminal with the window's own state
//! (`crate::dialog::operation`): the same choices, the same review tick, the same answer.

use ratatui::text::{Line, Span};

use super::dialog::{Dialog, heading};
use super::screen::{Key, MinutesInput, dim, strong};
use crate::dialog::operation::{DurationChoice, Lifetime, OperationState, ScopeKind};
use crate::dialog::pills::{pill_text, visible};
use crate::prompt::{Answer, OperationRequest};

/// The operation question, with the minutes field being typed.
pub struct OperationDialog {
    state: OperationState,
    minutes: MinutesInput,
}

impl OperationDialog {
    pub fn new(request: OperationRequest) -> Self {
        Self {
            state: OperationState::new(request, 0.0),
            minutes: MinutesInput::default(),
        }
    }
}

impl Dialog for OperationDialog {
    fn answer(&self) -> Option<Answer> {
        self.state
            .decided()
            .map(|decided| Answer::Operation(decided.answer))
    }

    fn refuse(&mut self, now: f64) {
        self.state.deny(now);
    }

    fn title(&self) -> String {
        crate::tr!("op-title", tool = self.state.request().tool.as_str())
    }

    fn lines(&self, asker: &str, now: f64) -> Vec<Line<'static>> {
        lines(asker, &self.state, now)
    }

    fn key(&mut self, key: Key, now: f64) {
        let state = &mut self.state;
        if let Some(text) = self.minutes.key(&key, state.minutes_text()) {
            state.set_minutes_text(text);
            return;
        }
        match key {
            Key::Esc | Key::Char('d') => state.deny(now),
            Key::Enter => state.allow(now),
            Key::Char('o') => state.set_lifetime(Lifetime::Once),
            Key::Char('t') => state.set_lifetime(Lifetime::Temporary),
            Key::Char('e') => state.set_scope(ScopeKind::Exact),
            Key::Char('p') => state.set_scope(ScopeKind::Prefix),
            Key::Left => state.set_prefix_tokens(state.prefix_tokens().saturating_sub(1)),
            Key::Right => state.set_prefix_tokens(state.prefix_tokens() + 1),
            Key::Char('s') => state.restore_suggestion(),
            Key::Char('w') => state.end_with_oldest(),
            Key::Char(' ') => state.set_reviewed(!state.reviewed()),
            _ => {}
        }
    }
}

/// The question as lines: who asks, the call as tokens, the choices with their keys, what
/// Allow would grant and what is missing.
fn lines(asker: &str, state: &OperationState, now: f64) -> Vec<Line<'static>> {
    let request = state.request();
    let mut lines = heading(asker, &request.tool, request.target.as_deref());
    let tokens: Vec<Span<'static>> = request
        .args
        .iter()
        .enumerate()
        .flat_map(|(index, token)| {
            let style = if index < state.prefix_tokens()
                && state.lifetime() == Lifetime::Temporary
                && state.scope() == ScopeKind::Prefix
            {
                strong()
            } else {
                Default::default()
            };
            [
                Span::styled(format!("[{}] ", index + 1), dim()),
                Span::styled(format!("{}  ", whole(token)), style),
            ]
        })
        .collect();
    lines.push(Line::from(crate::tr!("console-args")).style(dim()));
    lines.push(Line::from(tokens));
    lines.push(Line::default());
    let mark = |on: bool| if on { "(•)" } else { "( )" };
    lines.push(Line::from(format!(
        "{} {}   {} {}",
        mark(state.lifetime() == Lifetime::Once),
        crate::tr!("console-once-key"),
        mark(state.lifetime() == Lifetime::Temporary),
        crate::tr!("console-temporary-key"),
    )));
    if state.lifetime() == Lifetime::Temporary {
        lines.push(Line::from(format!(
            "    {} {}   {} {}",
            mark(state.scope() == ScopeKind::Exact),
            crate::tr!("console-exact-key"),
            mark(state.scope() == ScopeKind::Prefix),
            crate::tr!("console-prefix-key", tokens = state.prefix_tokens()),
        )));
        if let Some(suggestion) = state.suggestion() {
            lines.push(Line::from(format!("    {}", suggestion.reason())).style(dim()));
        }
        let duration = match state.duration_choice() {
            DurationChoice::Minutes => {
                crate::tr!(
                    "console-minutes",
                    minutes = state.minutes_text().to_string()
                )
            }
            DurationChoice::EndWithOldest => crate::tr!("console-end-with-oldest"),
        };
        lines.push(Line::from(format!("    {duration}")));
    }
    lines.push(Line::default());
    lines.push(Line::from(vec![
        Span::raw(format!("{} ", if state.reviewed() { "[x]" } else { "[ ]" })),
        Span::raw(state.reviewed_label().text()),
        Span::styled(format!("  {}", crate::tr!("console-review-key")), dim()),
    ]));
    lines.push(Line::from(state.summary(now)).style(strong()));
    lines.push(Line::from(state.status(now)));
    lines.push(Line::default());
    lines.push(Line::from(crate::tr!("console-op-keys")).style(dim()));
    lines
}

/// A token in full, with what could fake the display escaped: the window shortens a long token
/// and pages through the rest on request; a terminal wraps it, so every character is on screen
/// when the human approves.
fn whole(token: &str) -> String {
    if token.is_empty() {
        pill_text(token)
    } else {
        visible(token)
    }
}
