//! `torii init`: create the config root, `settings.yaml` and `providers/`, nothing else.
//! Providers are always an explicit, later choice.

use crate::atomic::{self, Access};
use crate::paths::ConfigRoot;
use crate::settings::Settings;

use super::CliError;

pub fn run(root: &ConfigRoot) -> Result<(), CliError> {
    create_private_dir(root.dir())?;
    create_private_dir(&root.providers_dir())?;
    let settings = root.settings_file();
    if settings.exists() {
        // Keep the operator's file, but say if it would stop the server.
        Settings::load(&settings)?;
        crate::console::progress(&crate::tr!(
            "cli-init-exists",
            path = settings.display().to_string()
        ));
    } else {
        atomic::write(
            &settings,
            Settings::default_file().as_bytes(),
            Access::Private,
        )?;
        crate::console::progress(&crate::tr!(
            "cli-init-created",
            path = settings.display().to_string()
        ));
    }
    crate::console::data(&root.dir().display().to_string());
    Ok(())
}

fn create_private_dir(path: &std::path::Path) -> Result<(), CliError> {
    Ok(crate::files::create_private_dir_all(path)
        .map_err(crate::files::FsOp::CreateDir.on(path))?)
}
