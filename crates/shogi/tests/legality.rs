//! The move generator against a slow, obviously correct one written here from the rules alone,
//! on thousands of positions: every generated move must be legal and every legal move
//! generated.
//!
//! The slow generator shares nothing with the crate but the SFEN text of a position: its own
//! board (pieces as letters on a 9×9 grid), its own piece movements (one table of vectors),
//! and the plainest tests of the rules: a piece "reaches" a square if one of its steps lands
//! there or one of its slides gets there over empty squares; a move is tried on every one of
//! the 81 squares; a move is legal if afterwards no enemy piece reaches the mover's king; a
//! pawn drop is refused (uchifuzume) if it checks and the side checked then has no legal move
//! by this same definition.

use std::collections::BTreeSet;

use prune_shogi::{Kind, Move, Position, Square};

/// A piece of the slow model: its letter (upper case, `PLNSGBRK`), owner and promotion.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    letter: char,
    black: bool,
    promoted: bool,
}

/// The hand order of the slow model.
const HAND: [char; 7] = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];

/// The slow model's position: `board[rank][file - 1]`, rank 0 = a (Black's far side).
#[derive(Clone, PartialEq, Eq, Debug)]
struct Board {
    board: [[Option<Piece>; 9]; 9],
    /// Counts in hand by side (0 = Black) and [`HAND`] index.
    hands: [[u8; 7]; 2],
    black_to_move: bool,
}

/// (file, rank) vectors.
type Vectors = Vec<(i32, i32)>;

/// Steps and slides of a piece as (file, rank) vectors with "forward" as rank −1, for Black.
fn movement(p: Piece) -> (Vectors, Vectors) {
    let gold = vec![(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    let diagonal = vec![(-1, -1), (1, -1), (-1, 1), (1, 1)];
    let orthogonal = vec![(0, -1), (-1, 0), (1, 0), (0, 1)];
    match (p.letter, p.promoted) {
        ('P', false) => (vec![(0, -1)], vec![]),
        ('L', false) => (vec![], vec![(0, -1)]),
        ('N', false) => (vec![(-1, -2), (1, -2)], vec![]),
        ('S', false) => (vec![(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)], vec![]),
        ('G', _) | ('P' | 'L' | 'N' | 'S', true) => (gold, vec![]),
        ('K', _) => (
            diagonal.iter().chain(&orthogonal).copied().collect(),
            vec![],
        ),
        ('B', false) => (vec![], diagonal),
        ('B', true) => (orthogonal, diagonal),
        ('R', false) => (vec![], orthogonal),
        ('R', true) => (diagonal, orthogonal),
        other => panic!("no such piece {other:?}"),
    }
}

fn on_board(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..9).contains(&r)
}

impl Board {
    /// Reads the SFEN text that the crate prints.
    fn from_sfen(text: &str) -> Board {
        let fields: Vec<&str> = text.split(' ').collect();
        let mut board = [[None; 9]; 9];
        for (rank, row) in fields[0].split('/').enumerate() {
            let mut file = 9;
            let mut promoted = false;
            for c in row.chars() {
                if c == '+' {
                    promoted = true;
                } else if let Some(d) = c.to_digit(10) {
                    file -= d as usize;
                } else {
                    board[rank][file - 1] = Some(Piece {
                        letter: c.to_ascii_uppercase(),
                        black: c.is_ascii_uppercase(),
                        promoted,
                    });
                    promoted = false;
                    file -= 1;
                }
            }
            assert_eq!(file, 0, "{text}");
        }
        let mut hands = [[0; 7]; 2];
        if fields[2] != "-" {
            let mut count = 0;
            for c in fields[2].chars() {
                if let Some(d) = c.to_digit(10) {
                    count = count * 10 + d as u8;
                } else {
                    let i = HAND
                        .iter()
                        .position(|&h| h == c.to_ascii_uppercase())
                        .unwrap();
                    hands[usize::from(c.is_ascii_lowercase())][i] += count.max(1);
                    count = 0;
                }
            }
        }
        Board {
            board,
            hands,
            black_to_move: fields[1] == "b",
        }
    }

    /// The SFEN of this board (hands in the order R B G S N L P, Black's first).
    fn sfen(&self) -> String {
        let mut rows = Vec::new();
        for rank in 0..9 {
            let mut row = String::new();
            let mut empty = 0;
            for file in (0..9).rev() {
                match self.board[rank][file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        if p.promoted {
                            row.push('+');
                        }
                        row.push(if p.black {
                            p.letter
                        } else {
                            p.letter.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let mut hands = String::new();
        for side in 0..2 {
            for (i, &n) in self.hands[side].iter().enumerate() {
                if n > 1 {
                    hands += &n.to_string();
                }
                if n > 0 {
                    hands.push(if side == 0 {
                        HAND[i]
                    } else {
                        HAND[i].to_ascii_lowercase()
                    });
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        let side = if self.black_to_move { "b" } else { "w" };
        format!("{} {side} {hands} 1", rows.join("/"))
    }

    fn at(&self, f: i32, r: i32) -> Option<Piece> {
        self.board[r as usize][f as usize]
    }

    /// Whether the piece on (f, r) attacks (tf, tr), whatever stands there.
    fn reaches(&self, f: i32, r: i32, tf: i32, tr: i32) -> bool {
        let p = self.at(f, r).expect("a piece");
        // USI files grow to the left as Black sees the board; White's forward is rank +1.
        let turn = |(df, dr): (i32, i32)| if p.black { (df, dr) } else { (df, -dr) };
        let (steps, slides) = movement(p);
        if steps
            .into_iter()
            .map(turn)
            .any(|(df, dr)| f + df == tf && r + dr == tr)
        {
            return true;
        }
        for (df, dr) in slides.into_iter().map(turn) {
            let (mut x, mut y) = (f + df, r + dr);
            while on_board(x, y) {
                if (x, y) == (tf, tr) {
                    return true;
                }
                if self.at(x, y).is_some() {
                    break;
                }
                x += df;
                y += dr;
            }
        }
        false
    }

    /// Whether the king of `black` is attacked by any enemy piece.
    fn king_attacked(&self, black: bool) -> bool {
        let squares: Vec<(i32, i32)> = (0..9).flat_map(|f| (0..9).map(move |r| (f, r))).collect();
        let Some(&(kf, kr)) = squares.iter().find(|&&(f, r)| {
            self.at(f, r)
                == Some(Piece {
                    letter: 'K',
                    black,
                    promoted: false,
                })
        }) else {
            return false;
        };
        squares.iter().any(|&(f, r)| {
            self.at(f, r).is_some_and(|p| p.black != black) && self.reaches(f, r, kf, kr)
        })
    }

    /// Ranks from the mover's far side: 0 is the last rank.
    fn distance_to_far_side(&self, r: i32) -> i32 {
        if self.black_to_move {
            r
        } else {
            8 - r
        }
    }

    /// Whether a piece of `letter` (unpromoted) could move again from rank `r`.
    fn could_move_from(&self, letter: char, r: i32) -> bool {
        let far = self.distance_to_far_side(r);
        match letter {
            'P' | 'L' => far >= 1,
            'N' => far >= 2,
            _ => true,
        }
    }

    /// The board after a move given as USI text (assumed to follow the rules of movement).
    fn after(&self, mv: &str) -> Board {
        let mut next = self.clone();
        let b = mv.as_bytes();
        let square = |i: usize| (i32::from(b[i] - b'1'), i32::from(b[i + 1] - b'a'));
        let side = usize::from(!self.black_to_move);
        if b[1] == b'*' {
            let (tf, tr) = square(2);
            let letter = b[0] as char;
            next.hands[side][HAND.iter().position(|&h| h == letter).unwrap()] -= 1;
            next.board[tr as usize][tf as usize] = Some(Piece {
                letter,
                black: self.black_to_move,
                promoted: false,
            });
        } else {
            let (f, r) = square(0);
            let (tf, tr) = square(2);
            let mut p = next.board[r as usize][f as usize].take().unwrap();
            if let Some(captured) = next.board[tr as usize][tf as usize] {
                let i = HAND.iter().position(|&h| h == captured.letter).unwrap();
                next.hands[side][i] += 1;
            }
            if b.len() == 5 {
                p.promoted = true;
            }
            next.board[tr as usize][tf as usize] = Some(p);
        }
        next.black_to_move = !self.black_to_move;
        next
    }

    /// Every legal move as USI text, and how many pawn drops uchifuzume refused.
    fn legal(&self) -> (BTreeSet<String>, usize) {
        let name = |f: i32, r: i32| format!("{}{}", f + 1, (b'a' + r as u8) as char);
        let mut candidates = Vec::new();
        for f in 0..9 {
            for r in 0..9 {
                let Some(p) = self.at(f, r).filter(|p| p.black == self.black_to_move) else {
                    continue;
                };
                for tf in 0..9 {
                    for tr in 0..9 {
                        if self.at(tf, tr).is_some_and(|q| q.black == p.black)
                            || !self.reaches(f, r, tf, tr)
                        {
                            continue;
                        }
                        let text = format!("{}{}", name(f, r), name(tf, tr));
                        let promotes = !p.promoted && !matches!(p.letter, 'G' | 'K');
                        let zone = |rank: i32| self.distance_to_far_side(rank) <= 2;
                        if promotes && (zone(r) || zone(tr)) {
                            candidates.push(format!("{text}+"));
                        }
                        if p.promoted || self.could_move_from(p.letter, tr) {
                            candidates.push(text);
                        }
                    }
                }
            }
        }
        let side = usize::from(!self.black_to_move);
        let mut pawn_drops = Vec::new();
        for (i, &letter) in HAND.iter().enumerate() {
            if self.hands[side][i] == 0 {
                continue;
            }
            for f in 0..9 {
                let pawn_on_file = (0..9).any(|r| {
                    self.at(f, r)
                        == Some(Piece {
                            letter: 'P',
                            black: self.black_to_move,
                            promoted: false,
                        })
                });
                for r in 0..9 {
                    if self.at(f, r).is_some()
                        || !self.could_move_from(letter, r)
                        || (letter == 'P' && pawn_on_file)
                    {
                        continue;
                    }
                    let text = format!("{letter}*{}", name(f, r));
                    if letter == 'P' {
                        pawn_drops.push(text.clone());
                    }
                    candidates.push(text);
                }
            }
        }
        let mut legal = BTreeSet::new();
        let mut uchifuzume = 0;
        for mv in candidates {
            let next = self.after(&mv);
            if next.king_attacked(self.black_to_move) {
                continue;
            }
            if pawn_drops.contains(&mv)
                && next.king_attacked(!self.black_to_move)
                && next.legal().0.is_empty()
            {
                uchifuzume += 1;
                continue;
            }
            legal.insert(mv);
        }
        (legal, uchifuzume)
    }
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What the positions checked covered, so that the test cannot pass on easy positions only.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    moves: usize,
    in_check: usize,
    checkmates: usize,
    drops: usize,
    promotions: usize,
    uchifuzume: usize,
}

/// Compares the crate's legal moves with the slow model's in the position of `sfen`.
fn check(sfen: &str, coverage: &mut Coverage) -> Position {
    let position: Position = sfen.parse().unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let board = Board::from_sfen(&position.to_string());
    let fast: BTreeSet<String> = position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    let (slow, uchifuzume) = board.legal();
    if fast != slow {
        let missing: Vec<&String> = slow.difference(&fast).collect();
        let extra: Vec<&String> = fast.difference(&slow).collect();
        panic!("{sfen}: legal moves not generated: {missing:?}; generated but illegal: {extra:?}");
    }
    assert_eq!(
        position.legal_moves().len(),
        fast.len(),
        "{sfen}: a move generated twice"
    );
    split_and_single_move_test(&position, &slow);
    coverage.positions += 1;
    coverage.moves += fast.len();
    coverage.in_check += usize::from(position.in_check());
    coverage.checkmates += usize::from(position.in_check() && fast.is_empty());
    coverage.drops += fast.iter().filter(|m| m.contains('*')).count();
    coverage.promotions += fast.iter().filter(|m| m.ends_with('+')).count();
    coverage.uchifuzume += uchifuzume;
    position
}

/// The staged search's generators in `position`, whose legal moves (by the slow model) are
/// `slow`: the captures and the quiet moves each in generation order and together every
/// legal move once; and [`Position::is_legal`] true for exactly the legal moves among the
/// legal ones, the opponent's, and random moves and drops of any piece from any square.
fn split_and_single_move_test(position: &Position, slow: &BTreeSet<String>) {
    let all = position.legal_moves();
    let (mut captures, mut quiets) = (Vec::new(), Vec::new());
    position.legal_captures(&mut captures);
    position.legal_quiets(&mut quiets);
    let is_capture = |mv: &Move| position.captured(*mv).is_some();
    let expect_captures: Vec<Move> = all.iter().copied().filter(is_capture).collect();
    let expect_quiets: Vec<Move> = all.iter().copied().filter(|m| !is_capture(m)).collect();
    assert_eq!(captures, expect_captures, "{position}: the captures");
    assert_eq!(quiets, expect_quiets, "{position}: the quiet moves");
    let mut rng = Rng(position.key());
    let mut candidates = all.clone();
    candidates.extend(position.null_move().legal_moves());
    for _ in 0..200 {
        let to = Square(rng.below(81) as u8);
        candidates.push(if rng.below(4) == 0 {
            Move::Drop {
                kind: Kind::HAND[rng.below(7)],
                to,
            }
        } else {
            Move::Normal {
                from: Square(rng.below(81) as u8),
                to,
                promote: rng.below(3) == 0,
            }
        });
    }
    for mv in candidates {
        assert_eq!(
            position.is_legal(mv),
            slow.contains(&mv.to_string()),
            "{position}: is {mv} legal?"
        );
    }
}

#[test]
fn moves_equal_a_slow_generator_along_random_games() {
    let mut rng = Rng(2026);
    let mut coverage = Coverage::default();
    for _game in 0..12 {
        let mut position = Position::start();
        for _ply in 0..200 {
            position = check(&position.to_string(), &mut coverage);
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position = position.play(moves[rng.below(moves.len())]);
        }
    }
    eprintln!("{coverage:?}");
    assert!(coverage.positions >= 1500, "{coverage:?}");
    assert!(
        coverage.drops > 0 && coverage.promotions > 0 && coverage.in_check > 0,
        "{coverage:?}"
    );
}

/// A random board: both kings, up to `pieces` more pieces (none that could never move, no
/// two unpromoted pawns of a side on a file), random hands; `None` when the side not to move
/// is in check (not a position of a game).
fn random_board(rng: &mut Rng, pieces: usize) -> Option<Board> {
    let mut b = Board {
        board: [[None; 9]; 9],
        hands: [[0; 7]; 2],
        black_to_move: rng.below(2) == 0,
    };
    for black in [true, false] {
        loop {
            let (f, r) = (rng.below(9), rng.below(9));
            if b.board[r][f].is_none() {
                b.board[r][f] = Some(Piece {
                    letter: 'K',
                    black,
                    promoted: false,
                });
                break;
            }
        }
    }
    for _ in 0..pieces {
        let (f, r) = (rng.below(9), rng.below(9));
        let letter = HAND[rng.below(7)];
        let black = rng.below(2) == 0;
        let promoted = letter != 'G' && rng.below(4) == 0;
        let far = if black { r } else { 8 - r };
        let dead = !promoted
            && match letter {
                'P' | 'L' => far < 1,
                'N' => far < 2,
                _ => false,
            };
        let nifu = letter == 'P'
            && !promoted
            && (0..9).any(|rr| {
                b.board[rr][f]
                    == Some(Piece {
                        letter,
                        black,
                        promoted,
                    })
            });
        if b.board[r][f].is_none() && !dead && !nifu {
            b.board[r][f] = Some(Piece {
                letter,
                black,
                promoted,
            });
        }
    }
    for side in 0..2 {
        for i in 0..7 {
            b.hands[side][i] = [0, 0, 1, 2][rng.below(4)];
        }
    }
    (!b.king_attacked(!b.black_to_move)).then_some(b)
}

#[test]
fn moves_equal_a_slow_generator_on_random_boards() {
    let mut rng = Rng(81);
    let mut coverage = Coverage::default();
    let mut made = 0;
    while made < 3000 {
        let pieces = 2 + rng.below(24);
        let Some(board) = random_board(&mut rng, pieces) else {
            continue;
        };
        made += 1;
        let sfen = board.sfen();
        // The slow model reads back what it wrote through the crate.
        let position = check(&sfen, &mut coverage);
        assert_eq!(Board::from_sfen(&position.to_string()), board, "{sfen}");
    }
    eprintln!("{coverage:?}");
    assert!(coverage.in_check >= 100, "{coverage:?}");
    assert!(coverage.checkmates > 0, "{coverage:?}");
    assert!(coverage.uchifuzume > 0, "{coverage:?}");
    assert!(
        coverage.drops > 0 && coverage.promotions > 0,
        "{coverage:?}"
    );
}

/// Uchifuzume in a position built for it, and the same drop allowed once the king can escape.
#[test]
fn the_slow_generator_knows_uchifuzume() {
    // White's king on 1a, boxed in by its own lance on 2a and Black's gold on 2c guarding 1b's
    // escape squares; P*1b checks, the gold defends 1b, and the king has nowhere to go.
    let mate = Board::from_sfen("7lk/9/7G1/9/9/9/9/9/K8 b P 1");
    let (moves, refused) = mate.legal();
    assert_eq!(refused, 1);
    assert!(!moves.contains("P*1b"));
    // With the lance gone the king escapes to 2a: the drop is an ordinary check.
    let escape = Board::from_sfen("8k/9/7G1/9/9/9/9/9/K8 b P 1");
    let (moves, refused) = escape.legal();
    assert_eq!(refused, 0);
    assert!(moves.contains("P*1b"));
}

/// The positions along the Edo tsume collections' source lines (`../shared/data/tsume/`,
/// beside the repository): no attacker's king, full hands, a defender in check at every other
/// ply, interpositions by drops: what the mate solver generates moves in.
#[test]
fn moves_equal_a_slow_generator_along_the_edo_tsume_lines() {
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tsume");
    let mut coverage = Coverage::default();
    for name in ["zukou.tsv", "musou.tsv"] {
        let path = dir.join(name);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for line in text.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            let mut position = check(fields[1], &mut coverage);
            for text in fields[3].split(' ') {
                let mv = position
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("{line}: {e}"));
                position = check(&position.play(mv).to_string(), &mut coverage);
            }
        }
    }
    eprintln!("{coverage:?}");
    // Every line's positions (8,252), and every line but the 7 that end before a futile drop
    // ends in checkmate.
    assert_eq!(
        (coverage.positions, coverage.checkmates),
        (8_252, 193),
        "{coverage:?}"
    );
    assert!(coverage.in_check * 3 > coverage.positions, "{coverage:?}");
}
