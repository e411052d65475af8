// The page of `pychess-rs gui`: it draws what the server says and sends the player's clicks.
// Every chess answer (legal moves, SAN, check, the result) comes from the server.
"use strict";

const token = document.querySelector('meta[name="pychess-rs-token"]').content;
const FILES = "abcdefgh";
const $ = (id) => document.getElementById(id);

let config = null;   // levels and piece images
let state = null;    // the game as the server last described it
let selected = null; // the square of the piece picked up, a pocket piece's letter ("N"), or null
let pending = null;  // the promotion moves waiting for the chooser's answer
let pollTimer = null;
let drag = null;     // a piece being dragged: {from, x, y, ghost}
let dropped = null;  // the square a drag ended on, when it is the one it started from

function squareName(square) {
  return FILES[square % 8] + (Math.floor(square / 8) + 1);
}

class ApiError extends Error {
  constructor(message, body) {
    super(message);
    this.body = body;
  }
}

async function api(method, path, body) {
  const options = { method, headers: { "X-PyChess-Token": token } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new ApiError("the server does not answer (was pychess-rs gui stopped?)", {});
  }
  const type = response.headers.get("Content-Type") || "";
  if (!type.startsWith("application/json")) {
    if (!response.ok) throw new ApiError(`${response.status} ${response.statusText}`, {});
    return response;
  }
  const data = await response.json();
  if (!response.ok) throw new ApiError(data.error || `error ${response.status}`, data);
  return data;
}

function showMessage(text, isError) {
  const box = $("message");
  box.textContent = text || "";
  box.classList.toggle("error", Boolean(isError));
}

// ---- drawing --------------------------------------------------------------------------

function pieceElement(symbol) {
  if (config.format === "svg") {
    const img = document.createElement("img");
    img.className = "piece";
    img.alt = symbol;
    img.draggable = false;
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(config.pieces[symbol]);
    img.dataset.piece = symbol;
    return img;
  }
  const span = document.createElement("span");
  const white = symbol === symbol.toUpperCase();
  span.className = "piece glyph " + (white ? "white" : "black");
  // The filled glyphs for both colours, told apart by colour: outlined ones look hollow.
  span.textContent = config.pieces[symbol.toLowerCase()];
  span.dataset.piece = symbol;
  return span;
}

function buildBoard() {
  const board = $("board");
  board.textContent = "";
  const bottomWhite = state.white_at_bottom;
  for (let row = 0; row < 8; row++) {
    for (let column = 0; column < 8; column++) {
      const rank = bottomWhite ? 7 - row : row;
      const file = bottomWhite ? column : 7 - column;
      const square = rank * 8 + file;
      const div = document.createElement("div");
      div.className = "square " + ((rank + file) % 2 === 0 ? "dark" : "light");
      div.dataset.square = squareName(square);
      div.dataset.index = square;
      div.setAttribute("role", "gridcell");
      if (column === 0) {
        const label = document.createElement("span");
        label.className = "coord rank";
        label.textContent = String(rank + 1);
        div.appendChild(label);
      }
      if (row === 7) {
        const label = document.createElement("span");
        label.className = "coord file";
        label.textContent = FILES[file];
        div.appendChild(label);
      }
      div.addEventListener("click", () => {
        if (dropped === square) {
          dropped = null; // the click that ends a drag back onto its own square
          return;
        }
        clickSquare(square);
      });
      board.appendChild(div);
    }
  }
  board.dataset.orientation = bottomWhite ? "white" : "black";
}

// The legal moves of the piece on `source` (a square), or the drops of the piece in hand
// `source` (its uppercase letter, Crazyhouse).
function movesFrom(source) {
  if (typeof source === "string") return state.legal.filter((m) => m.drop && m.piece === source);
  return state.legal.filter((m) => m.from === source);
}

// The pieces in hand of each side (Crazyhouse), beside the board on that side's edge; a
// piece the player to move may drop is picked up by a click, and a square then drops it.
function renderPockets() {
  const top = state.white_at_bottom ? "black" : "white";
  const bottom = state.white_at_bottom ? "white" : "black";
  document.body.classList.toggle("with-pockets", Boolean(state.pockets));
  for (const [id, color] of [["pocket-top", top], ["pocket-bottom", bottom]]) {
    const box = $(id);
    box.textContent = "";
    box.hidden = !state.pockets;
    if (!state.pockets) continue;
    for (const [letter, count] of Object.entries(state.pockets[color])) {
      const symbol = color === "white" ? letter : letter.toLowerCase();
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pocket-piece";
      button.dataset.piece = symbol;
      button.title = `${count} in hand`;
      button.appendChild(pieceElement(symbol));
      const badge = document.createElement("span");
      badge.className = "count";
      badge.textContent = String(count);
      button.appendChild(badge);
      const droppable = color === state.turn && movesFrom(letter).length > 0;
      button.disabled = !droppable || Boolean(state.ending) || Boolean(pending);
      button.classList.toggle("selected", selected === letter && color === state.turn);
      button.addEventListener("click", () => {
        selected = selected === letter ? null : letter;
        render();
      });
      box.appendChild(button);
    }
  }
}

function render() {
  const orientation = state.white_at_bottom ? "white" : "black";
  if ($("board").dataset.orientation !== orientation || !$("board").children.length) buildBoard();
  const targets = new Map();
  if (selected !== null) {
    for (const m of movesFrom(selected)) targets.set(m.to, m.capture);
  }
  for (const div of $("board").children) {
    const square = Number(div.dataset.index);
    for (const old of div.querySelectorAll(".piece, .dot, .ring")) old.remove();
    const symbol = state.pieces[square];
    if (symbol) div.appendChild(pieceElement(symbol));
    const last = state.last_move;
    div.classList.toggle("last-move", Boolean(last && (last.from === square || last.to === square)));
    div.classList.toggle("check", state.check === square);
    div.classList.toggle("selected", selected === square);
    if (targets.has(square)) {
      const mark = document.createElement("div");
      mark.className = targets.get(square) ? "ring" : "dot";
      div.appendChild(mark);
    }
  }

  renderPockets();

  const names = state.players;
  $("players").textContent = `White: ${names.white.name} \u2014 Black: ${names.black.name}`;
  const top = state.white_at_bottom ? "black" : "white";
  const bottom = state.white_at_bottom ? "white" : "black";
  for (const [id, color] of [["player-top", top], ["player-bottom", bottom]]) {
    const label = $(id);
    label.textContent = `${color === "white" ? "White" : "Black"}: ${names[color].name}`;
    label.classList.toggle("to-move", !state.ending && state.turn === color);
  }

  const status = $("status");
  status.textContent = state.status;
  status.classList.toggle("check", state.check !== null && !state.ending);
  const result = $("result");
  result.hidden = !state.ending;
  result.textContent = state.ending ? state.ending.announcement : "";

  const offer = $("offer");
  offer.hidden = !state.offer;
  if (state.offer) {
    const by = state.offer === "white" ? "White" : "Black";
    const to = state.offer === "white" ? "Black" : "White";
    $("offer-text").textContent = `${by} offers a draw. ${to}, do you accept?`;
  }

  renderMoves();
  const playing = !state.ending;
  const humanTurn = playing && !state.thinking && !state.offer && names[state.turn].human;
  $("offer-draw").disabled = !humanTurn;
  $("claim-draw").disabled = !humanTurn;
  $("resign").disabled = !playing || !(names.white.human || names.black.human);
  $("undo").disabled = state.moves.length === 0 || !(names.white.human || names.black.human);
  $("move-input").disabled = !humanTurn;
  $("claim-draw").title = state.claim.now
    ? `a draw may be claimed now: ${state.claim.rule}`
    : state.claim.by_moving.length
      ? `a draw may be claimed with ${state.claim.by_moving.join(" or ")}`
      : "no draw to claim now (press to see why)";
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  let number = state.first_move_number;
  let white = state.first_turn === "white";
  let row = null;
  state.moves.forEach((san, i) => {
    if (white || row === null) {
      row = document.createElement("li");
      const n = document.createElement("span");
      n.className = "number";
      n.textContent = white ? `${number}.` : `${number}...`;
      row.appendChild(n);
      if (!white) row.appendChild(document.createElement("span"));
      list.appendChild(row);
    }
    const span = document.createElement("span");
    span.className = "move" + (i === state.moves.length - 1 ? " current" : "");
    span.textContent = san;
    row.appendChild(span);
    if (!white) number += 1;
    white = !white;
  });
  list.scrollTop = list.scrollHeight;
}

// ---- the game ---------------------------------------------------------------------------

function setState(next) {
  const changed = !state || state.id !== next.id || state.version !== next.version;
  state = next;
  if (changed) selected = null;
  const url = new URL(window.location.href);
  if (url.searchParams.get("game") !== state.id) {
    url.searchParams.set("game", state.id);
    history.replaceState(null, "", url);
  }
  render();
  schedulePoll();
}

function schedulePoll() {
  clearTimeout(pollTimer);
  if (state && state.thinking) pollTimer = setTimeout(poll, 200);
}

async function poll() {
  try {
    const next = await api("GET", `/api/games/${state.id}`);
    if (next.version !== state.version) {
      setState(next);
      if (next.message) showMessage(next.message);
    } else {
      schedulePoll();
    }
  } catch (e) {
    showMessage(e.message, true);
    pollTimer = setTimeout(poll, 1000);
  }
}

// Runs one request that answers with the game, and shows its message or its error.
async function act(method, suffix, body) {
  try {
    const next = await api(method, `/api/games/${state.id}${suffix}`, body);
    setState(next);
    showMessage(next.message);
    return true;
  } catch (e) {
    showMessage(e.message, true);
    return e;
  }
}

// Plays the move from `selected` to `square` if there is one (asking for the promotion
// piece); returns whether there was.
function moveTo(square) {
  if (selected === null) return false;
  const moves = movesFrom(selected).filter((m) => m.to === square);
  if (!moves.length) return false;
  if (moves.length > 1 || moves[0].promotion) {
    choosePromotion(moves);
  } else {
    play(moves[0].uci);
  }
  return true;
}

function clickSquare(square) {
  if (!state || state.ending || pending) return;
  if (moveTo(square)) return;
  selected = selected !== square && movesFrom(square).length ? square : null;
  render();
}

// ---- drag and drop (clicks do the same with two clicks) -----------------------------------

function squareAt(x, y) {
  const element = document.elementFromPoint(x, y);
  const div = element && element.closest("#board .square");
  return div ? Number(div.dataset.index) : null;
}

function startDrag(event) {
  if (!state || state.ending || pending || event.button !== 0) return;
  const square = squareAt(event.clientX, event.clientY);
  if (square === null || !movesFrom(square).length) return;
  drag = { from: square, x: event.clientX, y: event.clientY, ghost: null };
}

function moveDrag(event) {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    selected = drag.from;
    render();
    drag.ghost = pieceElement(state.pieces[drag.from]);
    drag.ghost.classList.add("ghost");
    const size = $("board").getBoundingClientRect().width / 8;
    drag.ghost.style.width = `${size}px`;
    drag.ghost.style.height = `${size}px`;
    document.body.appendChild(drag.ghost);
    const origin = $("board").querySelector(`.square[data-index="${drag.from}"] .piece`);
    if (origin) origin.classList.add("dragged");
  }
  const size = drag.ghost.getBoundingClientRect().width;
  drag.ghost.style.left = `${event.clientX - size / 2}px`;
  drag.ghost.style.top = `${event.clientY - size / 2}px`;
}

function endDrag(event) {
  if (!drag) return;
  const { from, ghost } = drag;
  drag = null;
  if (!ghost) return; // a click: the click handler takes it
  ghost.remove();
  const square = squareAt(event.clientX, event.clientY);
  if (square === from) dropped = from;
  if (square === null || square === from || !moveTo(square)) render();
}

async function play(uci) {
  selected = null;
  await act("POST", "/move", { move: uci });
}

function choosePromotion(moves) {
  pending = moves;
  const choices = $("promotion-choices");
  choices.textContent = "";
  const white = state.turn === "white";
  for (const letter of ["q", "r", "b", "n"]) {
    const move = moves.find((m) => (m.promotion || m.uci.slice(4)) === letter);
    if (!move) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.dataset.promotion = letter;
    button.title = { q: "queen", r: "rook", b: "bishop", n: "knight" }[letter];
    button.appendChild(pieceElement(white ? letter.toUpperCase() : letter));
    button.addEventListener("click", () => {
      closePromotion();
      play(move.uci);
    });
    choices.appendChild(button);
  }
  $("promotion").hidden = false;
}

function closePromotion() {
  pending = null;
  $("promotion").hidden = true;
}

function cancelPromotion() {
  closePromotion();
  selected = null;
  render();
}

async function newGame(settings) {
  const next = await api("POST", "/api/games", settings);
  selected = null;
  setState(next);
  showMessage("");
}

function openNewDialog(focusFen) {
  $("new-error").textContent = "";
  if (state) {
    // The same players as in the game on the board, unless changed here.
    const players = state.players;
    $("variant").value = state.variant || "chess";
    $("opponent").value = !players.white.human
      ? "engine-white"
      : !players.black.human ? "engine-black" : "human";
  }
  $("new-dialog").showModal();
  if (focusFen === true) $("fen").focus();
}

async function startFromDialog(event) {
  event.preventDefault();
  const opponent = $("opponent").value;
  const settings = {
    white: opponent === "engine-white" ? "engine" : "human",
    black: opponent === "engine-black" ? "engine" : "human",
    level: $("level").value,
    variant: $("variant").value,
  };
  const fen = $("fen").value.trim();
  if (fen) settings.fen = fen;
  try {
    await newGame(settings);
    $("new-dialog").close();
  } catch (e) {
    $("new-error").textContent = e.message;
  }
}

async function downloadPgn() {
  try {
    const response = await api("GET", `/api/games/${state.id}/pgn`);
    const blob = new Blob([await response.text()], { type: "application/x-chess-pgn" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `pychess-rs-${state.id}.pgn`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  } catch (e) {
    showMessage(e.message, true);
  }
}

let resignTimer = null;
function resign() {
  const button = $("resign");
  if (!button.classList.contains("confirm")) {
    button.classList.add("confirm");
    button.textContent = "Really resign?";
    resignTimer = setTimeout(resetResign, 4000);
    return;
  }
  resetResign();
  act("POST", "/resign", {});
}

function resetResign() {
  clearTimeout(resignTimer);
  const button = $("resign");
  button.classList.remove("confirm");
  button.textContent = "Resign";
}

async function submitMove(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text || !state) return;
  const outcome = await act("POST", "/move", { move: text });
  if (outcome === true) {
    input.value = "";
  } else if (outcome.body && outcome.body.promotion) {
    // A bare promotion (e8): ask which piece, as for a click.
    const moves = state.legal.filter((m) => outcome.body.promotion.includes(m.uci));
    if (moves.length) choosePromotion(moves);
    input.value = "";
  }
}

async function claimDraw() {
  const input = $("move-input");
  const text = input.value.trim();
  const outcome = await act("POST", "/claim", text ? { move: text } : {});
  if (outcome === true) input.value = "";
}

async function start() {
  try {
    config = await api("GET", "/api/config");
  } catch (e) {
    showMessage(e.message, true);
    return;
  }
  for (const level of config.levels) {
    const option = document.createElement("option");
    option.value = level.value;
    option.textContent = level.name;
    $("level").appendChild(option);
  }
  $("level").value = "3";
  for (const variant of config.variants || []) {
    const option = document.createElement("option");
    option.value = variant.value;
    option.textContent = variant.name;
    $("variant").appendChild(option);
  }
  $("variant").value = "chess";
  $("board").dataset.pieces = config.format;

  $("board").addEventListener("pointerdown", startDrag);
  document.addEventListener("pointermove", moveDrag);
  document.addEventListener("pointerup", endDrag);
  document.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) drag.ghost.remove();
    drag = null;
    if (state) render();
  });
  $("new-game").addEventListener("click", () => openNewDialog(false));
  $("load-fen").addEventListener("click", () => openNewDialog(true));
  $("new-cancel").addEventListener("click", () => $("new-dialog").close());
  $("new-form").addEventListener("submit", startFromDialog);
  $("flip").addEventListener("click", () => act("POST", "/flip"));
  $("undo").addEventListener("click", () => act("POST", "/undo"));
  $("offer-draw").addEventListener("click", () => act("POST", "/draw"));
  $("accept-draw").addEventListener("click", () => act("POST", "/draw/answer", { accept: true }));
  $("decline-draw").addEventListener("click", () => act("POST", "/draw/answer", { accept: false }));
  $("claim-draw").addEventListener("click", claimDraw);
  $("resign").addEventListener("click", resign);
  $("download-pgn").addEventListener("click", downloadPgn);
  $("move-form").addEventListener("submit", submitMove);
  $("promotion-cancel").addEventListener("click", cancelPromotion);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && pending) cancelPromotion();
  });

  const id = new URL(window.location.href).searchParams.get("game");
  try {
    if (id) {
      try {
        setState(await api("GET", `/api/games/${encodeURIComponent(id)}`));
        if (state.message) showMessage(state.message);
        return;
      } catch (e) {
        showMessage(`${e.message}; a new game was started`, true);
      }
    }
    await newGame({ white: "human", black: "engine", level: "3" });
    if (id) showMessage(`game ${id} is gone (the server was restarted?): a new game was started`, true);
  } catch (e) {
    showMessage(e.message, true);
  }
}

start();
