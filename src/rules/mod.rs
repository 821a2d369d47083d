//! The operator's rules files as the control plane sees them: which `rules.yaml` governs a
//! provider or a target, how it is read and compiled with the provider's `policy:` settings,
//! and how an edited draft is judged before it may replace the live file.
//!
//! Files: `from_provider.rs` (provider.yaml `policy:` → Jasper settings, shared with the
//! dispatcher), `file.rs` (locating and loading the effective rules), `draft.rs` (judging an
//! edit), `editor.rs` (which editor to launch, without a shell).

mod draft;
mod editor;
mod file;
mod from_provider;

pub use draft::{EMPTY_POLICY, Review, review_draft};
pub use editor::{EditorCommand, EditorError, default_editor, editor_command, parse_editor};
pub use file::{
    Effective, LoadedPolicy, MAX_RULES_BYTES, PolicyFileError, RulesOrigin, compile, effective,
    load, read_rules_text,
};
pub use from_provider::policy_settings;
