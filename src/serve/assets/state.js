// gamut's page, its first script: the state all its scripts share (`S`),
// the element lookup `$`, the error line and the questions to the engine
// with the game's start (`params`, `getJson`, through `transport`). The
// page's scripts are classic scripts, loaded in index.html's order, that
// call one another's functions by name; only `init()` (app.js, the last)
// runs anything when they load.
"use strict";

const $ = (id) => document.getElementById(id);

// The page's state, shared by all its scripts: the one object they keep
// what they know in (no script keeps state of its own elsewhere).
const S = {
  game: null,      // game id
  setup: "",       // setup text ("" for the default start)
  fen: null,       // start position text (null: the start of the setup)
  nodes: [],       // the move tree: {move, short, parent, children, score, mover,
                   // kind and by (the node kind and mover of the position the
                   // move was made in), text (the position, once shown)}
  tree: 0,         // counts new trees, so stale fills of a tree are dropped
  current: 0,      // the node shown
  view: null,      // the server's answer for the node shown
  selection: [],   // squares clicked so far
  geometry: {},    // each square's hit area: {x, y, w, h, round} in the picture's units
  svgNs: null,     // the SVG namespace, read from the game's picture (so that
                   // the page names no address)
  svgShown: null,  // the picture drawn last (redrawn when the board turns round)
  stepped: false,  // the outcome previewed was stepped to (it stays without the pointer)
  cursor: -1,      // the outcome previewed last (where the arrows step on from)
  preview: -1,     // the outcome previewed (index into the moves without squares), or -1
  autoForced: false, // a move was just played: a forced outcome may follow by itself
  outcomes: null,  // a resolution of too many outcomes to list: {fix: [[square, content]…]
                   // (what the outcomes must leave there), from (the page's first),
                   // data (the server's answer), asked (counts requests)}
  lastIteration: null, // the analysis shown (for the best-move arrows)
  infoNote: "",    // what the analysis' scores include (the info line's tooltip)
  shownDepth: 0,   // the deepest iteration of the analysis shown
  analysisKey: null, // the line and lines count analysed (its lines stay when resumed)
  resumeDepth: 0,  // a resumed analysis shows only iterations deeper than this
  pausedFor: null, // the search the analysis lent its thread to, while it waits
  idle: false,     // the page was idle: its analysis gave its thread back
  pending: [],     // actions chosen so far at a simultaneous node
  analysis: null,  // the stream of the running analysis (transport.stream)
  scoring: null,   // the stream of the game's scoring
  scoringIds: null, // the nodes the running scoring scores, in its order
  scoreTimer: null, // the background scoring's wait after a move (scoreSoon)
  describing: false, // describeTree asks about the tree's moves
  busy: false,     // the engine searches for a seat: the board takes no click meanwhile
  busyFor: "",     // for whom it searches ("player 2"), said under the board
  busyJob: null,   // that search's request: {id, abort}
  token: 0,        // counts renders, so stale answers are dropped
  shown: 0,        // the render whose position is shown
  record: null,    // the record exported last (for the copy button)
};

function showError(msg) { $("error").textContent = msg || ""; }

function params(extra) {
  const p = new URLSearchParams({ game: S.game });
  if (S.fen !== null) p.set("fen", S.fen); else if (S.setup) p.set("setup", S.setup);
  for (const [k, v] of Object.entries(extra || {})) if (v !== null && v !== undefined) p.set(k, v);
  return p;
}

function getJson(route, extra) {
  return transport.getJson(route, params(extra));
}
