// Times as the DaemonSet rules compare them: the failed-pod back-off window (§5.5) and the surge
// wait for minReadySeconds (§5.2) subtract one time from another in seconds. Any text Date.parse
// reads counts (Go's zero time too, as a very old time); what it cannot read gives NaN, which
// each rule handles where it compares.

/** Seconds since the epoch of an RFC 3339 string or a Date; NaN when absent or unparsable. */
export function toEpochSeconds(t: string | Date | undefined | null): number {
  if (t === undefined || t === null) return Number.NaN;
  const ms = typeof t === 'string' ? Date.parse(t) : t.getTime();
  return Number.isFinite(ms) ? ms / 1000 : Number.NaN;
}
