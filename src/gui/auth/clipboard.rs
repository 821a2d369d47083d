//! Where the clipboard button reads from: the system clipboard, or a fixed text in tests. What
//! it does with the text is `crate::dialog::clipboard`.

/// Where the clipboard text comes from: the system clipboard, or a fixed text in tests.
pub trait ClipboardSource {
    fn read_text(&mut self) -> Result<String, String>;
}

/// The system clipboard (X11, Wayland through XWayland, macOS, Windows), through `arboard`.
pub struct SystemClipboard;

impl ClipboardSource for SystemClipboard {
    fn read_text(&mut self) -> Result<String, String> {
        arboard::Clipboard::new()
            .and_then(|mut clipboard| clipboard.get_text())
            .map_err(|error| error.to_string())
    }
}
