// Translations: English and German. t(key, params) looks a string up in the current language;
// the choice is kept in localStorage. Card and master-card texts follow the rulebooks' wording.

const KEY = "torres.lang";
const listeners = new Set();

const EN = {
  app_title: "Torres",
  your_turn_title: "(Your turn) Torres",
  nav_home: "Home", nav_rules: "Rules", nav_replay: "Replay a record",
  loading: "Loading…", not_found: "No such game.", error: "Something went wrong: {msg}",
  new_game: "New game", players: "Players", edition: "Edition", card_mode: "Card decks",
  card_mode_default: "as the edition says", card_mode_own: "own deck per player", card_mode_common: "one common deck",
  master: "Master version", hotseat: "Hot-seat: all humans play at this screen", bot_speed: "Bot speed",
  seat: "Seat {n}", human: "Human", bot: "Bot", name: "Name", level: "Level", create: "Start the game",
  creating: "Starting…",
  speed_slow: "slow", speed_normal: "normal", speed_fast: "fast", speed_instant: "instant",
  level_beginner: "beginner", level_casual: "casual", level_strong: "strong", level_expert: "expert", level_master: "master",
  my_games: "My games", no_games: "No games on this browser yet.", in_progress: "In progress",
  finished: "Finished", turn_of: "{name} to play", your_turn: "Your turn", won: "{names} won",
  open: "Open", watch_replay: "Replay", forget: "Forget", round_phase: "phase {phase}, round {round}",
  upload_record: "Replay a record file", upload: "Show replay", rules_link: "How to play (rules)",
  intro: "Build castles, climb them with your knights and score area × level three times. Play against bots, with friends at this screen, or online by link.",
  invites: "Invite players", invite_for: "Link for {name} (seat {n})", spectator_link: "Spectator link",
  copy: "Copy", copied: "Copied!", claimed: "joined", waiting: "waiting",
  joining: "Joining the game…", join_failed: "Could not join: {msg}",
  spectator: "You are watching this game.",
  conn_lost: "Connection lost, reconnecting…", connecting: "Connecting…",
  setup_castle: "Place a starting castle", setup_start: "Place a first knight on a castle",
  setup_king: "Place the king on a castle", stage_keep: "Keep one of the drawn cards",
  stage_king_move: "Lowest score: move the king (or leave it)", stage_choose_first: "Lowest score: name the next start player",
  stage_over: "Game over", stage_turn: "Turn",
  ap_left: "{n} action points left", ap: "AP", phase: "Phase {n}/3", round: "Round {n}/{m}", setup: "Setup",
  to_play: "{name} to play", you_to_play: "Your turn, {name}", waiting_for: "Waiting for {name}…",
  turn_stack: "This turn's stack", no_stack: "none taken yet", stacks_left: "Stacks left", blocks: "{n} blocks",
  supply: "Supply: {n} blocks", deck: "deck", common_deck: "Common deck: {n} cards", hand: "hand",
  your_cards: "Your cards", no_cards: "No cards in hand.", new_card: "new", drawn_cards: "Drawn cards",
  master_card: "Master card", score: "score", knights: "knights", cards: "cards", stacks: "stacks",
  scoring_track: "Scoring track", if_now: "If the phase ended now", points_now: "+{n} now",
  log: "Game log", no_log: "Nothing has happened yet.",
  btn_undo: "Undo", btn_hint: "Hint", btn_end: "End turn", btn_buy: "Buy a card (1 AP)", btn_score: "Score 1 point (1 AP)",
  btn_stack: "Take stack of {n}", btn_king_stay: "Leave the king", btn_first: "{name} starts",
  btn_send: "Send", notation_placeholder: "type an action, e.g. c5-c6", btn_notify: "Notify me on my turn",
  btn_scorings: "Scorings", btn_close: "Close", btn_cancel: "Cancel", btn_play: "Play {card}",
  hint_title: "Hint", hint_wait: "Thinking…", hint_first: "now:",
  keep_title: "You drew these cards: keep one", keep_rest: "The others go back", keep_top: "on top", keep_bottom: "at the bottom",
  btn_keep: "Keep {card}", keep_note: "Cards are listed top card first.",
  card_none_legal: "This card cannot be played now.", card_fresh: "Bought this turn: playable from your next turn.",
  card_pick_knight: "Click one of the lit squares on the board.", card_pick_target: "Now click where to go.",
  lift_from: "Take the block from", lift_from_turn: "this turn's stack", lift_from_stack: "a stack of {n}",
  choose_action: "What do you want to do here?", move_cost: "{n} AP",
  opt_block: "Build a block here (1 AP)", opt_knight: "Add a knight here (2 AP)", opt_start: "Place your knight here",
  opt_king: "Put the king here", opt_castle: "Found a castle here",
  rejected: "Not allowed: {msg}",
  handover_title: "Pass to {name}", handover_ready: "{name}: click when ready", handover_note: "The other players' cards are hidden.",
  scoring_title: "Scoring after phase {n}", castle_col: "Castle", castles_total: "Castles", king_bonus: "King's bonus",
  master_bonus: "Master bonus", total: "Score", final_ranking: "Final ranking", place: "Place", winner: "winner",
  no_castle_scored: "No knight on any castle.", king_castle: "king's castle",
  replay: "Replay", replay_of: "Replay of game {id}", frame: "Action {i} of {n}", download_record: "Download record",
  replay_start: "Start", replay_end: "End", replay_play: "Play", replay_pause: "Pause", jump_scoring: "Scoring {n}",
  upload_title: "Replay a game record", upload_help: "Choose a Torres game record (JSON) to step through it.",
  upload_failed: "This record does not replay: {msg}", replay_not_ready: "The replay is available once the game is over.",
  rules_title: "How to play", back_home: "Back to the games",
  lang: "Language", language_name: "English",
  you: "you", bot_level: "bot, {level}", online: "online", offline: "offline",
  game_over_ranking: "The game is over.",
  seat_colours: ["red", "blue", "yellow", "green"],
  default_human: "Player {n}", default_bot: "Bot {n} ({level})",
  log_start: "{name} placed a first knight on {sq}", log_king_setup: "{name} placed the king on {sq}",
  log_king: "{name} moved the king to {sq}", log_king_stay: "{name} left the king where it is",
  log_castle: "{name} founded a castle on {sq}", log_first: "{name} chose {other} to start",
  log_knight: "{name} added a knight on {sq}", log_move: "{name} moved a knight {from}→{to}",
  log_stack: "{name} took a stack of {n}", log_block: "{name} built a block on {sq}",
  log_buy: "{name} bought a card", log_keep: "{name} kept a card", log_keep_own: "{name} kept {card}",
  log_score: "{name} moved one step on the scoring track", log_end: "{name} ended the turn",
  log_play: "{name} played {card}", log_play_sq: "{name} played {card} on {sq}",
  log_play_move: "{name} played {card}: {from}→{to}", log_undo: "{name} took back an action",
  log_scoring: "Scoring after phase {n}",
  someone: "Someone",
  edition_riogrande: "Rio Grande", edition_ravensburger: "Ravensburger", edition_hebrew: "Hebrew",
  edition_idw: "IDW", edition_yucata: "yucata.de",
};

const DE = {
  app_title: "Torres",
  your_turn_title: "(Du bist dran) Torres",
  nav_home: "Start", nav_rules: "Regeln", nav_replay: "Partie ansehen",
  loading: "Lädt…", not_found: "Dieses Spiel gibt es nicht.", error: "Etwas ist schiefgegangen: {msg}",
  new_game: "Neues Spiel", players: "Spieler", edition: "Ausgabe", card_mode: "Kartenstapel",
  card_mode_default: "wie in der Ausgabe", card_mode_own: "eigener Stapel je Spieler", card_mode_common: "ein gemeinsamer Stapel",
  master: "Meister-Version", hotseat: "Am selben Bildschirm: alle Menschen spielen hier", bot_speed: "Tempo der Bots",
  seat: "Platz {n}", human: "Mensch", bot: "Bot", name: "Name", level: "Stärke", create: "Spiel beginnen",
  creating: "Startet…",
  speed_slow: "langsam", speed_normal: "normal", speed_fast: "schnell", speed_instant: "sofort",
  level_beginner: "Anfänger", level_casual: "Gelegenheit", level_strong: "stark", level_expert: "Experte", level_master: "Meister",
  my_games: "Meine Spiele", no_games: "Noch keine Spiele in diesem Browser.", in_progress: "Laufend",
  finished: "Beendet", turn_of: "{name} ist am Zug", your_turn: "Du bist am Zug", won: "{names} hat gewonnen",
  open: "Öffnen", watch_replay: "Ansehen", forget: "Entfernen", round_phase: "Phase {phase}, Runde {round}",
  upload_record: "Eine Spielaufzeichnung ansehen", upload: "Ansehen", rules_link: "Spielregeln",
  intro: "Baue Burgen, erklimme sie mit deinen Rittern und werte dreimal Grundfläche × Ebene. Spiele gegen Bots, mit Freunden am selben Bildschirm oder online per Link.",
  invites: "Mitspieler einladen", invite_for: "Link für {name} (Platz {n})", spectator_link: "Link für Zuschauer",
  copy: "Kopieren", copied: "Kopiert!", claimed: "dabei", waiting: "wartet",
  joining: "Trete dem Spiel bei…", join_failed: "Beitritt fehlgeschlagen: {msg}",
  spectator: "Du schaust bei diesem Spiel zu.",
  conn_lost: "Verbindung unterbrochen, verbinde neu…", connecting: "Verbinde…",
  setup_castle: "Eine Startburg setzen", setup_start: "Einen ersten Ritter auf eine Burg setzen",
  setup_king: "Den König auf eine Burg setzen", stage_keep: "Eine der gezogenen Karten behalten",
  stage_king_move: "Wenigste Punkte: den König versetzen (oder stehen lassen)", stage_choose_first: "Wenigste Punkte: den nächsten Startspieler bestimmen",
  stage_over: "Spielende", stage_turn: "Zug",
  ap_left: "noch {n} Aktionspunkte", ap: "AP", phase: "Phase {n}/3", round: "Runde {n}/{m}", setup: "Aufbau",
  to_play: "{name} ist am Zug", you_to_play: "Du bist am Zug, {name}", waiting_for: "Warte auf {name}…",
  turn_stack: "Turm in diesem Zug", no_stack: "noch keiner genommen", stacks_left: "Übrige Vorratstürme", blocks: "{n} Bausteine",
  supply: "Vorrat: {n} Bausteine", deck: "Stapel", common_deck: "Gemeinsamer Stapel: {n} Karten", hand: "Hand",
  your_cards: "Deine Karten", no_cards: "Keine Karten auf der Hand.", new_card: "neu", drawn_cards: "Gezogene Karten",
  master_card: "Meister-Karte", score: "Punkte", knights: "Ritter", cards: "Karten", stacks: "Türme",
  scoring_track: "Wertungsleiste", if_now: "Wenn die Phase jetzt endete", points_now: "+{n} jetzt",
  log: "Spielverlauf", no_log: "Noch ist nichts geschehen.",
  btn_undo: "Zurücknehmen", btn_hint: "Tipp", btn_end: "Zug beenden", btn_buy: "Karte kaufen (1 AP)", btn_score: "1 Punkt vorziehen (1 AP)",
  btn_stack: "Turm mit {n} nehmen", btn_king_stay: "König stehen lassen", btn_first: "{name} beginnt",
  btn_send: "Senden", notation_placeholder: "Aktion eintippen, z. B. c5-c6", btn_notify: "Benachrichtigen, wenn ich dran bin",
  btn_scorings: "Wertungen", btn_close: "Schließen", btn_cancel: "Abbrechen", btn_play: "{card} ausspielen",
  hint_title: "Tipp", hint_wait: "Überlege…", hint_first: "jetzt:",
  keep_title: "Du hast diese Karten gezogen: behalte eine", keep_rest: "Die anderen kommen zurück", keep_top: "oben auf den Stapel", keep_bottom: "unter den Stapel",
  btn_keep: "{card} behalten", keep_note: "Die oberste Karte steht zuerst.",
  card_none_legal: "Diese Karte kann jetzt nicht ausgespielt werden.", card_fresh: "In diesem Zug gekauft: ab deinem nächsten Zug spielbar.",
  card_pick_knight: "Klicke eines der leuchtenden Felder auf dem Spielplan.", card_pick_target: "Jetzt das Zielfeld anklicken.",
  lift_from: "Baustein nehmen von", lift_from_turn: "dem Turm dieses Zuges", lift_from_stack: "einem Turm mit {n}",
  choose_action: "Was möchtest du hier tun?", move_cost: "{n} AP",
  opt_block: "Hier einen Baustein setzen (1 AP)", opt_knight: "Hier einen Ritter einsetzen (2 AP)", opt_start: "Deinen Ritter hierhin setzen",
  opt_king: "Den König hierhin setzen", opt_castle: "Hier eine Burg gründen",
  rejected: "Nicht erlaubt: {msg}",
  handover_title: "Weitergeben an {name}", handover_ready: "{name}: klicken, wenn bereit", handover_note: "Die Karten der anderen sind verdeckt.",
  scoring_title: "Wertung nach Phase {n}", castle_col: "Burg", castles_total: "Burgen", king_bonus: "Sonderpunkte König",
  master_bonus: "Meister-Bonus", total: "Punkte", final_ranking: "Endstand", place: "Platz", winner: "Sieger",
  no_castle_scored: "Kein Ritter auf einer Burg.", king_castle: "Königsburg",
  replay: "Wiederholung", replay_of: "Wiederholung von Spiel {id}", frame: "Aktion {i} von {n}", download_record: "Aufzeichnung herunterladen",
  replay_start: "Anfang", replay_end: "Ende", replay_play: "Abspielen", replay_pause: "Pause", jump_scoring: "Wertung {n}",
  upload_title: "Eine Spielaufzeichnung ansehen", upload_help: "Wähle eine Torres-Spielaufzeichnung (JSON), um sie Schritt für Schritt anzusehen.",
  upload_failed: "Diese Aufzeichnung lässt sich nicht abspielen: {msg}", replay_not_ready: "Die Wiederholung gibt es, sobald das Spiel beendet ist.",
  rules_title: "Spielregeln", back_home: "Zurück zu den Spielen",
  lang: "Sprache", language_name: "Deutsch",
  you: "du", bot_level: "Bot, {level}", online: "online", offline: "offline",
  game_over_ranking: "Das Spiel ist zu Ende.",
  seat_colours: ["Rot", "Blau", "Gelb", "Grün"],
  default_human: "Spieler {n}", default_bot: "Bot {n} ({level})",
  log_start: "{name} setzt einen ersten Ritter auf {sq}", log_king_setup: "{name} setzt den König auf {sq}",
  log_king: "{name} versetzt den König nach {sq}", log_king_stay: "{name} lässt den König stehen",
  log_castle: "{name} gründet eine Burg auf {sq}", log_first: "{name} bestimmt {other} als Startspieler",
  log_knight: "{name} setzt einen Ritter auf {sq} ein", log_move: "{name} zieht einen Ritter {from}→{to}",
  log_stack: "{name} nimmt einen Turm mit {n}", log_block: "{name} setzt einen Baustein auf {sq}",
  log_buy: "{name} kauft eine Karte", log_keep: "{name} behält eine Karte", log_keep_own: "{name} behält {card}",
  log_score: "{name} zieht auf der Wertungsleiste einen Schritt vor", log_end: "{name} beendet den Zug",
  log_play: "{name} spielt {card}", log_play_sq: "{name} spielt {card} auf {sq}",
  log_play_move: "{name} spielt {card}: {from}→{to}", log_undo: "{name} nimmt eine Aktion zurück",
  log_scoring: "Wertung nach Phase {n}",
  someone: "Jemand",
  edition_riogrande: "Rio Grande", edition_ravensburger: "Ravensburger", edition_hebrew: "Hebräisch",
  edition_idw: "IDW", edition_yucata: "yucata.de",
};

/** Card names and texts (English: the Rio Grande wording of torres/engine/cards.py; German: the Ravensburger rulebook). */
export const CARDS = {
  en: {
    climb: ["Climb", "Jump one of your knights two levels up to an empty orthogonally adjacent space."],
    lift: ["Lift", "Place a tower block from your supply under one of your knights."],
    build: ["Build", "Place an additional tower block from the general supply (normal rules)."],
    gate: ["Gate", "Enter an adjacent door and exit from any door of that castle, climbing any number of levels."],
    diagonal: ["Diagonal", "Move one of your knights 1 space diagonally; it may also move upward 1 level."],
    six: ["Six", "You may use 6 action points instead of 5 on this turn."],
    seven: ["Seven", "You may use 7 action points instead of 5 on this turn."],
    shift: ["Shift", "Move any empty tower block on the board to another empty space on the board."],
    redeploy: ["Redeploy", "Move one of your knights to an empty space as though you were adding a knight."],
    vault: ["Vault", "Move one of your knights past one other knight by jumping over it."],
  },
  de: {
    climb: ["Klettern", "Ein Ritter klettert einmalig zwei Ebenen nach oben auf ein freies, waagrecht oder senkrecht benachbartes Feld."],
    lift: ["Unterbauen", "Setzen Sie unter einen Ihrer Ritter einen Baustein aus Ihren eigenen Vorratstürmen."],
    build: ["Bauen", "Setzen Sie zusätzlich einen Baustein vom allgemeinen Vorrat ein (es gelten die normalen Regeln)."],
    gate: ["Tor", "Gehen Sie mit Ihrem Ritter in ein benachbartes Tor und kommen Sie aus einem beliebigen Tor dieser Burg auf ein freies Feld wieder heraus – dabei beliebig viele Ebenen nach oben."],
    diagonal: ["Diagonal", "Ziehen Sie einen Ihrer Ritter 1 Feld diagonal; er darf dabei auch 1 Ebene nach oben steigen."],
    six: ["Sechs", "Es stehen Ihnen in diesem Spielzug insgesamt 6 Aktionspunkte zur Verfügung."],
    seven: ["Sieben", "Es stehen Ihnen in diesem Spielzug insgesamt 7 Aktionspunkte zur Verfügung."],
    shift: ["Versetzen", "Versetzen Sie einen beliebigen, freien Baustein auf dem Spielplan an einen anderen freien Platz."],
    redeploy: ["Umsetzen", "Nehmen Sie einen eigenen Ritter vom Spielplan zurück und setzen Sie ihn gemäß den Einsetzregeln auf ein anderes freies Feld wieder ein."],
    vault: ["Überspringen", "Ihr Ritter überspringt in gerader Richtung einen anderen Ritter."],
  },
};

/** Master cards by index (view.master_card): name and text. */
export const MASTERS = {
  en: [
    ["Different levels", "All your knights on different levels after phase 3: 40 points."],
    ["Same level", "All your knights on the same level after phase 3: 50 points."],
    ["In a row", "All your knights in a row (one rank or file) after phase 3: 50 points."],
    ["Square", "4 of your knights on the corners of a square after phase 3: 50 points."],
    ["Border", "Each knight on a border square: 2/5/10 after phase 1/2/3; the most such knights: +2/5/10."],
    ["Castles", "Knights on exactly 4/5/6 castles after phase 1/2/3: 5/15/30 points."],
    ["Diagonals", "Each knight on a main diagonal: 2/5/10 after phase 1/2/3; the most such knights: +2/5/10."],
    ["Neighbours", "All your knights on neighbouring squares after phase 3: 40 points."],
  ],
  de: [
    ["Verschiedene Ebenen", "Alle Ihre Ritter auf verschiedenen Ebenen nach Phase 3: 40 Punkte."],
    ["Gleiche Ebene", "Alle Ihre Ritter auf derselben Ebene nach Phase 3: 50 Punkte."],
    ["In einer Reihe", "Alle Ihre Ritter in einer Reihe (waagrecht oder senkrecht) nach Phase 3: 50 Punkte."],
    ["Quadrat", "4 Ihrer Ritter auf den Ecken eines Quadrats nach Phase 3: 50 Punkte."],
    ["Rand", "Jeder Ritter auf einem Randfeld: 2/5/10 nach Phase 1/2/3; die meisten solchen Ritter: +2/5/10."],
    ["Burgen", "Ritter auf genau 4/5/6 Burgen nach Phase 1/2/3: 5/15/30 Punkte."],
    ["Diagonalen", "Jeder Ritter auf einer Hauptdiagonale: 2/5/10 nach Phase 1/2/3; die meisten solchen Ritter: +2/5/10."],
    ["Nachbarn", "Alle Ihre Ritter auf benachbarten Feldern nach Phase 3: 40 Punkte."],
  ],
};

const STRINGS = { en: EN, de: DE };

function initial() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved === "en" || saved === "de") return saved;
  } catch (e) { /* storage may be blocked */ }
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

let lang = initial();

export function getLang() { return lang; }

export function setLang(value) {
  if (value !== "en" && value !== "de") return;
  lang = value;
  try { localStorage.setItem(KEY, value); } catch (e) { /* ignore */ }
  document.documentElement.lang = value;
  for (const fn of listeners) fn(value);
}

export function onLangChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** The string `key` in the current language with {name} placeholders filled from `params`. */
export function t(key, params = {}) {
  let s = STRINGS[lang][key];
  if (s === undefined) s = EN[key];
  if (s === undefined) return key;
  if (typeof s !== "string") return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

export function cardName(card) { return (CARDS[lang][card] || [card])[0]; }
export function cardText(card) { return (CARDS[lang][card] || [card, ""])[1]; }
export function masterName(i) { return (MASTERS[lang][i] || ["?"])[0]; }
export function masterText(i) { return (MASTERS[lang][i] || ["", ""])[1]; }
export function editionName(e) { const s = t("edition_" + e); return s.startsWith("edition_") ? e : s; }
export function levelName(l) { const s = t("level_" + l); return s.startsWith("level_") ? l : s; }
export function speedName(s) { const v = t("speed_" + s); return v.startsWith("speed_") ? s : v; }
