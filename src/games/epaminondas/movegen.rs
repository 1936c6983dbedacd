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
//!
//! Counting (the classic evaluation's mobility, counted for both sides at
//! every leaf) takes the same steps without the enemy runs: a line steps
//! through empty squares only, and the enemy stones it meets are checked
//! for the length of their line when met, which is rare. Along the ranks,
//! where lines are longest, it counts by distance instead of by line
//! length, filling the runs behind the heads within each word.

use super::board::{Bitboard, Dir, Square, RANKS};
use super::{Epaminondas, Move};
use gamut_core::game::Player;

/// Receives the landing squares of legal moves, grouped by direction,
/// stone count `k` and distance `s`.
trait Visitor {
    fn visit(&mut self, dir: Dir, landings: Bitboard, k: u8, s: u8);
}

/// Lists moves.
struct Lister<'a>(&'a mut Vec<Move>);

impl Visitor for Lister<'_> {
    #[inline(always)]
    fn visit(&mut self, dir: Dir, landings: Bitboard, k: u8, s: u8) {
        for landing in landings {
            self.0.push(Epaminondas::move_to(landing, dir, k, s));
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
        let n = if self.side == Player::FIRST {
            self.count_side::<true>()
        } else {
            self.count_side::<false>()
        };
        n as usize
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

    /// Counts the moves of White (`WHITE`) or Black, whichever is to move.
    #[inline(always)]
    fn count_side<const WHITE: bool>(&self) -> u32 {
        let even = self.own().count().is_multiple_of(2);
        // Along a rank the far row matters only if the mover has stones on
        // it (see `visit_dir`).
        let far = if WHITE {
            Bitboard::rank(RANKS - 1)
        } else {
            Bitboard::rank(0)
        };
        let (east, west) = if even && !(self.own() & far).is_empty() {
            (
                self.count_dir::<2, 6, WHITE>(even),
                self.count_dir::<6, 2, WHITE>(even),
            )
        } else {
            (self.count_rank::<true>(), self.count_rank::<false>())
        };
        self.count_dir::<0, 4, WHITE>(even)
            + self.count_dir::<1, 5, WHITE>(even)
            + east
            + self.count_dir::<3, 7, WHITE>(even)
            + self.count_dir::<4, 0, WHITE>(even)
            + self.count_dir::<5, 1, WHITE>(even)
            + west
            + self.count_dir::<7, 3, WHITE>(even)
    }

    /// Counts the moves east (`EAST`) or west along the ranks, none of
    /// them onto the far row. Each rank is a 16-bit lane of a word, so a
    /// step is a shift of each word and no line crosses a word.
    ///
    /// A line's head `h` (its front stone) with a run of `L` stones behind
    /// it (itself included) and `F` empty squares ahead moves `k ≤ L`
    /// stones `s ≤ min(k, F)` squares: for each distance `s`, the heads
    /// with `F ≥ s` contribute the stones of their runs at least `s - 1`
    /// behind the head, `max(0, L - s + 1)` moves. The runs of a set of
    /// heads are filled within each word: west, where the head is a run's
    /// lowest bit, by one carry; east by doubling shifts. Captures (the
    /// first stone ahead an enemy) are counted head by head.
    #[inline(always)]
    fn count_rank<const EAST: bool>(&self) -> u32 {
        let own = self.own().0;
        let enemy = self.enemy().0;
        let empty = (!(self.own() | self.enemy())).0;
        // `ahead(x)`: the squares whose next square in the direction is
        // in `x` (padding bits are clear in every set, so nothing crosses
        // a rank or a word).
        let ahead = |x: [u64; 3]| -> [u64; 3] {
            if EAST {
                x.map(|w| w >> 1)
            } else {
                x.map(|w| w << 1)
            }
        };
        let and = |a: [u64; 3], b: [u64; 3]| [a[0] & b[0], a[1] & b[1], a[2] & b[2]];
        let is_empty = |a: [u64; 3]| a[0] | a[1] | a[2] == 0;
        let count = |a: [u64; 3]| a[0].count_ones() + a[1].count_ones() + a[2].count_ones();
        let open = [
            empty[0] | enemy[0],
            empty[1] | enemy[1],
            empty[2] | enemy[2],
        ];
        let heads = and(own, ahead(open));
        if is_empty(heads) {
            return 0;
        }
        // Runs of 2, 4 and 8 own stones ahead of each square (east only).
        let p2 = and(own, ahead(own));
        let p4 = and(p2, p2.map(|w| w >> 2));
        let p8 = and(p4, p4.map(|w| w >> 4));
        // The own stones of the runs behind the heads `h`.
        let runs = |h: [u64; 3]| -> [u64; 3] {
            if EAST {
                let mut g = h;
                g = [0, 1, 2].map(|i| g[i] | (own[i] & (g[i] >> 1)));
                g = [0, 1, 2].map(|i| g[i] | (p2[i] & (g[i] >> 2)));
                g = [0, 1, 2].map(|i| g[i] | (p4[i] & (g[i] >> 4)));
                [0, 1, 2].map(|i| g[i] | (p8[i] & (g[i] >> 8)))
            } else {
                [0, 1, 2].map(|i| own[i] & !own[i].wrapping_add(h[i]))
            }
        };
        // Stones with at least `s - 1` own stones between them and the
        // head: `deep(x)` marks the stones one further.
        let deep = |x: [u64; 3]| -> [u64; 3] {
            if EAST {
                and(own, x.map(|w| w >> 1))
            } else {
                and(own, x.map(|w| w << 1))
            }
        };
        let free1 = ahead(empty);
        let mut free = free1;
        let mut blocked = ahead(enemy);
        let mut depth = own;
        let mut n = 0;
        let mut s: u8 = 1;
        loop {
            let captures = and(heads, blocked);
            if !is_empty(captures) {
                n += self.count_rank_captures::<EAST>(Bitboard(captures), s);
            }
            let moving = and(heads, free);
            let behind = runs(moving);
            n += count(and(behind, depth));
            depth = deep(depth);
            if is_empty(and(behind, depth)) {
                break;
            }
            s += 1;
            free = and(free1, ahead(free));
            blocked = and(free1, ahead(blocked));
        }
        n
    }

    /// The captures east (`EAST`) or west by the lines headed by the
    /// stones of `heads`, whose first stone ahead, `s` squares on, is an
    /// enemy's: `k` stones capture for `max(s, E + 1) ≤ k ≤ L`, with `L`
    /// the line's stones and `E` the enemy's line from there.
    #[inline(never)]
    fn count_rank_captures<const EAST: bool>(&self, heads: Bitboard, s: u8) -> u32 {
        let dir = if EAST { Dir(2) } else { Dir(6) };
        let line = |set: Bitboard, from: Option<Square>, d: Dir| {
            let mut n: u8 = 0;
            let mut at = from;
            while let Some(sq) = at.filter(|&sq| set.has(sq)) {
                n += 1;
                at = sq.step(d);
            }
            n
        };
        heads
            .map(|h| {
                let l = line(self.own(), Some(h), dir.reverse());
                let e = line(self.enemy(), Some(h.shifted(dir, i32::from(s))), dir);
                (l + 1).saturating_sub(s.max(e + 1))
            })
            .map(u32::from)
            .sum()
    }

    /// Counts the moves in direction `D` (whose reverse is `R`), `even`
    /// telling whether the mover has an even number of stones: the moves
    /// [`Self::visit_dir`] would visit, found the same way, but for
    /// captures. A line steps onto empty squares only; the enemy stones it
    /// meets are captures, counted apart, unless the enemy's line from
    /// there is as long as the moving one (rarely met, so no set of enemy
    /// runs is kept up for every `k`).
    #[inline(always)]
    fn count_dir<const D: u8, const R: u8, const WHITE: bool>(&self, even: bool) -> u32 {
        let dir = Dir(D);
        let own = self.own();
        let enemy = self.enemy();
        let empty = !(own | enemy);
        let heads = own & (empty | enemy).step_raw::<R>();
        if heads.is_empty() {
            return 0;
        }
        let far = if WHITE {
            Bitboard::rank(RANKS - 1)
        } else {
            Bitboard::rank(0)
        };
        let towards = if WHITE {
            dir.offset().1 > 0
        } else {
            dir.offset().1 < 0
        };
        let check_far = even && (towards || (dir.offset().1 == 0 && !(own & far).is_empty()));
        // Single stones: a step onto an empty square.
        let ahead = own.step_raw::<D>();
        let single = ahead & empty;
        let mut n = single.count();
        if check_far {
            n -= self.far_row_breaks(single & far, dir, 1, 1);
        }
        // Lines of k ≥ 2 stones, which may also capture.
        let mut run = own & ahead;
        let mut k: u8 = 2;
        loop {
            let movers = run & heads;
            if movers.is_empty() {
                break;
            }
            let mut p = movers;
            for s in 1..=k {
                p = p.step_raw::<D>();
                let hits = p & enemy;
                p &= empty;
                n += p.count();
                if check_far {
                    n -= self.far_row_breaks(p & far, dir, k, s);
                }
                if !hits.is_empty() {
                    n += self.count_captures::<D>(hits, k, s, check_far.then_some(far));
                }
                if p.is_empty() {
                    break;
                }
            }
            k += 1;
            run = own & run.step_raw::<D>();
        }
        n
    }

    /// Of the moves of `k` stones in direction `dir` over `s` squares onto
    /// the squares of `landings` (each a move's landing), how many break
    /// the symmetry rule.
    #[inline(always)]
    fn far_row_breaks(&self, landings: Bitboard, dir: Dir, k: u8, s: u8) -> u32 {
        if landings.is_empty() {
            return 0;
        }
        self.far_row_breaks_slow(landings, dir, k, s)
    }

    #[inline(never)]
    fn far_row_breaks_slow(&self, landings: Bitboard, dir: Dir, k: u8, s: u8) -> u32 {
        landings
            .filter(|&sq| self.breaks_symmetry_rule(Self::move_to(sq, dir, k, s)))
            .count() as u32
    }

    /// The captures among the moves of `k` stones in direction `D` over
    /// `s` squares onto the enemy stones `hits`: those whose enemy line in
    /// `D` is shorter than `k`, less those landing on the squares of `far`
    /// (if given) that break the symmetry rule.
    #[inline(never)]
    fn count_captures<const D: u8>(
        &self,
        hits: Bitboard,
        k: u8,
        s: u8,
        far: Option<Bitboard>,
    ) -> u32 {
        let enemy = self.enemy();
        // Follow each hit enemy line k - 1 squares on: the hits still on
        // an enemy stone start lines of k or more.
        let mut long = hits;
        for _ in 1..k {
            long = enemy & long.step_raw::<D>();
            if long.is_empty() {
                break;
            }
        }
        let mut n = hits.count() - long.count();
        if let Some(far) = far {
            for sq in hits & far {
                let m = Self::move_to(sq, Dir(D), k, s);
                if self.captures(m) < u32::from(k) && self.breaks_symmetry_rule(m) {
                    n -= 1;
                }
            }
        }
        n
    }

    /// The move of `k` stones in direction `dir` over `s` squares whose
    /// head lands on `landing`.
    #[inline(always)]
    fn move_to(landing: Square, dir: Dir, k: u8, s: u8) -> Move {
        Move {
            tail: landing.shifted(dir, -(i32::from(s) + i32::from(k) - 1)),
            dir,
            k,
            s,
        }
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
                        if !self.breaks_symmetry_rule(Self::move_to(sq, dir, k, s)) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_core::game::{Game, Notation};

    /// The count agrees with the list, for either side to move, where the
    /// symmetry rule forbids moves onto the far row, plain and capturing,
    /// and where long enemy lines stop captures.
    #[test]
    fn counting_agrees_with_listing() {
        let texts = [
            // g11-g12 and g9-g12 (a pair) would leave the board symmetric.
            "7W6/6W7/14/14/14/14/14/14/14/14/14/B12B",
            "7W6/7W6/6W7/6W7/14/14/14/14/14/14/14/B12B",
            "W12W/14/14/14/14/14/14/14/14/14/6B7/7B6",
            // Black's g3xg1 would; with one more black stone it would not.
            "W12W/14/14/14/14/14/14/14/14/6B7/6BB6/6WB6",
            "W12W/14/14/14/14/14/12B1/14/14/6B7/6BB6/6WB6",
            // Lines meeting enemy lines as long, shorter and longer.
            "14/14/14/14/14/14/2B11/2B11/2W11/2W11/2W11/14",
            "14/14/2B11/2B11/2B11/2B11/14/2W11/2W11/2W11/14/14",
            "14/3B10/3B10/14/1BW11/14/3W10/3W10/3W10/14/14/14",
            "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW",
        ];
        let mut list = Vec::new();
        for text in texts {
            for side in ["w", "b"] {
                let p = Epaminondas::parse(&format!("{text} {side}")).unwrap();
                list.clear();
                p.generate(&mut list);
                assert_eq!(p.count_moves(), list.len(), "{}", p.text());
            }
        }
        // Along random games, every position with either side to move.
        let mut x = 0x5eed_u64;
        for _ in 0..40 {
            let mut p = Epaminondas::start();
            for _ in 0..120 {
                for q in [p.clone(), p.other_side()] {
                    list.clear();
                    q.generate(&mut list);
                    assert_eq!(q.count_moves(), list.len(), "{}", q.text());
                }
                list.clear();
                p.moves(&mut list);
                if list.is_empty() {
                    break;
                }
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p = p.play(list[(x >> 33) as usize % list.len()]);
            }
        }
    }
}
