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
  // what to do now, the hint and the keep choice in words, labels and names (game.js, panels.js, app.js, replay.js)
  instr_label: "What to do now",
  instr_castle: "Found a starting castle: choose a lit square on the board.",
  instr_start: "Place your first knight: choose a lit castle square on the board.",
  instr_king_setup: "Place the king: choose a lit castle square on the board.",
  instr_stack: "Take a stack to build: {list} blocks.",
  instr_move: "Click a knight to move it", instr_or: "or",
  instr_can: "You can {list}", instr_also: "; or {list}",
  ic_block: "build a block", ic_knight: "add a knight", ic_buy: "buy a card", ic_score: "score a point",
  ic_play: "play a card from your hand", ic_end: "end your turn", ic_stack_first: "take a stack first",
  instr_ap: " — {n} action points left.", instr_ap_one: " — 1 action point left.", instr_ap_none: ".",
  instr_end_only: "No action points left: end your turn.",
  instr_knight_sel: "Knight on {sq}: choose a lit square to move it there, or click another knight.",
  instr_mode_sel: "{what}: choose a lit square on the board.",
  instr_card_sel: "{card}: {what}",
  instr_keep: "Choose which drawn card to keep, and where the others go in your deck.",
  instr_king_move: "You have the lowest score: choose a castle for the king, or leave it where it is.",
  instr_choose_first: "You have the lowest score: choose who starts the next phase.",
  instr_wait: "Waiting for {name}…", instr_wait_bot: "{name} (bot) is thinking…",
  instr_watch: "You are watching: {name} to play.", instr_handover: "Pass the screen to {name}.",
  instr_over: "The game is over: {names} won.",
  then: ", then ", hint_notation: "in notation:", hint_squares: "The squares of this plan are marked on the board.",
  do_move: "move the knight {from}→{to}", do_start: "place your first knight on {sq}", do_castle: "found a castle on {sq}",
  do_king: "put the king on {sq}", do_king_stay: "leave the king where it is", do_first: "let {name} start",
  do_knight: "add a knight on {sq}", do_stack: "take the stack of {n}", do_block: "build a block on {sq}",
  do_buy: "buy a card", do_keep_any: "keep the best card you draw", do_keep: "keep {card}",
  do_keep_top: "{cards} on top of your deck", do_keep_bottom: "{cards} at the bottom of your deck",
  do_score: "score a point", do_end: "end the turn", do_play: "play {card}", do_play_sq: "play {card} on {sq}",
  do_play_move: "play {card}: {from}→{to}", do_play_lift: "play {card} under the knight on {sq}, with a block from {src}",
  and: "and",
  keep_where: "Where {card} goes", keep_chosen: "kept", keep_choose: "Keep {card}", keep_summary: "Your choice: {what}.",
  chooser_title: "Square {sq}",
  seat_kind: "Seat {n}: human or bot", seat_level: "Seat {n}: bot level", seat_name: "Seat {n}: name",
  record_file: "Game record file (JSON)", replay_prev: "Previous action", replay_next: "Next action",
  replay_frames: "Actions", forget_game: "Forget this game ({names})",
  game_heading: "Game: {names}", home_heading: "Torres: play in the browser", card_playable: "playable now",
  player_acting: "to play", replay_controls: "Replay controls", new_game_form: "New game",
  // the board (board.js, iso.js, boardkit.js)
  board_label_3d: "Board, 3D", board_label_flat: "Board, seen from above", board_actions: "Actions on the board",
  board_view: "Board view", view_3d: "3D", view_flat: "Flat", rotate: "Rotate", rotate_title: "Turn the board a quarter turn",
  board_keys: "Arrow keys: move over the squares (up: towards rank 8) · Enter or Space: act · Esc: cancel · N / P: next / previous lit square",
  sq_level: "level {n}", sq_ground: "ground (level 0)", sq_castle: "castle of area {n}", sq_king_castle: "the king's castle, area {n}",
  sq_knight: "knight of {name} ({colour})", sq_king: "the king", sq_selected: "selected", sq_selectable: "can move: select it",
  sq_hint: "hint", sq_last: "changed by the last action", sq_tip: "{sq} · level {n}",
  tgt_move: "move here", tgt_block: "build a block here", tgt_knight: "add a knight here", tgt_start: "place your knight here",
  tgt_king: "put the king here", tgt_castle: "found a castle here", tgt_card: "play {card} here",
  tgt_pick: "use {card} with this knight", tgt_choices: "{n} choices",
  mode_block: "Build a block", mode_knight: "Add a knight",
  ann_knight: "Knight on {sq} selected: {n} squares lit.", ann_mode: "{what}: {n} squares lit.", ann_none: "Selection cleared.",
  // the tutorial (tutorial.js)
  tut_title: "Tutorial: your first game", tut_home_link: "Tutorial", tut_home_text: "New to Torres? Learn it in eight short lessons on the board.",
  tut_intro: "Eight short lessons, each on a small board: you make the move, and the game tells you why it worked or did not. Then play a game against the beginner bot.",
  tut_start: "Start the first lesson", tut_continue: "Continue: {title}", tut_done: "done", tut_all: "All lessons",
  tut_lesson_of: "Lesson {n} of {m}", tut_task: "Your task", tut_reset: "Try again", tut_next: "Next lesson",
  tut_no_lesson: "No such lesson.", tut_you: "you", tut_blue: "Blue", tut_points: "if the phase ended now: you {you}, Blue {blue}",
  tut_scores: "score: you {you}, Blue {blue}", tut_ap_one: "1 action point left", tut_ready_title: "Ready for a game",
  tut_ready: "A game starts with each player putting one knight on a castle without a knight (click a lit square), then the king goes on another castle. Then each turn: take a stack, build steps next to your knights and climb them, bring new knights onto castles — big castles and the king's castle pay most — and spend the AP left on the scoring track before you click “End turn”. Click a card in your hand to see what it does.",
  tut_play_beginner: "Play a game against the beginner bot",
};

const DE = {
  app_title: "Torres",
  your_turn_title: "(Sie sind am Zug) Torres",
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
  finished: "Beendet", turn_of: "{name} ist am Zug", your_turn: "Sie sind am Zug", won: "{names} hat gewonnen",
  open: "Öffnen", watch_replay: "Ansehen", forget: "Entfernen", round_phase: "Phase {phase}, Runde {round}",
  upload_record: "Eine Spielaufzeichnung ansehen", upload: "Ansehen", rules_link: "Spielregeln",
  intro: "Bauen Sie Burgen, erklimmen Sie sie mit Ihren Rittern und werten Sie dreimal Grundfläche × Ebene. Spielen Sie gegen Bots, mit Freunden am selben Bildschirm oder online per Link.",
  invites: "Mitspieler einladen", invite_for: "Link für {name} (Platz {n})", spectator_link: "Link für Zuschauer",
  copy: "Kopieren", copied: "Kopiert!", claimed: "dabei", waiting: "wartet",
  joining: "Dem Spiel beitreten…", join_failed: "Beitritt fehlgeschlagen: {msg}",
  spectator: "Sie schauen bei diesem Spiel zu.",
  conn_lost: "Verbindung unterbrochen, verbinde neu…", connecting: "Verbinde…",
  setup_castle: "Eine Startburg setzen", setup_start: "Einen ersten Ritter auf eine Burg setzen",
  setup_king: "Den König auf eine Burg setzen", stage_keep: "Eine der gezogenen Karten behalten",
  stage_king_move: "Wenigste Punkte: den König versetzen (oder stehen lassen)", stage_choose_first: "Wenigste Punkte: den nächsten Startspieler bestimmen",
  stage_over: "Spielende", stage_turn: "Zug",
  ap_left: "noch {n} Aktionspunkte", ap: "AP", phase: "Phase {n}/3", round: "Runde {n}/{m}", setup: "Aufbau",
  to_play: "{name} ist am Zug", you_to_play: "Sie sind am Zug, {name}", waiting_for: "Warte auf {name}…",
  turn_stack: "Turm in diesem Zug", no_stack: "noch keiner genommen", stacks_left: "Übrige Vorratstürme", blocks: "{n} Bausteine",
  supply: "Vorrat: {n} Bausteine", deck: "Stapel", common_deck: "Gemeinsamer Stapel: {n} Karten", hand: "Hand",
  your_cards: "Ihre Karten", no_cards: "Keine Karten auf der Hand.", new_card: "neu", drawn_cards: "Gezogene Karten",
  master_card: "Meister-Karte", score: "Punkte", knights: "Ritter", cards: "Karten", stacks: "Türme",
  scoring_track: "Wertungsleiste", if_now: "Wenn die Phase jetzt endete", points_now: "+{n} jetzt",
  log: "Spielverlauf", no_log: "Noch ist nichts geschehen.",
  btn_undo: "Zurücknehmen", btn_hint: "Tipp", btn_end: "Zug beenden", btn_buy: "Karte kaufen (1 AP)", btn_score: "1 Punkt vorziehen (1 AP)",
  btn_stack: "Turm mit {n} nehmen", btn_king_stay: "König stehen lassen", btn_first: "{name} beginnt",
  btn_send: "Senden", notation_placeholder: "Aktion eintippen, z. B. c5-c6", btn_notify: "Benachrichtigen, wenn ich dran bin",
  btn_scorings: "Wertungen", btn_close: "Schließen", btn_cancel: "Abbrechen", btn_play: "{card} ausspielen",
  hint_title: "Tipp", hint_wait: "Überlege…", hint_first: "jetzt:",
  keep_title: "Sie haben diese Karten gezogen: Behalten Sie eine", keep_rest: "Die anderen kommen zurück", keep_top: "oben auf den Stapel", keep_bottom: "unter den Stapel",
  btn_keep: "{card} behalten", keep_note: "Die oberste Karte steht zuerst.",
  card_none_legal: "Diese Karte kann jetzt nicht ausgespielt werden.", card_fresh: "In diesem Zug gekauft: ab Ihrem nächsten Zug spielbar.",
  card_pick_knight: "Klicken Sie eines der leuchtenden Felder auf dem Spielplan an.", card_pick_target: "Jetzt das Zielfeld anklicken.",
  lift_from: "Baustein nehmen von", lift_from_turn: "dem Turm dieses Zuges", lift_from_stack: "einem Turm mit {n}",
  choose_action: "Was möchten Sie hier tun?", move_cost: "{n} AP",
  opt_block: "Hier einen Baustein setzen (1 AP)", opt_knight: "Hier einen Ritter einsetzen (2 AP)", opt_start: "Ihren Ritter hierhin setzen",
  opt_king: "Den König hierhin setzen", opt_castle: "Hier eine Burg gründen",
  rejected: "Nicht erlaubt: {msg}",
  handover_title: "Weitergeben an {name}", handover_ready: "{name}: klicken, wenn bereit", handover_note: "Die Karten der anderen sind verdeckt.",
  scoring_title: "Wertung nach Phase {n}", castle_col: "Burg", castles_total: "Burgen", king_bonus: "Sonderpunkte König",
  master_bonus: "Meister-Bonus", total: "Punkte", final_ranking: "Endstand", place: "Platz", winner: "Sieger",
  no_castle_scored: "Kein Ritter auf einer Burg.", king_castle: "Königsburg",
  replay: "Wiederholung", replay_of: "Wiederholung von Spiel {id}", frame: "Aktion {i} von {n}", download_record: "Aufzeichnung herunterladen",
  replay_start: "Anfang", replay_end: "Ende", replay_play: "Abspielen", replay_pause: "Pause", jump_scoring: "Wertung {n}",
  upload_title: "Eine Spielaufzeichnung ansehen", upload_help: "Wählen Sie eine Torres-Spielaufzeichnung (JSON), um sie Schritt für Schritt anzusehen.",
  upload_failed: "Diese Aufzeichnung lässt sich nicht abspielen: {msg}", replay_not_ready: "Die Wiederholung gibt es, sobald das Spiel beendet ist.",
  rules_title: "Spielregeln", back_home: "Zurück zu den Spielen",
  lang: "Sprache", language_name: "Deutsch",
  you: "Sie", bot_level: "Bot, {level}", online: "online", offline: "offline",
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
  // was jetzt zu tun ist, der Tipp und die Auswahl beim Behalten in Worten, Beschriftungen und Namen
  instr_label: "Was jetzt zu tun ist",
  instr_castle: "Gründen Sie eine Startburg: Wählen Sie ein leuchtendes Feld auf dem Spielplan.",
  instr_start: "Setzen Sie Ihren ersten Ritter: Wählen Sie ein leuchtendes Burgfeld auf dem Spielplan.",
  instr_king_setup: "Setzen Sie den König: Wählen Sie ein leuchtendes Burgfeld auf dem Spielplan.",
  instr_stack: "Nehmen Sie einen Turm zum Bauen: {list} Bausteine.",
  instr_move: "Klicken Sie einen Ritter an, um ihn zu ziehen", instr_or: "oder",
  instr_can: "Sie können {list}", instr_also: "; oder {list}",
  ic_block: "einen Baustein setzen", ic_knight: "einen Ritter einsetzen", ic_buy: "eine Karte kaufen",
  ic_score: "1 Punkt vorziehen", ic_play: "eine Karte ausspielen", ic_end: "den Zug beenden", ic_stack_first: "zuerst einen Turm nehmen",
  instr_ap: " – noch {n} Aktionspunkte.", instr_ap_one: " – noch 1 Aktionspunkt.", instr_ap_none: ".",
  instr_end_only: "Keine Aktionspunkte mehr: Beenden Sie Ihren Zug.",
  instr_knight_sel: "Ritter auf {sq}: Wählen Sie ein leuchtendes Feld, um ihn dorthin zu ziehen, oder klicken Sie einen anderen Ritter an.",
  instr_mode_sel: "{what}: Wählen Sie ein leuchtendes Feld auf dem Spielplan.",
  instr_card_sel: "{card}: {what}",
  instr_keep: "Wählen Sie, welche gezogene Karte Sie behalten und wohin die anderen in Ihren Stapel kommen.",
  instr_king_move: "Sie haben die wenigsten Punkte: Wählen Sie eine Burg für den König oder lassen Sie ihn stehen.",
  instr_choose_first: "Sie haben die wenigsten Punkte: Bestimmen Sie, wer die nächste Phase beginnt.",
  instr_wait: "Warten auf {name}…", instr_wait_bot: "{name} (Bot) überlegt…",
  instr_watch: "Sie schauen zu: {name} ist am Zug.", instr_handover: "Geben Sie den Bildschirm an {name} weiter.",
  instr_over: "Das Spiel ist zu Ende: {names} hat gewonnen.",
  then: ", dann ", hint_notation: "in Notation:", hint_squares: "Die Felder dieses Plans sind auf dem Spielplan markiert.",
  do_move: "den Ritter {from}→{to} ziehen", do_start: "den ersten Ritter auf {sq} setzen", do_castle: "eine Burg auf {sq} gründen",
  do_king: "den König auf {sq} setzen", do_king_stay: "den König stehen lassen", do_first: "{name} beginnen lassen",
  do_knight: "einen Ritter auf {sq} einsetzen", do_stack: "den Turm mit {n} nehmen", do_block: "einen Baustein auf {sq} setzen",
  do_buy: "eine Karte kaufen", do_keep_any: "die beste gezogene Karte behalten", do_keep: "{card} behalten",
  do_keep_top: "{cards} oben auf den Stapel", do_keep_bottom: "{cards} unter den Stapel",
  do_score: "1 Punkt vorziehen", do_end: "den Zug beenden", do_play: "{card} ausspielen", do_play_sq: "{card} auf {sq} ausspielen",
  do_play_move: "{card} ausspielen: {from}→{to}", do_play_lift: "{card} unter dem Ritter auf {sq} ausspielen, mit einem Baustein von {src}",
  and: "und",
  keep_where: "Wohin {card} kommt", keep_chosen: "behalten", keep_choose: "{card} behalten", keep_summary: "Ihre Wahl: {what}.",
  chooser_title: "Feld {sq}",
  seat_kind: "Platz {n}: Mensch oder Bot", seat_level: "Platz {n}: Stärke des Bots", seat_name: "Platz {n}: Name",
  record_file: "Datei mit der Spielaufzeichnung (JSON)", replay_prev: "Vorige Aktion", replay_next: "Nächste Aktion",
  replay_frames: "Aktionen", forget_game: "Dieses Spiel entfernen ({names})",
  game_heading: "Partie: {names}", home_heading: "Torres: im Browser spielen", card_playable: "jetzt spielbar",
  player_acting: "am Zug", replay_controls: "Steuerung der Wiederholung", new_game_form: "Neues Spiel",
  srv_no_seat: "Sie haben in diesem Spiel keinen Platz (öffnen Sie Ihren Einladungslink).", srv_not_your_turn: "Sie sind nicht am Zug.",
  srv_stale: "Das Spiel ist inzwischen weiter: die Ansicht wird aktualisiert.", srv_illegal: "Diese Aktion ist jetzt nicht erlaubt.",
  srv_cannot_undo: "Das lässt sich nicht zurücknehmen.", srv_over: "Das Spiel ist zu Ende.", srv_hint_failed: "Diesmal wurde kein Tipp gefunden.",
  srv_duplicate_id: "Diese Nachricht wurde schon verarbeitet.", srv_bad_message: "Der Server konnte die Nachricht nicht lesen.",
  srv_bad_token: "Der Zugangsschlüssel für diesen Platz passt nicht.", srv_too_large: "Die Nachricht war zu groß.", srv_too_many: "Zu viele Nachrichten auf einmal.",
  // der Spielplan (board.js, iso.js, boardkit.js)
  board_label_3d: "Spielplan, 3D", board_label_flat: "Spielplan, von oben", board_actions: "Aktionen auf dem Spielplan",
  board_view: "Ansicht des Spielplans", view_3d: "3D", view_flat: "Flach", rotate: "Drehen", rotate_title: "Den Spielplan eine Vierteldrehung drehen",
  board_keys: "Pfeiltasten: über die Felder (hoch: zur Reihe 8) · Enter oder Leertaste: ausführen · Esc: abbrechen · N / P: nächstes / voriges leuchtendes Feld",
  sq_level: "Ebene {n}", sq_ground: "Boden (Ebene 0)", sq_castle: "Burg mit Grundfläche {n}", sq_king_castle: "die Königsburg, Grundfläche {n}",
  sq_knight: "Ritter von {name} ({colour})", sq_king: "der König", sq_selected: "ausgewählt", sq_selectable: "kann ziehen: auswählen",
  sq_hint: "Tipp", sq_last: "von der letzten Aktion geändert", sq_tip: "{sq} · Ebene {n}",
  tgt_move: "hierher ziehen", tgt_block: "hier einen Baustein setzen", tgt_knight: "hier einen Ritter einsetzen", tgt_start: "Ihren Ritter hierhin setzen",
  tgt_king: "den König hierhin setzen", tgt_castle: "hier eine Burg gründen", tgt_card: "{card} hier ausspielen",
  tgt_pick: "{card} mit diesem Ritter spielen", tgt_choices: "{n} Möglichkeiten",
  mode_block: "Baustein setzen", mode_knight: "Ritter einsetzen",
  ann_knight: "Ritter auf {sq} ausgewählt: {n} Felder leuchten.", ann_mode: "{what}: {n} Felder leuchten.", ann_none: "Auswahl aufgehoben.",
  // the tutorial (tutorial.js)
  tut_title: "Einführung: Ihr erstes Spiel", tut_home_link: "Einführung", tut_home_text: "Neu bei Torres? Lernen Sie es in acht kurzen Lektionen auf dem Spielplan.",
  tut_intro: "Acht kurze Lektionen, jede auf einem kleinen Spielplan: Sie machen den Zug, und das Spiel sagt Ihnen, warum er geklappt hat oder nicht. Danach spielen Sie eine Partie gegen den Anfänger-Bot.",
  tut_start: "Erste Lektion beginnen", tut_continue: "Weiter: {title}", tut_done: "erledigt", tut_all: "Alle Lektionen",
  tut_lesson_of: "Lektion {n} von {m}", tut_task: "Ihre Aufgabe", tut_reset: "Noch einmal", tut_next: "Nächste Lektion",
  tut_no_lesson: "Diese Lektion gibt es nicht.", tut_you: "Ihnen", tut_blue: "Blau", tut_points: "endete die Phase jetzt: Sie {you}, Blau {blue}",
  tut_scores: "Stand: Sie {you}, Blau {blue}", tut_ap_one: "noch 1 Aktionspunkt", tut_ready_title: "Bereit für ein Spiel",
  tut_ready: "Ein Spiel beginnt damit, dass jeder einen Ritter auf eine Burg ohne Ritter stellt (klicken Sie ein leuchtendes Feld an), dann kommt der König auf eine weitere Burg. Danach in jedem Zug: einen Turm nehmen, Stufen neben Ihren Rittern bauen und hinaufklettern, neue Ritter auf Burgen bringen – große Burgen und die Königsburg bringen am meisten – und die übrigen AP für die Wertungsleiste ausgeben, bevor Sie „Zug beenden“ klicken. Klicken Sie eine Karte auf Ihrer Hand an, um zu sehen, was sie kann.",
  tut_play_beginner: "Eine Partie gegen den Anfänger-Bot spielen",
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

// where long card names may break (U+00AD, a soft hyphen): the names themselves stay whole for reading and search
const BREAKS = {
  de: { climb: "Klet\u00adtern", lift: "Unter\u00adbauen", diagonal: "Dia\u00adgo\u00adnal", shift: "Ver\u00adset\u00adzen",
    redeploy: "Um\u00adset\u00adzen", vault: "Über\u00adsprin\u00adgen" },
};

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
/** The card's name with soft hyphens where a long German name may break on a small card (for display only). */
export function cardNameWrapped(card) { return (BREAKS[lang] && BREAKS[lang][card]) || cardName(card); }
/** A copy of one language's table of strings (the tests compare the German pages against the English strings). */
export function strings(which) { return { ...(STRINGS[which] || EN) }; }
export function cardText(card) { return (CARDS[lang][card] || [card, ""])[1]; }
export function masterName(i) { return (MASTERS[lang][i] || ["?"])[0]; }
export function masterText(i) { return (MASTERS[lang][i] || ["", ""])[1]; }
export function editionName(e) { const s = t("edition_" + e); return s.startsWith("edition_") ? e : s; }
export function levelName(l) { const s = t("level_" + l); return s.startsWith("level_") ? l : s; }
export function speedName(s) { const v = t("speed_" + s); return v.startsWith("speed_") ? s : v; }
