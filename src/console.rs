//! A game at the terminal against the engine (`gamut play`), of two sides
//! or more: the board is drawn after every step, the person types moves in
//! canonical text (or a number from the `moves` list) and commands for
//! the sides they play, and the engine plays the others, or every side.
//! Written over a line reader and a text writer, so tests drive whole
//! games with scripted input.
//!
//! At a simultaneous node the person types their own action in secret
//! (one for each of their players: a team has two); the engine's are
//! drawn from its mixed strategy and revealed after. A
//! decision right after a simultaneous step (a Spokes resolution) shows its
//! choices as a numbered list. Chance outcomes (Empedocles' die) are drawn
//! by the program from the seed. Bad input prints one `error:` line and
//! asks again (with the game's reason where it has one, such as the stone
//! an Epaminondas move must name). Where the person has one choice only,
//! it is played for them and said so; a choice typed by number is echoed
//! as its text. The board marks the last move's squares (`[W]`) and, on a
//! terminal, colours the stones; the choices are listed with numbers
//! compared as numbers (`wD2` before `wD10`).
//!
//! Kept in one file (over 800 lines): the session's loop, its commands and
//! the board it draws share one state and one writer; apart, each part would
//! take the whole session.

use gamut_core::game::{NodeKind, Player};
use gamut_core::message::{one_line, one_line_bytes};
use gamut_core::moves::natural_cmp;
use gamut_engine::{AnyGame, Position};
use gamut_players::engine::{Engine, Instance};
use gamut_players::external::Forfeit;
use gamut_players::record::{Adjudication, GameRecord, JointStep, StepScore};
use gamut_players::seed::{seed_for, Stream};
use gamut_search::score::Score;
use gamut_search::sides::Tuple;
use gamut_tournament::records;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::time::Instant;

/// How a game at the terminal is played.
pub struct Settings<'e> {
    /// The engine playing the sides nobody types for, and giving hints.
    pub engine: &'e Engine,
    /// Which sides the person plays, one flag per side of the game
    /// (`GameInfo::sides`): any of them, or none (the engine plays every
    /// side).
    pub humans: Vec<bool>,
    /// The seed of the die and the engine's random choices.
    pub seed: u64,
    /// Whether to colour the output (ANSI escapes).
    pub colour: bool,
}

/// The help printed by `help`.
const HELP: &str = "\
type a move in its canonical text, or its number from 'moves'; commands:
  moves         list the legal moves (or your secret actions), numbered
  hint          the engine's choice here, with its score
  undo          take back your last move (and the steps after it)
  save <file>   write the game so far as a record ('gamut replay' reads it)
  board         draw the board again
  quit          leave the game
  help          this text";

/// One step played: its text, what was chosen at a simultaneous node,
/// the engine's score where it searched, and whether the person chose it.
#[derive(Clone, Debug)]
struct Played {
    text: String,
    joint: Option<JointStep>,
    score: Option<StepScore>,
    by_human: bool,
    /// The squares the step started from and went to, marked on the board
    /// after it.
    squares: Vec<String>,
}

/// How the game ended other than by the rules.
#[derive(Clone, Debug)]
struct Ending {
    winner: Option<Player>,
    reason: String,
}

/// A game in progress: the positions from the start (the last is the
/// current one) and the steps between them.
struct Table<'e> {
    settings: &'e Settings<'e>,
    game: &'static dyn AnyGame,
    positions: Vec<Position>,
    steps: Vec<Played>,
    ended: Option<Ending>,
    /// The engine of each side.
    engines: Vec<Instance<'e>>,
    advisor: Instance<'e>,
    /// The person's secret actions typed so far at the current
    /// simultaneous node, by player, and whether any was chosen (not the
    /// only choice).
    pending: Vec<Option<String>>,
    pending_chosen: bool,
    dice: StdRng,
    started: Instant,
    /// The step count when the choices were last listed unasked, so that
    /// a list is shown once per position.
    listed: Option<usize>,
}

/// What the current line of input asks.
enum Input {
    /// A command or a move, trimmed.
    Line(String),
    /// A line that is not UTF-8 text, as [`one_line_bytes`] shows it.
    NotText(String),
    /// The input ended.
    End,
}

fn read(input: &mut dyn BufRead) -> io::Result<Input> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(Input::End);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(line) => Input::Line(line.trim().to_string()),
        Err(e) => Input::NotText(one_line_bytes(e.as_bytes().trim_ascii())),
    })
}

/// Plays a game from `start` as `settings` say, reading the person's lines
/// from `input` and writing everything to `out`, until `quit` or the end
/// of the input.
pub fn play(
    start: Position,
    settings: &Settings<'_>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<()> {
    let engine =
        |s: u64| Instance::new(settings.engine, seed_for(settings.seed, Stream::Engine, s));
    let game = start.game();
    let sides = game.info().sides;
    let mut t = Table {
        settings,
        game,
        positions: vec![start],
        steps: Vec::new(),
        ended: None,
        engines: (0..sides.len() as u64).map(engine).collect(),
        advisor: engine(sides.len() as u64),
        pending: vec![None; game.players()],
        pending_chosen: false,
        dice: StdRng::seed_from_u64(seed_for(settings.seed, Stream::Chance, 0)),
        started: Instant::now(),
        listed: None,
    };
    let mine: Vec<&str> = (0..sides.len())
        .filter(|&i| settings.humans[i])
        .map(|i| sides[i])
        .collect();
    let engine_sides = sides.len() - mine.len();
    writeln!(
        out,
        "{}: you play {}, the engine '{}' {} (seed {}); 'help' lists the commands",
        game.info().name,
        if mine.is_empty() {
            "no side".to_string()
        } else {
            mine.join(" and ")
        },
        settings.engine.name,
        match (engine_sides, sides.len()) {
            (0, _) => "gives hints",
            (1, _) => "plays the other",
            (2, 2) => "plays both",
            (n, _) if n == sides.len() => "plays every side",
            _ => "plays the others",
        },
        settings.seed
    )?;
    t.draw(out)?;
    // Whether the end of the game has been shown: an end by the ply limit
    // is found here, not after a step, and is drawn once.
    let mut announced = false;
    loop {
        let pos = t.current().clone();
        let over = t.over();
        let limit = Adjudication::PlyLimit.reason();
        if over && !announced && t.ended.as_ref().is_some_and(|e| e.reason == limit) {
            t.draw(out)?;
        }
        announced = over;
        if over {
            match t.prompt("game over> ", input, out)? {
                None => return Ok(()),
                Some(line) => {
                    if !t.command(&line, out)? {
                        return Ok(());
                    }
                }
            }
            continue;
        }
        match pos.node() {
            NodeKind::Chance => t.roll(out)?,
            NodeKind::Decision(p) if !settings.humans[p.index()] => t.engine_decides(p, out)?,
            NodeKind::Simultaneous if !settings.humans.contains(&true) => {
                t.joint(false, out)?;
            }
            NodeKind::Decision(_) | NodeKind::Simultaneous if t.only_choice(out)? => {}
            NodeKind::Decision(p) => {
                if t.after_joint() && t.listed != Some(t.steps.len()) {
                    t.listed = Some(t.steps.len());
                    t.list(out)?;
                }
                let Some(line) = t.prompt(&format!("{}> ", sides[p.index()]), input, out)? else {
                    return Ok(());
                };
                if t.command(&line, out)? {
                    continue;
                }
                return Ok(());
            }
            NodeKind::Simultaneous => {
                let prompt = format!("{} (secret)> ", player_name(game, t.asked()));
                let Some(line) = t.prompt(&prompt, input, out)? else {
                    return Ok(());
                };
                if !t.command(&line, out)? {
                    return Ok(());
                }
            }
            NodeKind::Terminal => unreachable!("a terminal position is over"),
        }
    }
}

/// How the person's player `p` is named at a simultaneous node: its side,
/// and the player too where a side has several (`team 1, player 3`).
fn player_name(game: &dyn AnyGame, p: Player) -> String {
    let side = game.info().side(game.side_of(p));
    if game.players() == game.info().sides.len() {
        side.to_string()
    } else {
        format!("{side}, {p}")
    }
}

impl Table<'_> {
    fn current(&self) -> &Position {
        self.positions.last().expect("the start position is kept")
    }

    /// The person's player whose secret action is asked next at the
    /// current simultaneous node: the first of their players without one.
    fn asked(&self) -> Player {
        (0..self.game.players())
            .map(Player::nth)
            .find(|&p| {
                self.settings.humans[self.game.side_of(p).index()]
                    && self.pending[p.index()].is_none()
            })
            .expect("the person has a player to act")
    }

    /// Whether the game is over: by the rules, the ply limit or a forfeit.
    fn over(&mut self) -> bool {
        if self.ended.is_some() || self.current().outcome().is_some() {
            return true;
        }
        let plies = self.plies();
        if plies >= self.game.info().ply_limit {
            self.ended = Some(Ending {
                winner: None,
                reason: Adjudication::PlyLimit.reason().to_string(),
            });
            return true;
        }
        false
    }

    /// Decision steps played.
    fn plies(&self) -> u32 {
        self.positions[..self.steps.len()]
            .iter()
            .filter(|p| matches!(p.node(), NodeKind::Decision(_)))
            .count() as u32
    }

    /// Whether the last step was a joint action.
    fn after_joint(&self) -> bool {
        self.steps.last().is_some_and(|s| s.joint.is_some())
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.settings.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// Writes the prompt and reads one line; `None` at the end of input.
    fn prompt(
        &self,
        prompt: &str,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> io::Result<Option<String>> {
        loop {
            write!(out, "{}", self.paint("1", prompt))?;
            out.flush()?;
            match read(input)? {
                Input::Line(l) => return Ok(Some(l)),
                Input::NotText(shown) => self.error(
                    out,
                    &format!("'{shown}' is not UTF-8 text: the line is skipped"),
                )?,
                Input::End => {
                    writeln!(out)?;
                    return Ok(None);
                }
            }
        }
    }

    /// Writes an error, what it quotes of the person's input escaped
    /// ([`one_line`]), so that no control character reaches the terminal.
    fn error(&self, out: &mut dyn Write, msg: &str) -> io::Result<()> {
        writeln!(
            out,
            "{}",
            self.paint("31", &format!("error: {}", one_line(msg)))
        )
    }

    /// Draws the board and the state (or the result).
    fn draw(&self, out: &mut dyn Write) -> io::Result<()> {
        let pos = self.current();
        let last = self.steps.last();
        let marked = last.map_or(&[][..], |s| &s.squares[..]);
        write!(
            out,
            "\n{}",
            board(&pos.diagram(), marked, self.settings.colour)
        )?;
        if let Some(step) = last {
            writeln!(out, "last move: {}", step.text)?;
        }
        let state = match &self.ended {
            Some(e) => format!(
                "game over: {} ({})",
                e.winner.map_or("draw".to_string(), |w| format!(
                    "{} wins",
                    self.game.info().side(w)
                )),
                e.reason
            ),
            None => pos.state_text(),
        };
        writeln!(out, "{}", self.paint("1;32", &state))
    }

    /// The person's choices here, sorted by text (numbers as numbers,
    /// [`natural_cmp`]): the moves, or at a
    /// simultaneous node their own actions.
    fn choices(&self) -> Vec<String> {
        let pos = self.current();
        let mut texts = match pos.node() {
            NodeKind::Simultaneous => pos.action_texts(self.asked()),
            _ => pos.move_texts(),
        };
        texts.sort_by(|a, b| natural_cmp(a, b));
        texts
    }

    fn list(&self, out: &mut dyn Write) -> io::Result<()> {
        for (i, text) in self.choices().iter().enumerate() {
            writeln!(out, "{:>4}. {text}", i + 1)?;
        }
        Ok(())
    }

    /// Handles one line at a prompt; false when the person quits.
    fn command(&mut self, line: &str, out: &mut dyn Write) -> io::Result<bool> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let over = self.over();
        match word {
            "" => {}
            "quit" | "exit" => return Ok(false),
            "help" => writeln!(out, "{HELP}")?,
            "board" => self.draw(out)?,
            "moves" if over => self.error(out, "the game is over")?,
            "moves" => self.list(out)?,
            "hint" if over => self.error(out, "the game is over")?,
            "hint" => self.hint(out)?,
            "undo" => self.undo(out)?,
            "save" if rest.is_empty() => self.error(out, "save needs a file name")?,
            "save" => self.save(Path::new(rest), out)?,
            _ if over => self.error(
                out,
                &format!("'{line}': the game is over (undo, save, quit, help)"),
            )?,
            _ => self.human_moves(line, out)?,
        }
        Ok(true)
    }

    /// The person's move or secret action `line`: its text, or its number
    /// in the `moves` list.
    fn human_moves(&mut self, line: &str, out: &mut dyn Write) -> io::Result<()> {
        let choices = self.choices();
        let chosen = match line.parse::<usize>() {
            Ok(n) if (1..=choices.len()).contains(&n) => {
                let line = format!("choice {n}: {}", choices[n - 1]);
                writeln!(out, "{}", self.paint("1", &line))?;
                choices[n - 1].clone()
            }
            Ok(n) => {
                return self.error(
                    out,
                    &format!(
                        "there is no choice {n} (1 to {}; 'moves' lists them)",
                        choices.len()
                    ),
                )
            }
            Err(_) => match choices.iter().find(|t| *t == line) {
                Some(m) => m.clone(),
                // Another form the game reads (Spokes' short outcomes), or
                // the game's own reason why not (Epaminondas names the
                // stone a move must start from).
                None => match self.current().move_text_of(line) {
                    Ok(m) if choices.contains(&m) => m,
                    Ok(_) => {
                        return self.error(out, &format!("'{line}' is not yours to play here"))
                    }
                    Err(e) if e.0.starts_with(&format!("'{line}' is not a legal move")) => {
                        return self.error(
                            out,
                            &format!(
                                "'{line}' is not a legal move here or a command ('moves', 'help')"
                            ),
                        )
                    }
                    Err(e) => {
                        let why = [format!("move '{line}': "), format!("'{line}': ")]
                            .iter()
                            .find_map(|p| e.0.strip_prefix(p.as_str()))
                            .unwrap_or(&e.0)
                            .to_string();
                        return self.error(out, &format!("'{line}': {why} ('moves' lists them)"));
                    }
                },
            },
        };
        self.human_plays(chosen, true, out)
    }

    /// Plays the person's move or secret action `m`; `by_choice` when they
    /// chose it (not when it was the only one).
    fn human_plays(&mut self, m: String, by_choice: bool, out: &mut dyn Write) -> io::Result<()> {
        if self.current().node() == NodeKind::Simultaneous {
            let me = self.asked();
            self.pending[me.index()] = Some(m);
            self.pending_chosen |= by_choice;
            let done = (0..self.game.players()).all(|p| {
                !self.settings.humans[self.game.side_of(Player::nth(p)).index()]
                    || self.pending[p].is_some()
            });
            return if done {
                self.joint(self.pending_chosen, out)
            } else {
                Ok(())
            };
        }
        let pos = self.current();
        let squares = pos.step_squares(&m);
        let next = pos.play_text(&m).expect("one of the moves here");
        self.push(m, None, None, by_choice, squares, next);
        self.draw(out)
    }

    /// When the person has exactly one choice here, plays it and says so;
    /// whether it did.
    fn only_choice(&mut self, out: &mut dyn Write) -> io::Result<bool> {
        let choices = self.choices();
        let [text] = &choices[..] else {
            return Ok(false);
        };
        let line = format!("the only choice here: {text} (played)");
        writeln!(out, "{}", self.paint("1", &line))?;
        self.human_plays(text.clone(), false, out)?;
        Ok(true)
    }

    fn push(
        &mut self,
        text: String,
        joint: Option<JointStep>,
        score: Option<StepScore>,
        by_human: bool,
        squares: Vec<String>,
        next: Position,
    ) {
        self.steps.push(Played {
            text,
            joint,
            score,
            by_human,
            squares,
        });
        self.positions.push(next);
    }

    /// The engine plays side `p`'s move at the current decision node.
    fn engine_decides(&mut self, p: Player, out: &mut dyn Write) -> io::Result<()> {
        let pos = self.current().clone();
        let c = match pos.engine_choice(&mut self.engines[p.index()]) {
            Ok(c) => c,
            Err(f) => return self.forfeit(p, &f, out),
        };
        let verdict = c.score.map_or(String::new(), |s| {
            format!(
                " (score {}{})",
                Score(s),
                c.depth.map_or(String::new(), |d| format!(", depth {d}"))
            )
        });
        let line = format!("{} plays {}{verdict}", self.game.info().side(p), c.mv);
        writeln!(out, "{}", self.paint("36", &line))?;
        let score = c.score.map(|score| StepScore {
            step: self.steps.len(),
            score,
            depth: c.depth,
            time_ms: None,
        });
        let squares = pos.step_squares(&c.mv);
        let next = pos.play_text(&c.mv).expect("the engine's move is legal");
        self.push(c.mv, None, score, false, squares, next);
        self.draw(out)
    }

    /// The engine playing side `side` forfeits: the game ends, a win for
    /// the other side.
    fn forfeit(&mut self, side: Player, f: &Forfeit, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}",
            self.paint("31", &format!("the engine forfeits: {}", f.0))
        )?;
        self.ended = Some(Ending {
            winner: Some(side.other()),
            reason: f.reason(),
        });
        self.draw(out)
    }

    /// Rolls at the current chance node.
    fn roll(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let pos = self.current().clone();
        let text = pos.roll(&mut self.dice);
        writeln!(
            out,
            "{}",
            self.paint(
                "35",
                &format!("{} rolls {text}", self.game.info().side(pos.perspective()))
            )
        )?;
        let squares = pos.step_squares(&text);
        let next = pos.play_text(&text).expect("one of the outcomes here");
        self.push(text, None, None, false, squares, next);
        self.draw(out)
    }

    /// Plays the current simultaneous node: the person's actions typed
    /// (for their sides; `by_choice` when they chose them) and the
    /// engine's for the other sides, drawn from its strategy and revealed
    /// now.
    fn joint(&mut self, by_choice: bool, out: &mut dyn Write) -> io::Result<()> {
        let pos = self.current().clone();
        let game = self.game;
        let pending = std::mem::replace(&mut self.pending, vec![None; game.players()]);
        self.pending_chosen = false;
        // A record keeps all of a strategy in a game of two players, its
        // first ten choices in a game of more (a team's choices multiply).
        let kept = if game.players() == 2 { usize::MAX } else { 10 };
        let mut parts: Vec<Tuple<String>> = Vec::new();
        let mut strategies: Vec<Vec<(String, f64)>> = Vec::new();
        for (i, &human) in self.settings.humans.iter().enumerate() {
            let side = Player::nth(i);
            if human {
                let mut t: Tuple<String> = Default::default();
                for p in game.players_of(side) {
                    t[p.index()].clone_from(&pending[p.index()]);
                }
                strategies.push(vec![(tuple_text(&t), 1.0)]);
                parts.push(t);
                continue;
            }
            let j = match pos.engine_joint(&mut self.engines[i], side) {
                Ok(j) => j,
                Err(f) => return self.forfeit(side, &f, out),
            };
            let line = format!(
                "{} placed {}",
                game.info().side(side),
                tuple_text(&j.actions)
            );
            writeln!(out, "{}", self.paint("36", &line))?;
            strategies.push(
                j.strategy
                    .iter()
                    .take(kept)
                    .map(|(t, p)| (tuple_text(t), *p))
                    .collect(),
            );
            parts.push(j.actions);
        }
        // Each player's action, from the part of its side.
        let actions: Vec<String> = (0..game.players())
            .map(|i| {
                parts
                    .iter()
                    .find_map(|t| t[i].clone())
                    .expect("every player has an action")
            })
            .collect();
        let squares = actions
            .iter()
            .enumerate()
            .flat_map(|(i, a)| pos.action_squares(Player::nth(i), a))
            .collect();
        let (text, next) = pos
            .play_actions(&actions)
            .expect("every action is one of its player's");
        self.push(
            text,
            Some(JointStep {
                step: self.steps.len(),
                actions,
                strategies,
            }),
            None,
            by_choice,
            squares,
            next,
        );
        self.draw(out)
    }

    /// The engine's choice for the person at the current node.
    fn hint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let pos = self.current().clone();
        match pos.node() {
            NodeKind::Simultaneous if self.game.players() != 2 => {
                let side = self.game.side_of(self.asked());
                match pos.engine_joint(&mut self.advisor, side) {
                    Ok(mut j) => {
                        if j.strategy.is_empty() {
                            j.strategy.push((j.actions, 1.0));
                        }
                        j.strategy.sort_by(|a, b| b.1.total_cmp(&a.1));
                        let parts: Vec<String> = j
                            .strategy
                            .iter()
                            .take(5)
                            .map(|(t, p)| format!("{} {:.0}%", tuple_text(t), 100.0 * p))
                            .collect();
                        writeln!(out, "hint: {}", parts.join(", "))
                    }
                    Err(f) => self.error(out, &format!("no hint: {}", f.0)),
                }
            }
            NodeKind::Simultaneous => {
                let me = self.asked();
                match pos.engine_strategy(&mut self.advisor, me) {
                    Ok(mut st) => {
                        st.sort_by(|a, b| b.1.total_cmp(&a.1));
                        let parts: Vec<String> = st
                            .iter()
                            .take(5)
                            .map(|(m, p)| format!("{m} {:.0}%", 100.0 * p))
                            .collect();
                        writeln!(out, "hint: {}", parts.join(", "))
                    }
                    Err(f) => self.error(out, &format!("no hint: {}", f.0)),
                }
            }
            _ => match pos.engine_choice(&mut self.advisor) {
                Ok(c) => writeln!(
                    out,
                    "hint: {}{}",
                    c.mv,
                    c.score
                        .map_or(String::new(), |s| format!(" (score {})", Score(s)))
                ),
                Err(f) => self.error(out, &format!("no hint: {}", f.0)),
            },
        }
    }

    /// Takes back the person's last step and every step after it.
    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let Some(last) = self.steps.iter().rposition(|s| s.by_human) else {
            return self.error(out, "nothing to undo: you have not moved yet");
        };
        self.steps.truncate(last);
        self.positions.truncate(last + 1);
        self.pending = vec![None; self.game.players()];
        self.pending_chosen = false;
        self.ended = None;
        self.listed = None;
        writeln!(out, "took back to step {last}")?;
        self.draw(out)
    }

    /// The game so far as a record (see [`records`]): the person (`human`)
    /// and the engine by side, in a game of two players game 1 of a pair;
    /// a game not yet over is saved `unfinished`.
    fn record(&self) -> GameRecord {
        let name = |i: usize| {
            if self.settings.humans[i] {
                "human".to_string()
            } else if !self.settings.humans.contains(&true) {
                format!("{}-{}", self.settings.engine.name, i + 1)
            } else {
                self.settings.engine.name.clone()
            }
        };
        let spec = |i: usize| {
            if self.settings.humans[i] {
                "human".to_string()
            } else {
                self.settings.engine.spec.clone()
            }
        };
        let sides = self.settings.humans.len();
        let two = self.game.players() == 2;
        let engines: Vec<String> = (0..sides).map(name).collect();
        let (winner, reason, points, adjudicated) = match (&self.ended, self.current().outcome()) {
            (Some(e), _) => (e.winner, e.reason.clone(), None, true),
            (None, Some(o)) => (o.winner, o.reason.to_string(), o.points, false),
            (None, None) => (
                None,
                Adjudication::Unfinished.reason().to_string(),
                None,
                true,
            ),
        };
        let unfinished = self.ended.is_none() && self.current().outcome().is_none();
        GameRecord {
            game: self.game.id().name().to_string(),
            number: 1,
            pair: two.then_some(0),
            encounter: two.then(|| [engines[0].clone(), engines[1].clone()]),
            opening_index: two.then_some(0),
            opening: self.positions[0].text(),
            engines,
            specs: (0..sides).map(spec).collect(),
            moves: self.steps.iter().map(|s| s.text.clone()).collect(),
            rolls: self
                .steps
                .iter()
                .zip(&self.positions)
                .filter(|(_, p)| p.node() == NodeKind::Chance)
                .map(|(s, _)| s.text.clone())
                .collect(),
            joint: self.steps.iter().filter_map(|s| s.joint.clone()).collect(),
            scores: self.steps.iter().filter_map(|s| s.score).collect(),
            result: two.then(|| {
                if unfinished {
                    GameRecord::UNFINISHED.to_string()
                } else {
                    GameRecord::result_text(winner).to_string()
                }
            }),
            winner: winner.map(|p| p.index() as u8 + 1),
            reason,
            adjudicated,
            points: points.filter(|_| two).map(|p| p.to_vec()),
            ply_limit: None,
            adjudicate: None,
            plies: self.plies(),
            time_ms: self.started.elapsed().as_millis() as u64,
            seed: None,
        }
    }

    /// Writes the record of the game so far to `path` (one JSON line).
    fn save(&self, path: &Path, out: &mut dyn Write) -> io::Result<()> {
        let rec = self.record();
        if let Err(e) = records::verify(&rec) {
            return self.error(out, &format!("the record does not check: {e}"));
        }
        match std::fs::write(path, format!("{}\n", rec.to_line())) {
            Ok(()) => {
                let shown = one_line(&path.display().to_string());
                writeln!(
                    out,
                    "saved {} steps to {shown} ('gamut replay {shown} --game 1')",
                    rec.moves.len(),
                )
            }
            Err(e) => self.error(out, &format!("cannot write {}: {e}", path.display())),
        }
    }
}

/// A tuple's text: its actions joined by `+` (a joint choice of a side
/// of several players).
fn tuple_text(t: &Tuple<String>) -> String {
    t.iter().flatten().cloned().collect::<Vec<_>>().join("+")
}

/// A square of a drawn board: its line and column in the diagram, and its
/// name (`b3`, `D10`).
struct Cell {
    line: usize,
    col: usize,
    name: String,
}

/// The squares of a diagram: a lettered grid (rank numbers down the left,
/// files `a b c …` under it) or named nodes (Spokes: `B1 X`, the content
/// one space after the name).
fn cells(lines: &[Vec<char>]) -> Vec<Cell> {
    let mut out = Vec::new();
    // A grid: the line of files.
    let files = lines.iter().rposition(|l| {
        let t: String = l.iter().collect();
        let t = t.trim();
        t.len() >= 3
            && t.starts_with('a')
            && t.split(' ')
                .all(|f| f.len() == 1 && f.as_bytes()[0].is_ascii_lowercase())
    });
    if let Some(f) = files {
        let columns: Vec<(usize, char)> = lines[f]
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_ascii_lowercase())
            .map(|(i, &c)| (i, c))
            .collect();
        for (i, l) in lines[..f].iter().enumerate() {
            let t: String = l.iter().collect();
            let Some(rank) = t
                .split_whitespace()
                .next()
                .and_then(|r| r.parse::<u32>().ok())
            else {
                continue;
            };
            for &(col, file) in &columns {
                if col < l.len() {
                    out.push(Cell {
                        line: i,
                        col,
                        name: format!("{file}{rank}"),
                    });
                }
            }
        }
        return out;
    }
    // Named nodes: an upper-case letter and digits, one space, one
    // character, then a space or the end of the line.
    for (i, l) in lines.iter().enumerate() {
        let mut start = 0;
        while start < l.len() {
            if l[start] == ' ' {
                start += 1;
                continue;
            }
            let end = (start..l.len()).find(|&j| l[j] == ' ').unwrap_or(l.len());
            let name: String = l[start..end].iter().collect();
            let named = name.len() <= 3
                && name.as_bytes()[0].is_ascii_uppercase()
                && name[1..].bytes().all(|b| b.is_ascii_digit());
            let content = end + 1;
            if named
                && content < l.len()
                && l[content] != ' '
                && l.get(content + 1).is_none_or(|&c| c == ' ')
                && (start == 0 || l[start - 1] == ' ')
            {
                out.push(Cell {
                    line: i,
                    col: content,
                    name,
                });
            }
            start = end;
        }
    }
    out
}

/// The ANSI colour of what a square holds: the first side's stones
/// (`W`, `w`, other upper-case letters) yellow, the second's (`B`, `b`,
/// other lower-case letters) blue, empty squares dim, anything else
/// (Spokes' blocked `X`) magenta.
fn stone_colour(c: char) -> &'static str {
    match c {
        '.' => "2",
        'W' | 'w' => "1;33",
        'B' | 'b' => "1;34",
        c if c.is_ascii_uppercase() && c != 'X' => "1;33",
        c if c.is_ascii_lowercase() => "1;34",
        _ => "1;35",
    }
}

/// `diagram` with the squares named in `marked` bracketed (`[W]`; two
/// marked neighbours share a `|`) and, when `colour`, the stones coloured
/// by side (ANSI escapes).
#[must_use]
pub fn board(diagram: &str, marked: &[String], colour: bool) -> String {
    let mut lines: Vec<Vec<char>> = diagram.lines().map(|l| l.chars().collect()).collect();
    let cells = cells(&lines);
    for c in cells.iter().filter(|c| marked.contains(&c.name)) {
        let l = &mut lines[c.line];
        if c.col > 0 {
            l[c.col - 1] = if l[c.col - 1] == ']' { '|' } else { '[' };
        }
        if c.col + 1 < l.len() {
            l[c.col + 1] = ']';
        } else {
            l.push(']');
        }
    }
    let mut out = String::with_capacity(diagram.len() * 2);
    for (i, l) in lines.iter().enumerate() {
        for (j, &ch) in l.iter().enumerate() {
            let cell = colour && cells.iter().any(|c| c.line == i && c.col == j);
            if cell {
                out.push_str(&format!("\x1b[{}m{ch}\x1b[0m", stone_colour(ch)));
            } else {
                out.push(ch);
            }
        }
        out.push('\n');
    }
    out
}
