//! Move ordering helpers shared by the algorithms.

/// Moves `mv` to the front of `moves`, keeping the others in their order. Returns whether
/// `mv` was there.
pub fn put_first<M: Copy + PartialEq>(moves: &mut [M], mv: M) -> bool {
    match moves.iter().position(|&m| m == mv) {
        Some(i) => {
            moves[..=i].rotate_right(1);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_first_keeps_the_rest_in_order() {
        let mut v = [1, 2, 3, 4];
        assert!(put_first(&mut v, 3));
        assert_eq!(v, [3, 1, 2, 4]);
        assert!(!put_first(&mut v, 9));
        assert_eq!(v, [3, 1, 2, 4]);
    }
}
