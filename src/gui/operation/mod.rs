//! The operation approval window: an unresolved call, shown as token pills, with Deny, Allow
//! once and Allow temporarily (exact or prefix, for a duration).
//!
//! `state.rs` decides; this file only draws the state and forwards clicks to it.

mod state;

pub use state::OperationState;
use state::{DurationChoice, Mode, ScopeKind};

use eframe::egui::{self, RichText, TextEdit, Ui};

use super::duration;
use super::pills;
use super::widgets::{self, PillKind, Status};
use super::window::Window;
use crate::prompt::{Answer, OperationAnswer, OperationRequest};

/// Labels the tests and the driver click.
pub mod labels {
    pub const DENY: &str = "Deny";
    pub const ALLOW: &str = "Allow";
    pub const ONCE: &str = "Once";
    pub const TEMPORARILY: &str = "Temporarily";
    pub const EXACT: &str = "Exact";
    pub const PREFIX: &str = "Prefix";
    pub const RESTORE: &str = "Restore suggestion";
    pub const FEWER: &str = "Fewer fixed";
    pub const MORE: &str = "More fixed";
    pub const DURATION: &str = "Duration";
    pub const PREVIOUS_PAGE: &str = "Previous page";
    pub const NEXT_PAGE: &str = "Next page";
    pub const CLOSE_REVIEW: &str = "Close review";
    /// The review tick, for target-aware tools.
    pub const REVIEWED_WITH_TARGET: &str = "I reviewed the invocation, the target and the scope";
    /// The review tick, for simple tools.
    pub const REVIEWED: &str = "I reviewed the invocation and the scope";
}

/// The window around an [`OperationState`].
pub struct OperationWindow {
    state: Option<OperationState>,
    request: OperationRequest,
}

impl OperationWindow {
    pub fn new(request: OperationRequest) -> Self {
        Self {
            state: None,
            request,
        }
    }
}

impl Window for OperationWindow {
    fn title(&self) -> String {
        format!("Torii: approve a call to {}", self.request.tool)
    }

    fn ui(&mut self, ui: &mut Ui, now: f64) -> f32 {
        let request = &self.request;
        let state = self
            .state
            .get_or_insert_with(|| OperationState::new(request.clone(), now));
        if state.duration_choice() == DurationChoice::EndWithOldest
            || state.request().oldest_grant_remaining_secs.is_some()
        {
            // The remaining-time button counts down.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(250));
        }
        let mut edits = Vec::new();
        let shown = &*state;
        let height = widgets::skeleton(
            ui,
            &mut edits,
            |ui, edits| body(ui, shown, edits),
            |ui, edits| controls(ui, shown, now, edits),
            |ui, edits| footer(ui, shown, now, edits),
        );
        if !edits.is_empty() {
            // Input is applied after drawing; draw again at once so no frame shows the old state.
            ui.ctx().request_discard("input changed the window");
        }
        for edit in edits {
            edit.apply(state, now);
        }
        height
    }

    fn decided(&self) -> Option<(Answer, f64)> {
        let decided = self.state.as_ref()?.decided()?;
        Some((Answer::Operation(decided.answer), decided.at))
    }

    fn closed(&self) -> Answer {
        Answer::Operation(OperationAnswer::Deny)
    }
}

/// A click or edit, applied after drawing so the frame draws one consistent state.
enum Edit {
    Mode(Mode),
    Scope(ScopeKind),
    PrefixTokens(usize),
    Restore,
    MinutesText(String),
    Preset(u64),
    EndWithOldest,
    Reviewed(bool),
    OpenReview(usize),
    TurnPage(bool),
    CloseReview,
    Deny,
    Allow,
}

impl Edit {
    fn apply(self, state: &mut OperationState, now: f64) {
        match self {
            Edit::Mode(mode) => state.set_mode(mode),
            Edit::Scope(scope) => state.set_scope(scope),
            Edit::PrefixTokens(tokens) => state.set_prefix_tokens(tokens),
            Edit::Restore => state.restore_suggestion(),
            Edit::MinutesText(text) => state.set_minutes_text(text),
            Edit::Preset(minutes) => state.preset(minutes),
            Edit::EndWithOldest => state.end_with_oldest(),
            Edit::Reviewed(reviewed) => state.set_reviewed(reviewed),
            Edit::OpenReview(index) => state.open_review(index),
            Edit::TurnPage(forward) => state.turn_page(forward),
            Edit::CloseReview => state.close_review(),
            Edit::Deny => state.deny(now),
            Edit::Allow => state.allow(now),
        }
    }
}

/// Header, the arguments (grouped when editing a prefix) and the review of a long argument.
fn body(ui: &mut Ui, state: &OperationState, edits: &mut Vec<Edit>) {
    let request = state.request();
    ui.heading(format!(
        "{} wants to run a call no rule decides",
        request.tool
    ));
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Tool").weak());
        ui.label(RichText::new(&request.tool).monospace().strong());
        if let Some(target) = &request.target {
            ui.label(RichText::new("· Target").weak());
            ui.label(RichText::new(target).monospace().strong());
        }
    });
    ui.add_space(6.0);
    let args = state.args();
    let temporary = state.mode() == Mode::Temporary;
    if temporary && state.scope() == ScopeKind::Prefix {
        let fixed = state.prefix_tokens();
        widgets::group_title(
            ui,
            &format!("Fixed ({fixed})"),
            "must match exactly, in this order",
        );
        pill_row(ui, args, 0..fixed, PillKind::Fixed, edits);
        widgets::group_title(
            ui,
            &format!("Variable ({})", args.len() - fixed),
            "may change, vanish or be added",
        );
        ui.horizontal_wrapped(|ui| {
            pills_into(ui, args, fixed..args.len(), PillKind::Variable, edits);
            widgets::future_arguments_marker(ui);
        });
    } else if temporary {
        widgets::group_title(
            ui,
            &format!("Exact invocation ({} arguments)", args.len()),
            "same tokens, same order, nothing more",
        );
        pill_row(ui, args, 0..args.len(), PillKind::Fixed, edits);
    } else {
        widgets::group_title(ui, &format!("Arguments ({})", args.len()), "");
        pill_row(ui, args, 0..args.len(), PillKind::Plain, edits);
    }
    if let Some(review) = state.review() {
        review_pane(ui, args, review, edits);
    }
}

fn pill_row(
    ui: &mut Ui,
    args: &[String],
    range: std::ops::Range<usize>,
    kind: PillKind,
    edits: &mut Vec<Edit>,
) {
    ui.horizontal_wrapped(|ui| pills_into(ui, args, range, kind, edits));
}

fn pills_into(
    ui: &mut Ui,
    args: &[String],
    range: std::ops::Range<usize>,
    kind: PillKind,
    edits: &mut Vec<Edit>,
) {
    for (index, token) in args.iter().enumerate().take(range.end).skip(range.start) {
        let long = pills::is_long(token);
        let hover = long.then_some("Shortened: click to read the whole argument in pages");
        if widgets::pill(ui, &pills::pill_text(token), kind, hover) && long {
            edits.push(Edit::OpenReview(index));
        }
    }
}

fn review_pane(ui: &mut Ui, args: &[String], review: state::Review, edits: &mut Vec<Edit>) {
    let Some(token) = args.get(review.index) else {
        return;
    };
    let pages = pills::page_count(token);
    ui.add_space(6.0);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(
            RichText::new(format!(
                "Argument {} of {} · {} characters · page {} of {}",
                review.index + 1,
                args.len(),
                token.chars().count(),
                review.page + 1,
                pages
            ))
            .strong(),
        );
        ui.label(RichText::new(pills::page(token, review.page)).monospace());
        ui.horizontal(|ui| {
            if ui
                .add_enabled(review.page > 0, egui::Button::new(labels::PREVIOUS_PAGE))
                .clicked()
            {
                edits.push(Edit::TurnPage(false));
            }
            if ui
                .add_enabled(
                    review.page + 1 < pages,
                    egui::Button::new(labels::NEXT_PAGE),
                )
                .clicked()
            {
                edits.push(Edit::TurnPage(true));
            }
            if ui.button(labels::CLOSE_REVIEW).clicked() {
                edits.push(Edit::CloseReview);
            }
        });
    });
}

/// Mode, scope, boundary and duration: pinned above the footer.
fn controls(ui: &mut Ui, state: &OperationState, now: f64, edits: &mut Vec<Edit>) {
    let enabled = state.decided().is_none();
    ui.add_enabled_ui(enabled, |ui| {
        ui.horizontal(|ui| {
            ui.label(RichText::new("Access").strong());
            if ui.radio(state.mode() == Mode::Once, labels::ONCE).clicked() {
                edits.push(Edit::Mode(Mode::Once));
            }
            if ui
                .radio(state.mode() == Mode::Temporary, labels::TEMPORARILY)
                .clicked()
            {
                edits.push(Edit::Mode(Mode::Temporary));
            }
        });
        if state.mode() == Mode::Once {
            return;
        }
        ui.horizontal(|ui| {
            ui.label(RichText::new("Scope").strong());
            if ui
                .radio(state.scope() == ScopeKind::Exact, labels::EXACT)
                .clicked()
            {
                edits.push(Edit::Scope(ScopeKind::Exact));
            }
            if ui
                .radio(state.scope() == ScopeKind::Prefix, labels::PREFIX)
                .clicked()
            {
                edits.push(Edit::Scope(ScopeKind::Prefix));
            }
        });
        if state.scope() == ScopeKind::Prefix {
            prefix_controls(ui, state, edits);
        } else if let Some(suggestion) = state.suggestion() {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new(format!(
                        "A prefix of {} tokens is suggested.",
                        suggestion.tokens
                    ))
                    .weak(),
                );
                if ui.button(labels::RESTORE).clicked() {
                    edits.push(Edit::Restore);
                }
            });
        }
        duration_controls(ui, state, now, edits);
    });
}

fn prefix_controls(ui: &mut Ui, state: &OperationState, edits: &mut Vec<Edit>) {
    let len = state.args().len();
    let fixed = state.prefix_tokens();
    ui.horizontal(|ui| {
        ui.label("Boundary");
        if ui
            .add_enabled(fixed > 1, egui::Button::new(labels::FEWER))
            .clicked()
        {
            edits.push(Edit::PrefixTokens(fixed - 1));
        }
        ui.label(RichText::new(format!("{fixed} of {len} tokens fixed")).strong());
        if ui
            .add_enabled(fixed < len, egui::Button::new(labels::MORE))
            .clicked()
        {
            edits.push(Edit::PrefixTokens(fixed + 1));
        }
        if state.can_restore_suggestion() && ui.button(labels::RESTORE).clicked() {
            edits.push(Edit::Restore);
        }
    });
    if let Some(suggestion) = state.suggestion() {
        ui.label(RichText::new(suggestion.reason()).weak());
    } else {
        ui.label(
            RichText::new("No boundary is suggested: no option follows at least two tokens.")
                .weak(),
        );
    }
}

fn duration_controls(ui: &mut Ui, state: &OperationState, now: f64, edits: &mut Vec<Edit>) {
    ui.horizontal_wrapped(|ui| {
        let label = ui.label(RichText::new(labels::DURATION).strong());
        if let Some(left) = state.oldest_remaining(now) {
            let selected = state.duration_choice() == DurationChoice::EndWithOldest;
            if ui
                .add(egui::Button::new(duration::clock(left)).selected(selected))
                .on_hover_text("End together with the oldest active grant in this scope")
                .clicked()
            {
                edits.push(Edit::EndWithOldest);
            }
        }
        let mut text = state.minutes_text().to_string();
        let field = ui
            .add(
                TextEdit::singleline(&mut text)
                    .desired_width(44.0)
                    .char_limit(5),
            )
            .labelled_by(label.id);
        if field.changed() {
            edits.push(Edit::MinutesText(text));
        }
        ui.label("min");
        for minutes in state.presets() {
            let selected = state.duration_choice() == DurationChoice::Minutes
                && duration::parse_minutes(state.minutes_text()) == Ok(minutes);
            if ui
                .add(egui::Button::new(format!("{minutes} min")).selected(selected))
                .clicked()
            {
                edits.push(Edit::Preset(minutes));
            }
        }
    });
}

/// Summary, review tick, actions and the status or feedback bar.
fn footer(ui: &mut Ui, state: &OperationState, now: f64, edits: &mut Vec<Edit>) {
    widgets::summary(ui, &state.summary(now));
    ui.add_space(4.0);
    let mut reviewed = state.reviewed();
    let undecided = state.decided().is_none();
    if ui
        .add_enabled(
            undecided,
            egui::Checkbox::new(&mut reviewed, state.reviewed_label()),
        )
        .changed()
    {
        edits.push(Edit::Reviewed(reviewed));
    }
    widgets::actions(ui, |ui| {
        if ui
            .add_enabled(state.allow_enabled(now), egui::Button::new(labels::ALLOW))
            .clicked()
        {
            edits.push(Edit::Allow);
        }
        if ui
            .add_enabled(undecided, egui::Button::new(labels::DENY))
            .clicked()
        {
            edits.push(Edit::Deny);
        }
    });
    let status = match state.decided() {
        Some(decided) => Status::Done(decided.feedback.clone()),
        None => Status::Info(state.status(now)),
    };
    widgets::status_bar(ui, &status);
}
