//! The grid every experiment runs: one job per depth, configuration and item (a position, an
//! opening, a tree), run on several threads, the results looked up by index.

use crate::{run_tasks, LabOptions, Progress};

/// One search (or game) of a grid: a depth, and a configuration and an item by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Job {
    /// The depth searched.
    pub depth: u32,
    /// The configuration, an index into the experiment's list.
    pub config: usize,
    /// The item searched, an index into the experiment's positions, openings or trees.
    pub item: usize,
}

/// Every job of some depths, configurations and items.
pub(super) struct Grid {
    /// The depths, as the experiment lists them (shallowest first).
    depths: Vec<u32>,
    configs: usize,
    items: usize,
    /// The jobs, deepest depth first (the longest first, for the balance of the threads), then
    /// by configuration, then by item.
    jobs: Vec<Job>,
}

impl Grid {
    /// The grid of `depths` × `configs` configurations × `items` items.
    pub fn new(depths: &[u32], configs: usize, items: usize) -> Grid {
        let jobs = depths
            .iter()
            .rev()
            .flat_map(|&depth| {
                (0..configs).flat_map(move |config| {
                    (0..items).map(move |item| Job {
                        depth,
                        config,
                        item,
                    })
                })
            })
            .collect();
        Grid {
            depths: depths.to_vec(),
            configs,
            items,
            jobs,
        }
    }

    /// Runs `work` on every job with `options.jobs()` threads, reporting a phase of `what`
    /// (searches, games, trees) to `progress` with each job's `label`.
    pub fn run<R: Send>(
        self,
        what: &str,
        options: &LabOptions,
        progress: &dyn Progress,
        label: impl Fn(&Job) -> String + Sync,
        work: impl Fn(&Job) -> R + Sync,
    ) -> Results<R> {
        progress.start(what, self.jobs.len() as u64);
        let results = run_tasks(&self.jobs, options.jobs(), progress, label, work);
        Results {
            grid: self,
            results,
        }
    }
}

/// The results of a [`Grid`], one per job.
pub(super) struct Results<R> {
    grid: Grid,
    results: Vec<R>,
}

impl<R> Results<R> {
    /// Where the items of `(depth, config)` begin in the jobs.
    fn start(&self, depth: u32, config: usize) -> usize {
        let g = &self.grid;
        let row = g.depths.iter().rev().position(|&d| d == depth);
        let row = row.expect("a depth of the grid");
        assert!(
            config < g.configs,
            "configuration {config} of {}",
            g.configs
        );
        (row * g.configs + config) * g.items
    }

    /// The result of one job.
    pub fn get(&self, depth: u32, config: usize, item: usize) -> &R {
        assert!(item < self.grid.items, "item {item} of {}", self.grid.items);
        &self.results[self.start(depth, config) + item]
    }

    /// The results of every item at `depth` with configuration `config`, in item order.
    pub fn of(&self, depth: u32, config: usize) -> &[R] {
        let start = self.start(depth, config);
        &self.results[start..start + self.grid.items]
    }

    /// Every job with its result, in the order they were run (deepest depth first).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&Job, &R)> {
        self.grid.jobs.iter().zip(&self.results)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_found_by_depth_config_and_item() {
        let grid = Grid::new(&[2, 3, 4], 2, 5);
        assert_eq!(grid.jobs.len(), 30);
        assert_eq!(grid.jobs[0].depth, 4);
        let code = |j: &Job| j.depth as usize * 100 + j.config * 10 + j.item;
        let results = grid.run(
            "test",
            &LabOptions::default(),
            &crate::NoProgress,
            |_| "".into(),
            code,
        );
        assert_eq!(*results.get(3, 1, 4), 314);
        assert_eq!(results.of(2, 0), &[200, 201, 202, 203, 204]);
        assert!(results.iter().all(|(j, &r)| r == code(j)));
    }
}
