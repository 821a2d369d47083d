//! The authentication window: a form generated from the provider's fields (secrets masked,
//! multi-line fields of bounded height with their own scroll bar), a clipboard button, and
//! "Validate and use", which locks the form and shows progress in a fixed-height, full-width
//! status bar under the right-aligned actions while a background thread runs the validator.
//! A refused candidate re-enables the same form with the error; an accepted one shows
//! "👍 Session validated." briefly, then the window closes.
//!
//! `crate::dialog::auth` decides (with `dialog::clipboard` reading `KEY=value` lines and
//! `dialog::validator` running the validator); `clipboard.rs` says where the clipboard's text
//! comes from; this file only draws and forwards input.

pub mod clipboard;

pub use crate::dialog::auth::{AuthState, Phase, labels};
pub use clipboard::{ClipboardSource, SystemClipboard};

use eframe::egui::{self, RichText, ScrollArea, TextEdit, Ui};

use super::widgets;
use super::window::Window;
use crate::prompt::{Answer, AuthAnswer, AuthRequest};

/// Height of a multi-line field before it scrolls inside itself.
pub(super) const MULTILINE_HEIGHT: f32 = 88.0;

/// The window around an [`AuthState`].
pub struct AuthWindow {
    state: AuthState,
    clipboard: Box<dyn ClipboardSource>,
}

impl AuthWindow {
    pub fn new(request: AuthRequest, clipboard: Box<dyn ClipboardSource>) -> Self {
        Self {
            state: AuthState::new(request),
            clipboard,
        }
    }
}

enum Edit {
    Value(usize, String),
    Paste,
    Validate,
    Cancel,
}

impl Window for AuthWindow {
    fn title(&self) -> String {
        crate::tr!("auth-title", tool = self.state.request().tool.as_str())
    }

    fn ui(&mut self, ui: &mut Ui, now: f64) -> f32 {
        self.state.poll(now);
        if self.state.phase() == Phase::Validating {
            // The spinner turns, and the verdict is picked up even without a wake-up.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(50));
        }
        let mut edits = Vec::new();
        let shown = &self.state;
        let height = widgets::skeleton(
            ui,
            &mut edits,
            |ui, edits| form(ui, shown, edits),
            |_, _| {},
            |ui, edits| footer(ui, shown, edits),
        );
        if !edits.is_empty() {
            // Input is applied after drawing; draw again at once so no frame shows the old state.
            ui.ctx().request_discard("input changed the window");
        }
        for edit in edits {
            match edit {
                Edit::Value(index, value) => self.state.set_value(index, value),
                Edit::Paste => {
                    let text = self.clipboard.read_text();
                    self.state.paste(text);
                }
                Edit::Validate => {
                    let ctx = ui.ctx().clone();
                    self.state.validate(now, move || ctx.request_repaint());
                }
                Edit::Cancel => self.state.cancel(now),
            }
        }
        height
    }

    fn decided(&self) -> Option<(Answer, f64)> {
        let decided = self.state.decided()?;
        Some((Answer::Authenticate(decided.answer.clone()), decided.at))
    }

    fn closed(&self) -> Answer {
        Answer::Authenticate(AuthAnswer::Cancelled { refused: 0 })
    }
}

fn form(ui: &mut Ui, state: &AuthState, edits: &mut Vec<Edit>) {
    let request = state.request();
    ui.heading(crate::tr!("auth-heading", tool = request.tool.as_str()));
    ui.label(RichText::new(crate::tr!("auth-explainer", scope = request.scope.as_str())).weak());
    ui.add_space(6.0);
    let editable = state.editable();
    for (index, (field, value)) in request.fields.iter().zip(state.values()).enumerate() {
        let label = ui
            .horizontal(|ui| {
                let label = ui.label(RichText::new(&field.label).strong());
                let note = if field.required {
                    crate::tr!("auth-required")
                } else {
                    crate::tr!("auth-optional")
                };
                ui.label(RichText::new(note).weak().small());
                label
            })
            .inner;
        let mut text = value.clone();
        let response = if field.multiline {
            ScrollArea::vertical()
                .id_salt(("field", index))
                .max_height(MULTILINE_HEIGHT)
                .show(ui, |ui| {
                    ui.add_enabled(
                        editable,
                        TextEdit::multiline(&mut text)
                            .id_salt(("edit", index))
                            .password(field.secret)
                            .desired_rows(4)
                            .desired_width(f32::INFINITY),
                    )
                })
                .inner
        } else {
            ui.add_enabled(
                editable,
                TextEdit::singleline(&mut text)
                    .id_salt(("edit", index))
                    .password(field.secret)
                    .desired_width(f32::INFINITY),
            )
        };
        if response.labelled_by(label.id).changed() {
            edits.push(Edit::Value(index, text));
        }
        ui.add_space(4.0);
    }
}

fn footer(ui: &mut Ui, state: &AuthState, edits: &mut Vec<Edit>) {
    let editable = state.editable();
    widgets::actions(ui, |ui| {
        if ui
            .add_enabled(editable, egui::Button::new(labels::VALIDATE.text()))
            .clicked()
        {
            edits.push(Edit::Validate);
        }
        if ui
            .add_enabled(
                state.decided().is_none(),
                egui::Button::new(labels::CANCEL.text()),
            )
            .clicked()
        {
            edits.push(Edit::Cancel);
        }
        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
            if ui
                .add_enabled(editable, egui::Button::new(labels::PASTE.text()))
                .on_hover_text(crate::tr!("auth-paste-hover"))
                .clicked()
            {
                edits.push(Edit::Paste);
            }
        });
    });
    ui.add_space(4.0);
    widgets::status_bar(ui, state.status());
}
