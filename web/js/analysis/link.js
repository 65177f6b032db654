// The analysis board's address: #/analysis/GAME/VARIANT with the finished game it studies
// (record, and the token of a private one) or its start position, and the line played from
// there, moves separated by spaces. Every link to the board is made here.

export function analysisHref(game, variant, { record, token, position, line } = {}) {
  const q = new URLSearchParams();
  if (record) q.set('record', record);
  if (token) q.set('token', token);
  if (position && !record) q.set('position', position);
  if (line && line.length) q.set('line', line.join(' '));
  const qs = q.toString();
  return `#/analysis/${encodeURIComponent(game)}/${encodeURIComponent(variant)}${qs ? '?' + qs : ''}`;
}
