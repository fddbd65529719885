import { describe, expect, it } from 'vitest';
import { cronFromText, nextRuns, resolveSchedule, ScheduleError, temporalCron } from './monitor-schedule.js';

describe('monitor schedules', () => {
  it.each([
    ['every 5 seconds', '*/5 * * * * *'],
    ['every minute', '* * * * *'],
    ['every 30 minutes', '*/30 * * * *'],
    ['Every  5 Minutes', '*/5 * * * *'],
    ['hourly', '0 * * * *'],
    ['every 6 hours', '0 */6 * * *'],
    ['daily', '0 0 * * *'],
    ['daily at 9am', '0 9 * * *'],
    ['every day at 21:05', '5 21 * * *'],
    ['weekly', '0 0 * * 1'],
    ['weekly on friday at 5:30pm', '30 17 * * 5'],
    ['every sunday at noon', '0 12 * * 0'],
    ['monthly', '0 0 1 * *'],
  ])('reads %j as %s', (text, cron) => {
    expect(cronFromText(text)).toBe(cron);
  });

  it('gives Temporal five-field crons as they are and six-field ones (seconds first) with a year', () => {
    expect(temporalCron('*/30 * * * *')).toBe('*/30 * * * *');
    expect(temporalCron('*/5 * * * * *')).toBe('*/5 * * * * * *');
    expect(resolveSchedule({ text: 'every 5 seconds' }, 5)).toEqual({ cron: '*/5 * * * * *', timezone: 'UTC', text: 'every 5 seconds' });
  });

  it.each(['every 0 seconds', 'every 60 seconds', 'every 0 minutes', 'every 90 minutes', 'daily at 25:00', 'every fortnight', 'sometimes'])('does not read %j', (text) => {
    expect(cronFromText(text)).toBeUndefined();
  });

  it('resolves text or cron in a timezone, and computes the next runs there', () => {
    expect(resolveSchedule({ text: 'daily at 9am', timezone: 'Europe/Berlin' }, 60)).toEqual({ cron: '0 9 * * *', timezone: 'Europe/Berlin', text: 'daily at 9am' });
    expect(resolveSchedule({ cron: '15  */2 * * *' }, 60)).toEqual({ cron: '15 */2 * * *', timezone: 'UTC' });
    expect(nextRuns('0 9 * * *', 'Europe/Berlin', 1, new Date('2026-06-01T00:00:00Z'))[0]!.toISOString()).toBe('2026-06-01T07:00:00.000Z');
  });

  it.each([
    [{ text: 'sometimes' }, 'schedule.text', /is not a schedule this server reads/],
    [{ cron: '* * * *' }, 'schedule.cron', /is not a five-field cron expression/],
    [{ cron: '61 * * * *' }, 'schedule.cron', /is not a valid cron expression/],
    [{ text: 'hourly', timezone: 'Mars/Olympus' }, 'schedule.timezone', /is not an IANA time zone/],
    [{ text: 'hourly', cron: '0 * * * *' }, 'schedule', /give exactly one of text and cron/],
    [{}, 'schedule', /give exactly one of text and cron/],
    [{ text: 'every 10 seconds' }, 'schedule.text', /runs every 10 s at the shortest; the minimum interval here is 300 s/],
    [{ text: 'every minute' }, 'schedule.text', /runs every 60 s at the shortest; the minimum interval here is 300 s/],
  ])('refuses %j naming %s', (schedule, field, message) => {
    const attempt = () => resolveSchedule(schedule, 300);
    expect(attempt).toThrow(ScheduleError);
    try {
      attempt();
    } catch (err) {
      expect((err as ScheduleError).field).toBe(field);
      expect((err as Error).message).toMatch(message);
    }
  });
});
