/**
 * A small structured logger: one JSON object per line on stdout. Values of secret settings and
 * bearer tokens are masked before printing, wherever they appear in a message.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
const rank: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function createLogger(options: {
  name: string;
  level?: Level;
  secrets?: readonly (string | undefined)[];
  write?: (line: string) => void;
  base?: Record<string, unknown>;
}): Logger {
  const min = rank[options.level ?? 'info'];
  const secrets = (options.secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= 8);
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const mask = (text: string) => {
    let out = text.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]').replace(/\bpw_[A-Za-z0-9_-]{32}\b/g, 'pw_[redacted]');
    for (const s of secrets) out = out.split(s).join('[redacted]');
    return out;
  };
  const emit = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (rank[level] < min) return;
    const record = { time: new Date().toISOString(), level, name: options.name, msg, ...options.base, ...fields };
    write(mask(JSON.stringify(record, (_k, v: unknown) => (v instanceof Error ? { message: v.message, name: v.name } : v))));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger({ ...options, base: { ...options.base, ...fields } }),
  };
}
