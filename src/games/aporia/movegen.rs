//! Move generation: the pieces that may move, their targets, the moves the
//! repetition rules forbid, and counting moves in bulk without listing them.

use super::board::{diagonal_sources, file_bits, rank_bits, Move, Node, NodeSet, DIAGONAL};
use super::board::{JUMP_COLUMN, JUMP_ROW, PLATFORM_OF};
use super::Aporia;

const NE: u16 = diagonal_sources(5);
const NW: u16 = diagonal_sources(3);
const SE: u16 = diagonal_sources(-3);
const SW: u16 = diagonal_sources(-5);

/// Sources of jumps over exactly two cells' distance east (files a, b) and
/// three (file a); the other directions mirror them.
const EAST2: u16 = 0x3333;
const EAST3: u16 = 0x1111;
const WEST2: u16 = 0xcccc;
const WEST3: u16 = 0x8888;
const NORTH2: u16 = 0x00ff;
const NORTH3: u16 = 0x000f;
const SOUTH2: u16 = 0xff00;
const SOUTH3: u16 = 0xf000;

/// `x` seen from `delta` nodes away: bit `n` of the result is bit
/// `n + delta` of `x` (zero off the 16 nodes).
#[inline(always)]
const fn along(x: u16, delta: i32) -> u16 {
    if delta >= 0 {
        x >> delta
    } else {
        x << -delta
    }
}

/// The sources of jumps in direction `step` (±1, ±4) over one piece
/// (landing two nodes away, sources in `two`) and over two pieces (three
/// nodes away, sources in `three`), packed in the low and high 16 bits.
#[inline(always)]
const fn jump_sources(mov: u16, occ: u16, emp: u16, step: i32, two: u16, three: u16) -> u32 {
    let over = mov & along(occ, step);
    let land2 = over & two & along(emp, 2 * step);
    let land3 = over & three & along(occ, 2 * step) & along(emp, 3 * step);
    land2 as u32 | (land3 as u32) << 16
}

impl Aporia {
    /// Every occupied node.
    #[inline(always)]
    #[must_use]
    pub fn occupied(&self) -> NodeSet {
        self.white | self.black
    }

    /// The pieces that may move: every piece not on a locked platform.
    #[inline(always)]
    #[must_use]
    pub fn movable(&self) -> NodeSet {
        self.occupied() & !self.locked
    }

    /// The nodes the piece on `from` reaches by a diagonal step or a jump,
    /// before the repetition rules (the piece is assumed to be movable).
    #[inline(always)]
    #[must_use]
    pub fn targets(&self, from: Node) -> NodeSet {
        let occ = self.occupied();
        let f = from.0 as usize;
        (DIAGONAL[f] & !occ)
            | JUMP_ROW[f][rank_bits(occ, from)]
            | JUMP_COLUMN[f][file_bits(occ, from)]
    }

    /// Whether `m` moves a movable piece along a diagonal step or a jump,
    /// before the repetition rules.
    #[inline(always)]
    #[must_use]
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        self.movable().has(m.from) && self.targets(m.from).has(m.to)
    }

    /// The moves the repetition rules forbid now: prohibition 1 (the piece
    /// on `y` back to `x`, after the opponent's `x-y`) and prohibition 2 (the
    /// piece the mover moved `u-v` last time back to `u`; it stands on `v`,
    /// or on `y` when the opponent's move started on `v`).
    #[inline(always)]
    pub fn prohibited(&self) -> [Option<Move>; 2] {
        let first = self.last.map(Move::reversed);
        let second = self.own_last.map(|own| {
            let at = match self.last {
                Some(last) if last.from == own.to => last.to,
                _ => own.to,
            };
            Move::new(at, own.from)
        });
        [first, second]
    }

    /// The diagonal steps of the movable pieces before the repetition
    /// rules, one bit per move (16 bits per direction).
    #[inline(always)]
    fn diagonal_steps(mov: u16, emp: u16) -> u64 {
        u64::from(mov & NE & along(emp, 5))
            | u64::from(mov & NW & along(emp, 3)) << 16
            | u64::from(mov & SE & along(emp, -3)) << 32
            | u64::from(mov & SW & along(emp, -5)) << 48
    }

    /// The jumps of the movable pieces before the repetition rules, one bit
    /// per move. Opposite directions share 16-bit lanes: their sources never
    /// meet (a jump east over one piece starts on files a-b, west on c-d;
    /// over two pieces on file a and d; likewise for ranks).
    #[inline(always)]
    fn jumps(mov: u16, occ: u16, emp: u16) -> u64 {
        let horizontal = jump_sources(mov, occ, emp, 1, EAST2, EAST3)
            | jump_sources(mov, occ, emp, -1, WEST2, WEST3);
        let vertical = jump_sources(mov, occ, emp, 4, NORTH2, NORTH3)
            | jump_sources(mov, occ, emp, -4, SOUTH2, SOUTH3);
        u64::from(horizontal) | u64::from(vertical) << 32
    }

    /// How many moves the pieces have before the repetition rules, counted
    /// in bulk with shifts and masks.
    #[inline(always)]
    #[must_use]
    pub fn pseudo_legal_count(&self) -> u32 {
        let occ = self.occupied().0;
        let mov = occ & !self.locked.0;
        let emp = !occ;
        Aporia::diagonal_steps(mov, emp).count_ones() + Aporia::jumps(mov, occ, emp).count_ones()
    }

    /// How many of the prohibited moves would otherwise be legal.
    #[inline(always)]
    #[must_use]
    pub fn prohibited_count(&self) -> u32 {
        // The way back of the opponent's last move is open (its start is
        // empty, any jumped run still stands) unless the piece got locked.
        let first = u32::from(self.last.is_some_and(|m| !self.locked.has(m.to)));
        let [_, second] = self.prohibited();
        first + u32::from(second.is_some_and(|m| self.is_pseudo_legal(m)))
    }

    /// The number of legal moves.
    #[inline(always)]
    #[must_use]
    pub fn legal_count(&self) -> u32 {
        self.pseudo_legal_count() - self.prohibited_count()
    }

    /// Whether the side to move has a legal move.
    #[inline(always)]
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        // At most two moves are prohibited: three diagonal steps settle it.
        let occ = self.occupied().0;
        let steps = Aporia::diagonal_steps(occ & !self.locked.0, !occ);
        let fewer = steps & steps.wrapping_sub(1);
        fewer & fewer.wrapping_sub(1) != 0 || self.legal_count() > 0
    }

    /// Calls `f` with every legal move.
    #[inline(always)]
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let [a, b] = self.prohibited();
        for from in self.movable() {
            for to in self.targets(from) {
                let m = Move::new(from, to);
                if Some(m) != a && Some(m) != b {
                    f(m);
                }
            }
        }
    }

    /// Whether playing `m` fills the platform it lands on with four pieces
    /// of the moving piece's colour.
    #[inline(always)]
    #[must_use]
    pub fn locks_platform(&self, m: Move) -> bool {
        let colour = if self.white.has(m.from) {
            self.white
        } else {
            self.black
        };
        (colour | m.to.bit()).contains(PLATFORM_OF[m.to.0 as usize])
    }
}
