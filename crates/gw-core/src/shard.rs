//! Shards: a deterministic slice `I/N` of a list of jobs (suite runs, dataset
//! episodes), from a `--shard I/N` flag or from scheduler array variables, so
//! N machines split one plan without talking to each other.

/// `I/N` with 1 ≤ I ≤ N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("--shard \"{s}\" must look like I/N, e.g. 2/8"))?;
        let index: usize = i
            .trim()
            .parse()
            .map_err(|_| format!("--shard \"{s}\": I is not a number"))?;
        let count: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("--shard \"{s}\": N is not a number"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("--shard \"{s}\": need 1 <= I <= N"));
        }
        Ok(Shard { index, count })
    }

    /// A shard from scheduler variables: Slurm job arrays
    /// (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`, optional
    /// `SLURM_ARRAY_TASK_MIN`) or a Kubernetes Indexed Job
    /// (`JOB_COMPLETION_INDEX`, 0-based, with `GAMEWORLD_SHARD_COUNT`).
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, String> {
        let num = |name: &str| -> Result<Option<usize>, String> {
            match get(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse::<usize>()
                    .map(Some)
                    .map_err(|_| format!("{name}=\"{v}\" is not a whole number")),
            }
        };
        if let (Some(id), Some(count)) =
            (num("SLURM_ARRAY_TASK_ID")?, num("SLURM_ARRAY_TASK_COUNT")?)
        {
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let index = id
                .checked_sub(min)
                .ok_or("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN")?
                + 1;
            return Shard::parse(&format!("{index}/{count}")).map(Some);
        }
        if let Some(idx) = num("JOB_COMPLETION_INDEX")? {
            let count = num("GAMEWORLD_SHARD_COUNT")?
                .ok_or("JOB_COMPLETION_INDEX is set but GAMEWORLD_SHARD_COUNT is not; set it to the Job's completions")?;
            return Shard::parse(&format!("{}/{count}", idx + 1)).map(Some);
        }
        Ok(None)
    }

    pub fn contains(&self, run_index: usize) -> bool {
        run_index % self.count == self.index - 1
    }

    /// The shard a command asked for: its `--shard` flag if given, else the
    /// scheduler variables read through `get`, else none.
    pub fn from_flag_or_env(
        flag: Option<&str>,
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Shard>, String> {
        match flag {
            Some(s) => Shard::parse(s).map(Some),
            None => Shard::from_env(get),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parsing_and_membership() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, count: 3 });
        assert!(Shard::parse("0/3").is_err());
        assert!(Shard::parse("4/3").is_err());
        assert!(Shard::parse("x").unwrap_err().contains("I/N"));
        let s = Shard { index: 2, count: 3 };
        assert_eq!(
            (0..9).filter(|i| s.contains(*i)).collect::<Vec<_>>(),
            vec![1, 4, 7]
        );
    }

    #[test]
    fn shard_from_scheduler_variables() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(Shard::from_env(env(&[])).unwrap(), None);
        let slurm = Shard::from_env(env(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
        ]))
        .unwrap();
        assert_eq!(slurm, Some(Shard { index: 3, count: 4 }));
        let k8s = Shard::from_env(env(&[
            ("JOB_COMPLETION_INDEX", "0"),
            ("GAMEWORLD_SHARD_COUNT", "8"),
        ]))
        .unwrap();
        assert_eq!(k8s, Some(Shard { index: 1, count: 8 }));
        assert!(
            Shard::from_env(env(&[("JOB_COMPLETION_INDEX", "0")]))
                .unwrap_err()
                .contains("GAMEWORLD_SHARD_COUNT")
        );
    }

    #[test]
    fn the_flag_wins_over_scheduler_variables() {
        let slurm = |k: &str| match k {
            "SLURM_ARRAY_TASK_ID" => Some("1".to_string()),
            "SLURM_ARRAY_TASK_COUNT" => Some("2".to_string()),
            _ => None,
        };
        assert_eq!(
            Shard::from_flag_or_env(Some("3/4"), slurm).unwrap(),
            Some(Shard { index: 3, count: 4 })
        );
        assert_eq!(
            Shard::from_flag_or_env(None, slurm).unwrap(),
            Some(Shard { index: 2, count: 2 })
        );
        assert!(Shard::from_flag_or_env(Some("5/4"), slurm).is_err());
        assert_eq!(Shard::from_flag_or_env(None, |_| None).unwrap(), None);
    }
}
