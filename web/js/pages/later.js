// Every page but the catalogue: one chunk of the bundle, which routes.js fetches the first
// time one of them is visited (and in the background once the first page is in).

export * as lobby from './lobby.js';
export * as rules from './rules.js';
export * as games from './game.js';
export * as table from './table.js';
export * as profile from './profile.js';
export * as replay from './replay.js';
export * as analysis from './analysis.js';
export * as daily from './daily.js';
export * as playing from './playing.js';
export * as review from './review.js';
export * as player from './player.js';
export * as leaderboard from './leaderboard.js';
export * as bots from './bots.js';
export * as live from './live.js';
export * as tournaments from './tournaments.js';
export * as tournament from './tournament.js';
export * as challenges from './challenges.js';
