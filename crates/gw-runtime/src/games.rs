//! Where games come from: native games from `gw-games`, browser games
//! (`backend: browser`) from `gw-browser`, chosen by the game's YAML.

use crate::error::RunError;
use gw_core::Game;
use gw_core::registry::{Backend, Preset};

/// A fresh game for this preset (call `init` before use; the stepper does).
/// A browser game without Chromium is a configuration error (exit 2) whose
/// message names the package to install.
pub fn create_game(preset: &Preset) -> Result<Box<dyn Game>, RunError> {
    let spec = &preset.game;
    match spec.backend {
        Backend::Native => gw_games::create(&spec.id).ok_or_else(|| {
            RunError::Config(format!(
                "game \"{}\" is in the registry but has no native implementation in this build",
                spec.id
            ))
        }),
        Backend::Browser => {
            let source = match (spec.folder(), &spec.url) {
                // Checked before Chromium starts: a missing folder makes this
                // game unusable (exit 2), whatever else the machine has.
                (Some(dir), _) if !dir.join("index.html").is_file() => {
                    return Err(RunError::Config(
                        gw_core::registry::missing_game_folder_message(&spec.id, &dir),
                    ));
                }
                (Some(dir), _) => gw_browser::Source::Folder(dir),
                (None, Some(url)) => gw_browser::Source::Url(url.clone()),
                (None, None) => {
                    return Err(RunError::Config(format!(
                        "browser game \"{}\" names neither path nor url",
                        spec.id
                    )));
                }
            };
            let browser_spec = gw_browser::BrowserSpec::new(
                &spec.id,
                source,
                preset.task.url_suffix.as_deref().unwrap_or(""),
                (spec.viewport.width, spec.viewport.height),
            );
            match gw_browser::BrowserGame::open(browser_spec) {
                Ok(g) => Ok(Box::new(g)),
                Err(gw_browser::OpenError::Launch(
                    e @ (gw_browser::LaunchError::NotInstalled
                    | gw_browser::LaunchError::BadOverride(_)),
                )) => Err(RunError::Config(format!(
                    "browser game \"{}\" needs Chromium: {e}",
                    spec.id
                ))),
                Err(e) => Err(RunError::Runtime(e.to_string())),
            }
        }
    }
}
