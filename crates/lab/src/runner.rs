//! Running independent searches on several threads, results in input order, with progress.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Where an experiment reports its progress (a progress bar in the command line).
pub trait Progress: Sync {
    /// A new phase of `total` tasks begins, described by `what`.
    fn start(&self, what: &str, total: u64);
    /// One task of the phase is done; `label` says which.
    fn advance(&self, label: &str);
}

/// Progress that goes nowhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _what: &str, _total: u64) {}
    fn advance(&self, _label: &str) {}
}

/// Runs `work` on every task with up to `jobs` threads and returns the results in the order of
/// `tasks`. Tasks are taken in order, so put the longest first for the best balance. Each
/// task's result depends only on the task, so the output does not depend on `jobs`.
pub fn run_tasks<T, R, F>(
    tasks: &[T],
    jobs: usize,
    progress: &dyn Progress,
    label: impl Fn(&T) -> String + Sync,
    work: F,
) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..tasks.len()).map(|_| None).collect());
    let worker = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(task) = tasks.get(i) else { break };
        let result = work(task);
        results.lock().expect("a worker panicked")[i] = Some(result);
        progress.advance(&label(task));
    };
    let threads = jobs.clamp(1, tasks.len().max(1));
    if threads == 1 {
        worker();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(worker);
            }
        });
    }
    results
        .into_inner()
        .expect("a worker panicked")
        .into_iter()
        .map(|r| r.expect("every task ran"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_order_whatever_the_threads() {
        let tasks: Vec<u64> = (0..100).collect();
        let square = |&n: &u64| n * n;
        let one = run_tasks(&tasks, 1, &NoProgress, |n| n.to_string(), square);
        let four = run_tasks(&tasks, 4, &NoProgress, |n| n.to_string(), square);
        assert_eq!(one, four);
        assert_eq!(one[7], 49);
        assert!(run_tasks(&[] as &[u64], 3, &NoProgress, |_| String::new(), square).is_empty());
    }
}
