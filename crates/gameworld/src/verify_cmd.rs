//! `gameworld verify DIR…`: re-play runs and check their recorded steps and
//! totals (see `gw_runtime::verify`). Exit 0 when every run matches, 1 when
//! one differs, 2 when a folder holds no run.

use clap::Args;
use gw_core::registry::Registry;
use std::path::PathBuf;

#[derive(Args)]
pub struct VerifyArgs {
    /// Run directories (holding result.json) or folders of runs (a suite's
    /// output): every run below is checked.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Runs replayed at once (default: the machine's cores).
    #[arg(long, value_name = "N")]
    pub max_parallel: Option<usize>,
}

pub fn run(reg: &Registry, args: VerifyArgs) -> Result<(), (u8, String)> {
    let parallel = args
        .max_parallel
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, gw_runtime::suite::MAX_PARALLEL);
    let verdicts = gw_runtime::verify::verify_all(reg, &args.dirs, parallel).map_err(|e| (2, e))?;
    let mut bad = 0;
    for (dir, v) in &verdicts {
        if !v.is_verified() {
            bad += 1;
        }
        println!("{}", gw_agents::secrets::terminal(&v.line(dir)));
    }
    if verdicts.len() > 1 {
        println!(
            "{} of {} runs verified",
            verdicts.len() - bad,
            verdicts.len()
        );
    }
    if bad > 0 {
        let first = verdicts
            .iter()
            .find(|(_, v)| !v.is_verified())
            .map(|(d, v)| v.line(d))
            .unwrap_or_default();
        return Err((
            1,
            format!("{bad} run(s) differ from their replay; first: {first}"),
        ));
    }
    Ok(())
}
