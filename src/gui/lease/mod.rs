//! The target lease window: the requested binding and the active aliases in one compact
//! section, the duration in the requested target's card, and Replace all active / Add to the
//! set / Deny. When Add would leave several aliases active, a full-width alert sits right above
//! the actions and Add completes only after a continuous 1-second press.
//!
//! `crate::dialog::lease` decides; this file only draws the state and forwards input to it.

pub use crate::dialog::lease::{LeaseState, labels};

use eframe::egui::{self, RichText, TextEdit, Ui};

use super::widgets::{self, PillKind, Status};
use super::window::Window;
use crate::dialog::hold::Hold;
use crate::prompt::{Answer, LeaseAnswer, LeaseRequest};

/// The window around a [`LeaseState`].
pub struct LeaseWindow {
    state: LeaseState,
}

impl LeaseWindow {
    pub fn new(request: LeaseRequest) -> Self {
        Self {
            state: LeaseState::new(request),
        }
    }
}

enum Edit {
    MinutesText(String),
    Replace,
    AddClicked,
    /// The hold button is down this frame.
    AddPressed(bool),
    Deny,
}

impl Window for LeaseWindow {
    fn title(&self) -> String {
        crate::tr!(
            "lease-title",
            alias = self.state.request().alias.as_str(),
            tool = self.state.request().tool.as_str()
        )
    }

    fn ui(&mut self, ui: &mut Ui, now: f64) -> f32 {
        let mut edits = Vec::new();
        let shown = &self.state;
        let height = widgets::skeleton(
            ui,
            &mut edits,
            |ui, edits| body(ui, shown, edits),
            |_, _| {},
            |ui, edits| footer(ui, shown, now, edits),
        );
        let mut pressed = false;
        if edits
            .iter()
            .any(|edit| !matches!(edit, Edit::AddPressed(_)))
        {
            // Input is applied after drawing; draw again at once so no frame shows the old state.
            ui.ctx().request_discard("input changed the window");
        }
        for edit in edits {
            match edit {
                Edit::MinutesText(text) => self.state.set_minutes_text(text),
                Edit::Replace => self.state.replace(now),
                Edit::AddClicked => self.state.add_clicked(now),
                Edit::AddPressed(down) => pressed = down,
                Edit::Deny => self.state.deny(now),
            }
        }
        if let Hold::Holding { .. } = self.state.add_pressed(pressed, now) {
            ui.ctx().request_repaint();
        }
        height
    }

    fn decided(&self) -> Option<(Answer, f64)> {
        let decided = self.state.decided()?;
        Some((Answer::TargetLease(decided.answer), decided.at))
    }

    fn closed(&self) -> Answer {
        Answer::TargetLease(LeaseAnswer::Deny)
    }
}

fn body(ui: &mut Ui, state: &LeaseState, edits: &mut Vec<Edit>) {
    let request = state.request();
    ui.heading(crate::tr!(
        "lease-heading",
        tool = request.tool.as_str(),
        alias = request.alias.as_str()
    ));
    ui.label(RichText::new(crate::tr!("lease-explainer")).weak());
    ui.add_space(6.0);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(RichText::new(crate::tr!("lease-requested")).weak());
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(&request.alias)
                    .monospace()
                    .strong()
                    .size(16.0),
            );
            ui.label(RichText::new(&request.binding).monospace());
        });
        ui.horizontal(|ui| {
            let label = ui.label(labels::DURATION.text());
            let mut text = state.minutes_text().to_string();
            let field = ui
                .add_enabled(
                    state.decided().is_none(),
                    TextEdit::singleline(&mut text)
                        .desired_width(52.0)
                        .char_limit(5),
                )
                .labelled_by(label.id);
            if field.changed() {
                edits.push(Edit::MinutesText(text));
            }
            ui.label(RichText::new(crate::tr!("lease-minutes-range")).weak());
        });
        ui.separator();
        let others = state.others();
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(crate::tr!("lease-active-now", count = others.len())).weak());
            if others.is_empty() {
                ui.label(crate::tr!(
                    "lease-none-active",
                    tool = request.tool.as_str()
                ));
            }
            for alias in others {
                widgets::pill(ui, alias, PillKind::Plain, None);
            }
        });
    });
}

fn footer(ui: &mut Ui, state: &LeaseState, now: f64, edits: &mut Vec<Edit>) {
    if let Some(alert) = state.alert() {
        widgets::alert(ui, &alert);
        ui.add_space(4.0);
    }
    let enabled = state.actions_enabled();
    widgets::actions(ui, |ui| {
        if ui
            .add_enabled(enabled, egui::Button::new(labels::REPLACE.text()))
            .clicked()
        {
            edits.push(Edit::Replace);
        }
        if state.add_needs_hold() {
            let add =
                widgets::hold_button(ui, &labels::ADD.text(), state.add_fraction(now), enabled);
            if enabled && add.is_pointer_button_down_on() {
                edits.push(Edit::AddPressed(true));
            }
        } else if ui
            .add_enabled(enabled, egui::Button::new(labels::ADD.text()))
            .clicked()
        {
            edits.push(Edit::AddClicked);
        }
        if ui
            .add_enabled(
                state.decided().is_none(),
                egui::Button::new(labels::DENY.text()),
            )
            .clicked()
        {
            edits.push(Edit::Deny);
        }
    });
    let status = match (state.decided(), state.status()) {
        (Some(decided), _) => Status::Done(decided.feedback.clone()),
        (None, Ok(text)) => Status::Info(text),
        (None, Err(error)) => Status::Error(error),
    };
    widgets::status_bar(ui, &status);
}
