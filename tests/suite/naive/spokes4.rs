//! A deliberately plain reference model of the four-player Spokes variants,
//! `spokes4` (each for themselves) and `spokes2v2` (players 1+2 against
//! 3+4), written from the rules alone, used only to cross-check perft counts.
//!
//! A node holds `k` blocks and `n` loose stones of one colour (at most four
//! stones). The board geometry is computed from each node's circle and angle,
//! as in the two-player model. Resolution builds the whole graph of
//! reachable boards in a `HashMap` and finds its terminal strongly connected
//! components. It panics on malformed input.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// Which of the two four-player games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `spokes4`: four players, each for themselves.
    Four,
    /// `spokes2v2`: two teams, players 1+2 against 3+4.
    Teams,
}

impl Variant {
    /// The variant of a game id, `spokes4` or `spokes2v2`.
    pub fn from_id(id: &str) -> Variant {
        match id {
            "spokes4" => Variant::Four,
            "spokes2v2" => Variant::Teams,
            _ => panic!("not a four-player Spokes id: {id}"),
        }
    }

    /// The sides that score and win: four players, or two teams.
    fn sides(self) -> usize {
        match self {
            Variant::Four => 4,
            Variant::Teams => 2,
        }
    }

    /// The home nodes of side `s` (1-based).
    fn homes(self, s: usize) -> Vec<usize> {
        let per = 16 / self.sides();
        let first = CIRCLE_START[4] + per * (s - 1);
        (first..first + per).collect()
    }

    /// The nodes of side `s`'s quadrant (`spokes4`) or semicircle
    /// (`spokes2v2`), for the tie-break: the nodes of circles B, C and D
    /// whose angle lies in that side's share of the turn.
    fn territory(self, s: usize) -> Vec<usize> {
        let share = 16 / self.sides();
        let lo = share * (s - 1);
        (1..CIRCLE_START[4])
            .filter(|&n| (lo..lo + share).contains(&angle(n)))
            .collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Colour {
    White,
    Black,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    fn letter(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }
}

/// What a node holds: `blocks` white+black pairs and `loose` stones of
/// `colour` (White when there are none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Cell {
    blocks: u8,
    loose: u8,
    colour: Colour,
}

const EMPTY: Cell = Cell {
    blocks: 0,
    loose: 0,
    colour: Colour::White,
};
const BLOCK: Cell = Cell {
    blocks: 1,
    loose: 0,
    colour: Colour::White,
};

impl Cell {
    /// The node holding `white` and `black` stones: every pair a block.
    fn from_counts(white: u8, black: u8) -> Cell {
        let blocks = white.min(black);
        let (loose, colour) = if white >= black {
            (white - black, Colour::White)
        } else {
            (black - white, Colour::Black)
        };
        Cell {
            blocks,
            loose,
            colour,
        }
    }

    fn white(self) -> u8 {
        self.blocks
            + if self.colour == Colour::White {
                self.loose
            } else {
                0
            }
    }

    fn black(self) -> u8 {
        self.blocks
            + if self.colour == Colour::Black {
                self.loose
            } else {
                0
            }
    }

    fn stones(self) -> u8 {
        2 * self.blocks + self.loose
    }

    fn of(self, colour: Colour) -> u8 {
        match colour {
            Colour::White => self.white(),
            Colour::Black => self.black(),
        }
    }

    /// This node with one more stone of `colour`.
    fn plus(self, colour: Colour) -> Cell {
        match colour {
            Colour::White => Cell::from_counts(self.white() + 1, self.black()),
            Colour::Black => Cell::from_counts(self.white(), self.black() + 1),
        }
    }

    /// This node with one loose stone fewer.
    fn minus_loose(self) -> Cell {
        assert!(self.loose > 0);
        match self.colour {
            Colour::White => Cell::from_counts(self.white() - 1, self.black()),
            Colour::Black => Cell::from_counts(self.white(), self.black() - 1),
        }
    }

    fn is_empty(self) -> bool {
        self == EMPTY
    }

    fn single(colour: Colour) -> Cell {
        Cell::from_counts(0, 0).plus(colour)
    }

    /// The colour of a single stone (one loose stone and nothing else).
    fn single_colour(self) -> Option<Colour> {
        (self.blocks == 0 && self.loose == 1).then_some(self.colour)
    }

    /// More than one unit (a unit is a block or a loose stone).
    fn crowded(self) -> bool {
        self.blocks + self.loose > 1
    }
}

type Board = [Cell; 45];

/// Node numbering: 0 = A, 1–4 = B1–B4, 5–12 = C1–C8, 13–28 = D1–D16,
/// 29–44 = home nodes H1–H16.
const CIRCLE_START: [usize; 5] = [0, 1, 5, 13, 29];
const CIRCLE_SIZE: [usize; 5] = [1, 4, 8, 16, 16];

/// The circle of a node: 0 = A, 1 = B, 2 = C, 3 = D, 4 = home.
fn circle(n: usize) -> usize {
    (0..5).rev().find(|&c| n >= CIRCLE_START[c]).unwrap()
}

/// Position of a node along its circle, from 0.
fn place(n: usize) -> usize {
    n - CIRCLE_START[circle(n)]
}

/// Angle in sixteenths of a turn, clockwise from north (A has none: 0).
fn angle(n: usize) -> usize {
    let c = circle(n);
    if c == 0 {
        0
    } else {
        place(n) * (16 / CIRCLE_SIZE[c])
    }
}

/// The node of circle `c` at `angle`, if that circle has one there.
fn node_at(c: usize, angle: usize) -> Option<usize> {
    if c == 0 {
        return Some(0);
    }
    let step = 16 / CIRCLE_SIZE[c];
    if angle.is_multiple_of(step) {
        Some(CIRCLE_START[c] + (angle % 16) / step)
    } else {
        None
    }
}

/// The neighbour of `n` along its own circle, `dir` = +1 clockwise or -1.
fn around(n: usize, dir: i32) -> usize {
    let c = circle(n);
    let size = CIRCLE_SIZE[c] as i32;
    let p = (place(n) as i32 + dir).rem_euclid(size);
    CIRCLE_START[c] + p as usize
}

/// The nodes joined to `n` by a spoke.
fn spoke_neighbours(n: usize) -> Vec<usize> {
    let c = circle(n);
    let mut out = Vec::new();
    if c == 0 {
        out.extend(1..=4);
        return out;
    }
    if let Some(inner) = node_at(c - 1, angle(n)) {
        out.push(inner);
    }
    if c < 4 {
        out.push(node_at(c + 1, angle(n)).unwrap());
    }
    out
}

/// The nodes joined to `n` by a circle.
fn circle_neighbours(n: usize) -> Vec<usize> {
    if circle(n) == 0 {
        Vec::new()
    } else {
        vec![around(n, -1), around(n, 1)]
    }
}

fn adjacent_nodes(n: usize) -> Vec<usize> {
    let mut out = spoke_neighbours(n);
    out.extend(circle_neighbours(n));
    out
}

fn along_circle(p: usize, q: usize) -> bool {
    circle_neighbours(p).contains(&q)
}

/// The node straight on beyond `q` when pushed from `p`.
fn straight_on(p: usize, q: usize) -> Option<usize> {
    if along_circle(p, q) {
        let dir = if around(p, 1) == q { 1 } else { -1 };
        return Some(around(q, dir));
    }
    let (cp, cq) = (circle(p), circle(q));
    if cq > cp {
        // outward
        if cq == 4 {
            None
        } else {
            node_at(cq + 1, angle(q))
        }
    } else if cq == 0 {
        // through the centre to the opposite B node
        node_at(1, (angle(p) + 8) % 16)
    } else {
        node_at(cq - 1, angle(q))
    }
}

/// The nodes `q` may go to sideways when pushed from `p`.
fn perpendicular(p: usize, q: usize) -> Vec<usize> {
    if along_circle(p, q) {
        spoke_neighbours(q)
    } else if q == 0 {
        let opposite = node_at(1, (angle(p) + 8) % 16).unwrap();
        circle_neighbours(opposite)
    } else {
        circle_neighbours(q)
    }
}

/// The board's lines, straight-on and perpendicular nodes, computed once.
struct Tables {
    /// `adjacent[n]`: the nodes joined to `n` by a line.
    adjacent: Vec<Vec<usize>>,
    /// `straight[p][q]`: where `q` goes straight on when pushed from `p`.
    straight: Vec<Vec<Option<usize>>>,
    /// `sideways[p][q]`: where `q` may go sideways when pushed from `p`.
    sideways: Vec<Vec<Vec<usize>>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let adjacent: Vec<Vec<usize>> = (0..45).map(adjacent_nodes).collect();
        let mut straight = vec![vec![None; 45]; 45];
        let mut sideways = vec![vec![Vec::new(); 45]; 45];
        for p in 0..45 {
            for &q in &adjacent[p] {
                straight[p][q] = straight_on(p, q);
                sideways[p][q] = perpendicular(p, q);
            }
        }
        Tables {
            adjacent,
            straight,
            sideways,
        }
    })
}

fn adjacent(n: usize) -> &'static [usize] {
    &tables().adjacent[n]
}

fn node_name(n: usize) -> String {
    match circle(n) {
        0 => "A".to_string(),
        1 => format!("B{}", place(n) + 1),
        2 => format!("C{}", place(n) + 1),
        3 => format!("D{}", place(n) + 1),
        _ => format!("H{}", place(n) + 1),
    }
}

fn is_home(n: usize) -> bool {
    circle(n) == 4
}

fn cell_text(c: Cell) -> String {
    match (c.blocks, c.loose, c.colour) {
        (0, 0, _) => ".".to_string(),
        (0, 1, col) => col.letter().to_string(),
        (1, 0, _) => "X".to_string(),
        (0, 2, Colour::White) => "W".to_string(),
        (0, 2, Colour::Black) => "K".to_string(),
        (k, n, col) => {
            let mut s = "[".to_string();
            s.extend(std::iter::repeat_n('X', k as usize));
            s.extend(std::iter::repeat_n(col.letter(), n as usize));
            s.push(']');
            s
        }
    }
}

fn nodes_text(board: &Board) -> String {
    let mut groups = Vec::new();
    for c in 0..5 {
        let mut s = String::new();
        let mut run = 0;
        for &cell in &board[CIRCLE_START[c]..CIRCLE_START[c] + CIRCLE_SIZE[c]] {
            if cell.is_empty() {
                run += 1;
                continue;
            }
            if run > 0 {
                s.push_str(&run.to_string());
                run = 0;
            }
            s.push_str(&cell_text(cell));
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        groups.push(s);
    }
    groups.join("/")
}

/// A bracketed crowded node, `Xw`, `XX`, `www`…: blocks, then loose stones
/// of one colour; it must be written as its canonical text.
fn parse_bracket(inside: &str) -> Cell {
    let blocks = inside.chars().take_while(|&ch| ch == 'X').count();
    let rest = &inside[blocks..];
    let mut cell = EMPTY;
    for _ in 0..blocks {
        cell = cell.plus(Colour::White).plus(Colour::Black);
    }
    for ch in rest.chars() {
        cell = cell.plus(match ch {
            'w' => Colour::White,
            'b' => Colour::Black,
            _ => panic!("bad character '{ch}' in [{inside}]"),
        });
    }
    assert!(cell.stones() <= 4, "more than four stones in [{inside}]");
    assert_eq!(cell_text(cell), format!("[{inside}]"), "not canonical");
    cell
}

fn parse_nodes(text: &str) -> Board {
    let groups: Vec<&str> = text.split('/').collect();
    assert_eq!(groups.len(), 5, "nodes field needs 5 groups: {text}");
    let mut board = [EMPTY; 45];
    for (c, g) in groups.iter().enumerate() {
        let mut cells = Vec::new();
        let mut run = 0usize;
        let mut chars = g.chars();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            cells.extend(std::iter::repeat_n(EMPTY, run));
            run = 0;
            cells.push(match ch {
                '.' => EMPTY,
                'w' => Cell::single(Colour::White),
                'b' => Cell::single(Colour::Black),
                'X' => BLOCK,
                'W' => Cell::single(Colour::White).plus(Colour::White),
                'K' => Cell::single(Colour::Black).plus(Colour::Black),
                '[' => {
                    let inside: String = chars.by_ref().take_while(|&ch| ch != ']').collect();
                    parse_bracket(&inside)
                }
                _ => panic!("bad node character '{ch}'"),
            });
        }
        cells.extend(std::iter::repeat_n(EMPTY, run));
        assert_eq!(cells.len(), CIRCLE_SIZE[c], "group {} of '{text}'", c + 1);
        for (i, cell) in cells.into_iter().enumerate() {
            board[CIRCLE_START[c] + i] = cell;
        }
    }
    board
}

/// Stones of `colour` on the board.
fn stones_of(board: &Board, colour: Colour) -> usize {
    board.iter().map(|c| c.of(colour) as usize).sum()
}

/// The steps of the crowded node `n`, as resulting boards: a loose stone
/// moves, or (two blocks) a block moves.
fn crowded_steps(board: &Board, n: usize) -> Vec<Board> {
    let cell = board[n];
    let mut out = Vec::new();
    if cell.loose > 0 {
        let colour = cell.colour;
        // to an empty node, or onto a single of the other colour
        for &m in adjacent(n) {
            if board[m].is_empty() || board[m].single_colour() == Some(colour.other()) {
                let mut b = *board;
                b[n] = cell.minus_loose();
                b[m] = board[m].plus(colour);
                out.push(b);
            }
        }
        // only if neither exists: onto a single of the same colour
        if out.is_empty() {
            for &m in adjacent(n) {
                if board[m].single_colour() == Some(colour) {
                    let mut b = *board;
                    b[n] = cell.minus_loose();
                    b[m] = board[m].plus(colour);
                    out.push(b);
                }
            }
        }
    } else if cell.blocks == 2 {
        for &m in adjacent(n) {
            if board[m].is_empty() {
                let mut b = *board;
                b[n] = BLOCK;
                b[m] = BLOCK;
                out.push(b);
            }
        }
        if out.is_empty() {
            for &m in adjacent(n) {
                if board[m].single_colour().is_some() {
                    let mut b = *board;
                    b[n] = BLOCK;
                    b[m] = board[m].plus(Colour::White).plus(Colour::Black);
                    out.push(b);
                }
            }
        }
    }
    out
}

/// Every resolution step available on `board`, as resulting boards.
fn steps(board: &Board) -> Vec<Board> {
    let mut out = Vec::new();
    for n in 0..45 {
        if board[n].crowded() {
            out.extend(crowded_steps(board, n));
        }
    }
    if !out.is_empty() {
        return out;
    }
    for p in 0..45 {
        let Some(cp) = board[p].single_colour() else {
            continue;
        };
        for &q in adjacent(p) {
            let Some(cq) = board[q].single_colour() else {
                continue;
            };
            if cp != cq {
                // p pulls q onto itself
                let mut b = *board;
                b[p] = BLOCK;
                b[q] = EMPTY;
                out.push(b);
                continue;
            }
            // p pushes q
            let straight = tables().straight[p][q]
                .filter(|&r| board[r].is_empty() || board[r].single_colour() == Some(cq.other()));
            let targets = match straight {
                Some(r) => vec![r],
                None => tables().sideways[p][q]
                    .iter()
                    .copied()
                    .filter(|&t| board[t].is_empty())
                    .collect(),
            };
            for t in targets {
                let mut b = *board;
                b[q] = EMPTY;
                b[t] = board[t].plus(cq);
                out.push(b);
            }
        }
    }
    out
}

/// Whether `n` holds a single stone next to another single stone.
fn single_beside_single(board: &Board, n: usize) -> bool {
    board[n].single_colour().is_some()
        && adjacent(n)
            .iter()
            .any(|&q| board[q].single_colour().is_some())
}

fn singles_adjacent(board: &Board) -> bool {
    (0..45).any(|n| single_beside_single(board, n))
}

/// The board of an unbreakable loop after its stones are removed: singles
/// next to singles, and every crowded node with an empty or single
/// neighbour (all its stones, blocks included).
fn remove_loop(board: &Board) -> Board {
    let mut out = *board;
    for n in 0..45 {
        let crowded_with_step = board[n].crowded()
            && adjacent(n)
                .iter()
                .any(|&q| board[q].is_empty() || board[q].single_colour().is_some());
        if single_beside_single(board, n) || crowded_with_step {
            out[n] = EMPTY;
        }
    }
    out
}

/// A board packed six bits a node (blocks, loose count, colour) into five
/// words, to key the graph and the caches.
type Key = [u64; 5];

fn key(board: &Board) -> Key {
    let mut k = [0u64; 5];
    for (word, cells) in k.iter_mut().zip(board.chunks(10)) {
        for &cell in cells {
            let code = u64::from(cell.blocks)
                | u64::from(cell.loose) << 2
                | u64::from(cell.colour == Colour::Black) << 5;
            *word = (*word << 6) | code;
        }
    }
    k
}

/// A plain multiply-and-rotate hasher for packed boards.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(31);
    }
}

type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

/// The distinct outcomes of resolving `start`: (board, ended by a loop).
fn outcomes(start: &Board) -> Vec<(Board, bool)> {
    let mut index: KeyMap<usize> = KeyMap::default();
    let mut states: Vec<Board> = vec![*start];
    let mut edges: Vec<Vec<usize>> = Vec::new();
    index.insert(key(start), 0);
    let mut i = 0;
    while i < states.len() {
        let mut out = Vec::new();
        for b in steps(&states[i]) {
            let id = *index.entry(key(&b)).or_insert_with(|| {
                states.push(b);
                states.len() - 1
            });
            if !out.contains(&id) {
                out.push(id);
            }
        }
        edges.push(out);
        i += 1;
    }
    let component = strongly_connected(&edges);
    let count = component.iter().max().unwrap() + 1;
    let mut terminal = vec![true; count];
    for (v, out) in edges.iter().enumerate() {
        for &w in out {
            if component[w] != component[v] {
                terminal[component[v]] = false;
            }
        }
    }
    let mut seen = HashSet::new();
    let mut result = Vec::new();
    for (v, board) in states.iter().enumerate() {
        if !terminal[component[v]] {
            continue;
        }
        let outcome = if edges[v].is_empty() && !singles_adjacent(board) {
            (*board, false)
        } else {
            (remove_loop(board), true)
        };
        if seen.insert((key(&outcome.0), outcome.1)) {
            result.push(outcome);
        }
    }
    result
}

/// Tarjan's algorithm without recursion: the component number of each
/// vertex.
fn strongly_connected(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let mut order = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut component = vec![usize::MAX; n];
    let mut next_order = 0;
    let mut next_component = 0;
    for root in 0..n {
        if order[root] != usize::MAX {
            continue;
        }
        // (vertex, index of the next edge to look at)
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        order[root] = next_order;
        low[root] = next_order;
        next_order += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(top) = call.last_mut() {
            let v = top.0;
            if top.1 < edges[v].len() {
                let w = edges[v][top.1];
                top.1 += 1;
                if order[w] == usize::MAX {
                    order[w] = next_order;
                    low[w] = next_order;
                    next_order += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                loop {
                    let w = stack.pop().unwrap();
                    on_stack[w] = false;
                    component[w] = next_component;
                    if w == v {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
}

/// Where a position stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// A round is about to start: all four players place.
    Placement,
    /// Stones are placed and await resolution (`resolve` in the text).
    Resolve,
    /// The game ended by an unbreakable loop (`loop` in the text).
    Loop,
}

#[derive(Clone, Debug)]
struct Pos {
    variant: Variant,
    board: Board,
    /// The round being played (placed, or resolved when awaiting).
    round: u32,
    phase: Phase,
}

fn parse(variant: Variant, text: &str) -> Pos {
    let fields: Vec<&str> = text.split(' ').collect();
    let phase = match fields.len() {
        2 => Phase::Placement,
        3 if fields[2] == "loop" => Phase::Loop,
        3 if fields[2] == "resolve" => Phase::Resolve,
        _ => panic!("position needs '<nodes> <round> [loop|resolve]': {text}"),
    };
    let round: u32 = fields[1].parse().expect("round number");
    assert!(round >= 1, "rounds start at 1");
    let board = parse_nodes(fields[0]);
    for colour in [Colour::White, Colour::Black] {
        assert!(stones_of(&board, colour) <= 44, "too many stones");
    }
    Pos {
        variant,
        board,
        round,
        phase,
    }
}

/// A single placement: colour and node.
type Placement = (Colour, usize);

/// Four placements, player 1's first.
type Joint = [Placement; 4];

fn joint_text(joint: &Joint) -> String {
    joint
        .iter()
        .map(|&(c, n)| format!("{}{}", c.letter(), node_name(n)))
        .collect::<Vec<_>>()
        .join(",")
}

impl Pos {
    /// The placements open to every player (all have the same): a colour
    /// with at least four stones off the board, on an empty node that is
    /// not a home node.
    fn placements(&self) -> Vec<Placement> {
        let mut out = Vec::new();
        for colour in [Colour::White, Colour::Black] {
            if stones_of(&self.board, colour) > 40 {
                continue;
            }
            for n in 0..45 {
                if !is_home(n) && self.board[n].is_empty() {
                    out.push((colour, n));
                }
            }
        }
        out
    }

    /// Calls `f` with every joint placement: each player's choice
    /// independently.
    fn each_joint(&self, f: &mut dyn FnMut(&Joint)) {
        let options = self.placements();
        for &a in &options {
            for &b in &options {
                for &c in &options {
                    for &d in &options {
                        f(&[a, b, c, d]);
                    }
                }
            }
        }
    }

    /// The board once the four stones of `joint` have landed.
    fn placed(&self, joint: &Joint) -> Board {
        let mut board = self.board;
        for &(colour, n) in joint {
            board[n] = board[n].plus(colour);
        }
        board
    }

    /// Whether ends (a), (b) or (d) hold on this round-start position.
    fn game_over(&self) -> bool {
        for side in 1..=self.variant.sides() {
            let homes = self.variant.homes(side);
            if homes.iter().all(|&h| !self.board[h].is_empty()) {
                return true;
            }
            let mut around_home = Vec::new();
            for &h in &homes {
                for &m in adjacent(h) {
                    if !homes.contains(&m) && !around_home.contains(&m) {
                        around_home.push(m);
                    }
                }
            }
            if around_home.iter().all(|&m| self.board[m].blocks > 0) {
                return true;
            }
        }
        self.placements().is_empty()
    }

    fn terminal(&self) -> bool {
        match self.phase {
            Phase::Loop => true,
            Phase::Resolve => false,
            Phase::Placement => self.game_over(),
        }
    }

    /// The outcomes of resolving `board`, as the positions of the next
    /// round.
    fn resolutions(&self, board: &Board) -> Vec<Pos> {
        outcomes(board)
            .into_iter()
            .map(|(board, looped)| Pos {
                variant: self.variant,
                board,
                round: self.round + 1,
                phase: if looped {
                    Phase::Loop
                } else {
                    Phase::Placement
                },
            })
            .collect()
    }

    /// Calls `visit` with every child group as `--divide` prints them:
    /// per joint placement its text and the sum of `value` over its
    /// outcomes; when awaiting resolution, per outcome its text and its
    /// value. Boards that several joint placements share are resolved once.
    fn each_group(
        &self,
        value: &dyn Fn(&Pos) -> u64,
        visit: &mut dyn FnMut(&dyn Fn() -> String, u64),
    ) {
        match self.phase {
            Phase::Loop => {}
            Phase::Resolve => {
                for p in self.resolutions(&self.board) {
                    visit(&|| outcome_text(&p), value(&p));
                }
            }
            Phase::Placement => {
                if self.game_over() {
                    return;
                }
                let mut memo: KeyMap<u64> = KeyMap::default();
                self.each_joint(&mut |joint| {
                    let board = self.placed(joint);
                    let n = *memo
                        .entry(key(&board))
                        .or_insert_with(|| self.resolutions(&board).iter().map(value).sum());
                    visit(&|| joint_text(joint), n);
                });
            }
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        self.each_group(&|child| child.perft(depth - 1), &mut |_, n| total += n);
        total
    }

    /// The sides ranked by the score: home stones, then territory stones
    /// among those tied, then the highest-numbered. The winner of an ended
    /// game.
    fn winner(&self) -> usize {
        let count = |nodes: Vec<usize>| -> u32 {
            nodes
                .iter()
                .map(|&n| u32::from(self.board[n].stones()))
                .sum()
        };
        let sides: Vec<usize> = (1..=self.variant.sides()).collect();
        let home: Vec<u32> = sides
            .iter()
            .map(|&s| count(self.variant.homes(s)))
            .collect();
        let best = *home.iter().max().unwrap();
        let tied: Vec<usize> = sides
            .iter()
            .copied()
            .filter(|&s| home[s - 1] == best)
            .collect();
        let ground: Vec<u32> = tied
            .iter()
            .map(|&s| count(self.variant.territory(s)))
            .collect();
        let best = *ground.iter().max().unwrap();
        tied.iter()
            .zip(&ground)
            .filter(|&(_, &g)| g == best)
            .map(|(&s, _)| s)
            .max()
            .unwrap()
    }
}

/// A resolution outcome's text: the resulting nodes field, and ` loop`
/// for an unbreakable loop.
fn outcome_text(p: &Pos) -> String {
    let suffix = if p.phase == Phase::Loop { " loop" } else { "" };
    format!("{}{suffix}", nodes_text(&p.board))
}

/// The number of leaves `depth` rounds below `position` of game `id`
/// (`spokes4` or `spokes2v2`).
pub fn perft(id: &str, position: &str, depth: u32) -> u64 {
    parse(Variant::from_id(id), position).perft(depth)
}

/// Per joint placement (per outcome when awaiting resolution): its text
/// and the sum of its outcomes' perft at `depth - 1`, sorted by text.
pub fn divide(id: &str, position: &str, depth: u32) -> Vec<(String, u64)> {
    assert!(depth >= 1, "divide needs depth at least 1");
    let mut out = Vec::new();
    parse(Variant::from_id(id), position)
        .each_group(&|child| child.perft(depth - 1), &mut |text, n| {
            out.push((text(), n))
        });
    out.sort();
    out
}

/// The sorted child texts of `position`: joint placement and outcome text,
/// or only the outcome text when the position awaits resolution.
pub fn moves(id: &str, position: &str) -> Vec<String> {
    let pos = parse(Variant::from_id(id), position);
    let mut out = Vec::new();
    match pos.phase {
        Phase::Loop => {}
        Phase::Resolve => {
            for p in pos.resolutions(&pos.board) {
                out.push(outcome_text(&p));
            }
        }
        Phase::Placement if pos.game_over() => {}
        Phase::Placement => {
            let mut memo: KeyMap<Vec<String>> = KeyMap::default();
            pos.each_joint(&mut |joint| {
                let board = pos.placed(joint);
                let texts = memo
                    .entry(key(&board))
                    .or_insert_with(|| pos.resolutions(&board).iter().map(outcome_text).collect());
                let joint = joint_text(joint);
                out.extend(texts.iter().map(|t| format!("{joint} {t}")));
            });
        }
    }
    out.sort();
    out
}

/// The winner of a finished game (player 1–4 in `spokes4`, team 1 or 2 in
/// `spokes2v2`), or `None` while the game goes on.
pub fn winner(id: &str, position: &str) -> Option<usize> {
    let pos = parse(Variant::from_id(id), position);
    pos.terminal().then(|| pos.winner())
}
