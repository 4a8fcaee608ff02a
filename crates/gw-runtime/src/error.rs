//! The runtime's one error type. Its own module so that the run loop, agent
//! construction and game creation share it without importing each other.

/// Why a run (or a suite, a report, a verification) stopped: the CLI maps
/// the two kinds to the SPEC's exit codes.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad preset, registry or options: exit code 2.
    #[error("configuration error: {0}")]
    Config(String),
    /// Something failed while running: exit code 1.
    #[error("runtime error: {0}")]
    Runtime(String),
}

impl RunError {
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::Config(_) => 2,
            RunError::Runtime(_) => 1,
        }
    }
}
