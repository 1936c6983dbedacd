//! Move generation: listing and counting the legal moves of a position with
//! bitboards, one direction at a time.
//!
//! For a direction `d` and a stone count `k`, `run` holds the squares that
//! end a line of at least `k` of the mover's stones, and `heads` the stones
//! whose next square in `d` is empty or an enemy stone. Stepping the heads
//! of `run` forward `s ≤ k` times through empty squares gives the landing
//! squares of the `k`-stone moves of distance `s`: empty, or an enemy stone
//! that starts a run of fewer than `k` enemy stones in `d` (`enemy_run`
//! holds the starts of runs of at least `k`). Landings on the opponent's
//! home row are checked one by one against the symmetry rule, unless the
//! mover has an odd number of stones (a symmetric board cannot then arise).

use super::board::{Bitboard, Dir, Square, RANKS};
use super::{Epaminondas, Move};
use gamut_core::game::Player;

/// Receives the landing squares of legal moves, grouped by direction,
/// stone count `k` and distance `s`.
trait Visitor {
    fn visit(&mut self, dir: Dir, landings: Bitboard, k: u8, s: u8);
}

/// Counts moves.
struct Counter(usize);

impl Visitor for Counter {
    #[inline(always)]
    fn visit(&mut self, _dir: Dir, landings: Bitboard, _k: u8, _s: u8) {
        self.0 += landings.count() as usize;
    }
}

/// Lists moves.
struct Lister<'a>(&'a mut Vec<Move>);

impl Visitor for Lister<'_> {
    #[inline(always)]
    fn visit(&mut self, dir: Dir, landings: Bitboard, k: u8, s: u8) {
        for landing in landings {
            self.0.push(Move {
                tail: landing.shifted(dir, -(i32::from(s) + i32::from(k) - 1)),
                dir,
                k,
                s,
            });
        }
    }
}

impl Epaminondas {
    /// Appends the legal moves to `out` (not cleared).
    pub(super) fn generate(&self, out: &mut Vec<Move>) {
        self.visit_all(&mut Lister(out));
    }

    /// The number of legal moves.
    pub(super) fn count_moves(&self) -> usize {
        let mut c = Counter(0);
        self.visit_all(&mut c);
        c.0
    }

    /// Whether the side to move has a legal move: a single step to an empty
    /// square off the opponent's home row always is one; otherwise count.
    pub(super) fn has_move(&self) -> bool {
        let own = self.own();
        let free = !(own | self.enemy()) & !self.far_row();
        // Straight up or down settles nearly every position; then the rest.
        if !((own.step(Dir(0)) | own.step(Dir(4))) & free).is_empty() {
            return true;
        }
        let near = Dir::ALL
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, d| acc | own.step(d));
        !(near & free).is_empty() || self.count_moves() > 0
    }

    fn visit_all<V: Visitor>(&self, v: &mut V) {
        if self.side == Player::FIRST {
            self.visit_side::<true, V>(v);
        } else {
            self.visit_side::<false, V>(v);
        }
    }

    /// Visits the moves of White (`WHITE`) or Black, whichever is to move:
    /// knowing the side at compile time makes the far row a constant.
    #[inline(always)]
    fn visit_side<const WHITE: bool, V: Visitor>(&self, v: &mut V) {
        self.visit_dir::<0, 4, WHITE, V>(v);
        self.visit_dir::<1, 5, WHITE, V>(v);
        self.visit_dir::<2, 6, WHITE, V>(v);
        self.visit_dir::<3, 7, WHITE, V>(v);
        self.visit_dir::<4, 0, WHITE, V>(v);
        self.visit_dir::<5, 1, WHITE, V>(v);
        self.visit_dir::<6, 2, WHITE, V>(v);
        self.visit_dir::<7, 3, WHITE, V>(v);
    }

    /// Visits the moves in direction `D` (whose reverse is `R`).
    #[inline(always)]
    fn visit_dir<const D: u8, const R: u8, const WHITE: bool, V: Visitor>(&self, v: &mut V) {
        let dir = Dir(D);
        let own = self.own();
        let enemy = self.enemy();
        let empty = !(own | enemy);
        let far = if WHITE {
            Bitboard::rank(RANKS - 1)
        } else {
            Bitboard::rank(0)
        };
        // Only moves towards the far row, or along it, can land on it.
        let towards = if WHITE {
            dir.offset().1 > 0
        } else {
            dir.offset().1 < 0
        };
        // No square is its own mirror image (the board has an even number of
        // files), so a symmetric board has an even number of the mover's
        // stones, which a move does not change.
        let check_far = own.count().is_multiple_of(2)
            && (towards || (dir.offset().1 == 0 && !(own & far).is_empty()));
        let heads = own & (empty | enemy).step_raw::<R>();
        let mut run = own;
        let mut enemy_run = enemy;
        let mut k: u8 = 1;
        loop {
            let movers = run & heads;
            if movers.is_empty() {
                break;
            }
            let open = empty | (enemy & !enemy_run);
            let mut p = movers;
            for s in 1..=k {
                p = p.step_raw::<D>();
                let landings = p & open;
                let on_far = landings & far;
                if !check_far || on_far.is_empty() {
                    v.visit(dir, landings, k, s);
                } else {
                    v.visit(dir, landings & !far, k, s);
                    for sq in on_far {
                        let m = Move {
                            tail: sq.shifted(dir, -(i32::from(s) + i32::from(k) - 1)),
                            dir,
                            k,
                            s,
                        };
                        if !self.breaks_symmetry_rule(m) {
                            v.visit(dir, sq.bb(), k, s);
                        }
                    }
                }
                p &= empty;
                if p.is_empty() {
                    break;
                }
            }
            k += 1;
            run = own & run.step_raw::<D>();
            enemy_run = enemy & enemy_run.step_raw::<R>();
        }
    }

    /// Whether move `m` (otherwise legal) lands on the opponent's home row
    /// and leaves the board left-right symmetric.
    pub(super) fn breaks_symmetry_rule(&self, m: Move) -> bool {
        if !self.far_row().has(m.landing()) {
            return false;
        }
        let (own, enemy, _) = self.after(m);
        own.mirror() == own && enemy.mirror() == enemy
    }

    /// The mover's and the opponent's stones after move `m` (a legal move,
    /// or one legal but for the symmetry rule: its squares are on the
    /// board), and the squares of the captured stones.
    pub(super) fn after(&self, m: Move) -> (Bitboard, Bitboard, Bitboard) {
        let mut line = Bitboard::EMPTY;
        let mut moved = Bitboard::EMPTY;
        for i in 0..i32::from(m.k) {
            line |= m.tail.shifted(m.dir, i).bb();
            moved |= m.tail.shifted(m.dir, i + i32::from(m.s)).bb();
        }
        let enemy = self.enemy();
        let mut captured = Bitboard::EMPTY;
        let mut at = Some(m.landing());
        while let Some(sq) = at.filter(|&sq| enemy.has(sq)) {
            captured |= sq.bb();
            at = sq.step(m.dir);
        }
        let own = (self.own() ^ line) | moved;
        (own, enemy ^ captured, captured)
    }

    /// The number of stones move `m` captures.
    pub(super) fn captures(&self, m: Move) -> u32 {
        let enemy = self.enemy();
        let mut n = 0;
        let mut at = Some(m.landing());
        while let Some(sq) = at.filter(|&sq| enemy.has(sq)) {
            n += 1;
            at = sq.step(m.dir);
        }
        n
    }
}

impl Move {
    /// The square the head of the moving line lands on.
    #[must_use]
    pub fn landing(self) -> Square {
        self.tail
            .shifted(self.dir, i32::from(self.k) - 1 + i32::from(self.s))
    }
}
