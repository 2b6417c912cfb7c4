//! Splitting one seeded run into N disjoint parts: `--shard K/N`, or `--shard auto` read from a
//! batch scheduler (a Slurm array, a Kubernetes indexed job). Shard K takes items K, K+N, K+2N…
//! of the run's numbered items (opening pairs of a match, game seeds of datagen), so shards
//! 0..N−1 together do exactly the items of the unsharded run, each once.

/// Part `index` of `count` (0 ≤ index < count). `Shard::WHOLE` is the unsharded run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which part, from 0.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

/// The scheduler variables `--shard auto` reads (Slurm, then Kubernetes).
pub const SCHEDULER_VARIABLES: [&str; 5] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
];

impl Shard {
    /// The whole run, unsplit.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Part `index` of `count`, checked.
    pub fn new(index: usize, count: usize) -> Result<Shard, String> {
        if count == 0 {
            return Err("a shard count must be at least 1".into());
        }
        if index >= count {
            return Err(format!(
                "shard {index}/{count}: the index must be below the count (0 to {})",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// Parses `K/N` (`0/4` … `3/4`).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("--shard '{text}': {why}");
        let Some((k, n)) = text.split_once('/') else {
            return Err(bad("expected K/N (for example 0/4) or auto"));
        };
        let number = |part: &str| {
            part.trim()
                .parse::<usize>()
                .map_err(|_| bad(&format!("'{part}' is not a whole number")))
        };
        Shard::new(number(k)?, number(n)?).map_err(|e| bad(&e))
    }

    /// The shard of this process from the scheduler's variables, looked up with `var` (pass
    /// `|name| std::env::var(name).ok()`): a Slurm array (`SLURM_ARRAY_TASK_ID` and
    /// `SLURM_ARRAY_TASK_COUNT`, the id counted from `SLURM_ARRAY_TASK_MIN` in steps of
    /// `SLURM_ARRAY_TASK_STEP`), else a Kubernetes indexed job (`JOB_COMPLETION_INDEX`, which
    /// carries no count, so `count` must be given). A given `count` must agree with Slurm's.
    pub fn from_env(
        var: impl Fn(&str) -> Option<String>,
        count: Option<usize>,
    ) -> Result<Shard, String> {
        let number =
            |name: &str| -> Result<Option<usize>, String> {
                match var(name) {
                    None => Ok(None),
                    Some(value) => value.trim().parse().map(Some).map_err(|_| {
                        format!("--shard auto: {name}='{value}' is not a whole number")
                    }),
                }
            };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let Some(slurm_count) = number("SLURM_ARRAY_TASK_COUNT")? else {
                return Err(
                    "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT \
                            is not (Slurm 17.11 or later sets both)"
                        .into(),
                );
            };
            if let Some(given) = count.filter(|&c| c != slurm_count) {
                return Err(format!(
                    "--shard auto: --shard-count {given} disagrees with \
                     SLURM_ARRAY_TASK_COUNT={slurm_count}"
                ));
            }
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            if id < min || (id - min) % step != 0 {
                return Err(format!(
                    "--shard auto: SLURM_ARRAY_TASK_ID={id} is not min {min} plus a multiple \
                     of step {step}; use a plain array such as --array=0-{}",
                    slurm_count.saturating_sub(1)
                ));
            }
            return Shard::new((id - min) / step, slurm_count).map_err(|e| {
                format!("--shard auto: the Slurm array is not a plain range 0..N-1 ({e})")
            });
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let Some(count) = count else {
                return Err(
                    "--shard auto: JOB_COMPLETION_INDEX is set but carries no count; \
                            give --shard-count N (the job's completions)"
                        .into(),
                );
            };
            return Shard::new(index, count).map_err(|e| format!("--shard auto: {e}"));
        }
        Err(
            "--shard auto: neither SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT (a Slurm array) \
             nor JOB_COMPLETION_INDEX (a Kubernetes indexed job) is set; give --shard K/N"
                .into(),
        )
    }

    /// Whether item `item` (an opening pair, a game seed…) of the run belongs to this shard.
    pub fn owns(&self, item: usize) -> bool {
        item % self.count == self.index
    }

    /// The items of `0..total` this shard owns, in order.
    pub fn items(&self, total: usize) -> impl Iterator<Item = usize> {
        (self.index..total).step_by(self.count)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What the `--shard` and `--shard-count` flags asked for, not yet resolved (the flags
/// themselves are `commands::ShardArgs`).
#[derive(Debug, Clone, Default)]
pub struct ShardRequest {
    /// `K/N`, or `auto` to read the scheduler's variables.
    pub shard: Option<String>,
    /// The number of shards for `auto` when the scheduler does not say.
    pub shard_count: Option<usize>,
}

impl ShardRequest {
    /// The shard the flags name, reading the process environment for `auto`;
    /// [`Shard::WHOLE`] without `--shard`.
    pub fn resolve(&self) -> Result<Shard, String> {
        self.resolve_with(|name| std::env::var(name).ok())
    }

    /// As [`ShardRequest::resolve`], with the environment looked up through `var`.
    pub fn resolve_with(&self, var: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        match (self.shard.as_deref().map(str::trim), self.shard_count) {
            (None, None) => Ok(Shard::WHOLE),
            (None, Some(_)) => Err("--shard-count goes with --shard auto".into()),
            (Some("auto"), count) => Shard::from_env(var, count),
            (Some(_), Some(_)) => Err("--shard-count goes with --shard auto, not with K/N".into()),
            (Some(text), None) => Shard::parse(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn parses_k_of_n() {
        assert_eq!(Shard::parse("0/1"), Ok(Shard::WHOLE));
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard::parse(" 1 / 4 "), Ok(Shard { index: 1, count: 4 }));
        for (text, why) in [
            ("3/3", "below the count"),
            ("0/0", "at least 1"),
            ("1", "expected K/N"),
            ("a/2", "'a' is not a whole number"),
            ("-1/2", "'-1' is not a whole number"),
            ("1/2/3", "'2/3' is not a whole number"),
            ("", "expected K/N"),
        ] {
            let err = Shard::parse(text).unwrap_err();
            assert!(err.contains(why), "{text}: {err}");
            assert!(!err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn shards_split_items_exactly_once() {
        for count in 1..=5 {
            for total in [0, 1, 7, 10] {
                let mut seen = vec![0; total];
                for index in 0..count {
                    let shard = Shard::new(index, count).unwrap();
                    for item in shard.items(total) {
                        assert!(shard.owns(item));
                        seen[item] += 1;
                    }
                    let owned = (0..total).filter(|&i| shard.owns(i)).count();
                    assert_eq!(owned, shard.items(total).count());
                }
                assert!(seen.iter().all(|&n| n == 1), "{count} {total}: {seen:?}");
            }
        }
    }

    #[test]
    fn reads_slurm_arrays() {
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(
            Shard::from_env(env(&vars), None),
            Ok(Shard { index: 2, count: 4 })
        );
        assert_eq!(
            Shard::from_env(env(&vars), Some(4)),
            Ok(Shard { index: 2, count: 4 })
        );
        assert!(Shard::from_env(env(&vars), Some(3))
            .unwrap_err()
            .contains("disagrees"));
        // --array=1-4 counts from its minimum; --array=0-6:2 in steps.
        let from_one = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ];
        assert_eq!(
            Shard::from_env(env(&from_one), None),
            Ok(Shard { index: 3, count: 4 })
        );
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert_eq!(
            Shard::from_env(env(&stepped), None),
            Ok(Shard { index: 2, count: 4 })
        );
        // A list with gaps (--array=0,5) cannot map onto 0..N-1.
        let gaps = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ];
        assert!(Shard::from_env(env(&gaps), None)
            .unwrap_err()
            .contains("not a plain range"));
        let no_count = [("SLURM_ARRAY_TASK_ID", "1")];
        assert!(Shard::from_env(env(&no_count), None)
            .unwrap_err()
            .contains("SLURM_ARRAY_TASK_COUNT is not"));
        let bad = [
            ("SLURM_ARRAY_TASK_ID", "x"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert!(Shard::from_env(env(&bad), None)
            .unwrap_err()
            .contains("SLURM_ARRAY_TASK_ID='x' is not a whole number"));
    }

    #[test]
    fn reads_kubernetes_indexed_jobs_with_a_count() {
        let vars = [("JOB_COMPLETION_INDEX", "3")];
        assert_eq!(
            Shard::from_env(env(&vars), Some(5)),
            Ok(Shard { index: 3, count: 5 })
        );
        assert!(Shard::from_env(env(&vars), None)
            .unwrap_err()
            .contains("give --shard-count"));
        assert!(Shard::from_env(env(&vars), Some(3))
            .unwrap_err()
            .contains("below the count"));
        let none: [(&str, &str); 0] = [];
        let err = Shard::from_env(env(&none), Some(3)).unwrap_err();
        assert!(err.contains("neither SLURM_ARRAY_TASK_ID"), "{err}");
    }

    #[test]
    fn flags_resolve() {
        let args = |shard: Option<&str>, count: Option<usize>| ShardRequest {
            shard: shard.map(String::from),
            shard_count: count,
        };
        let vars = [("JOB_COMPLETION_INDEX", "1")];
        assert_eq!(args(None, None).resolve_with(env(&vars)), Ok(Shard::WHOLE));
        assert_eq!(
            args(Some("1/2"), None).resolve_with(env(&vars)),
            Ok(Shard { index: 1, count: 2 })
        );
        assert_eq!(
            args(Some("auto"), Some(2)).resolve_with(env(&vars)),
            Ok(Shard { index: 1, count: 2 })
        );
        assert!(args(None, Some(2)).resolve_with(env(&vars)).is_err());
        assert!(args(Some("1/2"), Some(2)).resolve_with(env(&vars)).is_err());
    }
}
