//! Zobrist keys of positions: the tables (made at compile time), a position's key without its
//! hands (the mate solver's table key), and the keys after a move without playing it.

use super::{Color, Move, Piece, Position, Square};

/// Random keys for Zobrist hashing, made at compile time by SplitMix64 from a fixed seed.
pub(super) struct Zobrist {
    /// By color, kind ([`super::Kind::ALL`] order) and square.
    piece: [[[u64; 81]; 14]; 2],
    /// By color, hand index and count (a key per piece held: the count's keys XORed together).
    hand: [[[u64; 19]; 7]; 2],
    /// XORed in when White is to move.
    pub(super) white: u64,
    /// By color, hand index and count: the hand keys of holding that many (1 up to the count
    /// XORed together), so that a hand's key is seven lookups.
    held: [[[u64; 19]; 7]; 2],
}

pub(super) const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub(super) static ZOBRIST: Zobrist = {
    let mut state = 0x5348_4f47_4920_u64;
    let mut piece = [[[0; 81]; 14]; 2];
    let mut hand = [[[0; 19]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let mut s = 0;
            while s < 81 {
                piece[c][k][s] = splitmix(&mut state);
                s += 1;
            }
            k += 1;
        }
        let mut k = 0;
        while k < 7 {
            let mut n = 0;
            while n < 19 {
                hand[c][k][n] = splitmix(&mut state);
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    let mut held = [[[0; 19]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut n = 1;
            while n < 19 {
                held[c][k][n] = held[c][k][n - 1] ^ hand[c][k][n];
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    Zobrist {
        piece,
        hand,
        white: splitmix(&mut state),
        held,
    }
};

pub(super) fn piece_key(p: Piece, s: Square) -> u64 {
    ZOBRIST.piece[p.color.index()][p.kind as usize][s.0 as usize]
}

/// The key of holding the `n`-th piece of hand index `i` (n from 1).
pub(super) fn hand_key(color: Color, i: usize, n: u8) -> u64 {
    ZOBRIST.hand[color.index()][i][usize::from(n).min(18)]
}

impl Position {
    /// The key of the board and the side to move, without the hands: positions that differ
    /// only in what the hands hold share it (the mate solver compares their hands).
    pub(crate) fn board_key(&self) -> u64 {
        let mut key = self.key;
        for color in [Color::Black, Color::White] {
            let held = &ZOBRIST.held[color.index()];
            for (i, &count) in self.hands[color.index()].iter().enumerate() {
                key ^= held[i][usize::from(count).min(18)];
            }
        }
        key
    }

    /// The board key of [`Position::with_piece_moved`] without building it, given this
    /// position's `board_key`.
    pub(crate) fn board_key_with_piece_moved(
        &self,
        board_key: u64,
        from: Square,
        to: Square,
        promote: bool,
    ) -> u64 {
        let p = self.board[from.0 as usize].expect("a piece to move");
        let kind = if promote {
            p.kind.promoted().unwrap_or(p.kind)
        } else {
            p.kind
        };
        board_key ^ piece_key(p, from) ^ piece_key(Piece { kind, ..p }, to)
    }

    /// The keys after legal `mv` without playing it: (the board key, given this position's
    /// `board_key`; the full key).
    pub(crate) fn keys_after(&self, board_key: u64, mv: Move) -> (u64, u64) {
        let us = self.side;
        let mut pieces = ZOBRIST.white;
        let mut hands = 0;
        match mv {
            Move::Normal { from, to, promote } => {
                let p = self.board[from.0 as usize].expect("a move starts from a piece");
                pieces ^= piece_key(p, from);
                if let Some(captured) = self.board[to.0 as usize] {
                    pieces ^= piece_key(captured, to);
                    if let Some(i) = captured.kind.unpromoted().hand_index() {
                        hands ^= hand_key(us, i, self.hands[us.index()][i] + 1);
                    }
                }
                let kind = if promote {
                    p.kind.promoted().unwrap_or(p.kind)
                } else {
                    p.kind
                };
                pieces ^= piece_key(Piece { color: us, kind }, to);
            }
            Move::Drop { kind, to } => {
                let i = kind.hand_index().expect("a droppable kind");
                hands ^= hand_key(us, i, self.hands[us.index()][i]);
                pieces ^= piece_key(Piece { color: us, kind }, to);
            }
        }
        (board_key ^ pieces, self.key ^ pieces ^ hands)
    }
}
