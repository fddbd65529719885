/**
 * A monitor's schedule: the hosted API's plain-language `text` or a five-field `cron`, in an IANA
 * `timezone`, checked (valid, not more often than MONITOR_MIN_INTERVAL_SECONDS) and turned into the
 * cron expression its Temporal Schedule runs on. cron-parser (well kept, timezone-aware) validates
 * expressions and computes the next runs.
 */
import { CronExpressionParser } from 'cron-parser';

export class ScheduleError extends Error {
  override name = 'ScheduleError';
  constructor(
    /** The request field at fault: schedule, schedule.text, schedule.cron or schedule.timezone. */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ResolvedSchedule {
  cron: string;
  timezone: string;
  text?: string;
}

const days = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const EXAMPLES = '"every 30 minutes", "hourly", "every 6 hours", "daily at 9am", "weekly on monday at 08:30", "monthly"';

/** `9am`, `9:30pm`, `21:05`, `noon`, `midnight` → [hour, minute]. */
function parseTime(text: string): [number, number] | undefined {
  if (text === 'noon') return [12, 0];
  if (text === 'midnight') return [0, 0];
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text);
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  if (m[3]) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 ? [hour, minute] : undefined;
}

/** The cron expression for a schedule in words, or undefined when it is not one we read. */
export function cronFromText(input: string): string | undefined {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const at = (rest: string | undefined, fallback: [number, number]): [number, number] | undefined => (rest ? parseTime(rest.trim()) : fallback);
  let m: RegExpExecArray | null;
  // Seconds (a six-field cron, seconds first) only pass a MONITOR_MIN_INTERVAL_SECONDS under 60.
  if ((m = /^every (\d+) seconds?$/.exec(text))) return Number(m[1]) >= 1 && Number(m[1]) <= 59 ? `*/${Number(m[1])} * * * * *` : undefined;
  if (text === 'every minute') return '* * * * *';
  if ((m = /^every (\d+) minutes?$/.exec(text))) return Number(m[1]) >= 1 && Number(m[1]) <= 59 ? (m[1] === '1' ? '* * * * *' : `*/${Number(m[1])} * * * *`) : undefined;
  if (text === 'hourly' || text === 'every hour') return '0 * * * *';
  if ((m = /^every (\d+) hours?$/.exec(text))) return Number(m[1]) >= 1 && Number(m[1]) <= 23 ? (m[1] === '1' ? '0 * * * *' : `0 */${Number(m[1])} * * *`) : undefined;
  if ((m = /^(?:daily|every day)(?: at (.+))?$/.exec(text))) {
    const time = at(m[1], [0, 0]);
    return time && `${time[1]} ${time[0]} * * *`;
  }
  if ((m = /^(?:weekly|every week)(?: on (\w+))?(?: at (.+))?$/.exec(text)) || (m = /^every (\w+day)(?: at (.+))?$/.exec(text))) {
    const day = m[1] ? days.indexOf(m[1]) : 1;
    const time = at(m[2], [0, 0]);
    return day >= 0 && time ? `${time[1]} ${time[0]} * * ${day}` : undefined;
  }
  if ((m = /^(?:monthly|every month)(?: at (.+))?$/.exec(text))) {
    const time = at(m[1], [0, 0]);
    return time && `${time[1]} ${time[0]} 1 * *`;
  }
  return undefined;
}

function checkTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ScheduleError('schedule.timezone', `${JSON.stringify(timezone)} is not an IANA time zone (e.g. UTC, Europe/Berlin, America/New_York)`);
  }
}

/**
 * The cron string a Temporal Schedule runs: five fields as they are; the six-field form with seconds
 * first (from "every N seconds") gets Temporal's seven-field form (seconds first, year last).
 */
export function temporalCron(cron: string): string {
  return cron.split(' ').length === 6 ? `${cron} *` : cron;
}

/** The next `count` run times of `cron` in `timezone`, after `from`. */
export function nextRuns(cron: string, timezone: string, count = 1, from = new Date()): Date[] {
  const expression = CronExpressionParser.parse(cron, { tz: timezone, currentDate: from });
  return Array.from({ length: count }, () => expression.next().toDate());
}

export function resolveSchedule(schedule: { text?: string; cron?: string; timezone?: string }, minIntervalSeconds: number): ResolvedSchedule {
  const timezone = schedule.timezone ?? 'UTC';
  checkTimezone(timezone);
  if ((schedule.text === undefined) === (schedule.cron === undefined)) throw new ScheduleError('schedule', 'give exactly one of text and cron');
  let cron: string;
  if (schedule.text !== undefined) {
    const fromText = cronFromText(schedule.text);
    if (!fromText) throw new ScheduleError('schedule.text', `${JSON.stringify(schedule.text)} is not a schedule this server reads; write it like ${EXAMPLES}, or give a cron expression`);
    cron = fromText;
  } else {
    cron = schedule.cron!.trim().replace(/\s+/g, ' ');
    if (cron.split(' ').length !== 5) throw new ScheduleError('schedule.cron', `${JSON.stringify(schedule.cron)} is not a five-field cron expression (minute hour day-of-month month day-of-week)`);
    try {
      CronExpressionParser.parse(cron, { tz: timezone, strict: false });
    } catch (err) {
      throw new ScheduleError('schedule.cron', `${JSON.stringify(schedule.cron)} is not a valid cron expression: ${(err as Error).message}`);
    }
  }
  // The shortest gap over the next runs (cron gaps vary: `*/45` runs at :00 and :45).
  const runs = nextRuns(cron, timezone, 60);
  const gapSeconds = Math.min(...runs.slice(1).map((t, i) => (t.getTime() - runs[i]!.getTime()) / 1000));
  if (gapSeconds < minIntervalSeconds) {
    throw new ScheduleError(schedule.text !== undefined ? 'schedule.text' : 'schedule.cron', `runs every ${gapSeconds} s at the shortest; the minimum interval here is ${minIntervalSeconds} s (MONITOR_MIN_INTERVAL_SECONDS)`);
  }
  return { cron, timezone, ...(schedule.text !== undefined ? { text: schedule.text } : {}) };
}
