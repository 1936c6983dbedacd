//! The game viewer every page ends with: the games as compact data (move
//! texts, scores, and the board pictures as edits of lines shared by the
//! whole page) and the script that rebuilds a game's pictures when it is
//! opened; and the page of one recorded game.

use super::{head, inline_svg};
use gamut_core::game::{grid_squares, NodeKind, Player};
use gamut_core::svg::SvgOptions;
use gamut_engine::{AnyGame, Position};
use gamut_players::record::GameRecord;
use gamut_search::score::{Score, WIN_THRESHOLD};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde_json::{json, Value};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// The digits of the page's fixed-width numbers: 64 characters that JSON
/// strings hold as they are.
const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The characters needed to write every number below `n` in [`DIGITS`].
fn width(n: usize) -> usize {
    let mut w = 1;
    while n > 1 << (6 * w) {
        w += 1;
    }
    w
}

/// `v` in `w` characters of [`DIGITS`], most significant first.
fn push_number(out: &mut String, v: u32, w: usize) {
    for i in (0..w).rev() {
        out.push(DIGITS[((v >> (6 * i)) & 63) as usize] as char);
    }
}

/// The code of a step without a score.
const NO_SCORE: u32 = (1 << 18) - 1;
/// Added to a score so that its code is not negative.
const SCORE_OFFSET: i32 = 1 << 17;

/// Texts numbered in the order first seen.
#[derive(Default)]
struct Texts {
    all: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Texts {
    fn id(&mut self, text: &str) -> u32 {
        if let Some(&i) = self.ids.get(text) {
            return i;
        }
        let i = self.all.len() as u32;
        self.all.push(text.to_string());
        self.ids.insert(text.to_string(), i);
        i
    }
}

/// A game as it goes into the page, before the lines are put in order.
struct Entry {
    head: Value,
    opening: u32,
    moves: Vec<u32>,
    edits: Vec<u32>,
    states: Vec<u32>,
    movers: String,
    scores: String,
    depths: String,
    proven: BTreeMap<usize, String>,
    marks: BTreeMap<usize, Vec<String>>,
}

/// The games of a page as compact data for its script. Every distinct
/// line of the board pictures (drawn by [`Diagram::svg`], without a last
/// move) is kept once, the lines numbered in an order that keeps every
/// picture's own order, so a picture is a set of line numbers; each step
/// is the number of an edit (the lines it takes away and adds), edits
/// shared by the whole page. Move texts and states are numbered the same
/// way, and numbers are written in fixed-width characters. The script
/// marks the last step's squares itself.
#[derive(Default)]
pub(super) struct Games {
    lines: Texts,
    /// Line `a` comes before line `b` in some picture.
    before: HashSet<(u32, u32)>,
    /// Pictures already drawn, by position (bounded: cleared when full).
    drawn: HashMap<u64, Vec<u32>>,
    openings: Vec<Vec<u32>>,
    opening_ids: HashMap<Vec<u32>, u32>,
    edits: Vec<(Vec<u32>, Vec<u32>)>,
    edit_ids: HashMap<(Vec<u32>, Vec<u32>), u32>,
    moves: Texts,
    states: Texts,
    games: Vec<Entry>,
}

impl Games {
    pub(super) fn new() -> Games {
        Games::default()
    }

    /// A position's picture as line numbers, in order; a line repeated in
    /// a picture gets an invisible mark to keep every line distinct.
    fn picture(&mut self, pos: &Position) -> Vec<u32> {
        const KEPT: usize = 20_000;
        if let Some(ids) = self.drawn.get(&pos.hash()) {
            return ids.clone();
        }
        let svg = inline_svg(&pos.svg(&SvgOptions::default(), None));
        let mut ids: Vec<u32> = svg.lines().map(|l| self.lines.id(l)).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            let mut seen: HashMap<&str, u32> = HashMap::default();
            ids.clear();
            for l in svg.lines() {
                let n = seen.entry(l).or_insert(0);
                *n += 1;
                ids.push(match *n {
                    1 => self.lines.id(l),
                    n => self.lines.id(&format!("{l}<!--{n}-->")),
                });
            }
        }
        for w in ids.windows(2) {
            self.before.insert((w[0], w[1]));
        }
        if self.drawn.len() >= KEPT {
            self.drawn.clear();
        }
        self.drawn.insert(pos.hash(), ids.clone());
        ids
    }

    /// Adds a recorded game: `steps` are its positions from the opening as
    /// [`crate::records::replay`] gives them. A game of more
    /// than two sides shows its winning side as its result and has no
    /// opening index.
    pub(super) fn add(&mut self, rec: &GameRecord, steps: &[(Option<String>, Position)]) {
        let mut head = json!({
            "n": rec.number,
            "e": rec.engines,
            "r": rec.shown_result(steps[0].1.game().info().sides),
            "why": rec.reason,
            "p": rec.plies,
            "o": rec.opening,
        });
        if let Some(index) = rec.opening_index {
            head["oi"] = json!(index);
        }
        let scores: HashMap<usize, (i32, Option<u32>)> = rec
            .scores
            .iter()
            .map(|s| (s.step, (s.score, s.depth)))
            .collect();
        self.add_steps(head, steps, &scores);
    }

    /// Adds a game from its heading `head` (number, engines by seat,
    /// result, reason, plies, opening), its positions and its scores by
    /// step.
    fn add_steps(
        &mut self,
        head: Value,
        steps: &[(Option<String>, Position)],
        scores: &HashMap<usize, (i32, Option<u32>)>,
    ) {
        let mut set = self.picture(&steps[0].1);
        let next = self.openings.len() as u32;
        let opening = *self.opening_ids.entry(set.clone()).or_insert(next);
        if opening == next {
            self.openings.push(set.clone());
        }
        set.sort_unstable();
        let mut e = Entry {
            head,
            opening,
            moves: Vec::new(),
            edits: Vec::new(),
            states: vec![self.states.id(&steps[0].1.state_text())],
            movers: String::new(),
            scores: String::new(),
            depths: String::new(),
            proven: BTreeMap::new(),
            marks: BTreeMap::new(),
        };
        for (k, w) in steps.windows(2).enumerate() {
            let (before, (text, pos)) = (&w[0].1, &w[1]);
            let text = text.as_deref().unwrap_or("");
            let mut now = self.picture(pos);
            now.sort_unstable();
            let removed: Vec<u32> = set
                .iter()
                .filter(|i| now.binary_search(i).is_err())
                .copied()
                .collect();
            let added: Vec<u32> = now
                .iter()
                .filter(|i| set.binary_search(i).is_err())
                .copied()
                .collect();
            let n = self.edits.len() as u32;
            let edit = *self
                .edit_ids
                .entry((removed.clone(), added.clone()))
                .or_insert(n);
            if edit == n {
                self.edits.push((removed, added));
            }
            set = now;
            e.edits.push(edit);
            e.moves.push(self.moves.id(text));
            e.states.push(self.states.id(&pos.state_text()));
            e.movers.push(match before.node() {
                NodeKind::Decision(p) => (b'0' + p.index() as u8) as char,
                NodeKind::Chance => 'r',
                _ => 'j',
            });
            match scores.get(&k) {
                Some(&(s, d)) => {
                    let v = first_side_score(before, s);
                    let code = (v + SCORE_OFFSET).clamp(0, NO_SCORE as i32 - 1) as u32;
                    push_number(&mut e.scores, code, 3);
                    push_number(&mut e.depths, d.unwrap_or(0).min(63), 1);
                    if v.abs() > WIN_THRESHOLD {
                        e.proven.insert(k + 1, Score(v).to_string());
                    }
                }
                None => {
                    push_number(&mut e.scores, NO_SCORE, 3);
                    push_number(&mut e.depths, 0, 1);
                }
            }
            let squares = before.step_squares(text);
            if squares != grid_squares(text) {
                e.marks.insert(k + 1, squares);
            }
        }
        self.games.push(e);
    }

    /// The data as a script element's text: JSON with `<`, `>` and `&`
    /// escaped, so nothing in it ends the element.
    fn script(self, game: &dyn AnyGame) -> String {
        let order = line_order(self.lines.all.len(), &self.before);
        // rank[id]: the line's number in the page.
        let mut rank = vec![0u32; order.len()];
        for (r, &id) in order.iter().enumerate() {
            rank[id as usize] = r as u32;
        }
        let lw = width(order.len());
        let numbers = |ids: &[u32]| {
            let mut v: Vec<u32> = ids.iter().map(|&i| rank[i as usize]).collect();
            v.sort_unstable();
            let mut s = String::with_capacity(v.len() * lw);
            for r in v {
                push_number(&mut s, r, lw);
            }
            s
        };
        let (ew, mw, sw) = (
            width(self.edits.len()),
            width(self.moves.all.len()),
            width(self.states.all.len()),
        );
        let coded = |ids: &[u32], w: usize| {
            let mut s = String::with_capacity(ids.len() * w);
            for &i in ids {
                push_number(&mut s, i, w);
            }
            s
        };
        let games: Vec<Value> = self
            .games
            .iter()
            .map(|e| {
                let mut g = e.head.clone();
                g["ob"] = json!(e.opening);
                g["m"] = json!(coded(&e.moves, mw));
                g["b"] = json!(coded(&e.edits, ew));
                g["st"] = json!(coded(&e.states, sw));
                g["w"] = json!(e.movers);
                g["s"] = json!(e.scores);
                g["d"] = json!(e.depths);
                g["x"] = json!(e.proven);
                g["q"] = json!(e.marks);
                g
            })
            .collect();
        let data = json!({
            "name": game.info().name,
            "sides": game.info().sides,
            "scale": game.score_scale(),
            "widths": {"line": lw, "edit": ew, "move": mw, "state": sw},
            "lines": order.iter().map(|&i| self.lines.all[i as usize].as_str()).collect::<Vec<_>>(),
            "openings": self.openings.iter().map(|o| numbers(o)).collect::<Vec<_>>(),
            "edits": self.edits.iter().map(|(r, a)| format!("{}.{}", numbers(r), numbers(a))).collect::<Vec<_>>(),
            "moves": self.moves.all,
            "states": self.states.all,
            "games": games,
        });
        data.to_string()
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
            .replace('&', "\\u0026")
    }
}

/// The lines in an order that keeps every `before` pair (a topological
/// order, ties by first use); lines on a cycle, which no game's pictures
/// make, follow in the order first used.
fn line_order(n: usize, before: &HashSet<(u32, u32)>) -> Vec<u32> {
    let mut after: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut pending = vec![0usize; n];
    for &(a, b) in before {
        after[a as usize].push(b);
        pending[b as usize] += 1;
    }
    let mut ready: BinaryHeap<Reverse<u32>> = (0..n as u32)
        .filter(|&i| pending[i as usize] == 0)
        .map(Reverse)
        .collect();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    while let Some(Reverse(i)) = ready.pop() {
        order.push(i);
        placed[i as usize] = true;
        for &b in &after[i as usize] {
            pending[b as usize] -= 1;
            if pending[b as usize] == 0 {
                ready.push(Reverse(b));
            }
        }
    }
    order.extend((0..n as u32).filter(|&i| !placed[i as usize]));
    order
}

/// A score for the side to move at `pos` seen from the first player's
/// side.
fn first_side_score(pos: &Position, score: i32) -> i32 {
    match pos.node() {
        NodeKind::Decision(p) if p != Player::FIRST => -score,
        _ => score,
    }
}

/// The viewer's part of a page: the board with its caption and buttons,
/// the list of steps and the plot of the scores, all filled in by
/// [`SCRIPT`] from the data.
const VIEWER: &str = r#"<section id="viewer">
<h2 id="game-title"></h2>
<p class="meta" id="game-meta"></p>
<div class="main">
<div class="board-column">
<div class="board" id="board"></div>
<div class="caption" id="caption"></div>
<div class="controls">
<button id="first" title="opening (Home)">|&#x25C0;</button>
<button id="prev" title="back (left arrow)">&#x25C0;</button>
<button id="next" title="forward (right arrow)">&#x25B6;</button>
<button id="last" title="last step (End)">&#x25B6;|</button>
<span id="counter"></span>
</div>
</div>
<div class="side">
<h2>Steps</h2>
<ol id="steps"></ol>
<h2 id="plot-title"></h2>
<div id="plot"></div>
</div>
</div>
</section>
"#;

/// The script of a page with games: decodes a game's pictures when it is
/// opened (`#game=N`, or a link), shows one position at a time (`#move=K`,
/// buttons, arrow keys, the step list, the plot) and draws the plot of
/// the scores as the first player's chance to win.
const SCRIPT: &str = r#"
(function () {
  var D = JSON.parse(document.getElementById('games-data').textContent);
  var byNumber = {};
  D.games.forEach(function (g) { byNumber[g.n] = g; });
  var game = null, pictures = null, current = 0;
  var $ = function (id) { return document.getElementById(id); };
  var DIG = {};
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('').forEach(function (c, i) { DIG[c] = i; });
  function nums(s, w) {
    var out = [];
    for (var i = 0; i + w <= s.length; i += w) {
      var n = 0;
      for (var j = 0; j < w; j++) { n = n * 64 + DIG[s.charAt(i + j)]; }
      out.push(n);
    }
    return out;
  }
  var W = D.widths;
  var edits = D.edits.map(function (e) {
    var p = e.split('.');
    return [nums(p[0], W.line), nums(p[1], W.line)];
  });
  function unpack(g) {
    if (g.ready) { return; }
    g.ready = true;
    g.m = nums(g.m, W.move).map(function (i) { return D.moves[i]; });
    g.st = nums(g.st, W.state);
    g.w = g.w.split('').map(function (c) { return c === 'r' ? -1 : c === 'j' ? -2 : parseInt(c, 10); });
    var d = nums(g.d, 1);
    g.sc = [];
    nums(g.s, 3).forEach(function (v, i) {
      if (v === 262143) { return; }
      var e = [i + 1, v - 131072, d[i]];
      if (g.x[i + 1]) { e.push(g.x[i + 1]); }
      g.sc.push(e);
    });
    g.b = nums(g.b, W.edit);
  }
  function decode(g) {
    var on = [], out = [];
    nums(D.openings[g.ob], W.line).forEach(function (i) { on[i] = true; });
    function picture() {
      var p = [];
      for (var i = 0; i < D.lines.length; i++) { if (on[i]) { p.push(i); } }
      return p;
    }
    out.push(picture());
    g.b.forEach(function (e) {
      edits[e][0].forEach(function (i) { on[i] = false; });
      edits[e][1].forEach(function (i) { on[i] = true; });
      out.push(picture());
    });
    return out;
  }
  function squares(t) {
    return t.split(/[^A-Za-z0-9]/).filter(function (x) { return /^[a-z][0-9]+$/.test(x); });
  }
  function win(v) { return 1 / (1 + Math.pow(3, -v / D.scale)); }
  function scoreText(e) { return e.length > 3 ? e[3] : (e[1] > 0 ? '+' : '') + e[1]; }
  function escape(t) {
    return String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  }
  function tag(name, attrs, inner) {
    var t = '<' + name;
    for (var a in attrs) { t += ' ' + a + '="' + attrs[a] + '"'; }
    return t + (inner === undefined ? '/>' : '>' + inner + '</' + name + '>');
  }
  function plot(g) {
    var box = $('plot');
    $('plot-title').textContent = g.sc.length ?
      D.sides[0] + "'s chance to win by the engines' scores, by step" : '';
    if (!g.sc.length) { box.innerHTML = ''; return; }
    var w = 400, h = 180, left = 40, right = 10, top = 8, bottom = 24;
    var last = Math.max(1, g.m.length);
    var x = function (k) { return (left + (w - left - right) * k / last).toFixed(1); };
    var y = function (p) { return (top + (h - top - bottom) * (1 - p)).toFixed(1); };
    var parts = [];
    [0, 0.25, 0.5, 0.75, 1].forEach(function (p) {
      parts.push(tag('line', {x1: left, x2: w - right, y1: y(p), y2: y(p), stroke: p === 0.5 ? '#888' : '#ddd'}));
      parts.push(tag('text', {x: left - 4, y: y(p) * 1 + 3, 'text-anchor': 'end'}, Math.round(100 * p) + '%'));
    });
    var every = Math.max(1, Math.ceil(last / 40) * 5);
    for (var k = 0; k <= last; k += every) {
      parts.push(tag('line', {x1: x(k), x2: x(k), y1: h - bottom, y2: h - bottom + 4, stroke: '#888'}));
      parts.push(tag('text', {'class': 'tick', x: x(k), y: h - 6, 'text-anchor': 'middle'}, k));
    }
    parts.push(tag('line', {x1: left, x2: w - right, y1: h - bottom, y2: h - bottom, stroke: '#888'}));
    var points = g.sc.map(function (e) { return x(e[0]) + ',' + y(win(e[1])); });
    parts.push(tag('polyline', {fill: 'none', stroke: '#2a6fb0', 'stroke-width': 1.5, points: points.join(' ')}));
    g.sc.forEach(function (e) {
      parts.push(tag('circle', {'class': 'point', 'data-move': e[0], cx: x(e[0]), cy: y(win(e[1])), r: 2.5, fill: '#2a6fb0'},
        tag('title', {}, 'step ' + e[0] + ': ' + escape(scoreText(e)))));
    });
    parts.push(tag('line', {id: 'cursor', x1: left, x2: left, y1: top, y2: h - bottom, stroke: '#d0312d'}));
    box.innerHTML = tag('svg', {'class': 'plot', width: w, height: h, viewBox: '0 0 ' + w + ' ' + h, 'font-size': 10}, parts.join(''));
    plot.x = x;
  }
  $('plot').addEventListener('click', function (e) {
    var k = e.target.getAttribute && e.target.getAttribute('data-move');
    if (k !== null && k !== undefined) { show(parseInt(k, 10)); }
  });
  function open(n) {
    var g = byNumber[n] || D.games[0];
    if (!g) { return; }
    if (g !== game) {
      game = g;
      unpack(g);
      pictures = decode(g);
      g.scores = {};
      g.sc.forEach(function (e) { g.scores[e[0]] = e; });
      $('game-title').textContent = D.name + ' game ' + g.n;
      $('game-meta').textContent = g.e.map(function (e, i) { return e + ' (' + D.sides[i] + ')'; }).join(' vs ') +
        ': ' + g.r + ' (' + g.why + '), ' + g.p + ' plies; opening' + (g.oi === undefined ? '' : ' ' + g.oi) + ': ' + g.o;
      var list = $('steps');
      list.textContent = '';
      g.m.forEach(function (text, i) {
        var li = document.createElement('li'), a = document.createElement('a');
        a.href = '#game=' + g.n + '&move=' + (i + 1);
        a.textContent = text;
        li.appendChild(a);
        var e = g.scores[i + 1];
        if (e) {
          var s = document.createElement('span');
          s.className = 'score';
          s.textContent = scoreText(e);
          li.appendChild(s);
        }
        list.appendChild(li);
      });
      plot(g);
      current = 0;
    }
  }
  function show(k) {
    var last = game.m.length;
    k = Math.max(0, Math.min(last, k));
    var items = $('steps').children;
    if (current > 0 && items[current - 1]) { items[current - 1].className = ''; }
    var board = $('board');
    board.innerHTML = pictures[k].map(function (i) { return D.lines[i]; }).join('\n');
    if (k > 0) {
      (game.q[k] || squares(game.m[k - 1])).forEach(function (sq) {
        board.querySelectorAll('.square[data-square="' + sq + '"]').forEach(function (e) {
          e.classList.add('marked');
        });
      });
    }
    var caption = 'opening';
    if (k > 0) {
      var who = game.w[k - 1];
      caption = 'step ' + k + ': ' + game.m[k - 1] + (who >= 0 ? ' (' + D.sides[who] + ')' : who === -1 ? ' (roll)' : '');
      var e = game.scores[k];
      if (e) { caption += ', score ' + scoreText(e) + ' for ' + D.sides[0] + (e[2] ? ' at depth ' + e[2] : ''); }
      items[k - 1].className = 'current';
      items[k - 1].scrollIntoView({block: 'nearest'});
    }
    $('caption').textContent = caption + '\n' + D.states[game.st[k]];
    var cursor = $('cursor');
    if (cursor) { cursor.setAttribute('x1', plot.x(k)); cursor.setAttribute('x2', plot.x(k)); }
    $('counter').textContent = 'step ' + k + ' of ' + last;
    current = k;
    var hash = '#game=' + game.n + '&move=' + k;
    if (location.hash !== hash) {
      try { history.replaceState(null, '', hash); } catch (e) {}
    }
  }
  function fromHash() {
    var g = /game=(\d+)/.exec(location.hash), m = /move=(\d+)/.exec(location.hash);
    var before = game;
    open(g ? parseInt(g[1], 10) : game ? game.n : -1);
    if (game) { show(m ? parseInt(m[1], 10) : 0); }
    // A game opened by its link (or the page's address) is brought into
    // view: the viewer sits below the tables.
    if (g && game && game !== before) { $('viewer').scrollIntoView({block: 'start'}); }
  }
  $('first').onclick = function () { show(0); };
  $('prev').onclick = function () { show(current - 1); };
  $('next').onclick = function () { show(current + 1); };
  $('last').onclick = function () { show(game.m.length); };
  document.addEventListener('keydown', function (e) {
    if (!game) { return; }
    if (e.key === 'ArrowLeft') { show(current - 1); }
    else if (e.key === 'ArrowRight') { show(current + 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(game.m.length); }
    else { return; }
    e.preventDefault();
  });
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
"#;

/// The viewer, its data and its script, for the end of a page.
pub(super) fn viewer(game: &dyn AnyGame, games: Games) -> String {
    format!(
        "{VIEWER}<script type=\"application/json\" id=\"games-data\">{}</script>\n<script>{SCRIPT}</script>\n",
        games.script(game)
    )
}

/// The page of one recorded game: `steps` are its positions from the
/// opening as [`crate::records::replay`] gives them. The
/// fragment `#move=K` opens it at step K.
#[must_use]
pub fn game_page(rec: &GameRecord, steps: &[(Option<String>, Position)]) -> String {
    let game = steps[0].1.game();
    let title = format!("{} game {}", game.info().name, rec.number);
    let mut games = Games::new();
    games.add(rec, steps);
    let mut o = head(&title);
    o.push_str(&viewer(game, games));
    o.push_str("</body>\n</html>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_fixed_width() {
        assert_eq!(
            (width(1), width(64), width(65), width(4096), width(4097)),
            (1, 1, 2, 2, 3)
        );
        let mut s = String::new();
        push_number(&mut s, 0, 2);
        push_number(&mut s, 63, 1);
        push_number(&mut s, 64, 2);
        assert_eq!(s, "AA_BA");
    }

    #[test]
    fn line_order_keeps_every_pair_and_survives_a_cycle() {
        let before: HashSet<(u32, u32)> = [(3, 1), (1, 0), (2, 0)].into_iter().collect();
        let order = line_order(4, &before);
        let at = |i: u32| order.iter().position(|&x| x == i).unwrap();
        assert!(at(3) < at(1) && at(1) < at(0) && at(2) < at(0));
        let cycle: HashSet<(u32, u32)> = [(0, 1), (1, 0)].into_iter().collect();
        assert_eq!(line_order(3, &cycle), [2, 0, 1]);
    }
}
