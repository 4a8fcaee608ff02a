//! Finding and launching headless Chromium. Kept free of anything
//! game-specific so other parts of the project (a web app's browser tests,
//! for instance) launch Chromium the same way: [`find_chromium`],
//! [`chromium_args`] and [`Chromium::launch`].

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::handler::viewport::Viewport;
use futures_util::StreamExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Environment variable that names a Chromium/Chrome executable explicitly.
pub const CHROMIUM_ENV: &str = "GAMEWORLD_CHROMIUM";

/// The fix printed whenever Chromium cannot be found.
pub const INSTALL_HINT: &str = "install Chromium with `apt-get install chromium` (Debian/Ubuntu), or set GAMEWORLD_CHROMIUM to a Chromium or Chrome executable";

#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error(
        "Chromium was not found (looked for $GAMEWORLD_CHROMIUM, chromium, chromium-browser, google-chrome); {INSTALL_HINT}"
    )]
    NotInstalled,
    #[error("GAMEWORLD_CHROMIUM={0} is not an executable file; {INSTALL_HINT}")]
    BadOverride(String),
    #[error("could not start Chromium ({path}): {message}")]
    Start { path: String, message: String },
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The Chromium executable: `$GAMEWORLD_CHROMIUM`, else the first of
/// `chromium`, `chromium-browser`, `google-chrome` on `PATH` (Debian's
/// package installs `/usr/bin/chromium`).
pub fn find_chromium() -> Result<PathBuf, LaunchError> {
    if let Some(v) = std::env::var_os(CHROMIUM_ENV).filter(|v| !v.is_empty()) {
        let p = PathBuf::from(&v);
        return if is_executable(&p) {
            Ok(p)
        } else {
            Err(LaunchError::BadOverride(p.display().to_string()))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if is_executable(&p) {
                return Ok(p);
            }
        }
    }
    Err(LaunchError::NotInstalled)
}

/// The command-line flags of every headless Chromium the project starts:
/// headless, no sandbox (containers), no GPU, no network but what the page
/// asks of loopback, no first-run/sync/update chatter, no background
/// throttling (a hidden page must run at full speed), a fresh profile.
pub fn chromium_args(user_data_dir: &Path, window: (u32, u32)) -> Vec<String> {
    let mut args: Vec<String> = [
        "headless=new",
        "no-sandbox",
        "disable-gpu",
        "disable-quic",
        "no-first-run",
        "no-default-browser-check",
        "disable-background-networking",
        "disable-component-update",
        "disable-sync",
        "disable-extensions",
        "disable-default-apps",
        "disable-breakpad",
        "disable-dev-shm-usage",
        "disable-background-timer-throttling",
        "disable-backgrounding-occluded-windows",
        "disable-renderer-backgrounding",
        "disable-ipc-flooding-protection",
        "disable-hang-monitor",
        "disable-features=Translate,MediaRouter,OptimizationHints,ServiceWorker",
        "hide-scrollbars",
        "mute-audio",
        "force-color-profile=srgb",
        "force-device-scale-factor=1",
        "password-store=basic",
        "use-mock-keychain",
        "remote-debugging-port=0",
        // WebGL through SwiftShader without a GPU; canvases stay readable.
        "use-angle=swiftshader",
        "enable-unsafe-swiftshader",
        // Only loopback: every other host goes to a dead proxy and fails at
        // once (loopback bypasses proxies implicitly).
        "proxy-server=127.0.0.1:9",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(format!("user-data-dir={}", user_data_dir.display()));
    args.push(format!("window-size={},{}", window.0, window.1));
    args
}

/// A running headless Chromium with its own tokio runtime (the CDP
/// connection is async; the rest of the project is not). Dropping it kills
/// the browser and removes its profile directory.
pub struct Chromium {
    runtime: tokio::runtime::Runtime,
    browser: Option<Browser>,
    profile: Option<tempfile::TempDir>,
}

impl Chromium {
    /// Start Chromium with [`chromium_args`] and a fresh profile.
    pub fn launch(window: (u32, u32)) -> Result<Chromium, LaunchError> {
        let exe = find_chromium()?;
        let start_err = |message: String| LaunchError::Start {
            path: exe.display().to_string(),
            message,
        };
        let profile = tempfile::Builder::new()
            .prefix("gameworld-chromium-")
            .tempdir()
            .map_err(|e| start_err(format!("cannot create a profile directory: {e}")))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| start_err(format!("cannot start the async runtime: {e}")))?;
        let mut builder = BrowserConfig::builder()
            .chrome_executable(&exe)
            .disable_default_args()
            .with_head() // `headless=new` comes with the args
            .viewport(None::<Viewport>)
            .launch_timeout(Duration::from_secs(30))
            .request_timeout(Duration::from_secs(60))
            .user_data_dir(profile.path());
        for a in chromium_args(profile.path(), window) {
            // The config writes user-data-dir itself.
            if !a.starts_with("user-data-dir=") {
                builder = builder.arg(a);
            }
        }
        let config = builder.build().map_err(start_err)?;
        let browser = runtime.block_on(async {
            let (browser, mut handler) = Browser::launch(config)
                .await
                .map_err(|e| start_err(e.to_string()))?;
            tokio::spawn(async move { while handler.next().await.is_some() {} });
            Ok::<_, LaunchError>(browser)
        })?;
        Ok(Chromium {
            runtime,
            browser: Some(browser),
            profile: Some(profile),
        })
    }

    pub fn browser(&self) -> &Browser {
        self.browser.as_ref().expect("browser is open until drop")
    }

    /// Run a CDP future to completion on this browser's runtime.
    pub fn block_on<F: std::future::Future>(&self, fut: F) -> F::Output {
        self.runtime.block_on(fut)
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        if let Some(mut b) = self.browser.take() {
            self.runtime.block_on(async {
                let _ = tokio::time::timeout(Duration::from_secs(3), b.close()).await;
                let _ = b.kill().await;
                let _ = b.wait().await;
            });
        }
        drop(self.profile.take());
    }
}
