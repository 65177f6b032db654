// The web client's per-game data (web/js/registry/<game>.js: rules, diagrams, page texts and
// demonstrations) as Node reads it, for the tests that check it without a browser: the same
// reader the client's build uses.

export { GAMES_DIR, registeredGames, clientGames } from '../../web/build/registry.mjs';
