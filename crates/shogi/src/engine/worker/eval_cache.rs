//! [`EvalCache`]: one thread's memory of static evaluations by position key. The evaluation
//! is the dearest part of a node (a third of the instructions), and the same positions come
//! back by transposition, in the quiescence search after the main search's node, and from
//! one move's search to the next.

use crate::engine::EvalKind;
use crate::position::Position;

/// Entries in a thread's cache (a power of two).
const ENTRIES: usize = 1 << 16;

/// A direct-mapped cache of `(key, value)` pairs; a key of 0 marks an empty slot.
#[derive(Clone)]
pub(in crate::engine) struct EvalCache {
    slots: Vec<(u64, i32)>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            slots: vec![(0, 0); ENTRIES],
        }
    }
}

impl std::fmt::Debug for EvalCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used = self.slots.iter().filter(|s| s.0 != 0).count();
        write!(f, "EvalCache({used} of {ENTRIES} used)")
    }
}

impl EvalCache {
    /// `eval`'s value of `p` for its side to move, from the cache or computed and kept.
    pub(in crate::engine) fn value(&mut self, eval: EvalKind, p: &Position) -> i32 {
        // The evaluation's kind is part of the key, so a change of `Eval` needs no clearing.
        let key = (p.key() ^ (eval as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1;
        let slot = &mut self.slots[(key >> 48) as usize & (ENTRIES - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let v = eval.value(p);
        *slot = (key, v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_values_are_the_evaluations_own() {
        let mut cache = EvalCache::default();
        let mut p: Position = crate::START_SFEN.parse().unwrap();
        for mv in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            p = p.play(p.parse_move(mv).unwrap());
            for eval in [EvalKind::HandMade, EvalKind::Material] {
                for _ in 0..2 {
                    assert_eq!(cache.value(eval, &p), eval.value(&p), "{mv}");
                }
            }
        }
    }
}
