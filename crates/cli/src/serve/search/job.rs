//! A running or finished search as the page follows it: its events, kept for any number of
//! event streams, and a stop flag.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::watch;

/// A running or finished search: its events so far.
pub struct Job {
    /// The events, and whether the last one has come (kept together, so that a reader never
    /// sees the job finished without its last event).
    state: Mutex<(Vec<Value>, bool)>,
    /// The number of events, for the streams that wait for more.
    count: watch::Sender<usize>,
    /// Set to stop the search.
    pub stop: Arc<AtomicBool>,
}

impl Job {
    /// A job with no events yet.
    pub fn new() -> Arc<Job> {
        Arc::new(Job {
            state: Mutex::new((Vec::new(), false)),
            count: watch::Sender::new(0),
            stop: Arc::new(AtomicBool::new(false)),
        })
    }

    fn add(&self, event: Value, last: bool) {
        let mut state = self.state.lock().expect("no panic holding the events");
        state.0.push(event);
        state.1 |= last;
        let n = state.0.len();
        drop(state);
        self.count.send_replace(n);
    }

    pub(super) fn push(&self, event: Value) {
        self.add(event, false);
    }

    /// Ends the job with `event` (a `done` or `error`).
    pub fn finish(&self, event: Value) {
        self.add(event, true);
    }

    /// The events from `from` on, and whether the job is finished.
    pub fn read(&self, from: usize) -> (Vec<Value>, bool) {
        let state = self.state.lock().expect("no panic holding the events");
        let events = state
            .0
            .get(from..)
            .map(<[Value]>::to_vec)
            .unwrap_or_default();
        (events, state.1)
    }

    /// Whether the last event has come.
    pub fn is_done(&self) -> bool {
        self.state.lock().expect("no panic holding the events").1
    }

    /// A receiver told of each new event.
    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.count.subscribe()
    }
}
