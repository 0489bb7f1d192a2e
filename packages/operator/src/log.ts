// Structured JSON logs (pino). One logger per operator instance (`replica` names it).
import { type Logger, pino } from 'pino';

export type { Logger };

/** A JSON logger at `level` writing to stdout (or silent in tests). */
export function createLogger(level: string, replica: string): Logger {
  return pino({ level, base: { component: 'kruise-ts-operator', replica } });
}
