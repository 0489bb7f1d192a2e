// JSON logs of the daemon (pino), with redaction of anything credential-shaped as a second line of
// defence: the daemon never logs a secret, and its code never passes one to the logger in the first place.
import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/** Keys whose values are always replaced by `[REDACTED]` wherever they appear (up to two levels). */
export const REDACTED_KEYS = [
  'auth',
  'password',
  'data',
  'stringData',
  'token',
  'dockerconfigjson',
  'credentials',
];

/** The redact paths pino is given for {@link REDACTED_KEYS}. */
export const REDACT_PATHS = REDACTED_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

/**
 * Creates the daemon's logger: JSON lines, `level` default `info`, written to `destination`
 * (default stdout), with {@link REDACT_PATHS} censored.
 */
export function createLogger(
  opts: { level?: string; destination?: DestinationStream; name?: string } = {},
): Logger {
  const options = {
    name: opts.name ?? 'kruise-daemon',
    level: opts.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}

/** A logger that writes nothing. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
