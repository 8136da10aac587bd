/**
 * How close two firings of a cron string can be, for every way Temporal lets a cron say it:
 * five, six and seven fields, `@every`, shorthands, a time-zone prefix and a comment.
 */
import { describe, expect, it } from 'vitest';
import { cronGap } from '../../src/temporal/schedules/cron-gap.js';

const MINUTE = 60_000;

describe('cronGap', () => {
  it.each([
    ['* * * * *', MINUTE],
    ['*/5 * * * *', 5 * MINUTE],
    ['5/15 * * * *', 15 * MINUTE],
    ['0,30 9 * * *', 30 * MINUTE],
    ['0 9 * * 1-5', 24 * 60 * MINUTE],
    ['0 9 * * * 2099', 24 * 60 * MINUTE],
    ['* * * * * * *', 1_000],
    ['*/10 * * * * * *', 10_000],
    ['0 0 * * * * *', 60 * MINUTE],
    ['@every 1s', 1_000],
    ['@every 500ms', 500],
    ['@every 1h/5m', 60 * MINUTE],
    ['@hourly', 60 * MINUTE],
    ['@daily', 24 * 60 * MINUTE],
    ['CRON_TZ=Europe/Paris * * * * *', MINUTE],
    ['0 9 * * * # every morning', 24 * 60 * MINUTE],
    // Midnight counts: 23:00 and 00:00 of the next day are an hour apart.
    ['0 0,23 * * *', 60 * MINUTE],
  ])('%s fires at most every %d ms', (cron, ms) => {
    expect(cronGap(cron)).toEqual({ kind: 'gap', ms });
  });

  it('refuses time fields it cannot read, and leaves what is not a cron to Temporal', () => {
    expect(cronGap('L * * * *')).toMatchObject({ kind: 'unreadable' });
    expect(cronGap('*/0 * * * *')).toMatchObject({ kind: 'unreadable' });
    expect(cronGap('61 * * * *')).toMatchObject({ kind: 'unreadable' });
    expect(cronGap('every tuesday at noon')).toEqual({ kind: 'not-cron' });
    expect(cronGap('@reboot')).toEqual({ kind: 'not-cron' });
  });
});
