//! A deliberately plain reference model of Empedocles' Stones, written from
//! the rules alone, used only to cross-check perft counts.
//!
//! The board is an 8×8 array of owners (0 empty, 1 or 2); every rule is a
//! straightforward loop over squares and directions. It panics on malformed
//! input.

/// The four elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Element {
    Fire,
    Water,
    Earth,
    Air,
}

impl Element {
    fn from_name(name: &str) -> Element {
        match name {
            "fire" => Element::Fire,
            "water" => Element::Water,
            "earth" => Element::Earth,
            "air" => Element::Air,
            _ => panic!("unknown element '{name}'"),
        }
    }

    fn letter(self) -> char {
        match self {
            Element::Fire => 'F',
            Element::Water => 'W',
            Element::Earth => 'E',
            Element::Air => 'A',
        }
    }

    /// The allowed neighbour counts (inclusive).
    fn range(self) -> (usize, usize) {
        match self {
            Element::Fire => (2, 4),
            Element::Air => (1, 3),
            Element::Water => (2, 4),
            Element::Earth => (2, 8),
        }
    }
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Setup: the side to move places a piece.
    Setup,
    /// The die is to be rolled.
    Roll,
    /// This many actions remain in the turn (1 or 2).
    Actions(u8),
}

#[derive(Clone, Debug)]
struct Pos {
    /// `board[rank][file]`, rank 0 = rank 1: 0 empty, 1 or 2 the owner.
    board: [[u8; 8]; 8],
    /// Side to move, 1 or 2.
    side: u8,
    stage: Stage,
    /// `elements[0]` is player 1's element, `elements[1]` player 2's.
    elements: [Element; 2],
}

const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

fn on_board(r: i32, f: i32) -> bool {
    (0..8).contains(&r) && (0..8).contains(&f)
}

fn square_name(r: usize, f: usize) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn parse(text: &str) -> Pos {
    let fields: Vec<&str> = text.split(' ').collect();
    assert_eq!(fields.len(), 3, "position needs three fields: {text}");
    let (stage_text, pairing) = fields[2].split_once(':').expect("state has ':'");
    let (e1, e2) = pairing.split_once(',').expect("pairing has ','");
    let elements = [Element::from_name(e1), Element::from_name(e2)];
    assert_ne!(elements[0], elements[1], "elements must differ");
    let ranks: Vec<&str> = fields[0].split('/').collect();
    assert_eq!(ranks.len(), 8, "board needs 8 ranks");
    let mut board = [[0u8; 8]; 8];
    for (i, rank_text) in ranks.iter().enumerate() {
        let r = 7 - i;
        let mut f = 0usize;
        let mut run = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            f += run;
            run = 0;
            let owner = if c == elements[0].letter() {
                1
            } else if c == elements[1].letter().to_ascii_lowercase() {
                2
            } else {
                panic!("piece '{c}' does not fit the pairing");
            };
            assert!(f < 8, "rank too long");
            board[r][f] = owner;
            f += 1;
        }
        f += run;
        assert_eq!(f, 8, "rank {} has {} squares", r + 1, f);
    }
    let side: u8 = match fields[1] {
        "1" => 1,
        "2" => 2,
        s => panic!("bad side '{s}'"),
    };
    let stage = match stage_text {
        "s1" => {
            assert_eq!(side, 1);
            Stage::Setup
        }
        "s2" => {
            assert_eq!(side, 2);
            Stage::Setup
        }
        "r" => Stage::Roll,
        "a1" => Stage::Actions(1),
        "a2" => Stage::Actions(2),
        s => panic!("bad state '{s}'"),
    };
    Pos {
        board,
        side,
        stage,
        elements,
    }
}

impl Pos {
    fn count(&self, owner: u8) -> usize {
        self.board
            .iter()
            .map(|row| row.iter().filter(|&&o| o == owner).count())
            .sum()
    }

    fn neighbours(&self, r: usize, f: usize) -> usize {
        let mut n = 0;
        for (dr, df) in DIRS {
            let (rr, ff) = (r as i32 + dr, f as i32 + df);
            if on_board(rr, ff) && self.board[rr as usize][ff as usize] != 0 {
                n += 1;
            }
        }
        n
    }

    fn element_of(&self, owner: u8) -> Element {
        self.elements[owner as usize - 1]
    }

    /// Someone has no pieces (outside setup): the game is over.
    fn wiped_out(&self) -> bool {
        self.stage != Stage::Setup && (self.count(1) == 0 || self.count(2) == 0)
    }

    /// All actions of `who` as (text, resulting board).
    fn actions(&self, who: u8) -> Vec<(String, [[u8; 8]; 8])> {
        let enemy = 3 - who;
        let element = self.element_of(who);
        let enemy_element = self.element_of(enemy);
        let mut out = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                if self.board[r][f] == 0 {
                    // placement
                    let mut occupied = 0;
                    let mut own = 0;
                    for (dr, df) in DIRS {
                        let (rr, ff) = (r as i32 + dr, f as i32 + df);
                        if on_board(rr, ff) {
                            let o = self.board[rr as usize][ff as usize];
                            if o != 0 {
                                occupied += 1;
                            }
                            if o == who {
                                own += 1;
                            }
                        }
                    }
                    if occupied == 3 && own >= 1 {
                        let mut b = self.board;
                        b[r][f] = who;
                        out.push((format!("@{}", square_name(r, f)), b));
                    }
                    continue;
                }
                if self.board[r][f] != who {
                    continue;
                }
                // targets of the piece on (r, f)
                let mut targets: Vec<(usize, usize)> = Vec::new();
                let add = |t: (usize, usize), targets: &mut Vec<(usize, usize)>| {
                    if !targets.contains(&t) {
                        targets.push(t);
                    }
                };
                match element {
                    Element::Fire => {
                        for (dr, df) in DIRS {
                            let (rr, ff) = (r as i32 + dr, f as i32 + df);
                            if on_board(rr, ff) && self.board[rr as usize][ff as usize] != who {
                                add((rr as usize, ff as usize), &mut targets);
                            }
                        }
                    }
                    Element::Earth => {
                        for (dr, df) in DIRS {
                            let (rr, ff) = (r as i32 + dr, f as i32 + df);
                            if !on_board(rr, ff) {
                                continue;
                            }
                            let o = self.board[rr as usize][ff as usize];
                            if o == 0 {
                                add((rr as usize, ff as usize), &mut targets);
                            } else if o == enemy {
                                let (br, bf) = (rr + dr, ff + df);
                                if !on_board(br, bf) || self.board[br as usize][bf as usize] == who
                                {
                                    add((rr as usize, ff as usize), &mut targets);
                                }
                            }
                        }
                    }
                    Element::Air => {
                        let capturable =
                            |o: u8| o == 0 || (o == enemy && enemy_element == Element::Earth);
                        for (dr, df) in DIRS {
                            let (r1, f1) = (r as i32 + dr, f as i32 + df);
                            if !on_board(r1, f1) {
                                continue;
                            }
                            let o1 = self.board[r1 as usize][f1 as usize];
                            if capturable(o1) {
                                add((r1 as usize, f1 as usize), &mut targets);
                            }
                            if o1 != 0 {
                                continue;
                            }
                            for (dr2, df2) in DIRS {
                                let (r2, f2) = (r1 + dr2, f1 + df2);
                                if !on_board(r2, f2) || (r2 == r as i32 && f2 == f as i32) {
                                    continue;
                                }
                                if capturable(self.board[r2 as usize][f2 as usize]) {
                                    add((r2 as usize, f2 as usize), &mut targets);
                                }
                            }
                        }
                    }
                    Element::Water => {
                        // breadth-first over squares holding the mover's other pieces
                        let mut seen = [[false; 8]; 8];
                        seen[r][f] = true;
                        let mut queue = vec![(r, f)];
                        let mut i = 0;
                        while i < queue.len() {
                            let (cr, cf) = queue[i];
                            i += 1;
                            for (dr, df) in DIRS {
                                let (nr, nf) = (cr as i32 + dr, cf as i32 + df);
                                if !on_board(nr, nf) {
                                    continue;
                                }
                                let (nr, nf) = (nr as usize, nf as usize);
                                if seen[nr][nf] {
                                    continue;
                                }
                                let o = self.board[nr][nf];
                                if o == who {
                                    seen[nr][nf] = true;
                                    queue.push((nr, nf));
                                } else if o == 0 || (o == enemy && enemy_element == Element::Fire) {
                                    add((nr, nf), &mut targets);
                                }
                            }
                        }
                    }
                }
                for (tr, tf) in targets {
                    let capture = self.board[tr][tf] == enemy;
                    let mut b = self.board;
                    b[r][f] = 0;
                    b[tr][tf] = who;
                    let sep = if capture { 'x' } else { '-' };
                    out.push((
                        format!("{}{}{}", square_name(r, f), sep, square_name(tr, tf)),
                        b,
                    ));
                }
            }
        }
        out
    }

    fn transmuted(&self) -> Pos {
        let mut next = self.clone();
        for r in 0..8 {
            for f in 0..8 {
                let o = self.board[r][f];
                if o == 0 {
                    continue;
                }
                let (lo, hi) = self.element_of(o).range();
                let n = self.neighbours(r, f);
                if n < lo || n > hi {
                    next.board[r][f] = 0;
                }
            }
        }
        next
    }

    /// The children as (text, position, uses depth), or none when terminal.
    fn children(&self) -> Vec<(String, Pos, bool)> {
        match self.stage {
            Stage::Setup => {
                let mut out = Vec::new();
                let placed = self.count(self.side);
                for r in 0..8 {
                    for f in 0..8 {
                        if self.board[r][f] != 0 {
                            continue;
                        }
                        let mut next = self.clone();
                        next.board[r][f] = self.side;
                        if placed == 2 {
                            if self.side == 1 {
                                next.side = 2;
                            } else {
                                next.side = 1;
                                next.stage = Stage::Roll;
                            }
                        }
                        out.push((format!("@{}", square_name(r, f)), next, true));
                    }
                }
                out
            }
            Stage::Roll => {
                if self.wiped_out() {
                    return Vec::new();
                }
                let mut t = self.transmuted();
                t.stage = Stage::Actions(1);
                let mut n = self.clone();
                n.stage = Stage::Actions(1);
                let mut d = self.clone();
                d.stage = Stage::Actions(2);
                vec![
                    ("D".to_string(), d, false),
                    ("N".to_string(), n, false),
                    ("T".to_string(), t, false),
                ]
            }
            Stage::Actions(left) => {
                if self.wiped_out() {
                    return Vec::new();
                }
                let mine = self.actions(self.side);
                let after = |board: [[u8; 8]; 8]| {
                    let mut next = self.clone();
                    next.board = board;
                    if left == 2 {
                        next.stage = Stage::Actions(1);
                    } else {
                        next.stage = Stage::Roll;
                        next.side = 3 - self.side;
                    }
                    next
                };
                if mine.is_empty() {
                    if self.actions(3 - self.side).is_empty() {
                        return Vec::new();
                    }
                    return vec![("pass".to_string(), after(self.board), true)];
                }
                mine.into_iter()
                    .map(|(text, board)| (text, after(board), true))
                    .collect()
            }
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children()
            .iter()
            .map(|(_, child, uses)| child.perft(if *uses { depth - 1 } else { depth }))
            .sum()
    }
}

/// The number of leaves `depth` plies below `position` (die classes use no
/// depth).
pub fn perft(position: &str, depth: u32) -> u64 {
    parse(position).perft(depth)
}

/// Per child of `position`: its text and its perft count (at `depth - 1`
/// for actions, `depth` for die classes), sorted by text.
pub fn divide(position: &str, depth: u32) -> Vec<(String, u64)> {
    assert!(depth >= 1, "divide needs depth at least 1");
    let mut out: Vec<(String, u64)> = parse(position)
        .children()
        .into_iter()
        .map(|(text, child, uses)| {
            let n = child.perft(if uses { depth - 1 } else { depth });
            (text, n)
        })
        .collect();
    out.sort();
    out
}

/// The sorted texts of the children of `position`.
pub fn moves(position: &str) -> Vec<String> {
    let mut out: Vec<String> = parse(position)
        .children()
        .into_iter()
        .map(|(text, _, _)| text)
        .collect();
    out.sort();
    out
}
