/** Maps as the engine fills them: a value computed on first use, the inner maps of a nested map. */

/**
 * The value at `key`, computed and inserted on first use (TC39's `Map.prototype.getOrInsertComputed`, which Node 20
 * lacks). `compute` runs before the insert, so it may make room in the map (a bounded memo clears itself there).
 */
export function getOrInsertComputed<K, V>(map: Map<K, V>, key: K, compute: (key: K) => V): V {
  const known = map.get(key);
  if (known !== undefined) return known;
  const value = compute(key);
  map.set(key, value);
  return value;
}

/** A named function rather than a closure per call: the ledger asks for inner maps on every row. */
function emptyMap<K, V>(): Map<K, V> {
  return new Map();
}

/** The inner map of a nested map, created on first use (nested maps spare 100k rows a string key each). */
export function innerMap<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  return getOrInsertComputed(outer, key, emptyMap<string, V>);
}
