//! A deliberately plain reference model of two-player Spokes, written from
//! the rules alone, used only to cross-check perft counts.
//!
//! A board is an array of 45 node contents; the lines, straight-on and
//! perpendicular nodes are computed from each node's circle and angle.
//! Resolution builds the whole graph of reachable boards in a `HashMap` and
//! finds its terminal strongly connected components. It panics on
//! malformed input.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// What a node holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Cell {
    Empty,
    Single(Colour),
    Block,
    Double(Colour),
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

/// Home nodes of player `who` (1 or 2).
fn home_nodes(who: usize) -> Vec<usize> {
    let first = CIRCLE_START[4] + 8 * (who - 1);
    (first..first + 8).collect()
}

fn cell_char(c: Cell) -> char {
    match c {
        Cell::Empty => '.',
        Cell::Single(col) => col.letter(),
        Cell::Block => 'X',
        Cell::Double(Colour::White) => 'W',
        Cell::Double(Colour::Black) => 'K',
    }
}

fn nodes_text(board: &Board) -> String {
    let mut groups = Vec::new();
    for c in 0..5 {
        let mut s = String::new();
        let mut run = 0;
        for &cell in &board[CIRCLE_START[c]..CIRCLE_START[c] + CIRCLE_SIZE[c]] {
            if cell == Cell::Empty {
                run += 1;
                continue;
            }
            if run > 0 {
                s.push_str(&run.to_string());
                run = 0;
            }
            s.push(cell_char(cell));
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        groups.push(s);
    }
    groups.join("/")
}

fn parse_nodes(text: &str) -> Board {
    let groups: Vec<&str> = text.split('/').collect();
    assert_eq!(groups.len(), 5, "nodes field needs 5 groups: {text}");
    let mut board = [Cell::Empty; 45];
    for (c, g) in groups.iter().enumerate() {
        let mut cells = Vec::new();
        let mut run = 0usize;
        for ch in g.chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            cells.extend(std::iter::repeat_n(Cell::Empty, run));
            run = 0;
            cells.push(match ch {
                '.' => Cell::Empty,
                'w' => Cell::Single(Colour::White),
                'b' => Cell::Single(Colour::Black),
                'X' => Cell::Block,
                'W' => Cell::Double(Colour::White),
                'K' => Cell::Double(Colour::Black),
                _ => panic!("bad node character '{ch}'"),
            });
        }
        cells.extend(std::iter::repeat_n(Cell::Empty, run));
        assert_eq!(cells.len(), CIRCLE_SIZE[c], "group {} of '{text}'", c + 1);
        for (i, cell) in cells.into_iter().enumerate() {
            board[CIRCLE_START[c] + i] = cell;
        }
    }
    board
}

/// Stones of `colour` on the board.
fn stones_of(board: &Board, colour: Colour) -> usize {
    board
        .iter()
        .map(|&c| match c {
            Cell::Single(x) if x == colour => 1,
            Cell::Double(x) if x == colour => 2,
            Cell::Block => 1,
            _ => 0,
        })
        .sum()
}

/// The steps of a double on `n`, as resulting boards.
fn double_steps(board: &Board, n: usize, colour: Colour) -> Vec<Board> {
    let mut out = Vec::new();
    for &m in adjacent(n) {
        let target = match board[m] {
            Cell::Empty => Cell::Single(colour),
            Cell::Single(x) if x != colour => Cell::Block,
            _ => continue,
        };
        let mut b = *board;
        b[n] = Cell::Single(colour);
        b[m] = target;
        out.push(b);
    }
    if out.is_empty() {
        for &m in adjacent(n) {
            if board[m] == Cell::Single(colour) {
                let mut b = *board;
                b[n] = Cell::Single(colour);
                b[m] = Cell::Double(colour);
                out.push(b);
            }
        }
    }
    out
}

/// Every resolution step available on `board`, as resulting boards.
fn steps(board: &Board) -> Vec<Board> {
    let mut out = Vec::new();
    for n in 0..45 {
        if let Cell::Double(colour) = board[n] {
            out.extend(double_steps(board, n, colour));
        }
    }
    if !out.is_empty() {
        return out;
    }
    for p in 0..45 {
        let Cell::Single(cp) = board[p] else {
            continue;
        };
        for &q in adjacent(p) {
            let Cell::Single(cq) = board[q] else {
                continue;
            };
            if cp != cq {
                // p pulls q onto itself
                let mut b = *board;
                b[p] = Cell::Block;
                b[q] = Cell::Empty;
                out.push(b);
                continue;
            }
            // p pushes q
            let straight = tables().straight[p][q]
                .filter(|&r| board[r] == Cell::Empty || board[r] == Cell::Single(cq.other()));
            let targets = match straight {
                Some(r) => vec![r],
                None => tables().sideways[p][q]
                    .iter()
                    .copied()
                    .filter(|&t| board[t] == Cell::Empty)
                    .collect(),
            };
            for t in targets {
                let mut b = *board;
                b[q] = Cell::Empty;
                b[t] = if board[t] == Cell::Empty {
                    Cell::Single(cq)
                } else {
                    Cell::Block
                };
                out.push(b);
            }
        }
    }
    out
}

fn singles_adjacent(board: &Board) -> bool {
    (0..45).any(|p| {
        matches!(board[p], Cell::Single(_))
            && adjacent(p)
                .iter()
                .any(|&q| matches!(board[q], Cell::Single(_)))
    })
}

/// The board of an unbreakable loop after its stones are removed.
fn remove_loop(board: &Board) -> Board {
    let mut out = *board;
    for n in 0..45 {
        match board[n] {
            Cell::Single(_)
                if adjacent(n)
                    .iter()
                    .any(|&q| matches!(board[q], Cell::Single(_))) =>
            {
                out[n] = Cell::Empty;
            }
            Cell::Double(colour) if !double_steps(board, n, colour).is_empty() => {
                out[n] = Cell::Empty;
            }
            _ => {}
        }
    }
    out
}

/// A board packed four bits a node into three words, to key the graph.
type Key = [u64; 3];

fn key(board: &Board) -> Key {
    let mut k = [0u64; 3];
    for (word, cells) in k.iter_mut().zip(board.chunks(15)) {
        for &cell in cells.iter().rev() {
            let code = match cell {
                Cell::Empty => 0,
                Cell::Single(Colour::White) => 1,
                Cell::Single(Colour::Black) => 2,
                Cell::Block => 3,
                Cell::Double(Colour::White) => 4,
                Cell::Double(Colour::Black) => 5,
            };
            *word = (*word << 4) | code;
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

/// The distinct outcomes of resolving `start`: (board, ended by a loop).
fn outcomes(start: &Board) -> Vec<(Board, bool)> {
    if steps(start).is_empty() && !singles_adjacent(start) {
        // already at rest: the graph is this one state
        return vec![(*start, false)];
    }
    // the whole reachable graph
    let mut index: HashMap<Key, usize, BuildHasherDefault<KeyHasher>> = HashMap::default();
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
        if seen.insert(outcome) {
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
    /// A round is about to start: both players place.
    Placement,
    /// Stones are placed and await resolution (`resolve` in the text).
    Resolve,
    /// The game ended by an unbreakable loop (`loop` in the text).
    Loop,
}

#[derive(Clone, Debug)]
struct Pos {
    board: Board,
    /// The round being played (placed, or resolved when awaiting).
    round: u32,
    phase: Phase,
}

fn parse(text: &str) -> Pos {
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
        board,
        round,
        phase,
    }
}

/// A single placement: colour and node.
type Placement = (Colour, usize);

impl Pos {
    /// The placements open to either player (both have the same).
    fn placements(&self) -> Vec<Placement> {
        let mut out = Vec::new();
        for colour in [Colour::White, Colour::Black] {
            if stones_of(&self.board, colour) > 42 {
                continue;
            }
            for n in 0..45 {
                if !is_home(n) && self.board[n] == Cell::Empty {
                    out.push((colour, n));
                }
            }
        }
        out
    }

    /// Whether a round-start position ends the game.
    fn game_over(&self) -> bool {
        for who in [1, 2] {
            let homes = home_nodes(who);
            if homes.iter().all(|&h| self.board[h] != Cell::Empty) {
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
            if around_home.iter().all(|&m| self.board[m] == Cell::Block) {
                return true;
            }
        }
        self.placements().is_empty()
    }

    /// The outcomes of resolving this position's board, as the positions
    /// of the next round.
    fn resolutions(&self) -> Vec<Pos> {
        outcomes(&self.board)
            .into_iter()
            .map(|(board, looped)| Pos {
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

    /// The children grouped as `--divide` prints them: per joint placement
    /// its text and its outcomes; when awaiting resolution, per outcome its
    /// text and itself.
    fn children(&self) -> Vec<(String, Vec<Pos>)> {
        match self.phase {
            Phase::Loop => Vec::new(),
            Phase::Resolve => self
                .resolutions()
                .into_iter()
                .map(|p| (outcome_text(&p), vec![p]))
                .collect(),
            Phase::Placement => {
                if self.game_over() {
                    return Vec::new();
                }
                let options = self.placements();
                // (a, b) and (b, a) place the same stones: resolve once
                let mut resolved: HashMap<Board, Vec<Pos>> = HashMap::new();
                let mut out = Vec::new();
                for &(c1, n1) in &options {
                    for &(c2, n2) in &options {
                        let mut board = self.board;
                        if n1 == n2 {
                            board[n1] = if c1 == c2 {
                                Cell::Double(c1)
                            } else {
                                Cell::Block
                            };
                        } else {
                            board[n1] = Cell::Single(c1);
                            board[n2] = Cell::Single(c2);
                        }
                        let text = format!(
                            "{}{},{}{}",
                            c1.letter(),
                            node_name(n1),
                            c2.letter(),
                            node_name(n2)
                        );
                        let placed = Pos {
                            board,
                            round: self.round,
                            phase: Phase::Resolve,
                        };
                        let results = resolved
                            .entry(board)
                            .or_insert_with(|| placed.resolutions())
                            .clone();
                        out.push((text, results));
                    }
                }
                out
            }
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children()
            .iter()
            .flat_map(|(_, results)| results.iter())
            .map(|child| child.perft(depth - 1))
            .sum()
    }
}

/// The number of leaves `depth` rounds below `position`.
pub fn perft(position: &str, depth: u32) -> u64 {
    parse(position).perft(depth)
}

/// Per joint placement (per outcome when awaiting resolution): its text
/// and the sum of its outcomes' perft at `depth - 1`, sorted by text.
pub fn divide(position: &str, depth: u32) -> Vec<(String, u64)> {
    assert!(depth >= 1, "divide needs depth at least 1");
    let mut out: Vec<(String, u64)> = parse(position)
        .children()
        .into_iter()
        .map(|(text, results)| {
            let n = results.iter().map(|c| c.perft(depth - 1)).sum();
            (text, n)
        })
        .collect();
    out.sort();
    out
}

/// A resolution outcome's text: the resulting nodes field, and ` loop`
/// for an unbreakable loop.
fn outcome_text(p: &Pos) -> String {
    let suffix = if p.phase == Phase::Loop { " loop" } else { "" };
    format!("{}{suffix}", nodes_text(&p.board))
}

/// The sorted child texts of `position`: joint placement and outcome text,
/// or only the outcome text when the position awaits resolution.
pub fn moves(position: &str) -> Vec<String> {
    let pos = parse(position);
    let mut out = Vec::new();
    for (text, results) in pos.children() {
        for r in results {
            if pos.phase == Phase::Resolve {
                out.push(text.clone());
            } else {
                out.push(format!("{text} {}", outcome_text(&r)));
            }
        }
    }
    out.sort();
    out
}
