// The remote transport: a game on a `pegs serve` server, over its WebSocket.
// See transport.js for the interface, and the server's protocol page in the docs.
//
// The page is opened from a join link, <server>/play/<game id>#token=<token>: the game id
// comes from the address, the token from its fragment (which the browser never sends to
// the server). The server deals, judges and runs the bots; this transport only turns its
// messages into updates and the person's moves into messages. It cannot start games or
// study positions (can.setup and can.study are false). When the connection drops it
// reconnects by itself, to its own origin, and joins again with the same token, unless the
// server refused it (close codes 1008 and 4001). Behind a load balancer in front of several
// servers on one database that may be another server: every one of them serves every game.
// A move sent just before a drop is answered once the new connection's position comes: made if
// that position is past it, else "did not reach the server" (nothing is sent twice).
// At the end, "Play again" asks the server for the next game of the same seats, whose links
// are the same tokens under the next game's id; a spectator's page follows it by itself.

import { Listeners } from "./listeners.js";

const DO_NOT_RECONNECT = [1008, 4001];
const MOVE_LIMIT = 200;
const NEXT_POLL_MS = 2000;

export class RemoteTransport {
  /** @param {{ version?: string }} options  from the server's config.json */
  constructor({ version = "" } = {}) {
    this.version = version;
    this.kind = "remote";
    this.can = { setup: false, study: false };
    this.updates = new Listeners();
    this.notices = new Listeners();
    this.game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
    this.token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}/api/games/${encodeURIComponent(this.game)}/ws`;
    this.welcome = null;
    this.latest = null;
    this.pending = null;
    this.leaving = false;
    this.rejoined = false;
    this.delay = 200;
    this.watchingForNext = false;
  }

  set botDelay(ms) {
    // the server paces its own bots
  }

  onUpdate(listener) {
    this.updates.add(listener);
    // A listener added after the first update (the page is built once connected) gets
    // the latest one as soon as the page has finished setting itself up.
    if (this.latest) setTimeout(() => listener(this.latest), 0);
  }

  onNotice(listener) {
    this.notices.add(listener);
  }

  /** Join the game; resolves with a Hello once the server has sent the position. */
  connect() {
    if (!this.token) {
      return Promise.reject(new Error("this link has no token: open the link you were sent"));
    }
    return new Promise((resolve, reject) => {
      this.ready = { resolve, reject };
      this.open();
    });
  }

  open() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: "join", token: this.token, board: true }));
    socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    socket.onclose = (event) => this.closed(event.code);
  }

  receive(message) {
    if (message.type === "welcome") {
      if (this.welcome) this.notices.emit({ level: "info", text: "Reconnected to the server: the game goes on." });
      this.rejoined = Boolean(this.welcome);
      this.welcome = message;
      this.delay = 200;
    } else if (message.type === "state") {
      this.latest = this.update(message);
      if (this.latest.next === "over") this.watchForNext();
      if (this.ready) {
        this.ready.resolve(this.hello());
        this.ready = null;
      } else {
        this.updates.emit(this.latest);
      }
      this.settle({ ok: true }, (pending) => message.ply > pending.ply);
      if (this.rejoined) {
        // A move sent before the drop that this position does not show never arrived.
        this.rejoined = false;
        this.settle({ ok: false, kind: "request", error: "The move did not reach the server; play it again." });
      }
    } else if (message.type === "illegal") {
      const { explanation } = message;
      this.settle({ ok: false, kind: "illegal", move: message.move, verdict: explanation, error: explanation.reason });
    } else if (message.type === "error") {
      if (this.ready) this.notices.emit({ level: "error", text: message.message });
      const kind = message.code === "ambiguous" || message.code === "notation" ? message.code : "request";
      this.settle({ ok: false, kind, error: message.message, candidates: message.candidates || [] });
    }
  }

  /** Answer the move waiting for one, if ``when`` (given the pending move) says so. */
  settle(answer, when = () => true) {
    if (this.pending && when(this.pending)) {
      this.pending.resolve(answer);
      this.pending = null;
    }
  }

  closed(code) {
    // A move sent before a drop waits for the next connection's position, which says whether it arrived.
    if (this.leaving || DO_NOT_RECONNECT.includes(code)) {
      this.settle({ ok: false, kind: "request", error: "The connection to the server was lost." });
    }
    if (this.leaving) return;
    if (DO_NOT_RECONNECT.includes(code)) {
      const text = code === 4001
        ? "This seat was opened in another window or device; this one has stopped following the game."
        : "The server refused this link.";
      if (this.ready) this.ready.reject(new Error(text));
      this.notices.emit({ level: "error", text, fatal: true });
      return;
    }
    this.notices.emit({ level: "info", text: "The connection to the server was lost; reconnecting…" });
    const wait = this.delay * (1 + Math.random());
    this.delay = Math.min(this.delay * 2, 3000);
    setTimeout(() => this.open(), wait);
  }

  hello() {
    const { rules, players } = this.welcome;
    return {
      version: this.version,
      presets: { [rules]: { players: [players], rules: {} } }, // the game's own; nothing to set up
      switches: [],
      bots: [],
      rulings: {},
      limits: { position: 0, move: MOVE_LIMIT },
    };
  }

  /** A server ``state`` message as the page's Update (see transport.js). */
  update(message) {
    const seen = message.view || message.public;
    const seats = this.welcome ? this.welcome.seats : [];
    const seat = this.welcome ? this.welcome.seat : null;
    const winner = seen.winner;
    return {
      ok: true,
      type: "update",
      seat,
      seats,
      view: message.view || null,
      public: {
        players: seen.pegs.length,
        preset: seen.rules.name,
        ply: seen.ply,
        turn: seen.turn,
        team: seen.turn % 2,
        dealer: seen.dealer,
        winner,
        hand_sizes: seen.hand_sizes,
        draw_pile_size: seen.draw_pile_size,
        discard_top: seen.discard_pile.length ? seen.discard_pile[seen.discard_pile.length - 1] : null,
      },
      moves: message.moves,
      events: message.events || { format: 1, type: "events", seat, events: [] },
      svg: message.board,
      next: winner !== null ? "over" : seats[seen.turn] === "human" ? "human" : "bot",
      last_move: message.move,
      thought_ms: null,
    };
  }

  play(text) {
    if (!this.latest || !this.socket || this.socket.readyState !== WebSocket.OPEN) {
      return Promise.resolve({ ok: false, kind: "request", error: "Not connected to the server; wait a moment and try again." });
    }
    const ply = this.latest.public.ply;
    this.settle({ ok: false, kind: "request", error: "Another move was sent." });
    return new Promise((resolve) => {
      this.pending = { resolve, ply };
      this.socket.send(JSON.stringify({ type: "move", move: text, ply }));
    });
  }

  /** Start the next game of the same seats (or join it, if another seat started it). */
  async again() {
    const response = await fetch(`/api/games/${encodeURIComponent(this.game)}/again`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: this.token }),
    }).catch(() => null);
    const answer = response ? await response.json().catch(() => ({})) : {};
    if (!response || !response.ok) {
      const problem = (answer.problems || [])[0] || "the server could not be reached";
      this.notices.emit({ level: "error", text: `No next game: ${problem}.` });
      return;
    }
    this.goTo(answer.id);
  }

  goTo(game) {
    this.leave();
    location.assign(`/play/${encodeURIComponent(game)}#token=${encodeURIComponent(this.token)}`);
  }

  /** Once the game is over, ask now and then whether a seat started the next one. */
  async watchForNext() {
    if (this.watchingForNext) return;
    this.watchingForNext = true;
    while (!this.leaving) {
      const response = await fetch(`/api/games/${encodeURIComponent(this.game)}`).catch(() => null);
      const summary = response && response.ok ? await response.json().catch(() => null) : null;
      if (summary && summary.next) {
        if (this.welcome && this.welcome.seat === null) this.goTo(summary.next);
        else this.notices.emit({ level: "info", text: "Another seat started the next game: press Play again to join it." });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, NEXT_POLL_MS));
    }
  }

  leave() {
    this.leaving = true;
    if (this.socket) this.socket.close(1000);
    return Promise.resolve({ ok: true });
  }

  async record() {
    const response = await fetch(`/api/games/${encodeURIComponent(this.game)}/record`);
    if (!response.ok) {
      return { ok: false, kind: "request", error: "The game's record can be saved once the game is over." };
    }
    return { ok: true, ...(await response.json()) };
  }

  study() {
    return Promise.resolve({ ok: false, kind: "request", error: "A game on a server has no rules-lawyer mode." });
  }

  explain() {
    return this.study();
  }

  close() {
    this.leave();
  }
}
